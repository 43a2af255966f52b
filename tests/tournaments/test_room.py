"""Where do I sit, the room screen, the seating published by the organizer, seat cards and
table tents (issue 38; decisions 0730, 0731)."""

from __future__ import annotations

import datetime
import io
import os
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pypdf import PdfReader

from tests.tournaments.fixtures import record_all_sessions
from tournaments import selectors, services
from tournaments.errors import TournamentError
from tournaments.models import SeatingAssignment, SessionClock, Tournament
from tournaments.rules.clock_time import WARNING_MINUTES, warning_due
from tournaments.rules.results_files import parse_results_json
from tournaments.rules.room import current_session

ROLES = ("anonymous", "member", "other", "organizer", "officer")


@pytest.fixture
def clients(organizer, other_organizer, officer, member_user):
    out = {"anonymous": Client()}
    for role, user in (("member", member_user), ("other", other_organizer),
                       ("organizer", organizer), ("officer", officer)):
        c = Client()
        c.force_login(user)
        out[role] = c
    return out


@pytest.fixture
def seated(make_tournament, organizer):
    t = make_tournament("accredited", players=16)
    services.seating_draw(tournament=t, user=organizer, seed=4)
    return t


def _seat(t: Tournament, session: int, player: int) -> SeatingAssignment:
    return SeatingAssignment.objects.get(tournament=t, session=session, player_id=player)


def _post_session(t: Tournament, session: int, user) -> None:
    """Session ``session`` posted for the tables of its drawn seating."""
    tables = []
    for table, seats in sorted(selectors.session_seating(t, session).items()):
        tables.append({"table": table, "seats": [
            {"player": seats[w], "game_points": g, "penalty": 0}
            for w, g in zip("ESWN", (30, 10, -10, -30), strict=True)]})
    parsed, problems = parse_results_json({"sessions": [{"session": session,
                                                          "tables": tables}]})
    assert not problems
    services.results_record(tournament=t, user=user, sessions=parsed)


# --- the pure rules ---------------------------------------------------------------------------

def test_the_room_shows_the_running_session_else_the_first_unfinished():
    assert current_session(6, running=[2], seated={1: 4, 2: 4}, entered={1: 4}) == 2
    assert current_session(6, running=[], seated={1: 4, 2: 4, 3: 4},
                           entered={1: 4, 2: 3}) == 2
    assert current_session(6, running=[], seated={1: 4, 2: 4}, entered={1: 4, 2: 4}) == 2
    assert current_session(6, running=[], seated={}, entered={}) == 1
    assert current_session(3, running=[9], seated={}, entered={1: 2}) == 1


def test_the_warning_comes_in_the_last_minutes_and_not_after_time_is_up():
    assert not warning_due(WARNING_MINUTES * 60 + 1)
    assert warning_due(WARNING_MINUTES * 60)
    assert warning_due(1)
    assert not warning_due(0)


# --- publishing the seating ----------------------------------------------------------------

@pytest.mark.django_db
def test_publishing_is_bounded_logged_and_for_the_organizer_only(seated, clients, organizer):
    with pytest.raises(TournamentError) as refused:
        services.seating_publish(tournament=seated, user=organizer, through=7)
    assert refused.value.code == "seating_publish"
    seated.refresh_from_db()
    assert seated.seating_published == 0
    url = f"/en/tournaments/{seated.pk}/seating/publish/"
    assert clients["anonymous"].post(url, {"through": 2}).status_code == 302
    for role in ("member", "other", "officer"):
        assert clients[role].post(url, {"through": 2}).status_code == 403
    seated.refresh_from_db()
    assert seated.seating_published == 0
    response = clients["organizer"].post(url, {"through": 99}, follow=True)
    assert "Published: Select a valid choice" in response.content.decode()
    response = clients["organizer"].post(url, {"through": 2}, follow=True)
    assert "The seating of sessions 1 to 2 is published." in response.content.decode()
    seated.refresh_from_db()
    assert seated.seating_published == 2
    from wagtail.models import ModelLogEntry
    assert ModelLogEntry.objects.filter(
        action="tournaments.tournament.seating_published", object_id=str(seated.pk)).exists()


# --- where do I sit -----------------------------------------------------------------------

@pytest.mark.django_db
def test_a_player_finds_the_published_seats_only(seated, clients, organizer):
    reg = seated.registrations.order_by("number")[4]
    url = f"/en/tournaments/{seated.pk}/seats/"
    page = clients["anonymous"].get(url, {"player": reg.player_id}).content.decode()
    assert 'data-testid="not-published"' in page and "Table " not in page
    services.seating_publish(tournament=seated, user=organizer, through=2)
    response = clients["anonymous"].get(url, {"player": reg.player_id})
    sessions = response.context["sessions"]
    assert len(sessions) == 6
    for s in sessions[:2]:
        seat = _seat(seated, s["session"], reg.player_id)
        assert (s["table"], s["seat"]) == (seat.table, seat.get_seat_display())
        others = SeatingAssignment.objects.filter(
            tournament=seated, session=s["session"], table=seat.table
        ).exclude(player_id=reg.player_id)
        assert {r.player_id for _, r in s["others"]} == {o.player_id for o in others}
    assert all(not s["published"] and s["table"] is None for s in sessions[2:])
    html = response.content.decode()
    assert html.count("Not published yet") == 4
    first = _seat(seated, 1, reg.player_id)
    assert f"Table {first.table}" in html and first.get_seat_display() in html
    # the organizer sees the same page, and is told what is not published yet
    own = clients["organizer"].get(url, {"player": reg.player_id})
    assert own.context["sessions"] == sessions
    assert 'data-testid="unpublished"' in own.content.decode()
    assert 'data-testid="unpublished"' not in html


@pytest.mark.django_db
def test_search_by_part_of_a_name_and_a_stranger_refused(seated, clients, organizer,
                                                         make_tournament):
    services.seating_publish(tournament=seated, user=organizer, through=6)
    url = f"/ru/tournaments/{seated.pk}/seats/"
    one = clients["anonymous"].get(url, {"q": "player 07"})
    assert one.context["chosen"].player.name_latin == "Player 07"
    many = clients["anonymous"].get(url, {"q": "PLAYER 1"})
    assert many.context["chosen"] is None and len(many.context["matches"]) == 8  # 01, 10-16
    none = clients["anonymous"].get(url, {"q": "Nobody"}).content.decode()
    assert "Nobody" in none and 'role="alert"' in none
    stranger = clients["anonymous"].get(url, {"player": "abc"})
    assert stranger.status_code == 200 and stranger.context["unknown"] is True
    assert stranger.context["chosen"] is None
    nothing = clients["anonymous"].get(url, {"player": ""})
    assert nothing.context["unknown"] is False and nothing.context["chosen"] is None
    elsewhere = make_tournament("draft")
    (outsider,) = services.players_register(tournament=elsewhere, user=organizer, entries=[
        services.PlayerEntry(name="Olivia Outsider", country="BE")])
    outsider = outsider.player_id
    assert clients["anonymous"].get(url, {"player": outsider}).context["unknown"] is True


@pytest.mark.django_db
def test_a_withdrawn_player_has_no_seat_after_withdrawing(seated, clients, organizer):
    services.seating_publish(tournament=seated, user=organizer, through=6)
    reg = seated.registrations.order_by("number")[0]
    services.registration_withdraw(registration=reg, user=organizer, from_session=4,
                                   reason="ill")
    services.players_register(tournament=seated, user=organizer, entries=[
        services.PlayerEntry(name="Sam Standin", country="NL", substitute=True)])
    services.seating_draw(tournament=seated, user=organizer, seed=5, from_session=4)
    response = clients["anonymous"].get(f"/en/tournaments/{seated.pk}/seats/",
                                        {"player": reg.player_id})
    tables = [s["table"] for s in response.context["sessions"]]
    assert all(tables[:3]) and tables[3:] == [None, None, None]
    assert response.content.decode().count("No seat in this session") == 3


@pytest.mark.django_db
@pytest.mark.parametrize(("role", "code"), [
    ("anonymous", 404), ("member", 404), ("other", 404), ("organizer", 200), ("officer", 200)])
def test_a_draft_tournament_has_no_public_seat_finder_or_room(make_tournament, clients,
                                                             role, code):
    t = make_tournament("draft", players=8)
    services.seating_draw(tournament=t, user=t.organizer, seed=1)
    assert clients[role].get(f"/en/tournaments/{t.pk}/seats/").status_code == code
    assert clients[role].get(f"/en/tournaments/{t.pk}/room/").status_code == code


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200
    return len(context.captured_queries)


@pytest.mark.django_db
def test_seat_finder_and_room_cost_the_same_at_ten_times_the_history(make_tournament,
                                                                     organizer):
    client = Client()
    counts = []
    for sessions in (2, 20):
        t = make_tournament("accredited", players=16)
        Tournament.objects.filter(pk=t.pk).update(sessions=sessions)  # below the minimum
        t.refresh_from_db()
        services.seating_draw(tournament=t, user=organizer, seed=1)
        services.seating_publish(tournament=t, user=organizer, through=sessions)
        record_all_sessions(t, organizer, sessions=sessions)
        player = t.registrations.order_by("number")[3].player_id
        urls = [f"/en/tournaments/{t.pk}/seats/?player={player}",
                f"/en/tournaments/{t.pk}/seats/?q=player+03",
                f"/en/tournaments/{t.pk}/room/", f"/en/tournaments/{t.pk}/room/?panel=1",
                f"/en/tournaments/{t.pk}/room/?session=1"]
        for url in urls:
            client.get(url)  # warm what a first request caches
        counts.append([_queries(client, url) for url in urls])
    assert counts[0] == counts[1], counts


# --- seat cards and table tents -------------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize(("role", "code"), [
    ("anonymous", 302), ("member", 403), ("other", 403), ("organizer", 200), ("officer", 200)])
def test_seat_cards_and_tents_are_for_the_organizer_and_officers(seated, clients, role, code):
    for name in ("seat-cards", "table-tents"):
        response = clients[role].get(f"/en/tournaments/{seated.pk}/sessions/2/{name}.pdf")
        assert response.status_code == code, name
        if code == 200:
            assert response["Content-Type"] == "application/pdf"


@pytest.mark.django_db
def test_seat_cards_and_tents_name_every_player_with_table_and_wind(seated, clients):
    seats = SeatingAssignment.objects.filter(tournament=seated, session=2)
    names = {r.player_id: f"{r.number}. {r.player}" for r in seated.registrations.all()}
    cards = clients["organizer"].get(f"/en/tournaments/{seated.pk}/sessions/2/seat-cards.pdf")
    reader = PdfReader(io.BytesIO(cards.content))
    assert len(reader.pages) == 2  # 16 cards, 8 to a page
    text = "\n".join(p.extract_text() for p in reader.pages)
    for seat in seats:
        assert names[seat.player_id] in text
    assert text.count("Table 1, session 2") == 4 and text.count("East") == 4
    tents = clients["organizer"].get(f"/fr/tournaments/{seated.pk}/sessions/2/table-tents.pdf")
    reader = PdfReader(io.BytesIO(tents.content))
    assert len(reader.pages) == 4  # a tent per table
    first = reader.pages[0].extract_text()
    for seat in seats.filter(table=1):
        assert first.count(names[seat.player_id]) == 2  # both faces of the tent
    assert "Table 1" in first and "Est" in first
    folder = os.environ.get("SCREENSHOT_DIR")
    if folder:  # to look at (pdftoppm), not to assert on
        Path(folder).mkdir(parents=True, exist_ok=True)
        Path(folder, "seat-cards-en.pdf").write_bytes(cards.content)
        Path(folder, "table-tents-fr.pdf").write_bytes(tents.content)
    assert clients["organizer"].get(
        f"/en/tournaments/{seated.pk}/sessions/9/seat-cards.pdf").status_code == 404


# --- the room screen -----------------------------------------------------------------------

@pytest.mark.django_db
def test_room_screen_shows_seating_then_results_and_standings(seated, clients, organizer):
    url = f"/en/tournaments/{seated.pk}/room/"
    page = clients["anonymous"].get(url)
    assert page.context["room"].session == 1 and page.context["room"].tables == ()
    assert 'data-testid="seating-unpublished"' in page.content.decode()
    services.seating_publish(tournament=seated, user=organizer, through=6)
    page = clients["anonymous"].get(url)
    room = page.context["room"]
    assert room.session == 1 and len(room.tables) == 4 and not room.standings
    assert all(len(t.seats) == 4 and not t.done for t in room.tables)
    html = page.content.decode()
    assert "Seating, session 1" in html and room.tables[0].seats[0].name in html
    _post_session(seated, 1, organizer)
    # session 1 in: the room goes on to session 2's seating, standings after session 1
    room = clients["anonymous"].get(url).context["room"]
    assert room.session == 2 and len(room.standings) == 16
    assert room.standings[0].table_points == 4
    held = clients["anonymous"].get(url, {"session": 1})
    assert held.context["room"].session == 1
    assert all(t.done for t in held.context["room"].tables)
    assert "Results, session 1" in held.content.decode()
    panel = clients["anonymous"].get(url, {"panel": 1, "session": 1}).content.decode()
    assert "<html" not in panel and "Results, session 1" in panel
    assert held["Cache-Control"].startswith("max-age=0")


@pytest.mark.django_db
def test_room_screen_keeps_hidden_sessions_hidden_even_for_the_organizer(
        make_tournament, clients, organizer):
    t = make_tournament("accredited", players=16, hide_last_sessions=2)
    services.seating_draw(tournament=t, user=organizer, seed=2)
    services.seating_publish(tournament=t, user=organizer, through=6)
    _post_session(t, 1, organizer)
    early = clients["anonymous"].get(f"/en/tournaments/{t.pk}/room/")
    assert early.context["room"].hidden_after == 1  # after session 1, the one played
    assert "Standings after session 1" in early.content.decode()
    for s in (2, 3, 4, 5):
        _post_session(t, s, organizer)
    for role in ("anonymous", "organizer", "officer"):
        response = clients[role].get(f"/en/tournaments/{t.pk}/room/", {"session": 5})
        room = response.context["room"]
        assert room.results_hidden and room.hidden_after == 4 and len(room.tables) == 4
        assert not any(seat.game_points is not None for t_ in room.tables for seat in t_.seats)
        public = selectors.tournament_standings(t, 4)
        assert [r.table_points for r in room.standings] == [r.table_points for r in public]
        html = response.content.decode()
        assert "Standings after session 4" in html and 'data-testid="results-hidden"' in html


@pytest.mark.django_db
def test_clock_warns_the_room_in_the_last_minutes(seated, clients, organizer):
    services.seating_publish(tournament=seated, user=organizer, through=6)
    clock = services.session_clock_start(tournament=seated, session=1, user=organizer)
    url = f"/nl/tournaments/{seated.pk}/room/"
    calm = clients["anonymous"].get(url)
    assert not calm.context["room"].clock.warning
    assert 'data-testid="clock-warning" hidden' in calm.content.decode()
    SessionClock.objects.filter(pk=clock.pk).update(
        started_at=timezone.now() - datetime.timedelta(minutes=150 - 7))
    warned = clients["anonymous"].get(url)
    assert warned.context["room"].session == 1 and warned.context["room"].clock.warning
    html = warned.content.decode()
    assert 'data-testid="clock-warning">' in html and "is-warning" in html
    screen = clients["anonymous"].get(f"/en/tournaments/{seated.pk}/sessions/1/clock/")
    assert "At most 10 minutes to play." in screen.content.decode()
    assert 'data-testid="clock-warning">' in screen.content.decode()
    SessionClock.objects.filter(pk=clock.pk).update(
        started_at=timezone.now() - datetime.timedelta(minutes=151))
    over = clients["anonymous"].get(url)
    assert not over.context["room"].clock.warning
    assert 'data-testid="clock-over">' in over.content.decode()
