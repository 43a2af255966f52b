"""A payment's receipt as a PDF (reportlab), for the member's page and the receipt mail.
Labels follow the active language; the numbers are localised. (The receipt number is given
when the payment is recorded, ``federation.services``.)"""

from __future__ import annotations

import io

from django.utils import formats
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A5, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from core.pdf_fonts import font_for, unicode_font
from federation.models import Payment


def receipt_pdf(payment: Payment) -> bytes:
    invoice = payment.invoice
    buffer = io.BytesIO()
    width, height = landscape(A5)
    pdf = canvas.Canvas(buffer, pagesize=(width, height))
    title = _("Receipt %(number)s") % {"number": payment.receipt_number}
    pdf.setTitle(title)
    font = unicode_font()
    heading = _("Mahjong Federation")
    pdf.setFont(font_for(heading, font), 18)
    pdf.drawString(20 * mm, height - 25 * mm, heading)
    pdf.setFont(font_for(title, font), 14)
    pdf.drawString(20 * mm, height - 35 * mm, title)
    rows = [
        (_("Received from"), invoice.billed_name),
        (_("Date"), formats.date_format(payment.paid_on, "SHORT_DATE_FORMAT")),
        (_("Amount"), f"{formats.number_format(payment.amount, 2)} {invoice.currency}"),
        (_("For"), invoice.purpose_label()),
        (_("Invoice"), invoice.number),
        (_("Method"), payment.get_method_display()),
        (_("Reference"), payment.reference),
    ]
    y = height - 50 * mm
    for label, value in rows:
        for x, text in ((20 * mm, str(label)), (70 * mm, str(value))):
            pdf.setFont(font_for(text, font), 11)
            pdf.drawString(x, y, text)
        y -= 8 * mm
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()
