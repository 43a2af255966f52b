"""Uploading the results as CSV: the ``player`` column takes the tournament's start numbers (No.
1-16, as the organizer's pages show them), player ids still work (decision 0718); problems
name fields in words and players by their numbers; one mistake gives one message."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tournaments import services
from tournaments.models import TableResult
from tournaments.rules.results_files import CSV_COLUMNS

pytestmark = pytest.mark.django_db

POINTS = (30, 10, -10, -30)


def _csv(rows: list[tuple]) -> SimpleUploadedFile:
    lines = [",".join(CSV_COLUMNS)]
    for session, table, seat, player, game in rows:
        lines.append(f"{session},{table},seat,,{seat},{player},{game},0,,,,,")
    return SimpleUploadedFile("r.csv", "\n".join(lines).encode(), content_type="text/csv")


def _session(t, by) -> list[tuple]:
    from tournaments.models import SeatingAssignment

    regs = {r.player_id: r.number for r in t.registrations.all()}
    rows = []
    seating: dict[int, dict[str, int]] = {}
    for a in SeatingAssignment.objects.filter(tournament=t, session=1):
        seating.setdefault(a.table, {})[a.seat] = a.player_id
    for table, seats in sorted(seating.items()):
        for wind, game in zip("ESWN", POINTS, strict=True):
            pid = seats[wind]
            rows.append((1, table, wind, regs[pid] if by == "number" else pid, game))
    return rows


@pytest.fixture
def tournament(make_tournament):
    t = make_tournament("accredited", players=16)
    services.seating_draw(tournament=t, user=t.organizer, seed=1)
    return t


@pytest.mark.parametrize("by", ["number", "id"])
def test_start_numbers_and_ids(tournament, by):
    t = tournament
    client = Client()
    client.force_login(t.organizer)
    response = client.post(f"/en/tournaments/{t.pk}/upload/", {"file": _csv(_session(t, by))})
    assert response.status_code == 302, response.content.decode()[-2000:]
    stored = {r.player_id: r.game_points for r in TableResult.objects.filter(tournament=t)}
    assert len(stored) == 16


def test_problems_in_words_and_one_each(tournament, other_organizer):
    t = tournament
    rows = _session(t, "number")
    session, table, seat, player, _game = rows[0]
    rows[0] = (session, table, seat, player, "ten")  # one mistake
    client = Client()
    client.force_login(t.organizer)
    html = client.post(f"/en/tournaments/{t.pk}/upload/",
                       {"file": _csv(rows)}).content.decode()
    problems = html.split('role="alert"')[1].split("</ul>")[0].count("<li>")
    assert "game points" in html and "game_points" not in html.split('role="alert"')[1]
    assert problems == 1, html.split('role="alert"')[1][:1500]
    assert not TableResult.objects.filter(tournament=t).exists()
    # an unreadable player: one message, not also "a table has four seats"
    rows = _session(t, "number")
    rows[5] = (*rows[5][:3], "x", *rows[5][4:])
    html = client.post(f"/en/tournaments/{t.pk}/upload/",
                       {"file": _csv(rows)}).content.decode()
    alert = html.split('role="alert"')[1].split("</ul>")[0]
    assert alert.count("<li>") == 1, alert
    assert "field “player”" in alert
    # a number nobody has is named as such
    rows = _session(t, "number")
    rows[0] = (*rows[0][:3], 99, *rows[0][4:])
    html = client.post(f"/en/tournaments/{t.pk}/upload/",
                       {"file": _csv(rows)}).content.decode()
    alert = html.split('role="alert"')[1].split("</ul>")[0]
    assert "Player 99 is not registered" in alert
    # only the organizer uploads
    stranger = Client()
    stranger.force_login(other_organizer)
    assert stranger.post(f"/en/tournaments/{t.pk}/upload/",
                         {"file": _csv(_session(t, "number"))}).status_code == 403
    assert not TableResult.objects.filter(tournament=t).exists()


def test_issue_38_a_problem_names_the_player_by_number_and_name(tournament):
    """Issue 38 (13): errors named "Player 26" (an id) instead of "No. 10 Natalia Kovaleva"."""
    from tournaments.models import Player

    t = tournament
    rows = _session(t, "number")
    twice = rows[0][3]
    registration = t.registrations.get(number=twice)
    Player.objects.filter(pk=registration.player_id).update(name_latin="Natalia Kovaleva")
    rows[4] = (*rows[4][:3], twice, *rows[4][4:])  # at table 2 as well
    client = Client()
    client.force_login(t.organizer)
    html = client.post(f"/en/tournaments/{t.pk}/upload/", {"file": _csv(rows)}).content.decode()
    alert = html.split('role="alert"')[1].split("</ul>")[0]
    assert f"Player No. {twice} Natalia Kovaleva sits twice in this session." in alert, alert
    assert f"Player {registration.player_id} " not in alert
