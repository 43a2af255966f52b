"""The final results sheet (Appendix 7) and the tables' QR codes as PDFs, with reportlab."""

from __future__ import annotations

import io
from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from core.dates import date_display
from core.pdf_fonts import font_for, unicode_font

from .models import Tournament
from .selectors import table_points_number


def _fmt(value: Any) -> str:
    if value is None or value == "":
        return ""
    return str(formats.number_format(value, use_l10n=True))


def standings_rules(tournament: Tournament) -> list[str]:
    """The ranking rules the standings page lists, in the same words (none for a
    tournament imported from its final ranking)."""
    if tournament.results_kind == "final":
        return []
    rules = [_("Ranked by table points, then by game points after penalties (3.10.1); "
               "players equal on both share the rank.")]
    if tournament.withdrawn_ranking == "unranked":
        rules.append(_("A player who withdraws keeps the sessions already played and is not "
                       "ranked."))
    else:
        rules.append(_("A player who withdraws keeps the sessions already played and is "
                       "ranked below every player who finished, in the order of their own "
                       "points."))
    rules.append(_("Substitutes fill a table so that the others can play: they count for the "
                   "tournament's size but are neither ranked nor rated."))
    rules.append(_("Deducted penalties are taken from the game points after the table points "
                   "are given (3.11.2); transferred penalties move game points between the "
                   "players of a table."))
    if tournament.absent_score == "fixed":
        rules.append(_("For a session missed, a player gets a fixed score: table points "
                       "%(tp)s, game points %(gp)s.") % {"tp": tournament.absent_table_points,
                                                         "gp": tournament.absent_game_points})
    else:
        rules.append(_("For a session missed, a player gets nothing: no table points and no "
                       "game points."))
    return rules


def standings_pdf(tournament: Tournament, context: dict[str, Any]) -> bytes:
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=landscape(A4), leftMargin=12 * mm,
                            rightMargin=12 * mm, topMargin=12 * mm, bottomMargin=12 * mm,
                            title=tournament.name)
    base = unicode_font()
    title = _("Final results: %(name)s") % {"name": tournament.name}
    dates = f"{date_display(tournament.start_date)} – " \
            f"{date_display(tournament.end_date)}, {tournament.city}"
    heading = ParagraphStyle("h", fontName=font_for(title, base), fontSize=15, leading=19)
    small = ParagraphStyle("s", fontName=font_for(dates, base), fontSize=10, leading=13)
    sessions = context["sessions"]
    header = ["#", _("Player"), _("TP"), _("GP"), _("Pen.")]
    header += [_("S%(n)s") % {"n": s} for s in sessions]
    data: list[list[str]] = [header]
    for item in context["rows"]:
        row = item["row"]
        rank = "—" if row.rank is None else str(row.rank)
        name = row.name
        if row.substitute:  # the marks of the page (issue 38)
            name += f" ({_('substitute')})"
        if row.withdrawn_from:
            name += f" ({_('withdrawn from session %(n)s') % {'n': row.withdrawn_from}})"
        line = [rank, name, _fmt(row.table_points_number), _fmt(row.game_points),
                _fmt(row.penalties)]
        for cell in item["cells"]:
            if cell == "absent":
                line.append(_("absent"))
                continue
            line.append(
                f"{_fmt(table_points_number(cell.table_points))} / {_fmt(cell.game_points)}"
                if cell else "")
        data.append(line)
    table = Table(data, repeatRows=1)
    style = [
        ("FONTSIZE", (0, 0), (-1, -1), 8),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#8a1c1c")),
        ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
        ("GRID", (0, 0), (-1, -1), 0.25, colors.HexColor("#d8d2c6")),
        ("ALIGN", (2, 1), (-1, -1), "RIGHT"),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f5f2ec")]),
    ]
    for r, line in enumerate(data):
        for c, text in enumerate(line):
            style.append(("FONTNAME", (c, r), (c, r), font_for(text, base)))
    table.setStyle(TableStyle(style))
    story = [Paragraph(title, heading), Paragraph(dates, small)]
    if context.get("hidden_after") is not None:
        notice = _("The standings of the last sessions are hidden until the prize-giving: "
                   "these are the standings after session %(k)s.") % {
            "k": context["hidden_after"]}
        story.append(Paragraph(notice, ParagraphStyle(
            "hn", fontName=font_for(notice, base), fontSize=10, leading=13)))
    story += [Spacer(1, 4 * mm), table]
    legend = _("TP: table points, GP: game points after penalties, Pen.: penalties deducted; "
               "per session: table points / game points.")
    story += [Spacer(1, 3 * mm), Paragraph(legend, ParagraphStyle(
        "l", fontName=font_for(legend, base), fontSize=8, leading=10))]
    for rule in standings_rules(tournament):  # the rules the page states (issue 38)
        story.append(Paragraph(f"• {rule}", ParagraphStyle(
            "r", fontName=font_for(rule, base), fontSize=8, leading=10)))
    penalties = context.get("penalties") or []
    if penalties:
        pen_title = _("Penalties")
        pen_data = [[_("Session"), _("Player"), _("Points"), _("Kind"), _("Reason")]] + [
            [str(p.penalty.session), p.name, _fmt(p.penalty.points),
             str(p.penalty.get_kind_display()) + (f" → {p.to_name}" if p.to_name else ""),
             p.reason] for p in penalties
        ]
        pen_table = Table(pen_data, repeatRows=1)
        pen_style = [("FONTSIZE", (0, 0), (-1, -1), 8),
                     ("GRID", (0, 0), (-1, -1), 0.25, colors.HexColor("#d8d2c6"))]
        for r, line in enumerate(pen_data):
            for c, text in enumerate(line):
                pen_style.append(("FONTNAME", (c, r), (c, r), font_for(text, base)))
        pen_table.setStyle(TableStyle(pen_style))
        story += [Spacer(1, 6 * mm), Paragraph(pen_title, ParagraphStyle(
            "p", fontName=font_for(pen_title, base), fontSize=12, leading=15)), pen_table]
    teams = context.get("teams") or []
    if teams:
        team_title = _("Teams")
        team_data = [["#", _("Team"), _("TP"), _("GP")]] + [
            [str(t.rank), t.team, _fmt(table_points_number(t.table_points)),
             _fmt(t.game_points)] for t in teams
        ]
        team_table = Table(team_data, repeatRows=1)
        team_style = [("FONTSIZE", (0, 0), (-1, -1), 8),
                      ("GRID", (0, 0), (-1, -1), 0.25, colors.HexColor("#d8d2c6"))]
        for r, line in enumerate(team_data):
            for c, text in enumerate(line):
                team_style.append(("FONTNAME", (c, r), (c, r), font_for(text, base)))
        team_table.setStyle(TableStyle(team_style))
        story += [Spacer(1, 6 * mm), Paragraph(team_title, ParagraphStyle(
            "t", fontName=font_for(team_title, base), fontSize=12, leading=15)), team_table]
    doc.build(story)
    return buffer.getvalue()


def table_codes_pdf(tournament: Tournament, session: int,
                    tables: list[tuple[int, str]]) -> bytes:
    """One A4 page per table: the tournament, the table and session, and the QR code of
    the table's score sheet (``tables``: table number and address), to put on the table."""
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, leftMargin=20 * mm, rightMargin=20 * mm,
                            topMargin=20 * mm, bottomMargin=20 * mm, title=tournament.name)
    base = unicode_font()
    story: list[Any] = []
    for index, (table, url) in enumerate(tables):
        title = _("Table %(n)s, session %(s)s") % {"n": table, "s": session}
        hint = _("Scan the code to enter this table's hands on a phone.")
        story.append(Paragraph(tournament.name, ParagraphStyle(
            "n", fontName=font_for(tournament.name, base), fontSize=14, leading=18)))
        story.append(Paragraph(title, ParagraphStyle(
            "t", fontName=font_for(title, base), fontSize=30, leading=36, spaceBefore=6)))
        story.append(Spacer(1, 10 * mm))
        widget = QrCodeWidget(url, barLevel="M")
        x0, y0, x1, y1 = widget.getBounds()
        size = 150 * mm
        drawing = Drawing(size, size, transform=[size / (x1 - x0), 0, 0, size / (y1 - y0),
                                                 0, 0])
        drawing.add(widget)
        story.append(drawing)
        story.append(Spacer(1, 8 * mm))
        story.append(Paragraph(hint, ParagraphStyle(
            "h", fontName=font_for(hint, base), fontSize=12, leading=16)))
        if index < len(tables) - 1:
            story.append(PageBreak())
    doc.build(story)
    return buffer.getvalue()


CUT_LINE = colors.HexColor("#9a9a9a")
ACCENT = colors.HexColor("#8a1c1c")


def _fitted(text: str, font: str, size: float, width: float) -> float:
    """The largest size up to ``size`` at which ``text`` fits ``width``."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    wide = stringWidth(text, font, size)
    return size if wide <= width else max(6.0, size * width / wide)


def _centred(pdf_canvas: Any, text: str, x: float, y: float, size: float, width: float,
             base: str, color: Any = colors.black) -> None:
    font = font_for(text, base)
    pdf_canvas.setFillColor(color)
    pdf_canvas.setFont(font, _fitted(text, font, size, width))
    pdf_canvas.drawCentredString(x, y, text)


def _wind_name(wind: str) -> str:
    from .models import Seat

    return str(Seat(wind).label)


def seat_cards_pdf(tournament: Tournament, session: int,
                   tables: list[tuple[int, list[tuple[str, Any]]]]) -> bytes:
    """A card per seat of a session (``tables``: table, [(wind, registration)]): the wind
    (in the reader's language), the table and session, the player's name and number;
    eight cards to an A4 page, cut along the grey lines."""
    from reportlab.pdfgen import canvas as pdf_canvas

    buffer = io.BytesIO()
    page = pdf_canvas.Canvas(buffer, pagesize=A4)
    page.setTitle(f"{tournament.name}: {_('Seat cards')}")
    base = unicode_font()
    width, height = A4
    columns, rows = 2, 4
    card_w, card_h = width / columns, height / rows
    cards = [(table, wind, reg) for table, seats in tables for wind, reg in seats]
    for index, (table, wind, reg) in enumerate(cards):
        slot = index % (columns * rows)
        if index and slot == 0:
            page.showPage()
        x0 = (slot % columns) * card_w
        y0 = height - (slot // columns + 1) * card_h
        page.setStrokeColor(CUT_LINE)
        page.setDash(3, 3)
        page.rect(x0, y0, card_w, card_h)
        page.setDash()
        centre, inner = x0 + card_w / 2, card_w - 16 * mm
        _centred(page, tournament.name, centre, y0 + card_h - 10 * mm, 10, inner, base,
                 colors.HexColor("#555555"))
        place = _("Table %(n)s, session %(s)s") % {"n": table, "s": session}
        _centred(page, place, centre, y0 + card_h - 19 * mm, 15, inner, base)
        _centred(page, _wind_name(wind), centre, y0 + card_h / 2 - 10 * mm, 36, inner, base,
                 ACCENT)
        if reg is not None:
            player = f"{reg.number}. {reg.player}"
            _centred(page, player, centre, y0 + 9 * mm, 16, inner, base)
    page.save()
    return buffer.getvalue()


def table_tents_pdf(tournament: Tournament, session: int,
                    tables: list[tuple[int, list[tuple[str, Any]]]]) -> bytes:
    """A tent per table of a session: an A4 page in landscape folded along the middle, the
    table's number, the session and its four players with their winds on both halves (the
    upper half upside down, so that it reads from the other side of the fold)."""
    from reportlab.pdfgen import canvas as pdf_canvas

    buffer = io.BytesIO()
    size = landscape(A4)
    page = pdf_canvas.Canvas(buffer, pagesize=size)
    page.setTitle(f"{tournament.name}: {_('Table tents')}")
    base = unicode_font()
    width, height = size
    half = height / 2

    def face(table: int, seats: list[tuple[str, Any]]) -> None:
        inner = width - 30 * mm
        _centred(page, _("Table %(n)s") % {"n": table}, width / 2, half - 36 * mm, 66,
                 inner, base, ACCENT)
        line = f"{tournament.name} · " + _("session %(n)s") % {"n": session}
        _centred(page, line, width / 2, half - 50 * mm, 14, inner, base,
                 colors.HexColor("#555555"))
        column = (width - 30 * mm) / 2
        for i, (wind, reg) in enumerate(seats):
            x = 15 * mm + (i % 2) * column
            y = half - 68 * mm - (i // 2) * 17 * mm
            label = _wind_name(wind)
            font = font_for(label, base)
            page.setFillColor(ACCENT)
            page.setFont(font, _fitted(label, font, 16, 30 * mm))
            page.drawString(x, y, label)
            if reg is not None:
                name = f"{reg.number}. {reg.player}"
                font = font_for(name, base)
                page.setFillColor(colors.black)
                page.setFont(font, _fitted(name, font, 20, column - 36 * mm))
                page.drawString(x + 32 * mm, y, name)

    for index, (table, seats) in enumerate(tables):
        if index:
            page.showPage()
        page.setStrokeColor(CUT_LINE)
        page.setDash(3, 3)
        page.line(10 * mm, half, width - 10 * mm, half)
        page.setDash()
        face(table, seats)
        page.saveState()
        page.translate(width, height)
        page.rotate(180)
        face(table, seats)
        page.restoreState()
    page.save()
    return buffer.getvalue()
