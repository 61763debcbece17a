"""The visual vocabulary shared by the SVG, the matplotlib drawing and the widget's CSS.

Colours come from the Okabe-Ito palette, which stays distinct under the common colour-vision deficiencies,
and no meaning rests on colour alone: each node kind also has its own shape and outline style.

=========  =====================  ==================  ===================
kind       shape                  outline             colour
=========  =====================  ==================  ===================
leaf       pill (rounded ends)    double line         blue ``#0072B2``
op         rectangle              single solid line   orange ``#E69F00``
constant   rectangle              dashed line         grey ``#6E6E6E``
collapsed  stacked rectangles     single solid line   reddish purple
group      rounded rectangle      thick line, a tab   bluish green (a module call's nodes as one box)
=========  =====================  ==================  ===================

Edges along which a gradient can flow are solid; edges from constants are dashed and grey. Gradient values
are written in vermillion ``#D55E00``. Saved tensors read plain when saved, struck out when freed, and bold
bluish green when kept by ``retain_graph=True``.
"""
from __future__ import annotations

__all__ = ["PALETTE", "KINDS", "SAVED_STATES", "LEGEND", "GROUP_LEGEND"]

PALETTE = {
    "leaf": ("#0072B2", "#E1EFF8"),      # (stroke, fill)
    "op": ("#E69F00", "#FDF1D6"),
    "constant": ("#6E6E6E", "#F2F2F2"),
    "collapsed": ("#CC79A7", "#F8E6EF"),
    "group": ("#009E73", "#E4F4EE"),
    "grad": "#D55E00",
    "kept": "#009E73",
    "freed": "#8A8A8A",
    "edge": "#555555",
    "data_edge": "#9A9A9A",
    "text": "#1A1A1A",
    "muted": "#5A5A5A",
    "active": "#000000",
}

#: What each kind is called in legends and tables.
KINDS = {
    "leaf": "leaf (requires grad)",
    "op": "result (grad_fn)",
    "constant": "constant (no grad)",
    "collapsed": "repeated, collapsed",
    "group": "module call",
}

SAVED_STATES = {"saved": "saved", "freed": "freed by backward", "kept": "kept (retain_graph=True)"}

#: Legend entries: (kind, label) in drawing order.
LEGEND = [("leaf", "leaf tensor (AccumulateGrad)"), ("op", "result: grad_fn"), ("constant", "no grad"),
          ("collapsed", "repeated, collapsed")]
#: The legend entry of a module group, shown when a drawing has closed groups.
GROUP_LEGEND = ("group", "module call (its nodes in one box)")

