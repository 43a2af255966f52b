"""Issue 38, items 3 and 4: entries open and close at the organizer's dates; what an
accredited tournament changes at once and what sends it back to the officer (decision 0721,
through the table of steps); the officer's MERS screen after accreditation."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import translation
from wagtail.models import ModelLogEntry

from federation import selectors as federation_selectors
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Accreditation, Entry, Tournament

pytestmark = pytest.mark.django_db


def today():
    return federation_selectors.today()


@pytest.fixture
def accredited(make_tournament):
    def make(**data):
        return make_tournament(
            "accredited", start_date=today() + timedelta(days=30),
            end_date=today() + timedelta(days=31), fee_other=Decimal("0"), **data)
    return make


def test_entries_wait_for_the_opening_day_and_stop_after_the_closing_day(
        accredited, make_user, client):
    t = accredited(entries_from=today() + timedelta(days=5),
                   entries_until=today() + timedelta(days=20))
    with pytest.raises(TournamentError) as error:
        services.entry_create(tournament=t, user=make_user(), first_name="Jan",
                              last_name="Smit", country="NL")
    assert error.value.code == "entries_not_open"
    with translation.override("en"):
        assert "Entries open on" in error.value.message
    client.force_login(make_user())
    page = client.get(f"/en/tournaments/{t.pk}/entrants/").content.decode()
    assert 'id="enter-button"' not in page  # not open yet
    assert 'id="entry-dates"' in page
    entry = services.entry_create(tournament=t, user=make_user(), first_name="Jan",
                                  last_name="Smit", country="NL",
                                  today=today() + timedelta(days=5))
    assert entry.status == Entry.Status.ENTERED
    services.entry_create(tournament=t, user=make_user(), first_name="Eva", last_name="Kok",
                          country="NL", today=today() + timedelta(days=20))
    with pytest.raises(TournamentError) as error:
        services.entry_create(tournament=t, user=make_user(), first_name="Ola",
                              last_name="Berg", country="NL", today=today() + timedelta(days=21))
    assert error.value.code == "entries_closed"


def test_entry_dates_are_checked_with_the_field_at_fault(make_tournament, organizer):
    t = make_tournament("draft", start_date=today() + timedelta(days=30),
                        end_date=today() + timedelta(days=31))
    with pytest.raises(TournamentError) as error:
        services.tournament_update(tournament=t, user=organizer, data={
            "entries_from": today() + timedelta(days=10),
            "entries_until": today() + timedelta(days=5)})
    assert (error.value.code, error.value.field) == ("entry_dates_order", "entries_until")
    with pytest.raises(TournamentError) as error:
        services.tournament_update(tournament=t, user=organizer, data={
            "entries_until": today() + timedelta(days=30)})
    assert (error.value.code, error.value.field) == ("entry_dates_after_start", "entries_until")
    t.refresh_from_db()
    assert t.entries_from is None and t.entries_until is None


def test_an_accredited_tournament_changes_cap_fees_venue_and_hidden_sessions_at_once(
        accredited, organizer):
    t = accredited(max_players=20)
    t = services.tournament_update(tournament=t, user=organizer, data={
        "max_players": 24, "fee_member": Decimal("15.00"), "fee_other": Decimal("25.00"),
        "venue": "Town hall", "hide_last_sessions": 2,
        "entries_until": today() + timedelta(days=25)})
    t.refresh_from_db()
    assert t.state == Tournament.State.ACCREDITED
    assert (t.max_players, t.fee_other, t.venue, t.hide_last_sessions) == (
        24, Decimal("25.00"), "Town hall", 2)
    logged = ModelLogEntry.objects.filter(action="tournaments.tournament.update").last()
    assert set(logged.data["fields"]) >= {"max_players", "venue", "hide_last_sessions"}


def test_a_change_the_officer_accredited_is_refused_unless_sent_back(accredited, organizer,
                                                                     officer):
    t = accredited()
    new_start = t.start_date + timedelta(days=7)
    with pytest.raises(TournamentError) as error:
        services.tournament_update(tournament=t, user=organizer, data={
            "start_date": new_start, "end_date": new_start + timedelta(days=1),
            "venue": "Elsewhere"})
    assert (error.value.code, error.value.field) == ("change_after_accreditation",
                                                     "start_date")
    with translation.override("en"):
        assert "start date, end date" in error.value.message
    t.refresh_from_db()
    assert t.venue == "" and t.state == Tournament.State.ACCREDITED
    t = services.tournament_update(tournament=t, user=organizer, resubmit=True, data={
        "start_date": new_start, "end_date": new_start + timedelta(days=1)})
    assert t.state == Tournament.State.SUBMITTED
    assert t.decisions.order_by("-pk").first().action == Accreditation.Action.SUBMIT
    assert ModelLogEntry.objects.filter(action="tournaments.tournament.resubmit").exists()
    t = services.tournament_decide(tournament=t, user=officer, decision="accredit")
    assert t.state == Tournament.State.ACCREDITED and t.start_date == new_start


def test_sending_back_without_a_change_to_what_was_accredited_keeps_the_accreditation(
        accredited, organizer):
    t = accredited()
    t = services.tournament_update(tournament=t, user=organizer, resubmit=True,
                                   data={"venue": "Club house"})
    assert t.state == Tournament.State.ACCREDITED and t.venue == "Club house"


def test_once_results_come_in_only_the_details_change(make_tournament, organizer):
    t = make_tournament("results submitted", players=16)
    t = services.tournament_update(tournament=t, user=organizer,
                                   data={"hide_last_sessions": 1})
    assert t.hide_last_sessions == 1
    with pytest.raises(TournamentError) as error:
        services.tournament_update(tournament=t, user=organizer, resubmit=True,
                                   data={"sessions": 7})
    assert error.value.code == "illegal_transition"
    confirmed = make_tournament("results confirmed", players=16)
    with pytest.raises(TournamentError) as error:
        services.tournament_update(tournament=confirmed, user=organizer,
                                   data={"venue": "Late"})
    assert error.value.code == "illegal_transition"


def test_an_amendment_keeps_the_firm_rules(accredited, organizer):
    t = accredited()
    with pytest.raises(TournamentError) as error:
        services.tournament_update(tournament=t, user=organizer, data={"planned_players": 4})
    assert error.value.code == "too_few_players"
    t.refresh_from_db()
    assert t.planned_players == 16


def test_a_larger_cap_moves_the_waiting_list_up(accredited, make_user, organizer):
    t = accredited(max_players=1)
    services.entry_create(tournament=t, user=make_user(), first_name="Jan", last_name="Smit",
                          country="NL")
    waiting = services.entry_create(tournament=t, user=make_user(), first_name="Eva",
                                    last_name="Kok", country="NL")
    assert waiting.status == Entry.Status.WAITING
    services.tournament_update(tournament=t, user=organizer, data={"max_players": 2})
    waiting.refresh_from_db()
    assert waiting.status == Entry.Status.ENTERED


def test_the_edit_page_of_an_accredited_tournament(client, accredited, organizer,
                                                   other_organizer):
    t = accredited()
    client.force_login(other_organizer)
    assert client.get(f"/en/tournaments/{t.pk}/edit/").status_code == 403
    client.force_login(organizer)
    assert f"/en/tournaments/{t.pk}/edit/" in client.get(
        f"/en/tournaments/{t.pk}/manage/").content.decode()
    page = client.get(f"/en/tournaments/{t.pk}/edit/")
    assert page.status_code == 200 and 'name="resubmit"' in page.content.decode()
    # a date field shows its date in every language (a browser's date input reads ISO only)
    russian = client.get(f"/ru/tournaments/{t.pk}/edit/").content.decode()
    assert f'name="start_date" value="{t.start_date.isoformat()}"' in russian
    data = {"name": t.name, "start_date": t.start_date.isoformat(),
            "end_date": t.end_date.isoformat(), "city": t.city, "country": t.country,
            "ruleset": t.ruleset, "individual": "on", "sessions": t.sessions,
            "session_minutes": t.session_minutes, "planned_players": t.planned_players,
            "fee_other": "0", "venue": "Town hall", "max_players": "32"}
    saved = client.post(f"/en/tournaments/{t.pk}/edit/", data)
    assert saved.status_code == 302
    t.refresh_from_db()
    assert (t.venue, t.max_players, t.state) == ("Town hall", 32, "accredited")
    refused = client.post(f"/en/tournaments/{t.pk}/edit/", {**data, "city": "Delft"})
    assert refused.status_code == 200
    assert "keep these as accredited" in refused.content.decode()
    t.refresh_from_db()
    assert t.city != "Delft"
    client.post(f"/en/tournaments/{t.pk}/edit/", {**data, "city": "Delft", "resubmit": "on"})
    t.refresh_from_db()
    assert (t.city, t.state) == ("Delft", "submitted")


@pytest.mark.parametrize(("data", "code", "state"), [
    ({"venue": "Hall"}, 200, "accredited"),
    ({"sessions": 8}, 400, "accredited"),
    ({"sessions": 8, "resubmit": True}, 200, "submitted"),
])
def test_the_api_amends_or_sends_back(api, accredited, data, code, state):
    t = accredited()
    response = api["organizer"].patch(f"/api/v1/tournaments/{t.pk}", data, format="json")
    assert response.status_code == code
    if code == 400:
        assert response.json()["errors"][0]["field"] == "sessions"
    t.refresh_from_db()
    assert t.state == state


def test_only_the_organizer_amends_through_the_api(api, accredited):
    t = accredited()
    for role in ("member", "other", "officer"):
        assert api[role].patch(f"/api/v1/tournaments/{t.pk}", {"venue": "X"},
                               format="json").status_code == 403
    t.refresh_from_db()
    assert t.venue == ""


# item 4: the officer's MERS screen after accreditation


@pytest.mark.parametrize(("role", "allowed"), [
    ("organizer", False), ("member", False), ("officer", True)])
def test_the_officer_sets_mers_after_accreditation_on_a_screen(client, make_tournament,
                                                                organizer, member_user,
                                                                officer, role, allowed):
    t = make_tournament("results confirmed", players=16)
    user = {"organizer": organizer, "member": member_user, "officer": officer}[role]
    client.force_login(user)
    url = f"/admin/tournaments/{t.pk}/decide/"
    page = client.get(url)
    assert (page.status_code == 200) is allowed
    if allowed:
        assert 'data-testid="mers-form"' in page.content.decode()
        # the players are corrected from the EMA sheet's page, outside the admin
        assert f'/tournaments/{t.pk}/ema-results/"' in page.content.decode()
    client.post(url, {"mers-save": "1", "mers-mers": "on", "mers-mers_weight": "2"})
    t.refresh_from_db()
    assert (t.mers, t.mers_weight) == ((True, Decimal("2.00")) if allowed else (False, None))


def test_the_mers_screen_needs_a_weight_and_withdraws(client, make_tournament, officer):
    t = make_tournament("accredited", players=16)
    client.force_login(officer)
    url = f"/admin/tournaments/{t.pk}/decide/"
    missing = client.post(url, {"mers-save": "1", "mers-mers": "on"})
    assert missing.status_code == 200 and 'class="error-message"' in missing.content.decode()
    t.refresh_from_db()
    assert not t.mers
    client.post(url, {"mers-save": "1", "mers-mers": "on", "mers-mers_weight": "2"})
    t.refresh_from_db()
    assert t.mers and t.mers_weight == Decimal("2.00")
    assert ModelLogEntry.objects.filter(action="tournaments.tournament.mers").count() == 1
    client.post(url, {"mers-save": "1", "mers-mers_weight": ""})
    t.refresh_from_db()
    assert not t.mers and t.mers_weight is None


def test_no_mers_screen_before_accreditation(client, make_tournament, officer):
    t = make_tournament("draft")
    client.force_login(officer)
    assert 'data-testid="mers-form"' not in client.get(
        f"/admin/tournaments/{t.pk}/decide/").content.decode()
