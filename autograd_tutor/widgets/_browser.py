"""What the browser may change: a widget's ``set_state`` that takes only the traits it allows, checked.

ipywidgets applies every ``update`` message from the front end to the Python traits (``Widget.set_state``),
so by default any synced trait (a quiz's ``score``) can be set by a script in the page. The widgets here
override ``set_state`` with :func:`take_from_browser`: a trait listed in ``allowed`` is applied when its
value passes the check; any other trait, or a value that fails, is not applied, and Python's own value is
sent back so the browser's copy does not keep the change either. :class:`Button` is ipywidgets' button with
no trait the browser may set, whose click message does nothing while it is disabled.

>>> import ipywidgets
>>> box = ipywidgets.IntText(3)
>>> take_from_browser(box, {"value": 7, "disabled": True}, {"value": lambda v: is_int(v) and 0 <= v <= 10})
>>> box.value, box.disabled
(7, False)
"""
from __future__ import annotations

import math

import ipywidgets
from ipywidgets import Widget

__all__ = ["take_from_browser", "is_int", "is_number", "Button"]


def is_int(value) -> bool:
    """A JSON integer (``True`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value) -> bool:
    """A JSON integer, or a finite JSON float (ipywidgets' JSON reader takes ``NaN`` and ``Infinity``)."""
    return is_int(value) or (isinstance(value, float) and math.isfinite(value))


def take_from_browser(widget, sync_data, allowed: dict) -> None:
    """Apply the browser's ``sync_data`` to ``widget`` for the traits in ``allowed`` (name -> check of the
    value, which must accept any JSON value without raising) whose value passes; send Python's value back
    for every other synced trait it names."""
    if not isinstance(sync_data, dict):
        return
    taken, refused = {}, []
    for name, value in sync_data.items():
        if name not in widget.keys:
            continue
        check = allowed.get(name)
        if check is not None and check(value):
            taken[name] = value
        else:
            refused.append(name)
    if taken:
        Widget.set_state(widget, taken)  # ipywidgets' own: echo, property lock, trait notifications
    if refused:
        widget.send_state(refused)


class Button(ipywidgets.Button):
    """An ipywidgets button for which Python alone decides: a ``click`` message runs the ``on_click``
    callbacks only while the button is enabled, a message of any other shape is ignored, and the browser
    cannot change a trait (``disabled`` included). ``click()`` from Python still runs the callbacks."""

    def set_state(self, sync_data) -> None:
        take_from_browser(self, sync_data, {})

    def _handle_button_msg(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("event") == "click" and not self.disabled:
            self.click()
