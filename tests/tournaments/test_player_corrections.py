"""Issue 38, item 2: the EMA sheet's names. Confirmed entries keep their first/last split;
the organizer (until they take the EMA sheet) and an accreditation officer (always) correct
a registered player's names, country and EMA number, logged; the sheet's refusal lists each
player to fix with a link to the fix; a taken EMA number names its holder; a MERS
tournament's entry form asks for the EMA number or "none yet" (decision 0720)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import translation
from wagtail.models import ModelLogEntry

from federation import selectors as federation_selectors
from federation.models import Member, MembershipType
from tests.tournaments.fixtures import token_client
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Entry, Player, TournamentResult

pytestmark = pytest.mark.django_db


def today():
    return federation_selectors.today()


@pytest.fixture
def entries_tournament(make_tournament):
    def make(**data):
        return make_tournament(
            "accredited", start_date=today() + timedelta(days=30),
            end_date=today() + timedelta(days=31), fee_other=Decimal("0"), **data)
    return make


def test_registered_entries_keep_the_first_and_last_name(entries_tournament, make_user,
                                                         organizer):
    """The entry form's "Jan" / "de Vries" reaches the player and the EMA sheet as typed
    (it read "Jan de | Vries")."""
    t = entries_tournament()
    entry = services.entry_create(tournament=t, user=make_user(), first_name="Jan",
                                  last_name="de Vries", country="NL")
    services.entry_decide(entry=entry, user=organizer, decision="confirm")
    assert services.entries_register(tournament=t, user=organizer) == 1
    player = Entry.objects.get(pk=entry.pk).registration.player
    assert (player.first_name, player.last_name) == ("Jan", "de Vries")
    assert player.name_latin == "Jan de Vries"
    assert player.latin_first_last == ("Jan", "de Vries")


def test_a_known_player_without_a_split_takes_the_entrys_never_another_one(
        entries_tournament, make_user, organizer):
    known = Player.objects.create(name_latin="Eva van Dam", country="NL")
    split = Player.objects.create(name_latin="Ann de Wit", country="NL", first_name="Ann de",
                                  last_name="Wit")
    t = entries_tournament()
    for first, last in (("Eva", "van Dam"), ("Ann", "de Wit")):
        entry = services.entry_create(tournament=t, user=make_user(), first_name=first,
                                      last_name=last, country="NL")
        services.entry_decide(entry=entry, user=organizer, decision="confirm")
    services.entries_register(tournament=t, user=organizer)
    known.refresh_from_db()
    split.refresh_from_db()
    assert (known.first_name, known.last_name) == ("Eva", "van Dam")
    assert (split.first_name, split.last_name) == ("Ann de", "Wit")  # not overwritten


def _log(action: str):
    return ModelLogEntry.objects.filter(action=action)


def test_the_organizer_corrects_a_player_and_the_log_keeps_what_it_was(make_tournament,
                                                                       organizer):
    t = make_tournament("results confirmed", players=16)
    player = t.registrations.get(number=3).player
    services.player_correct(tournament=t, player=player, user=organizer, first_name="Jan",
                            last_name=" de  Vries ", country="be", ema_number="4010001")
    player.refresh_from_db()
    assert (player.first_name, player.last_name, player.name_latin) == (
        "Jan", "de Vries", "Jan de Vries")
    assert (player.country, player.ema_number) == ("BE", "04010001")  # one EMA number rule
    entry = _log("tournaments.player.correct").get()
    assert entry.user_id == organizer.pk
    assert entry.data["player"] == player.pk
    assert entry.data["changes"]["name_latin"] == ["Player 03", "Jan de Vries"]
    assert entry.data["changes"]["country"] == ["NL", "BE"]
    assert Player.objects.get(pk=player.pk).name_search.startswith("jan de vries")


@pytest.mark.parametrize(("data", "field", "code"), [
    ({"first_name": " "}, "first_name", "name_required"),
    ({"last_name": ""}, "last_name", "name_required"),
    ({"country": "Atlantis"}, "country", "bad_country"),
    ({"ema_number": "12AB"}, "ema_number", "bad_ema_number"),
])
def test_a_bad_correction_names_its_field_and_changes_nothing(make_tournament, organizer, data,
                                                              field, code):
    t = make_tournament("accredited", players=4)
    player = t.registrations.first().player
    values = {"first_name": "Jan", "last_name": "Smit", "country": "NL", "ema_number": "",
              **data}
    with pytest.raises(TournamentError) as error:
        services.player_correct(tournament=t, player=player, user=organizer, **values)
    assert (error.value.code, error.value.field) == (code, field)
    assert Player.objects.get(pk=player.pk).name_latin == player.name_latin
    assert not _log("tournaments.player.correct").exists()


def test_a_taken_ema_number_names_the_player_who_holds_it(make_tournament, organizer, client):
    holder = Player.objects.create(name_latin="Anna Smit", country="NL", ema_number="04010001")
    t = make_tournament("accredited", players=4)
    player = t.registrations.first().player
    with pytest.raises(TournamentError) as error:
        services.player_correct(tournament=t, player=player, user=organizer, first_name="A",
                                last_name="B", country="NL", ema_number="04010001")
    assert error.value.code == "ema_number_taken"
    with translation.override("en"):
        assert f"already belongs to Anna Smit (player {holder.pk})" in error.value.message
    client.force_login(organizer)
    page = client.post(f"/en/tournaments/{t.pk}/players/{player.pk}/correct/", {
        "first_name": "A", "last_name": "B", "country": "NL", "ema_number": "04010001"})
    assert page.status_code == 400
    text = page.content.decode()
    assert "already belongs to Anna Smit" in text and "Constraint" not in text


def test_the_player_admin_names_the_holder_of_a_taken_ema_number(make_user):
    """The membership and accreditation officers' player form said "Constraint
    'player_ema_number_once' is violated."."""
    from django.core.exceptions import ValidationError

    Player.objects.create(name_latin="Anna Smit", ema_number="04010001")
    other = Player.objects.create(name_latin="Bea Smit")
    other.ema_number = "04010001"
    with pytest.raises(ValidationError) as error:
        other.full_clean()
    messages = error.value.message_dict["ema_number"]
    assert any("Anna Smit" in m for m in messages)
    assert not any("Constraint" in m for m in messages)
    admin = make_user(is_superuser=True, is_staff=True)
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(admin)
    page = client.post(reverse("tournament_players:edit", args=[other.pk]), {
        "name_latin": "Bea Smit", "name_native": "", "country": "NL",
        "ema_number": "04010001", "member": ""})
    text = page.content.decode()  # in the admin's language (Russian here)
    assert "Anna Smit" in text and "Constraint" not in text
    assert Player.objects.get(pk=other.pk).ema_number == ""


@pytest.mark.parametrize(("role", "code"), [
    ("member", 403), ("other", 403), ("organizer", 200), ("officer", 200),
])
def test_who_opens_the_correction_page(client, make_tournament, member_user, other_organizer,
                                       organizer, officer, role, code):
    t = make_tournament("results confirmed", players=16)
    player = t.registrations.first().player
    user = {"member": member_user, "other": other_organizer, "organizer": organizer,
            "officer": officer}[role]
    client.force_login(user)
    url = f"/en/tournaments/{t.pk}/players/{player.pk}/correct/"
    assert client.get(url).status_code == code
    client.post(url, {"first_name": "Zoe", "last_name": "Kok", "country": "NL",
                      "ema_number": ""})
    assert (Player.objects.get(pk=player.pk).name_latin == "Zoe Kok") is (code == 200)


def test_anonymous_is_sent_to_log_in(client, make_tournament):
    t = make_tournament("results confirmed", players=16)
    player = t.registrations.first().player
    response = client.get(f"/en/tournaments/{t.pk}/players/{player.pk}/correct/")
    assert response.status_code == 302 and "login" in response["Location"]


def test_the_officer_corrects_from_the_public_pages_not_the_admin(client, make_tournament,
                                                                   officer):
    t = make_tournament("accredited", players=4)
    client.force_login(officer)
    page = client.get(f"/en/tournaments/{t.pk}/").content.decode()
    player = t.registrations.first().player
    link = f"/en/tournaments/{t.pk}/players/{player.pk}/correct/"
    assert link in page and "/admin/" not in link


def test_after_the_organizer_takes_the_sheet_only_an_officer_corrects(client, make_tournament,
                                                                      organizer, officer):
    t = make_tournament("results confirmed", players=16)
    player = t.registrations.first().player
    url = f"/en/tournaments/{t.pk}/players/{player.pk}/correct/"
    client.force_login(officer)
    assert client.get(f"/en/tournaments/{t.pk}/ema-results.csv").status_code == 200
    t.refresh_from_db()
    assert t.ema_exported_at is None  # an officer's download is no export
    client.force_login(organizer)
    assert client.get(url).status_code == 200
    assert client.get(f"/en/tournaments/{t.pk}/ema-results.csv").status_code == 200
    t.refresh_from_db()
    assert t.ema_exported_at is not None
    assert _log("tournaments.tournament.ema_sheet").count() == 1
    assert client.get(url).status_code == 403
    with pytest.raises(TournamentError) as error:
        services.player_correct(tournament=t, player=player, user=organizer, first_name="A",
                                last_name="B", country="NL", ema_number="")
    assert error.value.code == "corrections_closed"
    client.force_login(officer)
    client.post(url, {"first_name": "Ola", "last_name": "Berg", "country": "NO",
                      "ema_number": ""})
    assert Player.objects.get(pk=player.pk).name_latin == "Ola Berg"


def test_a_player_of_another_tournament_is_not_corrected_here(make_tournament, organizer):
    t = make_tournament("accredited", players=4)
    stranger = Player.objects.create(name_latin="Not Here", country="NL")
    with pytest.raises(TournamentError) as error:
        services.player_correct(tournament=t, player=stranger, user=organizer, first_name="A",
                                last_name="B", country="NL", ema_number="")
    assert error.value.code == "player_not_registered"


def _member_without_number(player: Player) -> None:
    regular, _ = MembershipType.objects.get_or_create(kind="regular")
    player.member = Member.objects.create(
        name_native="Анна Ли", name_latin="Anna Lee", membership_number=77,
        membership_type=regular)
    player.save()


def test_the_sheets_refusal_lists_each_player_with_the_link_to_fix_it(client, make_tournament,
                                                                     organizer, officer):
    t = make_tournament("results confirmed", players=16)
    services.tournament_mers_set(tournament=t, user=officer, mers=True, mers_weight=2,
                                 reason="as the EMA gave it")
    player = TournamentResult.objects.filter(tournament=t).order_by("rank").first().player
    _member_without_number(player)
    client.force_login(organizer)
    download = client.get(f"/en/tournaments/{t.pk}/ema-results.xlsx")
    assert download.status_code == 302
    assert download["Location"] == f"/en/tournaments/{t.pk}/ema-results/"
    refusal = client.get(download["Location"])
    assert refusal.status_code == 409
    fix = f"/en/tournaments/{t.pk}/players/{player.pk}/correct/?next=sheet"
    assert fix in refusal.content.decode()
    t.refresh_from_db()
    assert t.ema_exported_at is None  # a refused sheet is not taken
    fixed = client.post(fix.replace("?next=sheet", ""), {
        "first_name": "Anna", "last_name": "Lee", "country": "NL", "ema_number": "04010077",
        "next": "sheet"})
    assert fixed.status_code == 302 and fixed["Location"] == f"/en/tournaments/{t.pk}/ema-results/"
    sheet = client.get(fixed["Location"])
    assert sheet.status_code == 200
    assert "<td>Anna</td><td>Lee</td><td>04010077</td>" in sheet.content.decode()
    csv = client.get(f"/en/tournaments/{t.pk}/ema-results.csv").content.decode()
    assert "Anna,Lee,04010077" in csv


def test_the_sheets_page_only_for_its_organizer_and_officers(client, make_tournament,
                                                             member_user, other_organizer):
    t = make_tournament("results confirmed", players=16)
    for user in (member_user, other_organizer):
        client.force_login(user)
        assert client.get(f"/en/tournaments/{t.pk}/ema-results/").status_code == 403


# the entry form of a MERS tournament


def test_a_mers_tournament_asks_for_the_ema_number_or_none_yet(entries_tournament, make_user,
                                                               officer):
    t = entries_tournament()
    services.tournament_mers_set(tournament=t, user=officer, mers=True, mers_weight=1,
                                 reason="as the EMA gave it")
    with pytest.raises(TournamentError) as error:
        services.entry_create(tournament=t, user=make_user(), first_name="Jan",
                              last_name="Smit", country="NL")
    assert (error.value.code, error.value.field) == ("ema_number_asked", "ema_number")
    assert not Entry.objects.filter(tournament=t).exists()
    none_yet = services.entry_create(tournament=t, user=make_user(), first_name="Jan",
                                     last_name="Smit", country="NL", ema_number_none=True)
    assert none_yet.ema_number_none and none_yet.ema_number == ""
    given = services.entry_create(tournament=t, user=make_user(), first_name="Eva",
                                  last_name="Kok", country="NL", ema_number="4010003",
                                  ema_number_none=True)
    assert given.ema_number == "04010003" and not given.ema_number_none


def test_the_mers_entry_form_says_why_and_the_api_takes_none_yet(client, entries_tournament,
                                                                 make_user, officer):
    t = entries_tournament()
    plain = make_user()
    client.force_login(plain)
    page = client.get(f"/en/tournaments/{t.pk}/entrants/").content.decode()
    assert "ema_number_none" not in page  # not a MERS tournament
    services.tournament_mers_set(tournament=t, user=officer, mers=True, mers_weight=1,
                                 reason="as the EMA gave it")
    page = client.get(f"/en/tournaments/{t.pk}/entrants/").content.decode()
    assert 'name="ema_number_none"' in page and "counts in the EMA ranking" in page
    refused = client.post(f"/en/tournaments/{t.pk}/enter/", {
        "first_name": "Jan", "last_name": "Smit", "country": "NL"})
    assert "I have no EMA number yet" in refused.content.decode()
    assert not Entry.objects.filter(tournament=t).exists()
    api = token_client(make_user())
    response = api.post(f"/api/v1/tournaments/{t.pk}/entries", {
        "first_name": "Eva", "last_name": "Kok", "country": "NL"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "ema_number"
    response = api.post(f"/api/v1/tournaments/{t.pk}/entries", {
        "first_name": "Eva", "last_name": "Kok", "country": "NL", "ema_number_none": True},
        format="json")
    assert response.status_code == 201
