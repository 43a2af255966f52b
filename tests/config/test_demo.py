"""The demo federation: loaded through the services into an empty site, once, and what it
loads is what the site's pages and the volunteers' dashboard then show."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from config import demo
from federation.models import DuesInvoice, Member
from ratings.models import RatingEntry, RatingPeriod
from rulebook.scoring import score
from tournaments.models import HandRecord, Player, Tournament

pytestmark = pytest.mark.django_db

TODAY = date(2026, 11, 20)


@pytest.fixture(scope="module")
def _demo_module(django_db_setup, django_db_blocker):
    """Loaded once for the module inside a transaction rolled back at its end; each test
    runs in its own savepoint within it (the `db` fixture)."""
    from django.db import transaction

    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            yield demo.demo_federation_load(today=TODAY)
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@pytest.fixture
def loaded(_demo_module, db):
    return _demo_module


def test_the_demo_is_loaded_through_the_services(loaded) -> None:
    assert loaded.created
    approved = Member.objects.filter(application=Member.Application.APPROVED)
    assert approved.count() == len(demo.MEMBERS) + len(demo.NEWER_MEMBERS)
    assert Member.objects.filter(application=Member.Application.PENDING).count() == len(
        demo.APPLICANTS)
    # approval issued this year's invoices; a third of them are still unpaid
    invoices = DuesInvoice.objects.filter(membership_year__year=2026,
                                          member__name_latin__in=[m[1] for m in demo.MEMBERS])
    assert invoices.count() == len(demo.MEMBERS)
    unpaid = [i for i in invoices if not i.payments.exists()]
    assert len(unpaid) == len(range(0, len(demo.MEMBERS), 3))
    # every past tournament was played, confirmed and rated
    states = dict(Tournament.objects.values_list("name", "state"))
    for name, *_ in demo.PAST:
        assert states[name] == Tournament.State.RESULTS_CONFIRMED
    assert states["Moscow Winter Cup"] == Tournament.State.ACCREDITED
    assert states["Amsterdam Spring Open"] == Tournament.State.SUBMITTED
    assert states["Paris Summer Cup (draft)"] == Tournament.State.DRAFT
    assert RatingEntry.objects.exists()
    # the latest month's list waits for the officer, the earlier ones are published
    periods = list(RatingPeriod.objects.filter(ruleset="mcr", has_results=True)
                   .order_by("period").values_list("published", flat=True))
    # with the championship's month and the imported seasons' (the result abroad: not rated)
    assert periods == [True] * (len(demo.PAST) + len(demo.IMPORTED)) + [False]
    # the guests from abroad play without a membership, as the locals of the result abroad
    assert Player.objects.filter(member__isnull=True).count() == len(demo.GUESTS) + len(
        demo.ABROAD_LOCALS)


def test_mcr_and_hkos_tournaments_make_two_different_rating_lists(loaded, client) -> None:
    from ratings.selectors import latest_period_with_results, period_list

    hkos = Tournament.objects.filter(ruleset="hkos", state=Tournament.State.RESULTS_CONFIRMED)
    assert sorted(hkos.values_list("name", flat=True)) == sorted(n for n, *_ in demo.PAST_HKOS)
    lists = {}
    for ruleset in ("mcr", "hkos"):
        period = latest_period_with_results(ruleset)
        lists[ruleset] = [(e.player_id, round(e.rating, 6))
                          for e in period_list(period, ruleset)]
    assert lists["mcr"] and lists["hkos"] and lists["mcr"] != lists["hkos"]
    # HKOS history rows come from HKOS tournaments only
    names = set(Tournament.objects.filter(
        pk__in={t for e in RatingEntry.objects.filter(ruleset="hkos") for t in e.tournaments}
    ).values_list("name", flat=True))
    assert names == {n for n, *_ in demo.PAST_HKOS}
    page = client.get("/en/ratings/?ruleset=hkos").content.decode()
    assert "Hong Kong Old Style" in page


def test_clubs_publish_a_contact_and_rank(loaded, client) -> None:
    from federation.models import Club

    tiles = Club.objects.get(name="Tulip Tiles")
    page = client.get(f"/en/clubs/{tiles.pk}/").content.decode()
    assert "tiles@example.org" in page and 'id="club-ratings-mcr"' in page
    assert client.get("/en/clubs/").status_code == 200


def test_an_upcoming_tournament_has_paid_unpaid_and_waiting_entries(loaded) -> None:
    from tournaments import selectors as tournament_selectors

    tournament = Tournament.objects.get(name="Utrecht Entry Open")
    assert tournament.state == Tournament.State.ACCREDITED and tournament.start_date > TODAY
    rows = tournament_selectors.tournament_entries(tournament)
    states = [(r.entry.status, r.paid) for r in rows]
    assert states == [("entered", True), ("entered", True), ("entered", False),
                      ("waiting", False)]
    assert rows[2].entry.member is None and rows[2].entry.fee == Decimal("30.00")
    assert rows[0].entry.fee == Decimal("20.00")


def test_every_hand_was_scored_by_the_core(loaded) -> None:
    hands = HandRecord.objects.all()
    assert hands.count() == loaded.hands > 0
    for hand in hands[:60]:
        # who discarded changes the payments, not the points
        won = {"self_drawn": True} if hand.discarder_id is None else {"from": "left"}
        assert hand.points == score(hand.tiles, **hand.context, **won).total, hand.tiles
        assert sum(hand.deltas.values()) == 0


def test_a_second_load_changes_nothing_and_a_used_site_is_refused(loaded) -> None:
    counts = (Member.objects.count(), Tournament.objects.count(), HandRecord.objects.count())
    assert not demo.demo_federation_load(today=TODAY).created
    assert counts == (Member.objects.count(), Tournament.objects.count(),
                      HandRecord.objects.count())


def test_the_volunteers_log_in_and_find_their_work(client, loaded) -> None:
    assert client.login(username="treasurer@example.org", password=demo.DEMO_PASSWORD)
    assert client.get("/admin/").status_code == 200
    client.logout()
    assert client.login(username="officer@example.org", password=demo.DEMO_PASSWORD)
    html = client.get("/admin/").content.decode()
    assert "Amsterdam Spring Open" in client.get(
        "/admin/tournament_admin/?state=submitted").content.decode()
    assert "dashboard-task" in html


def test_the_demo_has_news_and_a_draft_waiting_for_an_editor(client, loaded) -> None:
    from content.models import NewsPage

    published = NewsPage.objects.live()
    for language in ("ru", "en", "zh-hans", "fr", "nl"):  # issue 38: every language has news
        assert published.filter(slug__endswith="-results",
                                locale__language_code=language).count() == len(
            demo.PAST) + len(demo.PAST_HKOS) + 1
    assert NewsPage.objects.filter(live=False, slug__endswith="-accredited").exists()
    html = client.get("/en/news/").content.decode()
    assert "Dues for next year" in html and "Results of" in html
    ru = client.get("/ru/news/").content.decode()
    assert ru.count('class="news-title"') == len(demo.PAST) + len(demo.PAST_HKOS) + 2


def test_a_tournament_went_as_real_ones_go(loaded) -> None:
    """Issue 23: a withdrawal after session 3, a substitute at the table, and the last
    sessions entered at the tables as tiles, agreed by the four players of each table."""
    from tournaments.models import Session, TableEntry

    tournament = Tournament.objects.get(name=demo.TABLE_SIDE)
    assert tournament.state == Tournament.State.RESULTS_CONFIRMED
    (withdrawn,) = tournament.registrations.filter(withdrawn_from__isnull=False)
    assert withdrawn.withdrawn_from == demo.WITHDRAWN_FROM and withdrawn.withdrawal_reason
    (substitute,) = tournament.registrations.filter(substitute=True)
    seated = set(tournament.seating.filter(player=substitute.player)
                 .values_list("session", flat=True))
    assert seated == set(range(demo.WITHDRAWN_FROM, demo.SESSIONS + 1))
    sources = dict(Session.objects.filter(tournament=tournament)
                   .values_list("number", "source"))
    assert {sources[n] for n in range(demo.WITHDRAWN_FROM, demo.SESSIONS + 1)} == {"table"}
    entries = TableEntry.objects.filter(tournament=tournament)
    assert entries.count() == 4 * (demo.SESSIONS - demo.WITHDRAWN_FROM + 1)
    assert set(entries.values_list("state", flat=True)) == {"agreed"}
    at_the_tables = HandRecord.objects.filter(tournament=tournament,
                                              session__gte=demo.WITHDRAWN_FROM)
    assert at_the_tables.count() == entries.count() * demo.HANDS_PER_TABLE
    assert all(h.tiles and h.fans for h in at_the_tables)
    # the substitute's games are never rated; the withdrawn player's three sessions are
    month = tournament.start_date.strftime("%Y-%m")
    assert not RatingEntry.objects.filter(player=substitute.player, period=month).exists()
    assert RatingEntry.objects.get(player=withdrawn.player, period=month).games


def test_the_demo_has_one_sent_mailing(client, loaded) -> None:
    from federation.models import Mailing

    mailing = Mailing.objects.get(key__isnull=True)  # the others: announcements to followers
    assert mailing.state == Mailing.State.SENT
    assert {t.language for t in mailing.translations.all()} == {"ru", "en"}
    assert mailing.deliveries.filter(state="sent").count() == mailing.deliveries.count() > 0
    assert client.login(username="editor@example.org", password=demo.DEMO_PASSWORD)
    page = client.get(f"/admin/mailings/{mailing.pk}/").content.decode()
    assert "Dues for next year" in client.get(f"/admin/mailings/{mailing.pk}/?lang=en"
                                              ).content.decode()
    assert 'id="mailing-progress"' in page and 'id="mailing-send"' not in page



def test_the_demo_federation_looks_alive(loaded) -> None:
    """Issue 28: 40+ rated players, three or more clubs, a season of tournaments."""
    from federation.models import Club

    rated = RatingEntry.objects.filter(ruleset="mcr").values("player").distinct().count()
    assert rated >= 40
    assert Club.objects.filter(members__isnull=False).distinct().count() >= 3
    played = Tournament.objects.filter(state=Tournament.State.RESULTS_CONFIRMED)
    assert played.count() >= len(demo.PAST) + 1
    championship = played.get(name=demo.CHAMPIONSHIP[0])
    assert championship.registrations.count() == demo.CHAMPIONSHIP[5]
    # every newer member played it, so each has a rating
    newer = Member.objects.filter(name_latin__in=[m[1] for m in demo.NEWER_MEMBERS])
    assert newer.count() == len(demo.NEWER_MEMBERS)
    assert RatingEntry.objects.filter(player__member__in=newer).values(
        "player").distinct().count() == len(demo.NEWER_MEMBERS)


def _log_in(client, email: str, password: str) -> None:
    """Through the site's login form, as a person would."""
    response = client.post("/en/accounts/login/", {"login": email, "password": password})
    assert response.status_code == 302, f"{email} could not log in"


#: every role the README names: (login, password, the page its work is on, what it shows there)
ROLES = [
    ("member", lambda: demo.DEMO_MEMBER, "/en/members/me/", "Ivan Sokolov"),
    ("club officer", lambda: "club@example.org", "/en/members/clubs/", "Neva Dragons"),
    ("treasurer", lambda: "treasurer@example.org", "/admin/invoices/", "dues invoices"),
    ("membership officer", lambda: "membership@example.org",
     "/admin/membership/applications/", "Lotte de Boer"),
    ("tournament organizer", lambda: "organizer@example.org", "/en/tournaments/",
     "Paris Summer Cup (draft)"),
    ("accreditation officer", lambda: "officer@example.org",
     "/admin/tournament_admin/?state=submitted", "Amsterdam Spring Open"),
    ("editor", lambda: "editor@example.org", "/admin/mailings/", demo.NEWS["ru"][0]),
    ("administrator", lambda: demo.ADMIN_EMAIL, "/admin/users/?q=member44", "member44"),
]


@pytest.mark.parametrize(("role", "email", "page", "shown"), ROLES, ids=[r[0] for r in ROLES])
def test_every_role_logs_in_and_finds_its_work(client, loaded, role, email, page, shown
                                               ) -> None:
    email = email()
    password = demo.ADMIN_PASSWORD if email == demo.ADMIN_EMAIL else demo.DEMO_PASSWORD
    _log_in(client, email, password)
    response = client.get(page)
    assert response.status_code == 200, (role, page, response.status_code)
    assert shown in response.content.decode(), (role, page)


def test_the_club_officer_sees_his_club_only(client, loaded) -> None:
    from federation.models import Club

    _log_in(client, "club@example.org", demo.DEMO_PASSWORD)
    mine = Club.objects.get(name=demo.CLUBS[demo.CLUB_OFFICER_CLUB][0])
    page = client.get(f"/en/members/clubs/{mine.pk}/").content.decode()
    assert "Dmitry Volkov" in page and "Anna Petrova" not in page
    other = Club.objects.exclude(pk=mine.pk).first()
    assert client.get(f"/en/members/clubs/{other.pk}/").status_code == 403
    assert client.get("/admin/").status_code in (302, 403)  # no staff access


def test_only_the_administrator_reaches_the_users(client, loaded) -> None:
    _log_in(client, "treasurer@example.org", demo.DEMO_PASSWORD)
    assert client.get("/admin/users/").status_code in (302, 403)


def test_the_readme_names_a_login_for_every_role() -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for email in [*demo.VOLUNTEERS, demo.DEMO_MEMBER, demo.ADMIN_EMAIL]:
        assert email in readme, email
    assert demo.DEMO_PASSWORD in readme and demo.ADMIN_PASSWORD in readme


def test_two_past_seasons_and_a_result_abroad_were_imported(loaded) -> None:
    """Issue 35: final standings only, confirmed at once; abroad counts in the EMA ranking
    of our players, not in our rating list."""
    from ratings.selectors.ema import ema_player

    imported = Tournament.objects.filter(results_kind="final")
    assert imported.count() == len(demo.IMPORTED) + 1
    assert set(imported.values_list("state", flat=True)) == {Tournament.State.RESULTS_CONFIRMED}
    abroad = imported.get(abroad=True)
    assert abroad.name == demo.ABROAD[0] and not abroad.rated
    assert all(abroad.pk not in e.tournaments for e in RatingEntry.objects.only("tournaments"))
    ours = abroad.final_results.filter(player__member__isnull=False).first().player
    calculation = ema_player(ours, "mcr", TODAY)
    assert abroad.pk in calculation.tournaments


def test_a_played_tournament_is_mers_and_the_ema_ranking_lists_its_players(loaded, client
                                                                          ) -> None:
    """Issue 38, item 4: the officer recorded the EMA's certification after accrediting one
    of the tournaments played on the site, so the EMA ranking page shows players."""
    from ratings.selectors.ema import ema_ranking

    name, weight = demo.MERS_PLAYED
    played = Tournament.objects.get(name=name)
    assert played.mers and played.mers_weight == weight
    assert played.results_kind != Tournament.ResultsKind.FINAL  # played here, not imported
    ranking = ema_ranking("mcr", TODAY)
    assert ranking
    listed = {r.score.player for r in ranking}
    assert listed & set(played.final_results.values_list("player_id", flat=True))
    first = Player.objects.get(pk=ranking[0].score.player)
    page = client.get(f"/en/ratings/ema/?ruleset=mcr&date={TODAY.isoformat()}")
    assert page.status_code == 200
    assert str(first) in page.content.decode()


def test_demo_seatings_are_published(loaded):
    """Where do I sit and the room screen show the demo's seatings (decision 0730)."""
    seated = Tournament.objects.filter(seating__isnull=False).distinct()
    assert seated.exists()
    for tournament in seated:
        assert tournament.seating_published == tournament.sessions, tournament.name


def test_next_year_is_billed_in_roubles_with_the_payment_qr(loaded, client, settings) -> None:
    """Issue 42: the demo shows a membership year in roubles; its invoice carries the
    Russian payment QR code with the development settings' sample account."""
    import importlib

    from federation.models import MembershipYear

    dev = importlib.import_module("config.settings.dev")
    settings.MEMBERSHIP_BANK_ACCOUNT_RUB = dev.MEMBERSHIP_BANK_ACCOUNT_RUB
    year = MembershipYear.objects.get(year=TODAY.year + 1)
    assert year.currency == "RUB" and year.fees.get(
        membership_type__kind="regular").amount == Decimal("3500.00")
    invoice = DuesInvoice.objects.get(membership_year=year)
    assert invoice.member.user.email == demo.EARLY_PAYER and invoice.currency == "RUB"
    client.force_login(invoice.member.user)
    page = client.get(f"/ru/members/invoices/{invoice.number}/").content.decode()
    assert 'id="ru-payment-qr"' in page and "3500,00 RUB" in page
