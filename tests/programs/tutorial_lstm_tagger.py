# Source: after PyTorch's tutorial "Sequence Models and LSTM Networks" (nn.LSTM stepped by hand, then an LSTM part-of-speech tagger trained with NLLLoss and SGD), on sentences typed here.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(1)

# An LSTM fed one element at a time carries (h, c) along; fed the whole sequence it gives the same last state.
lstm = nn.LSTM(3, 3)
print(lstm)
steps = [torch.randn(1, 3) for _ in range(5)]
state = (torch.randn(1, 1, 3), torch.randn(1, 1, 3))
first = state
for x in steps:
    out, state = lstm(x.view(1, 1, -1), state)
whole, whole_state = lstm(torch.cat(steps).view(len(steps), 1, -1), first)
print("outputs", tuple(whole.shape), "h_n", tuple(whole_state[0].shape), "c_n", tuple(whole_state[1].shape))
print("last state equal:", torch.allclose(state[0], whole_state[0]), torch.allclose(state[1], whole_state[1]))
print(whole_state[0])

sentences = [("the cat chased a mouse".split(), ["DET", "NN", "V", "DET", "NN"]),
             ("everybody likes that song".split(), ["NN", "V", "DET", "NN"]),
             ("a dog read the paper".split(), ["DET", "NN", "V", "DET", "NN"])]
word_to_ix, tag_to_ix = {}, {"DET": 0, "NN": 1, "V": 2}
for words, _ in sentences:
    for w in words:
        word_to_ix.setdefault(w, len(word_to_ix))
print(len(word_to_ix), "words")


def as_indices(items, table):
    return torch.tensor([table[i] for i in items], dtype=torch.long)


class Tagger(nn.Module):
    def __init__(self, embedding_dim, hidden_dim, vocab_size, tagset_size):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim)
        self.to_tags = nn.Linear(hidden_dim, tagset_size)

    def forward(self, sentence):
        embedded = self.embeddings(sentence)
        out, _ = self.lstm(embedded.view(len(sentence), 1, -1))
        return F.log_softmax(self.to_tags(out.view(len(sentence), -1)), dim=1)


model = Tagger(6, 6, len(word_to_ix), len(tag_to_ix))
print(model)
print([(name, tuple(p.shape)) for name, p in model.lstm.named_parameters()])
loss_function = nn.NLLLoss()
optimizer = optim.SGD(model.parameters(), lr=0.1)

with torch.no_grad():
    print("before:", model(as_indices(sentences[0][0], word_to_ix)).argmax(dim=1).tolist())

for epoch in range(30):
    total = 0.0
    for words, tags in sentences:
        model.zero_grad()
        scores = model(as_indices(words, word_to_ix))
        loss = loss_function(scores, as_indices(tags, tag_to_ix))
        loss.backward()
        optimizer.step()
        total += loss.item()
    if epoch % 5 == 0:
        print(f"epoch {epoch:2d} loss {total:.4f}")

with torch.no_grad():
    scores = model(as_indices(sentences[0][0], word_to_ix))
    print(scores)
    print("after:", scores.argmax(dim=1).tolist(), "want", as_indices(sentences[0][1], tag_to_ix).tolist())
