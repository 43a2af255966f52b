"""A payment's receipt as a PDF (reportlab), for the member's page and the receipt mail.
Labels follow the active language; the numbers are localised. (The receipt number is given
when the payment is recorded, ``federation.services``.) While the invoice is not paid in
full, the receipt says what is still outstanding, with the bank-transfer QR code for it."""

from __future__ import annotations

import io

from django.utils import formats
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A5, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from core.dates import date_display
from core.pdf_fonts import font_for, letterhead
from federation import selectors
from federation.invoice_pdf import QR_SIZE, draw_payment_qr
from federation.models import Payment


def receipt_pdf(payment: Payment) -> bytes:
    invoice = payment.invoice
    buffer = io.BytesIO()
    width, height = landscape(A5)
    pdf = canvas.Canvas(buffer, pagesize=(width, height))
    font = letterhead(pdf, _("Receipt %(number)s") % {"number": payment.receipt_number}, height)
    rows = [
        (_("Received from"), invoice.billed_name),
        (_("Date"), date_display(payment.paid_on, "SHORT_DATE_FORMAT")),
        (_("Amount"), f"{formats.number_format(payment.amount, 2)} {invoice.currency}"),
        (_("For"), invoice.purpose_label()),
        (_("Invoice"), invoice.number),
        (_("Method"), payment.get_method_display()),
        (_("Reference"), payment.reference),
    ]
    outstanding = selectors.invoice_balance(invoice).outstanding
    if outstanding > 0 and not invoice.cancelled and payment.reversed_at is None:
        rows.append((_("Outstanding"),
                     f"{formats.number_format(outstanding, 2)} {invoice.currency}"))
    y = height - 50 * mm
    for label, value in rows:
        for x, text in ((20 * mm, str(label)), (70 * mm, str(value))):
            pdf.setFont(font_for(text, font), 11)
            pdf.drawString(x, y, text)
        y -= 8 * mm
    if outstanding > 0 and payment.reversed_at is None:
        draw_payment_qr(pdf, invoice, outstanding, width - 20 * mm - QR_SIZE,
                        height - 25 * mm - QR_SIZE)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()
