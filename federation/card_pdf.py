"""The membership card as a PDF the size of a bank card (ID-1, 85.6 x 54 mm): the federation,
the member's names, number, club, valid-until date and the QR code of the public check page.
Labels follow the active language; the date is localised."""

from __future__ import annotations

import io
from datetime import date

from django.utils.translation import gettext as _
from reportlab.graphics import renderPDF
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from core.dates import date_display
from core.pdf_fonts import font_for, unicode_font
from federation.models import Member

CARD_SIZE = (85.6 * mm, 54 * mm)
QR_SIZE = 26 * mm


def card_pdf(member: Member, *, check_url: str, valid_until: date | None, status_label: str) -> bytes:
    buffer = io.BytesIO()
    width, height = CARD_SIZE
    pdf = canvas.Canvas(buffer, pagesize=CARD_SIZE)
    pdf.setTitle(_("Membership card"))
    font = unicode_font()

    def text(x: float, y: float, value: str, size: float) -> None:
        pdf.setFont(font_for(value, font), size)
        pdf.drawString(x, y, value)

    pdf.setStrokeColorRGB(0.6, 0.6, 0.6)
    pdf.roundRect(1 * mm, 1 * mm, width - 2 * mm, height - 2 * mm, 3 * mm)
    text(5 * mm, height - 8 * mm, str(_("Mahjong Federation")), 9)
    text(5 * mm, height - 13 * mm, str(_("Membership card")), 7)
    y = height - 21 * mm
    for line in dict.fromkeys(filter(None, [member.name_native, member.name_latin])):
        text(5 * mm, y, line, 10)
        y -= 5 * mm
    rows = [
        (_("Membership number"), member.display_number),
        (_("Club"), member.club.name if member.club else "—"),
        (_("Valid until"),
         date_display(valid_until, "SHORT_DATE_FORMAT") if valid_until else status_label),
    ]
    y -= 1 * mm
    for label, value in rows:
        text(5 * mm, y, f"{label}: {value}", 6.5)
        y -= 4 * mm
    qr = QrCodeWidget(check_url, barLevel="M")
    x0, y0, x1, y1 = qr.getBounds()
    drawing = Drawing(QR_SIZE, QR_SIZE,
                      transform=[QR_SIZE / (x1 - x0), 0, 0, QR_SIZE / (y1 - y0), 0, 0])
    drawing.add(qr)
    renderPDF.draw(drawing, pdf, width - QR_SIZE - 3 * mm, height - QR_SIZE - 10 * mm)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()
