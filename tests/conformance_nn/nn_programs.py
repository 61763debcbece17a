"""Program text shared by the nn and optim conformance cases."""

#: Program text both libraries run first: ``set_weights`` fills a model from NumPy, so torch and autograd_tutor
#: start from the same numbers.
SET_WEIGHTS = """
nn, F = torch.nn, torch.nn.functional
def set_weights(model, seed=0):
    rng = np.random.default_rng(seed)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape)).astype(np.float32)))
    return model
"""
