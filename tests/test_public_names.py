"""The public classes print their public names (``<class 'autograd_tutor.Tensor'>``, as torch prints
``<class 'torch.Tensor'>``), and everything that finds a class by its name still finds it: pickle and
``torch.save``, ``copy.deepcopy``, ``inspect.getsource`` of their methods (lesson 8 shows them) and the doctests."""
import copy
import doctest
import inspect
import pickle

import pytest

import autograd_tutor as torch
from autograd_tutor.autograd import function, tensor as tensor_module


@pytest.mark.parametrize("value, name", [
    (torch.ones(1), "<class 'autograd_tutor.Tensor'>"),
    (torch.Size([2]), "<class 'autograd_tutor.Size'>"),
    (torch.float32, "<class 'autograd_tutor.dtype'>"),
    (torch.device("cpu"), "<class 'autograd_tutor.device'>"),
    (torch.ones(2, 2).max(0), "<class 'autograd_tutor.return_types.max'>"),
    (torch.nn.Parameter(torch.ones(1)), "<class 'autograd_tutor.nn.parameter.Parameter'>"),
    (torch.nn.Linear(1, 1), "<class 'autograd_tutor.nn.modules.linear.Linear'>"),
])
def test_type_prints_the_public_name(value, name):
    assert str(type(value)) == name
    assert "autograd_tutor.autograd" not in str(type(value))


def test_function_base_has_its_public_name():
    assert str(torch.autograd.Function) == "<class 'autograd_tutor.autograd.Function'>"


@pytest.mark.parametrize("value", [torch.ones(2), torch.Size([2, 3]), torch.float64, torch.device("cpu"),
                                   torch.tensor([3., 1.]).sort(), torch.nn.Parameter(torch.ones(2))],
                         ids=["Tensor", "Size", "dtype", "device", "return_types", "Parameter"])
def test_pickle_and_deepcopy_find_the_class_by_its_public_name(value):
    for again in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value)):
        assert type(again) is type(value)
        assert repr(again) == repr(value)


def test_torch_save_and_load_keep_tensors_and_modules(tmp_path):
    model = torch.nn.Linear(2, 1)
    torch.save({"x": torch.arange(3.), "state": model.state_dict()}, tmp_path / "f.pt")
    loaded = torch.load(tmp_path / "f.pt")
    assert type(loaded["x"]) is torch.Tensor and torch.equal(loaded["x"], torch.arange(3.))
    assert torch.equal(loaded["state"]["weight"], model.weight.detach())


def test_getsource_reads_the_engine_as_lesson_8_does():
    assert "def _make(" in inspect.getsource(torch.Tensor._make)
    assert "def apply(" in inspect.getsource(function.Function.apply)
    assert inspect.getsourcefile(torch.Tensor._make) == tensor_module.__file__


def test_the_doctests_are_still_found():
    """Moving a class's __module__ must not lose the examples: the module's and its functions' are found there."""
    found = doctest.DocTestFinder().find(tensor_module)
    assert any(t.examples for t in found if t.name.endswith("tensor")), [t.name for t in found]
    assert any(t.name.endswith("_broadcast_shape") for t in found)
