"""PDF receipts (reportlab). Labels follow the active language; the numbers are localised."""

from __future__ import annotations

import io

from django.utils import formats
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A5, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from federation.models import Payment

FONT_CANDIDATES = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
]


def _font() -> str:
    """A Unicode TrueType font when the system has one (Cyrillic names), else Helvetica."""
    if "ReceiptFont" in pdfmetrics.getRegisteredFontNames():
        return "ReceiptFont"
    for path in FONT_CANDIDATES:
        try:
            pdfmetrics.registerFont(TTFont("ReceiptFont", path))
            return "ReceiptFont"
        except Exception:  # font missing or unreadable: fall back
            continue
    return "Helvetica"


CJK_FONT = "STSong-Light"  # one of the Adobe Asian fonts every PDF reader provides


def _has_cjk(text: str) -> bool:
    return any("\u2e80" <= char <= "\u9fff" or "\uff00" <= char <= "\uffef" for char in text)


def _font_for(text: str, latin_cyrillic_font: str) -> str:
    """Chinese text (labels in zh-hans, names in Chinese script) needs a CJK font."""
    if _has_cjk(text):
        if CJK_FONT not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(UnicodeCIDFont(CJK_FONT))
        return CJK_FONT
    return latin_cyrillic_font


def receipt_pdf(payment: Payment) -> bytes:
    invoice = payment.invoice
    buffer = io.BytesIO()
    width, height = landscape(A5)
    pdf = canvas.Canvas(buffer, pagesize=(width, height))
    title = _("Receipt %(number)s") % {"number": payment.receipt_number}
    pdf.setTitle(title)
    font = _font()
    heading = _("Mahjong Federation")
    pdf.setFont(_font_for(heading, font), 18)
    pdf.drawString(20 * mm, height - 25 * mm, heading)
    pdf.setFont(_font_for(title, font), 14)
    pdf.drawString(20 * mm, height - 35 * mm, title)
    rows = [
        (_("Received from"), invoice.billed_name),
        (_("Date"), formats.date_format(payment.paid_on, "SHORT_DATE_FORMAT")),
        (_("Amount"), f"{formats.number_format(payment.amount, 2)} {invoice.currency}"),
        (_("For"), _("Membership dues %(year)s") % {"year": invoice.membership_year.year}),
        (_("Invoice"), invoice.number),
        (_("Method"), payment.get_method_display()),
        (_("Reference"), payment.reference),
    ]
    y = height - 50 * mm
    for label, value in rows:
        for x, text in ((20 * mm, str(label)), (70 * mm, str(value))):
            pdf.setFont(_font_for(text, font), 11)
            pdf.drawString(x, y, text)
        y -= 8 * mm
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()
