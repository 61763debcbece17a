"""How wide a text is, before any browser draws it: advance widths of DejaVu Sans, the font we draw with.

The layout sizes every node box and every edge label from these widths, so text fits its box in the SVG, the
widget and matplotlib alike (DejaVu Sans is matplotlib's default font and what ``system-ui`` / ``sans-serif``
resolve to on most Linux desktops; Verdana, next in our font list, has nearly the same widths). The numbers are
the fonts' own advance widths in thousandths of an em, read once with matplotlib's FreeType bindings
(``FT2Font.load_char(c).linearHoriAdvance``); ``tests/test_viz_geometry.py`` reads them again and compares.
A character outside the table counts as one em (wider than any in it), so an estimate is never too small.

>>> text_width("MulBackward0", 12, bold=True) > text_width("MulBackward0", 12) > 0
True
>>> text_width("1.5", 10)  # "1" and "5" are 0.636 em wide, "." 0.318 em
15.9
"""
from __future__ import annotations

__all__ = ["text_width", "ASCENT", "DESCENT", "FONT"]

#: The font stack every renderer names; the widths below are the first one's.
FONT = "'DejaVu Sans', Verdana, 'Bitstream Vera Sans', sans-serif"
#: The font's ascender and descender, in em (DejaVu Sans: 1901 and 483 of 2048 units).
ASCENT, DESCENT = 1901 / 2048, 483 / 2048

_CHARS = ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~…×·−→∂²³≈'
_REGULAR = [
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636,
    636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656,
    557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613,
    635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818,
    592, 592, 525, 636, 337, 636, 838, 1000, 838, 318, 838, 838, 517, 401, 401, 838
]
_BOLD = [
    348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696, 696,
    696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775,
    637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675,
    716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924,
    645, 652, 582, 712, 365, 712, 838, 1000, 838, 380, 838, 838, 544, 438, 438, 838
]
_WIDTHS = {False: dict(zip(_CHARS, _REGULAR)), True: dict(zip(_CHARS, _BOLD))}


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width in pixels of ``text`` set in DejaVu Sans at ``size`` px (``bold``: weight 600 or more)."""
    widths = _WIDTHS[bold]
    return sum(widths.get(c, 1000) for c in text) * size / 1000
