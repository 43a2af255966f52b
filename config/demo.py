"""A demo federation to try the site with: clubs, members and their dues, tournaments
whose hands are scored by the core, and the ratings that follow (decision 0007).

``manage.py load_demo`` (``make demo``) runs :func:`demo_federation_load` on an empty
site. Everything goes through the services, as the federation's volunteers would do it:
members apply and are approved (the invoices are issued), the treasurer records payments,
organizers submit tournaments, the officer accredits them, players are registered, the
seating is drawn, the results are posted hand by hand and confirmed, and the confirmations
rate the players. One past tournament went as real ones go (issue 23): a player withdrew
after session 3, a substitute filled the table, and the last sessions were entered at the
tables, hand by hand as tiles, and agreed by the four players of each table. The people are
invented; their e-mail addresses are at example.org.
"""

from __future__ import annotations

import dataclasses
import random
import uuid
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from functools import cache
from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.db import transaction

from content.models import NewsIndexPage, NewsPage
from content.news import news_mailing_texts
from content.services import site_skeleton_load
from federation import selectors
from federation import services as membership
from federation.models import Club, Member, MembershipFee, MembershipType, MembershipYear
from ratings.models import RatingPeriod
from ratings.rankings import rerating_in_place
from ratings.rules.method import period_label, period_of
from ratings.selectors import RULESETS
from ratings.services import rating_period_publish
from rulebook.scoring.standings import WINDS
from tournaments import services as tournaments
from tournaments.ema_export import HEADER
from tournaments.models import Player, TableEntry, Tournament
from tournaments.rules.results_files import parse_results_json

DEMO_PASSWORD = "mahjong-demo"
#: the volunteers, each in their role's group (README, "Demo federation")
VOLUNTEERS = {
    "treasurer@example.org": membership.ROLE_TREASURER,
    "membership@example.org": membership.ROLE_MEMBERSHIP_OFFICER,
    "officer@example.org": tournaments.ROLE_OFFICER,
    "organizer@example.org": tournaments.ROLE_ORGANIZER,
    "editor@example.org": membership.ROLE_EDITORS,
    "club@example.org": membership.ROLE_CLUB_OFFICER,
}
ORGANIZER = "organizer@example.org"
#: the club officer's club (by its index in CLUBS): he sees its members and no one else's
CLUB_OFFICER_CLUB = 1
#: the administrator (also what ``create_demo_admin``, part of ``make run``, creates)
ADMIN_EMAIL = "admin@example.org"
ADMIN_PASSWORD = "mahjong-admin"
#: the demo member named in the README: dues paid, a club, rated
DEMO_MEMBER = "member02@example.org"

#: (name, city, the contact the club publishes on its page)
CLUBS = [
    ("East Wind", "Moscow", "eastwind@example.org"),
    ("Neva Dragons", "Saint Petersburg", "Thursdays 19:00, Nevsky 1 — dragons@example.org"),
    ("Tulip Tiles", "Amsterdam", "tiles@example.org, +31 20 000 0000"),
    ("Vent d'Est", "Paris", ""),
]
#: (native name, Latin name, country, club index or None, public listing)
MEMBERS = [
    ("Анна Петрова", "Anna Petrova", "RU", 0, True),
    ("Иван Соколов", "Ivan Sokolov", "RU", 0, True),
    ("Ольга Смирнова", "Olga Smirnova", "RU", 0, True),
    ("Сергей Орлов", "Sergei Orlov", "RU", 0, False),
    ("Мария Кузнецова", "Maria Kuznetsova", "RU", 0, True),
    ("Дмитрий Волков", "Dmitry Volkov", "RU", 1, True),
    ("Елена Лебедева", "Elena Lebedeva", "RU", 1, True),
    ("Алексей Новиков", "Alexei Novikov", "RU", 1, True),
    ("Татьяна Морозова", "Tatiana Morozova", "RU", 1, True),
    ("Николай Павлов", "Nikolai Pavlov", "RU", 1, False),
    ("Jan de Vries", "Jan de Vries", "NL", 2, True),
    ("Emma Jansen", "Emma Jansen", "NL", 2, True),
    ("Pieter Bakker", "Pieter Bakker", "NL", 2, True),
    ("Sanne Visser", "Sanne Visser", "NL", 2, True),
    ("Marie Dubois", "Marie Dubois", "FR", 3, True),
    ("Luc Martin", "Luc Martin", "FR", 3, True),
    ("Camille Bernard", "Camille Bernard", "FR", 3, True),
    ("Hugo Petit", "Hugo Petit", "FR", 3, True),
    ("Виктор Зайцев", "Viktor Zaitsev", "RU", None, True),
    ("Ирина Белова", "Irina Belova", "RU", None, True),
]
#: applications the membership officer has not decided yet
APPLICANTS = [
    ("Павел Егоров", "Pavel Egorov", "RU", 0),
    ("Lotte de Boer", "Lotte de Boer", "NL", 2),
]
#: players from abroad without a membership
GUESTS = [("Li Wei", "CN"), ("Chen Jing", "CN"), ("Wang Fang", "CN"), ("Kenji Sato", "JP")]
FEES = {"regular": "60.00", "junior": "30.00", "senior": "40.00", "family": "100.00",
        "honorary": "0.00"}

SESSIONS = 6
HANDS_PER_TABLE = 4
#: past tournaments: (name, city, country, club index, months before today, players)
PAST = [
    ("Moscow Spring Open", "Moscow", "RU", 0, 8, 20),
    ("Amsterdam Tulip Cup", "Amsterdam", "NL", 2, 6, 16),
    ("White Nights Open", "Saint Petersburg", "RU", 1, 4, 20),
    ("Paris Autumn Tournament", "Paris", "FR", 3, 2, 16),
    ("Neva Table Cup", "Saint Petersburg", "RU", 1, 1, 16),
]
#: the past tournament the EMA certified (MERS) after its accreditation, and its weight: the
#: EMA ranking page shows its players (issue 38, item 4)
MERS_PLAYED = ("White Nights Open", Decimal("1.00"))
#: the past tournament with a withdrawal, a substitute and entry at the table
TABLE_SIDE = "Neva Table Cup"
WITHDRAWN_FROM = 4  # the player's last session was the third
#: past Hong Kong Old Style tournaments (their own rating list, decision 0805): the game
#: points of each seat as the organizer's sheet gives them, no hands
PAST_HKOS = [
    ("Neva Old Style Evening", "Saint Petersburg", "RU", 1, 7, 12),
    ("Amsterdam Old Style Cup", "Amsterdam", "NL", 2, 3, 12),
]
#: two past seasons kept only as final standings, imported from their EMA results sheets
#: (decision 0810): (name, city, months before today, players); the year is added
IMPORTED = [
    ("Moscow Open", "Moscow", 26, 16),
    ("Saint Petersburg Cup", "Saint Petersburg", 24, 12),
    ("Moscow Open", "Moscow", 14, 16),
    ("Saint Petersburg Cup", "Saint Petersburg", 12, 12),
]
#: a result abroad: another country's MERS tournament some of our members played
ABROAD = ("Copenhagen Mahjong Open", "Copenhagen", "DK", 10, 8)
ABROAD_LOCALS = [("Freja", "Nielsen"), ("Mads", "Jensen"), ("Ida", "Hansen"),
                 ("Oscar", "Pedersen")]
RELATIVE = {"right": 1, "opposite": 2, "left": 3}
CENT = Decimal("0.01")


class DemoError(Exception):
    """The demo is for an empty site: what is already there."""


@dataclass(frozen=True)
class DemoReport:
    created: bool
    clubs: int = 0
    members: int = 0
    tournaments: int = 0
    hands: int = 0


def demo_federation_load(*, today: date | None = None, seed: int = 2026) -> DemoReport:
    """Load the demo federation, once: a second run changes nothing. Refused on a site
    that already has members or tournaments of its own (:class:`DemoError`)."""
    user_model = get_user_model()
    if user_model.objects.filter(email=ORGANIZER).exists():
        return DemoReport(created=False)
    if Member.objects.exists() or Tournament.objects.exists():
        raise DemoError("This site already has members or tournaments: the demo federation "
                        "is loaded only into an empty site.")
    today = today or selectors.today()
    rng = random.Random(seed)
    # the lists are published in the same transaction: the ratings are computed in it
    with rerating_in_place(), transaction.atomic():
        site_skeleton_load()  # the news index the tournaments' draft posts go to
        membership.roles_setup()
        tournaments.roles_setup()
        people = {email: _account(email, role) for email, role in VOLUNTEERS.items()}
        clubs = [Club.objects.create(name=name, city=city, public_contact=contact)
                 for name, city, contact in CLUBS]
        members = _members(clubs, people, today, rng)
        _imported_seasons(members, people, today, rng)
        hands = _past_tournaments(clubs, members, people, today, rng)
        members += _newer_members(clubs, people, today)
        hands += _championship(clubs, members, people, today, rng)
        _club_officer(clubs, people)
        _next_year_in_roubles(people, today)
        demo_admin_create()
        _coming_tournaments(clubs, members, people, today)
        _publish_all_but_the_latest_list(people["officer@example.org"], today)
        _news(today)
        _mailing(people["editor@example.org"])
    return DemoReport(created=True, clubs=len(clubs), members=Member.objects.count(),
                      tournaments=Tournament.objects.count(), hands=hands)


@cache
def _demo_password_hash() -> str:
    """Hashed once: the demo's 26 accounts share the password (hashing takes a while)."""
    return make_password(DEMO_PASSWORD)


def _account(email: str, role: str | None = None, language: str = "en") -> Any:
    user = get_user_model().objects.create(
        username=email.split("@")[0], email=email, password=_demo_password_hash(),
        language=language, is_staff=role not in (None, tournaments.ROLE_ORGANIZER, membership.ROLE_CLUB_OFFICER),
    )
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    if role:
        user.groups.add(Group.objects.get(name=role))
    return user


def _membership_year(today: date) -> MembershipYear:
    year = selectors.membership_year_for(today)
    if year is None:
        year = MembershipYear.objects.create(
            year=today.year, starts_on=date(today.year, 1, 1), ends_on=date(today.year, 12, 31))
    for membership_type in MembershipType.objects.filter(kind__in=FEES):
        MembershipFee.objects.get_or_create(
            membership_year=year, membership_type=membership_type,
            defaults={"amount": Decimal(FEES[membership_type.kind])})
    return year


#: next year's dues are in roubles (issue 42): paid from Russian bank accounts with the
#: payment QR code, or online through YooKassa
ROUBLE_FEES = {"regular": "3500.00", "junior": "1750.00", "senior": "2300.00",
               "family": "6000.00", "honorary": "0.00"}
#: who already has next year's invoice: the README's member login
EARLY_PAYER = "member02@example.org"


def _next_year_in_roubles(people: dict[str, Any], today: date) -> None:
    """Next year's membership year, in roubles, and its first invoice (the treasurer sends
    the rest in December): the member's page shows it with the Russian payment QR code."""
    if MembershipYear.objects.filter(year=today.year + 1).exists():
        return
    year = MembershipYear.objects.create(
        year=today.year + 1, starts_on=date(today.year + 1, 1, 1),
        ends_on=date(today.year + 1, 12, 31), currency="RUB")
    for membership_type in MembershipType.objects.filter(kind__in=ROUBLE_FEES):
        MembershipFee.objects.create(membership_year=year, membership_type=membership_type,
                                     amount=Decimal(ROUBLE_FEES[membership_type.kind]))
    member = Member.objects.get(user__email=EARLY_PAYER)
    membership.dues_invoice_issue(member=member, membership_year=year,
                                  issued_by=people["treasurer@example.org"], today=today)


def _members(clubs: list[Club], people: dict[str, Any], today: date, rng: random.Random
             ) -> list[Member]:
    """Approved members (a third of them still owing their dues, a third half paid) and
    the open applications."""
    officer, treasurer = people["membership@example.org"], people["treasurer@example.org"]
    # (a data migration creates the types; a database emptied since may lack them)
    regular, _ = MembershipType.objects.get_or_create(kind=MembershipType.Kind.REGULAR)
    _membership_year(today)
    language = {"RU": "ru", "NL": "nl", "FR": "fr"}
    for number, (native, latin, country, club, public) in enumerate(MEMBERS):
        user = _account(f"member{number + 1:02d}@example.org", language=language[country])
        member = membership.member_apply(
            user=user, name_native=native, name_latin=latin, membership_type=regular,
            country=country, city=CLUBS[club][1] if club is not None else "",
            club=clubs[club] if club is not None else None, language=language[country],
            public_consent=public, today=today)
        # approved on the year's first day: a whole year's dues, due weeks ago
        member = membership.member_approve(member=member, approved_by=officer,
                                           today=date(today.year, 1, 1))
        invoice = member.invoices.get()
        paid_on = today - timedelta(days=rng.randrange(0, 5))
        if number % 3 == 0:
            continue  # still owing
        amount = invoice.amount if number % 3 == 1 else (invoice.amount / 2).quantize(CENT)
        membership.payment_record(invoice=invoice, amount=amount, paid_on=paid_on,
                                  method="bank_transfer", recorded_by=treasurer,
                                  reference=invoice.number, today=today)
    members = list(Member.objects.filter(application=Member.Application.APPROVED)
                   .order_by("membership_number"))
    for native, latin, country, club in APPLICANTS:
        user = _account(f"applicant-{latin.split()[-1].lower()}@example.org",
                        language=language[country])
        membership.member_apply(user=user, name_native=native, name_latin=latin,
                                membership_type=regular, country=country,
                                city=CLUBS[club][1], club=clubs[club],
                                language=language[country], public_consent=True, today=today)
    return members


def _member_entry(member: Member) -> tournaments.PlayerEntry:
    return tournaments.PlayerEntry(name=member.name_latin, country=member.country,
                                   member_number=member.membership_number)


def _entries(members: list[Member], count: int, rng: random.Random
             ) -> list[tournaments.PlayerEntry]:
    """``count`` players: the guests from abroad and members drawn at random."""
    guests = [tournaments.PlayerEntry(name=name, country=country) for name, country in GUESTS]
    return [_member_entry(m) for m in rng.sample(members, count - len(guests))] + guests


#: the win conditions a hand entered at the table gives (besides self-drawn and the discarder)
TABLE_CONTEXT = frozenset({"seat", "prevalent", "self_drawn", "from", "last_of_kind",
                           "last_tile", "kong_replacement", "robbing_kong"})


def _winning_hands(count: int, rng: random.Random, *, at_the_table: bool = False
                   ) -> list[tuple[str, dict[str, Any]]]:
    """Complete hands of the core's generator that reach the minimum, with their context
    (``at_the_table``: only conditions the table's page asks for; flowers are tiles)."""
    from rulebook.scoring import score
    from rulebook.scoring.generate import random_hands

    out: list[tuple[str, dict[str, Any]]] = []
    while len(out) < count:
        for generated in random_hands(count, seed=rng.randrange(1 << 30)):
            text = generated.hand.notation()
            if at_the_table and not set(generated.context) <= TABLE_CONTEXT:
                continue
            if score(text, **generated.context).ok:
                out.append((text, dict(generated.context)))
    return out[:count]


def _results(tournament: Tournament, rng: random.Random, sessions_played: range | None = None
             ) -> tuple[dict[str, Any], int]:
    """The results of every session (or of ``sessions_played``), hand by hand, at the
    drawn seating."""
    tables: dict[tuple[int, int], dict[str, int]] = {}
    rows = tournament.seating.all()
    if sessions_played is not None:
        rows = rows.filter(session__in=sessions_played)
    for row in rows:
        tables.setdefault((row.session, row.table), {})[row.seat] = row.player_id
    pool = iter(_winning_hands(len(tables) * HANDS_PER_TABLE, rng))
    sessions: dict[int, list[dict[str, Any]]] = {}
    for (session, table), seats in sorted(tables.items()):
        four = [seats[wind] for wind in WINDS]
        hands = []
        for _ in range(HANDS_PER_TABLE):
            tiles, context = next(pool)
            winner = rng.randrange(4)
            discarder = None
            if not context.pop("self_drawn", False):
                discarder = four[(winner + RELATIVE[context.pop("from")]) % 4]
            hands.append({"winner": four[winner], "from": discarder, "tiles": tiles,
                          "context": context})
        sessions.setdefault(session, []).append({
            "table": table, "seats": [{"player": p, "penalty": 0} for p in four],
            "hands": hands})
    body = {"sessions": [{"session": s, "tables": t} for s, t in sorted(sessions.items())]}
    return body, len(tables) * HANDS_PER_TABLE


def _points_results(tournament: Tournament, rng: random.Random) -> dict[str, Any]:
    """The results of every session as each seat's game points (a tournament that keeps
    no hands, e.g. Hong Kong Old Style), balanced at every table."""
    tables: dict[tuple[int, int], dict[str, int]] = {}
    for row in tournament.seating.all():
        tables.setdefault((row.session, row.table), {})[row.seat] = row.player_id
    sessions: dict[int, list[dict[str, Any]]] = {}
    for (session, table), seats in sorted(tables.items()):
        points = [rng.choice([-64, -32, -16, -8, 8, 16, 32, 64]) for _ in range(3)]
        points.append(-sum(points))
        sessions.setdefault(session, []).append({"table": table, "seats": [
            {"player": seats[wind], "game_points": p, "penalty": 0}
            for wind, p in zip(WINDS, points, strict=True)]})
    return {"sessions": [{"session": s, "tables": t} for s, t in sorted(sessions.items())]}


def _tournament(name: str, city: str, country: str, club: Club, start: date, players: int,
                people: dict[str, Any], *, until: str = Tournament.State.ACCREDITED,
                extra: dict[str, Any] | None = None, ruleset: str = "mcr") -> Tournament:
    """A two-day tournament (MCR unless said) of the demo organizer, taken as far as
    ``until``: draft, submitted, or accredited by the officer."""
    organizer = people[ORGANIZER]
    tournament = tournaments.tournament_create(organizer=organizer, data={
        "name": name, "start_date": start, "end_date": start + timedelta(days=1),
        "city": city, "country": country, "club": club, "ruleset": ruleset,
        "sessions": SESSIONS, "planned_players": players, **(extra or {}),
    })
    if until == Tournament.State.DRAFT:
        return tournament
    tournament, _checks = tournaments.tournament_submit(tournament=tournament, user=organizer)
    if until == Tournament.State.SUBMITTED:
        return tournament
    return tournaments.tournament_decide(tournament=tournament,
                                         user=people["officer@example.org"],
                                         decision="accredit")


def _standings_sheet(rows: list[tuple[str, str, str, str]], rng: random.Random) -> bytes:
    """An EMA results sheet (as this site exports it) of ``rows`` (first name, last name,
    EMA number, country) in a random finishing order."""
    order = rows[:]
    rng.shuffle(order)
    lines = [",".join(HEADER)]
    table_points = sorted((rng.randint(0, 96) / 4 for _ in order), reverse=True)
    for place, ((first, last, ema, country), tp) in enumerate(
            zip(order, table_points, strict=True), start=1):
        lines.append(f"{place},{first},{last},{ema},{tp:g},{rng.randint(-150, 150)},"
                     f"{'yes' if ema else 'no'},{country}")
    return "\n".join(lines).encode()


def _imported_seasons(members: list[Member], people: dict[str, Any], today: date,
                      rng: random.Random) -> None:
    """Two seasons before the site, imported from their final standings, and a result
    abroad: the members' players are known by their EMA numbers first."""
    officer = people["officer@example.org"]
    for number, member in enumerate(members, start=1):
        Player.objects.create(member=member, name_latin=member.name_latin,
                              name_native=member.name_native, country=member.country,
                              ema_number=f"{int(member.country == 'RU') * 13 or 4:02d}"
                                         f"{number:06d}")
    known = {p.member_id: p for p in Player.objects.filter(member__in=members)}

    def row(member: Member) -> tuple[str, str, str, str]:
        first, last = known[member.pk].latin_first_last
        return first, last, known[member.pk].ema_number, member.country

    guests = [(*name.split(" ", 1), "", country) for name, country in GUESTS]
    for name, city, months_ago, players in IMPORTED:
        start = today - timedelta(days=30 * months_ago)
        field = [row(m) for m in rng.sample(members, players - len(guests))] + guests
        sheet = _standings_sheet(field, rng)
        data = {"name": f"{name} {start.year}", "ruleset": "mcr",
                "start_date": start.isoformat(),
                "end_date": (start + timedelta(days=1)).isoformat(), "city": city,
                "country": "RU", "mers": "true", "mers_weight": "1"}
        # the guests have no EMA number: the officer says they are the guests already known
        preview = tournaments.tournament_import(user=officer, content=sheet, data=data,
                                                dry_run=True)
        tournaments.tournament_import(
            user=officer, content=sheet, filename="ema-results.csv", data=data,
            choices={item["row"]: item["candidates"][0]["id"] for item in preview.review})
    name, city, country, months_ago, ours = ABROAD
    start = today - timedelta(days=30 * months_ago)
    field = [row(m) for m in rng.sample(members, ours)]
    field += [(first, last, "", "DK") for first, last in ABROAD_LOCALS]
    tournaments.tournament_import(
        user=officer, content=_standings_sheet(field, rng), filename="ema-results.csv",
        data={"name": name, "ruleset": "mcr", "start_date": start.isoformat(),
              "end_date": (start + timedelta(days=1)).isoformat(), "city": city,
              "country": country, "mers": "true", "mers_weight": "1.5", "abroad": "true"})


def _past_tournaments(clubs: list[Club], members: list[Member], people: dict[str, Any],
                      today: date, rng: random.Random) -> int:
    """The past tournaments, played, confirmed and rated; the number of hands played."""
    organizer = people[ORGANIZER]
    hands = 0
    for name, city, country, club, months_ago, players in PAST:
        start = today - timedelta(days=30 * months_ago)
        tournament = _tournament(name, city, country, clubs[club], start, players, people)
        if name == MERS_PLAYED[0]:
            # the EMA's certification came after the accreditation: the officer records it
            tournament = tournaments.tournament_mers_set(
                tournament=tournament, user=people["officer@example.org"], mers=True,
                mers_weight=MERS_PLAYED[1], reason="The weight the EMA gave")
        if name == TABLE_SIDE:
            hands += _played_at_the_tables(tournament, members, people, rng)
            continue
        tournaments.players_register(tournament=tournament, user=organizer,
                                     entries=_entries(members, players, rng))
        tournaments.seating_draw(tournament=tournament, user=organizer,
                                 seed=rng.randrange(1 << 30))
        tournaments.seating_publish(tournament=tournament, user=organizer,
                                    through=tournament.sessions)
        body, count = _results(tournament, rng)
        sessions, problems = parse_results_json(body)
        if problems:  # the generator's hands are complete: a problem is a bug here
            raise DemoError(f"demo results do not parse: {problems[:3]}")
        tournaments.results_record(tournament=tournament, user=organizer, sessions=sessions)
        tournaments.tournament_confirm(tournament=tournament, user=organizer)
        hands += count
    for name, city, country, club, months_ago, players in PAST_HKOS:
        start = today - timedelta(days=30 * months_ago)
        tournament = _tournament(name, city, country, clubs[club], start, players, people,
                                 ruleset="hkos")
        tournaments.players_register(tournament=tournament, user=organizer,
                                     entries=_entries(members, players, rng))
        tournaments.seating_draw(tournament=tournament, user=organizer,
                                 seed=rng.randrange(1 << 30))
        tournaments.seating_publish(tournament=tournament, user=organizer,
                                    through=tournament.sessions)
        sessions, problems = parse_results_json(_points_results(tournament, rng))
        if problems:
            raise DemoError(f"demo results do not parse: {problems[:3]}")
        tournaments.results_record(tournament=tournament, user=organizer, sessions=sessions)
        tournaments.tournament_confirm(tournament=tournament, user=organizer)
    return hands


def _played_at_the_tables(tournament: Tournament, members: list[Member],
                          people: dict[str, Any], rng: random.Random) -> int:
    """Sessions 1-3 posted by the organizer; then a player withdraws (the reason kept),
    the substitute (a member who came to help) fills the table in the seating redrawn from session
    4, and sessions 4-6 are entered at the tables: each hand as tiles, scored by the core,
    and each table agreed by its four players (source "table"). Confirmed and rated."""
    organizer = people[ORGANIZER]
    players = tournament.planned_players
    entries = _entries(members, players, rng)
    tournaments.players_register(tournament=tournament, user=organizer, entries=entries)
    playing = {e.member_number for e in entries}
    stand_in = next(m for m in members if m.membership_number not in playing)
    tournaments.players_register(tournament=tournament, user=organizer, entries=[
        dataclasses.replace(_member_entry(stand_in), substitute=True)])
    tournaments.seating_draw(tournament=tournament, user=organizer,
                             seed=rng.randrange(1 << 30))
    tournaments.seating_publish(tournament=tournament, user=organizer,
                                through=tournament.sessions)
    body, hands = _results(tournament, rng, range(1, WITHDRAWN_FROM))
    sessions, problems = parse_results_json(body)
    if problems:
        raise DemoError(f"demo results do not parse: {problems[:3]}")
    tournaments.results_record(tournament=tournament, user=organizer, sessions=sessions)
    leaving = tournament.registrations.filter(substitute=False).order_by("number")[2]
    tournaments.registration_withdraw(registration=leaving, user=organizer,
                                      from_session=WITHDRAWN_FROM,
                                      reason="Called away after the third session")
    tournaments.seating_draw(tournament=tournament, user=organizer,
                             seed=rng.randrange(1 << 30), from_session=WITHDRAWN_FROM)
    tournament.refresh_from_db()
    for session in range(WITHDRAWN_FROM, SESSIONS + 1):
        entries = tournaments.table_entries_open(tournament=tournament, session=session,
                                                 user=organizer)
        pool = iter(_winning_hands(len(entries) * HANDS_PER_TABLE, rng, at_the_table=True))
        for entry in entries:
            for number in range(HANDS_PER_TABLE):
                tiles, context = next(pool)
                winner = rng.randrange(4)
                discarder = None
                if not context.pop("self_drawn", False):
                    discarder = WINDS[(winner + RELATIVE[context.pop("from")]) % 4]
                entry = tournaments.table_entry_line_add(entry=entry, line={
                    "kind": "win", "seat": WINDS[winner], "from": discarder, "tiles": tiles,
                    "context": context, "id": f"demo-{session}-{entry.table}-{number + 1}"})
            for seat in WINDS:
                entry = tournaments.table_entry_agree(entry=entry, seat=seat)
            if entry.state != TableEntry.State.AGREED:  # four agreements record the table
                raise DemoError(f"table {entry.table} of session {session} was not recorded")
            hands += HANDS_PER_TABLE
    tournament.refresh_from_db()
    tournaments.tournament_confirm(tournament=tournament, user=organizer)
    return hands


def _coming_tournaments(clubs: list[Club], members: list[Member], people: dict[str, Any],
                        today: date) -> None:
    """One accredited with its players registered, one waiting for the officer's decision,
    one still a draft."""
    organizer = people[ORGANIZER]
    coming = _tournament("Moscow Winter Cup", "Moscow", "RU", clubs[0],
                         today + timedelta(days=24), 16, people)
    tournaments.players_register(tournament=coming, user=organizer,
                                 entries=[_member_entry(m) for m in members[:12]])
    _entries_of_an_open_tournament(clubs, members, people, today)
    _tournament("Amsterdam Spring Open", "Amsterdam", "NL", clubs[2],
                today + timedelta(days=110), 20, people, until=Tournament.State.SUBMITTED)
    _tournament("Paris Summer Cup (draft)", "Paris", "FR", clubs[3],
                today + timedelta(days=200), 16, people, until=Tournament.State.DRAFT)


def _entries_of_an_open_tournament(clubs: list[Club], members: list[Member],
                                   people: dict[str, Any], today: date) -> Tournament:
    """A tournament taking entries (issue 24): three places, two paid (cash at the venue,
    a bank transfer), one not paid yet, one person waiting."""
    organizer = people[ORGANIZER]
    tournament = _tournament(
        "Utrecht Entry Open", "Utrecht", "NL", clubs[2], today + timedelta(days=40), 12, people,
        extra={"max_players": 3, "fee_member": Decimal("20.00"),
               "fee_other": Decimal("30.00"), "currency": "EUR",
               "refund_until": today + timedelta(days=30)})
    guest = _account("kenji.sato@example.org")
    entrants = [(m.user, *m.name_latin.split(" ", 1), m.country) for m in
                (members[1], members[4], members[7])]
    entrants.insert(2, (guest, "Kenji", "Sato", "JP"))
    made = [
        tournaments.entry_create(tournament=tournament, user=user, first_name=first,
                                 last_name=last, country=country, today=today)
        for user, first, last, country in entrants
    ]
    tournaments.entry_cash_record(entry=made[0], user=organizer, today=today)
    membership.payment_record(invoice=made[1].invoice, amount=made[1].invoice.amount,
                              paid_on=today, method="bank_transfer",
                              recorded_by=people["treasurer@example.org"],
                              reference=made[1].invoice.number, today=today)
    return tournament


def _publish_all_but_the_latest_list(officer: Any, today: date) -> None:
    """The officer has published every month's list but the last one with results: the
    dashboard shows it waiting."""
    this_month = period_label(period_of(today))
    for ruleset in RULESETS:
        periods = list(RatingPeriod.objects.filter(ruleset=ruleset, has_results=True,
                                                   period__lt=this_month)
                       .order_by("period").values_list("period", flat=True))
        for period in periods[:-1]:
            rating_period_publish(period=period, ruleset=ruleset, user=officer)


#: an editor's own posts, beside the drafts the tournaments wrote: language -> (title, summary)
NEWS = {
    "ru": ("Взносы на следующий год",
           "Счета на взносы следующего года придут в декабре; оплатить их можно на странице "
           "«Моё членство»."),
    "en": ("Dues for next year",
           "Next year's dues invoices go out in December; pay them from \"My membership\"."),
}


def _news(today: date) -> None:
    """What a volunteer would do with the drafts (decision 0530): the results posts are
    reviewed and published, the accreditation of the coming cup waits as a draft; and an
    editor's own post about the dues in Russian and English."""
    for draft in NewsPage.objects.filter(live=False, slug__endswith="-results"):
        tournament = Tournament.objects.get(pk=int(draft.slug.split("-")[1]))
        draft.date = tournament.end_date + timedelta(days=1)
        draft.save_revision().publish()
    key = uuid.uuid4()  # the two languages' posts are translations of one another
    for language, (title, summary) in NEWS.items():
        index = NewsIndexPage.objects.get(locale__language_code=language)
        post = NewsPage(title=title, summary=summary, tag="federation", date=today,
                        slug="dues-next-year", translation_key=key)
        index.add_child(instance=post)
        post.save_revision().publish()


def _mailing(editor: Any) -> None:
    """The dues post mailed to the members in good standing (decision 0315), delivered
    through a backend that sends nothing: the demo's addresses are invented."""
    from federation.models import Mailing, MailKind

    post = NewsPage.objects.get(slug="dues-next-year", locale__language_code="ru")
    mailing = membership.mailing_create(
        user=editor, kind=MailKind.NEWS, audience=Mailing.Audience.GOOD_STANDING,
        texts=news_mailing_texts(post))
    membership.mailing_send(mailing=mailing, user=editor)
    membership.mailings_deliver(backend="django.core.mail.backends.dummy.EmailBackend")



#: members who joined this season (the same fields as MEMBERS); they all paid their dues
NEWER_MEMBERS = [
    ("Андрей Фёдоров", "Andrei Fedorov", "RU", 0, True),
    ("Наталья Ковалёва", "Natalia Kovaleva", "RU", 0, True),
    ("Михаил Попов", "Mikhail Popov", "RU", 0, True),
    ("Юлия Васильева", "Yulia Vasilieva", "RU", 0, True),
    ("Артём Козлов", "Artem Kozlov", "RU", 1, True),
    ("Ксения Никитина", "Ksenia Nikitina", "RU", 1, True),
    ("Роман Григорьев", "Roman Grigoriev", "RU", 1, False),
    ("Дарья Романова", "Daria Romanova", "RU", 1, True),
    ("Константин Степанов", "Konstantin Stepanov", "RU", None, True),
    ("Светлана Медведева", "Svetlana Medvedeva", "RU", 0, True),
    ("Григорий Титов", "Grigory Titov", "RU", 1, True),
    ("Вера Антонова", "Vera Antonova", "RU", 0, True),
    ("Daan Mulder", "Daan Mulder", "NL", 2, True),
    ("Fleur de Jong", "Fleur de Jong", "NL", 2, True),
    ("Bram Smit", "Bram Smit", "NL", 2, True),
    ("Lisa Meijer", "Lisa Meijer", "NL", 2, True),
    ("Thijs de Groot", "Thijs de Groot", "NL", 2, False),
    ("Noor Bos", "Noor Bos", "NL", None, True),
    ("Julie Moreau", "Julie Moreau", "FR", 3, True),
    ("Thomas Laurent", "Thomas Laurent", "FR", 3, True),
    ("Chloé Girard", "Chloé Girard", "FR", 3, True),
    ("Antoine Roux", "Antoine Roux", "FR", 3, True),
    ("Léa Fournier", "Léa Fournier", "FR", 3, True),
    ("Nicolas Mercier", "Nicolas Mercier", "FR", None, True),
]
#: the season's national championship: every newer member and some of the others, so the
#: rating list has 40+ players (name, city, country, club index, months ago, players)
CHAMPIONSHIP = ("National MCR Championship", "Moscow", "RU", 0, 5, 40)


def _newer_members(clubs: list[Club], people: dict[str, Any], today: date) -> list[Member]:
    """The season's new members: applied, approved on the year's first day, dues paid."""
    officer, treasurer = people["membership@example.org"], people["treasurer@example.org"]
    regular = MembershipType.objects.get(kind=MembershipType.Kind.REGULAR)
    language = {"RU": "ru", "NL": "nl", "FR": "fr"}
    newer = []
    for number, (native, latin, country, club, public) in enumerate(
            NEWER_MEMBERS, start=len(MEMBERS) + 1):
        user = _account(f"member{number:02d}@example.org", language=language[country])
        member = membership.member_apply(
            user=user, name_native=native, name_latin=latin, membership_type=regular,
            country=country, city=CLUBS[club][1] if club is not None else "",
            club=clubs[club] if club is not None else None, language=language[country],
            public_consent=public, today=today)
        member = membership.member_approve(member=member, approved_by=officer,
                                           today=date(today.year, 1, 1))
        invoice = member.invoices.get()
        membership.payment_record(invoice=invoice, amount=invoice.amount, paid_on=today,
                                  method="bank_transfer", recorded_by=treasurer,
                                  reference=invoice.number, today=today)
        newer.append(member)
    return newer


def _championship(clubs: list[Club], members: list[Member], people: dict[str, Any],
                  today: date, rng: random.Random) -> int:
    """The national championship, played, confirmed and rated: the newer members and as
    many of the others as fill the tables; the number of hands played."""
    organizer = people[ORGANIZER]
    name, city, country, club, months_ago, players = CHAMPIONSHIP
    tournament = _tournament(name, city, country, clubs[club],
                             today - timedelta(days=30 * months_ago), players, people)
    newer = members[len(MEMBERS):]
    chosen = newer + rng.sample(members[:len(MEMBERS)], players - len(newer))
    tournaments.players_register(tournament=tournament, user=organizer,
                                 entries=[_member_entry(m) for m in chosen])
    tournaments.seating_draw(tournament=tournament, user=organizer,
                             seed=rng.randrange(1 << 30))
    tournaments.seating_publish(tournament=tournament, user=organizer,
                                through=tournament.sessions)
    body, count = _results(tournament, rng)
    results, problems = parse_results_json(body)
    if problems:
        raise DemoError(f"demo results do not parse: {problems[:3]}")
    tournaments.results_record(tournament=tournament, user=organizer, sessions=results)
    tournaments.tournament_confirm(tournament=tournament, user=organizer)
    return count


def _club_officer(clubs: list[Club], people: dict[str, Any]) -> None:
    """The club officer looks after one club: its members' page and list (decision 0304)."""
    clubs[CLUB_OFFICER_CLUB].officers.add(people["club@example.org"])


def demo_admin_create() -> bool:
    """The demo administrator (a superuser with a verified address), unless already there;
    whether it was created."""
    user, created = get_user_model().objects.get_or_create(
        email=ADMIN_EMAIL, defaults={"username": "admin", "is_staff": True,
                                     "is_superuser": True})
    if created:
        user.set_password(ADMIN_PASSWORD)
        user.save()
    EmailAddress.objects.update_or_create(user=user, email=ADMIN_EMAIL,
                                          defaults={"verified": True, "primary": True})
    return created
