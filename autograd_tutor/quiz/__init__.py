"""Quizzes: hand-written banks (JSON, validated on load), jupyterquiz imports, and questions generated from
the learner's own graph. Answers are checked in Python against salted hashes; nothing here imports a widget
library (the interactive view is ``autograd_tutor.widgets.QuizWidget``).

>>> import autograd_tutor as torch
>>> from autograd_tutor.quiz import load_bank, quiz_from
>>> a = torch.tensor(3., requires_grad=True); b = torch.tensor(4.)
>>> d = a * b + a
>>> quiz = quiz_from(d)
>>> quiz.check("grad-value", "5").correct, quiz.score
(True, 1)
>>> len(load_bank("lesson1"))
6
"""
from .banks import bank_names, import_jupyterquiz, load_bank
from .generate import quiz_from
from .gradients import check_gradients, which_grad_fn_none, who_gets_grad
from .model import CATEGORIES, KINDS, Feedback, Question, Quiz
from .schema import BankError

__all__ = ["Quiz", "Question", "Feedback", "KINDS", "CATEGORIES", "quiz_from", "load_bank", "bank_names",
           "import_jupyterquiz", "BankError", "who_gets_grad", "which_grad_fn_none", "check_gradients"]
