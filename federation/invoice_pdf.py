"""An invoice as a PDF (reportlab), for the member's invoice page: what is owed, how to pay
it and the bank-transfer QR code (the Russian unified payment code for roubles, the EPC
code for euros; federation.payment_providers.payment_qr). Labels follow the active
language; the numbers are localised."""

from __future__ import annotations

import io
from decimal import Decimal

from django.utils import formats
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader, simpleSplit
from reportlab.pdfgen import canvas

from core.dates import date_display
from core.pdf_fonts import font_for, letterhead, unicode_font
from federation import selectors
from federation.models import DuesInvoice
from federation.payment_providers import BankTransferProvider, payment_qr_png

QR_SIZE = 45 * mm


def draw_payment_qr(pdf: canvas.Canvas, invoice: DuesInvoice, amount: Decimal, x: float,
                    y: float) -> bool:
    """The invoice's bank-transfer QR code for ``amount``, its lower left corner at (x, y);
    False when there is none to draw."""
    png = payment_qr_png(invoice, amount) if amount > 0 and not invoice.cancelled else b""
    if not png:
        return False
    pdf.drawImage(ImageReader(io.BytesIO(png)), x, y, QR_SIZE, QR_SIZE)
    caption = _("Scan with your banking app to fill in the transfer.")
    pdf.setFont(font_for(caption, unicode_font()), 8)
    pdf.drawString(x, y - 4 * mm, caption)
    return True


VALUE_X = 95 * mm


def _rows(pdf: canvas.Canvas, rows: list[tuple[str, str]], y: float, font: str) -> float:
    """Label and value side by side; a long value (the purpose) wraps in its column."""
    for label, value in rows:
        label, value = str(label), str(value)
        pdf.setFont(font_for(label, font), 10)
        pdf.drawString(20 * mm, y, label)
        value_font = font_for(value, font)
        pdf.setFont(value_font, 10)
        for line in simpleSplit(value, value_font, 10, A4[0] - VALUE_X - 20 * mm):
            pdf.drawString(VALUE_X, y, line)
            y -= 5 * mm
        y -= 1.5 * mm
    return y


def invoice_pdf(invoice: DuesInvoice) -> bytes:
    balance = selectors.invoice_balance(invoice)
    buffer = io.BytesIO()
    _width, height = A4
    pdf = canvas.Canvas(buffer, pagesize=A4)
    font = letterhead(pdf, _("Invoice %(number)s") % {"number": invoice.number}, height)
    money = f"{{}} {invoice.currency}"
    rows = [
        (_("Billed to"), invoice.billed_name),
        (_("For"), invoice.purpose_label()),
        (_("Issued on"), date_display(invoice.issued_on, "SHORT_DATE_FORMAT")),
        *([(_("Due date"), date_display(invoice.due_on, "SHORT_DATE_FORMAT"))]
          if invoice.due_on else []),
        (_("Amount"), money.format(formats.number_format(invoice.amount, 2))),
        (_("Amount paid"), money.format(formats.number_format(balance.paid, 2))),
        (_("Outstanding"), money.format(formats.number_format(balance.outstanding, 2))),
    ]
    y = _rows(pdf, rows, height - 50 * mm, font)
    if balance.outstanding > 0 and not invoice.cancelled:
        how = BankTransferProvider().instructions(invoice)
        y -= 4 * mm
        pdf.setFont(font_for(str(how.title), font), 12)
        pdf.drawString(20 * mm, y, str(how.title))
        y = _rows(pdf, [(str(label), value or "—") for label, value in how.details],
                  y - 8 * mm, font)
        draw_payment_qr(pdf, invoice, balance.outstanding, 20 * mm, y - QR_SIZE - 2 * mm)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()
