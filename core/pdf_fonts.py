"""The fonts of the site's PDFs (membership receipts, tournament results sheets).

Names are in Latin, Cyrillic or Chinese script: Latin and Cyrillic text is set in a
Unicode TrueType font when the system has one (DejaVu Sans), Chinese text in one of the
Adobe Asian fonts every PDF reader provides. Imports no app.
"""

from __future__ import annotations

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont

FONT_CANDIDATES = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
]
UNICODE_FONT = "UnicodeFont"  # the name the TrueType font is registered under
CJK_FONT = "STSong-Light"


def unicode_font() -> str:
    """A Unicode TrueType font when the system has one (Cyrillic names), else Helvetica."""
    if UNICODE_FONT in pdfmetrics.getRegisteredFontNames():
        return UNICODE_FONT
    for path in FONT_CANDIDATES:
        try:
            pdfmetrics.registerFont(TTFont(UNICODE_FONT, path))
            return UNICODE_FONT
        except Exception:  # font missing or unreadable: fall back
            continue
    return "Helvetica"


def _has_cjk(text: str) -> bool:
    return any("\u2e80" <= char <= "\u9fff" or "\uff00" <= char <= "\uffef" for char in text)


def font_for(text: str, latin_cyrillic_font: str) -> str:
    """The font for ``text``: Chinese text (labels in zh-hans, names in Chinese script)
    needs a CJK font, any other the Latin and Cyrillic one given."""
    if _has_cjk(text):
        if CJK_FONT not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(UnicodeCIDFont(CJK_FONT))
        return CJK_FONT
    return latin_cyrillic_font


def letterhead(pdf, title: str, page_height: float) -> str:
    """Title the PDF document and draw the federation's heading and ``title`` at the top of
    the page; the Latin and Cyrillic font, for what the caller draws next."""
    from django.utils.translation import gettext as _
    from reportlab.lib.units import mm

    pdf.setTitle(title)
    font = unicode_font()
    heading = _("Mahjong Federation")
    pdf.setFont(font_for(heading, font), 18)
    pdf.drawString(20 * mm, page_height - 25 * mm, heading)
    pdf.setFont(font_for(title, font), 14)
    pdf.drawString(20 * mm, page_height - 35 * mm, title)
    return font
