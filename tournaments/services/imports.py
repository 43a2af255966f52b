"""Importing a past tournament's final standings, at home or abroad
(docs/decisions/0810-final-standings-imports.md): the tournament is created confirmed with
``results_kind`` "final", its players matched (EMA number first; a name and country only
with a person's choice), its ``TournamentResult`` rows written, the ratings recomputed once
(``results_imported``), and the report kept as every import's is (``ImportRun`` of kind
"tournaments", decision 0815).

The same file imported twice changes nothing: the tournament is found again by its name and
start date, the players by the tournament's stored standings, and equal rows are left
unchanged."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext as _
from django_countries import countries

from core.countries import country_choices
from core.dates import validate_tournament_date
from core.errors import DomainError
from core.imports import ImportField, issue_message, sheet_mapped
from federation.services.import_runs import import_run_store
from tournaments.models import (
    Accreditation,
    Player,
    Registration,
    Tournament,
    TournamentResult,
)
from tournaments.rules import standings_files
from tournaments.rules.standings_files import StandingLine
from tournaments.services._common import _audit
from tournaments.services.identity import player_kept
from tournaments.signals import results_imported

E_FIELD_REQUIRED = "field_required"
E_BAD_FIELD = "bad_field"
E_BAD_COUNTRY = "bad_country"
E_REVIEW_OPEN = "review_open"
E_BAD_CHOICE = "bad_choice"
E_NOT_FINAL = "tournament_not_final"

KIND = "tournaments"
"""The kind of its ``ImportRun`` records (the admin's report pages, the reports' API)."""


def _message(code: str, params: Mapping[str, Any]) -> str:
    texts = {
        standings_files.E_NO_ROWS: _("The file has no players."),
        standings_files.E_COLUMN_MISSING: _("The header has no column for this."),
        standings_files.E_VALUE_REQUIRED: _("This value is required."),
        standings_files.E_BAD_NUMBER: _("“%(value)s” is not a number."),
        standings_files.E_BAD_PLACE: _("“%(value)s” is not a place (1, 2, 3…)."),
        standings_files.E_BAD_EMA_NUMBER: _("“%(value)s” is not an EMA number (8 digits)."),
        standings_files.E_SAME_PLAYER_TWICE: _(
            "The same player is already in row %(first_row)s."),
        E_FIELD_REQUIRED: _("This value is required."),
        E_BAD_FIELD: _("“%(value)s” is not valid here."),
        E_BAD_COUNTRY: _("“%(value)s” is not a country."),
        E_REVIEW_OPEN: _("A person must choose who this player is (see the review)."),
        E_BAD_CHOICE: _("The player chosen is not one of the candidates."),
        E_NOT_FINAL: _("A tournament played here has this name and start date."),
    }
    text = texts.get(code)
    if text is None:  # the codes every import shares: reading, mapping
        return issue_message(code, params)
    try:
        return text % dict(params) if params else text
    except (KeyError, TypeError, ValueError):
        return text


describe = _message
"""The words of a problem's code (the admin's pages of every import name it so)."""


@dataclass
class ImportReport:
    """What an import does or did: counts of standings rows, the rows a person must decide,
    the errors (nothing written when there is any) and every decision taken."""

    created: int = 0
    updated: int = 0
    unchanged: int = 0
    review: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    tournament: int | None = None
    decisions: list[str] = field(default_factory=list)

    def error(self, row: int | None, column: str, code: str, **params: Any) -> None:
        self.errors.append({"row": row, "column": column, "code": code,
                            "message": _message(code, params)})

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    def stored(self) -> dict[str, Any]:
        """The report in the one stored format of every import (``core.imports.STORED_KEYS``):
        this import's decisions are said in words, it has no per-row outcomes."""
        return {**self.as_json(), "rows": []}


class ImportRefused(DomainError):
    """An import with errors: nothing written; the answer is the whole report."""

    def __init__(self, report: ImportReport) -> None:
        super().__init__("import_invalid")
        self.report = report

    @property
    def message(self) -> str:
        return " ".join(e["message"] for e in self.report.errors)

    def items(self) -> list[dict[str, Any]]:
        return self.report.errors

    def body(self) -> dict[str, Any]:
        return self.report.as_json()


@dataclass(frozen=True)
class TournamentFields:
    name: str
    ruleset: str
    start_date: datetime.date
    end_date: datetime.date
    city: str
    country: str
    mers: bool
    mers_weight: Decimal | None
    abroad: bool
    rated: bool


def _truthy(text: Any) -> bool:
    return str(text).strip().lower() in {"1", "true", "yes", "on", "y"}


def tournament_fields_read(data: Mapping[str, Any], report: ImportReport
                           ) -> TournamentFields | None:
    """The tournament's fields from the form or the request, every problem in ``report``
    (row None, column the field)."""
    def text(name: str) -> str:
        return str(data.get(name) or "").strip()

    for name in ("name", "ruleset", "start_date", "end_date", "city", "country"):
        if not text(name):
            report.error(None, name, E_FIELD_REQUIRED)
    ruleset = text("ruleset").lower()
    if ruleset and ruleset not in Tournament.Ruleset.values:
        report.error(None, "ruleset", E_BAD_FIELD, value=text("ruleset"))
    dates: dict[str, datetime.date] = {}
    for name in ("start_date", "end_date"):
        if not text(name):
            continue
        try:
            dates[name] = datetime.date.fromisoformat(text(name))
            validate_tournament_date(dates[name])
        except Exception:
            dates.pop(name, None)
            report.error(None, name, E_BAD_FIELD, value=text(name))
    if len(dates) == 2 and dates["end_date"] < dates["start_date"]:
        report.error(None, "end_date", E_BAD_FIELD, value=text("end_date"))
    country = _country_code(text("country")) if text("country") else ""
    if text("country") and not country:
        report.error(None, "country", E_BAD_COUNTRY, value=text("country"))
    weight: Decimal | None = None
    if text("mers_weight"):
        try:
            weight = Decimal(text("mers_weight").replace(",", "."))
            if not Decimal(0) <= weight < Decimal(100):
                raise InvalidOperation
        except InvalidOperation:
            report.error(None, "mers_weight", E_BAD_FIELD, value=text("mers_weight"))
            weight = None
    mers = _truthy(data.get("mers")) or (weight is not None and weight > 0)
    abroad = _truthy(data.get("abroad"))
    rated = _truthy(data["rated"]) if "rated" in data and text("rated") else not abroad
    if report.errors:
        return None
    return TournamentFields(
        name=text("name")[:200], ruleset=ruleset, start_date=dates["start_date"],
        end_date=dates["end_date"], city=text("city")[:100], country=country, mers=mers,
        mers_weight=weight if mers else None, abroad=abroad, rated=rated,
    )


def _country_code(text: str) -> str:
    """A country code from a code or a name in English ("Russia", "Netherlands")."""
    text = text.strip()
    if not text:
        return ""
    code = countries.alpha2(text) or countries.by_name(text)
    if code:
        return str(code)
    folded = text.casefold()
    for code, name in country_choices("en"):
        if name.casefold() == folded:
            return code
    return ""


# --- matching the players -------------------------------------------------------------------


def _candidate(player: Player) -> dict[str, Any]:
    return {"id": player.pk, "name": str(player), "country": player.country,
            "ema_number": player.ema_number}


def _name_keys(line: StandingLine) -> set[str]:
    first, last = line.first_name.casefold(), line.last_name.casefold()
    return {f"{first} {last}".strip(), f"{last} {first}".strip()}


class _Players:
    """The players the file can name, read in a few queries whatever its size."""

    def __init__(self, lines: list[StandingLine], tournament: Tournament | None) -> None:
        numbers = {line.ema_number for line in lines if line.ema_number}
        self.by_ema = {p.ema_number: p for p in Player.objects.filter(ema_number__in=numbers)}
        wanted: set[str] = set()
        for line in lines:
            wanted |= _name_keys(line)
        self.by_name: dict[str, list[Player]] = {}
        if wanted:
            for player in (Player.objects.annotate(latin=Lower("name_latin"))
                           .filter(latin__in=wanted, is_anonymised=False).order_by("pk")):
                # a merged player's name names the kept one (decision 0813)
                found = player_kept(player) if player.merged_into_id is not None else player
                bucket = self.by_name.setdefault(player.name_latin.casefold(), [])
                if all(p.pk != found.pk for p in bucket):
                    bucket.append(found)
        # the players of the tournament's stored standings: a file imported again names them
        self.in_tournament: dict[str, Player] = {}
        if tournament is not None:
            for row in TournamentResult.objects.filter(tournament=tournament) \
                    .select_related("player"):
                p = row.player
                self.in_tournament[p.name_latin.casefold() + "|" + p.country] = p
                if p.ema_number:
                    self.in_tournament[p.ema_number] = p

    def named(self, line: StandingLine, country: str) -> list[Player]:
        found: dict[int, Player] = {}
        for key in _name_keys(line):
            for p in self.by_name.get(key, []):
                if not country or not p.country or p.country == country:
                    found[p.pk] = p
        return list(found.values())


@dataclass
class _Planned:
    line: StandingLine
    country: str
    player: Player | None  # None: a new player, created at commit
    new_fields: dict[str, Any] = field(default_factory=dict)


def _plan(lines: list[StandingLine], fields: TournamentFields, tournament: Tournament | None,
          choices: Mapping[int, int | None], report: ImportReport) -> list[_Planned]:
    players = _Players(lines, tournament)
    planned: list[_Planned] = []
    codes: dict[str, str] = {}  # a file names a few countries, many times
    for line in lines:
        if line.country and line.country not in codes:
            codes[line.country] = _country_code(line.country)
        country = codes[line.country] if line.country else ""
        if line.country and not country:
            report.error(line.row, "country", E_BAD_COUNTRY, value=line.country)
            continue
        if not country and not fields.abroad:
            country = fields.country
            report.decisions.append(
                _("Row %(row)s: no country given; the tournament's country %(country)s "
                  "is taken.") % {"row": line.row, "country": country})
        if line.ema_number_fixed:
            report.decisions.append(
                _("Row %(row)s: EMA number with 7 digits read as %(number)s.")
                % {"row": line.row, "number": line.ema_number})
        if line.score_rounded_from:
            report.decisions.append(
                _("Row %(row)s: score %(value)s rounded to %(points)s.")
                % {"row": line.row, "value": line.score_rounded_from,
                   "points": line.game_points})
        again = players.in_tournament.get(line.ema_number) if line.ema_number else None
        for key in sorted(_name_keys(line)):
            again = again or players.in_tournament.get(key + "|" + country)
        if again is not None:
            planned.append(_Planned(line, country, again))
            continue
        if line.ema_number and line.ema_number in players.by_ema:
            player = players.by_ema[line.ema_number]
            report.decisions.append(
                _("Row %(row)s: EMA number %(number)s is player #%(player)s (%(name)s).")
                % {"row": line.row, "number": line.ema_number, "player": player.pk,
                   "name": player})
            planned.append(_Planned(line, country, player))
            continue
        candidates = [p for p in players.named(line, country)
                      if not (line.ema_number and p.ema_number)]
        new = {"name_latin": line.name[:200], "first_name": line.first_name[:100],
               "last_name": line.last_name[:100], "country": country,
               "ema_number": line.ema_number}
        if not candidates:
            report.decisions.append(
                _("Row %(row)s: new player %(name)s.") % {"row": line.row, "name": line.name})
            planned.append(_Planned(line, country, None, new))
            continue
        if line.row in choices:
            chosen = choices[line.row]
            if chosen is None:
                report.decisions.append(
                    _("Row %(row)s: a new player %(name)s, not the namesake (a person's "
                      "choice).") % {"row": line.row, "name": line.name})
                planned.append(_Planned(line, country, None, new))
                continue
            match = next((p for p in candidates if p.pk == chosen), None)
            if match is None:
                report.error(line.row, "name", E_BAD_CHOICE)
                continue
            report.decisions.append(
                _("Row %(row)s: %(name)s is player #%(player)s (a person's choice).")
                % {"row": line.row, "name": line.name, "player": match.pk})
            planned.append(_Planned(line, country, match))
            continue
        report.review.append({
            "row": line.row,
            "reason": _("%(name)s has the name and country of players already known: is "
                        "this one of them or a new player?") % {"name": line.name},
            "candidates": [_candidate(p) for p in candidates],
        })
    return planned


# --- the import -------------------------------------------------------------------------------


def _find_tournament(fields: TournamentFields, report: ImportReport) -> Tournament | None:
    found = (Tournament.objects.filter(name__iexact=fields.name, start_date=fields.start_date)
             .order_by("pk").first())
    if found is not None and found.results_kind != Tournament.ResultsKind.FINAL:
        report.error(None, "name", E_NOT_FINAL)
        return None
    return found


FIELDS = tuple(ImportField(name, headers) for name, headers in standings_files.COLUMNS.items())
"""The columns of a standings file (which are required: ``standings_files.columns_missing``)."""


def standings_read(content: bytes, mapping: Mapping[str, str] | None, report: ImportReport
                   ) -> list[StandingLine]:
    """The standings of a file, read and mapped as every import reads its file
    (``core.imports.sheet_mapped``); every problem in ``report``."""
    mapped = sheet_mapped(content, FIELDS, mapping, report)
    if mapped is None:
        return []
    sheet = mapped.sheet
    if sheet.encoding not in ("", "utf-8", "utf-8-sig"):
        report.decisions.append(_("The file was read as %(encoding)s.")
                                % {"encoding": sheet.encoding})
    lines, problems = standings_files.standing_lines(
        [(row.number, row.cells) for row in sheet.rows], mapped.indexes)
    for problem in problems:
        column = mapped.column_of.get(problem.column, problem.column)
        report.error(problem.row, column, problem.code, **problem.params)
    return lines


def tournament_import(
    *, user: Any, data: Mapping[str, Any], content: bytes, filename: str = "",
    dry_run: bool = False, choices: Mapping[int, int | None] | None = None,
    mapping: Mapping[str, str] | None = None,
) -> ImportReport:
    """Preview (``dry_run``) or commit the import of a tournament's final standings.
    ``data``: the tournament's fields (name, ruleset, start_date, end_date, city, country,
    mers, mers_weight, abroad, rated); ``choices``: row -> the player chosen for a
    name-only match (None: a new player); ``mapping``: the file's header -> a column of
    ``FIELDS``, where the guess from the header names is wrong. Any error, or a review
    left open at commit -> :class:`ImportRefused`, nothing written."""
    report = ImportReport()
    fields = tournament_fields_read(data, report)
    lines = standings_read(content, mapping, report)
    if fields is None or report.errors:
        raise ImportRefused(report)
    with transaction.atomic():
        tournament = _find_tournament(fields, report)
        planned = _plan(lines, fields, tournament, choices or {}, report)
        if report.errors or (report.review and not dry_run):
            if not report.errors:
                for item in report.review:
                    report.error(item["row"], "name", E_REVIEW_OPEN)
            raise ImportRefused(report)
        existing = tournament.pk if tournament is not None else None
        changed = _write(tournament, fields, planned, user, report, dry_run=dry_run)
        if dry_run:
            transaction.set_rollback(True)
            report.tournament = existing
            return report
        tournament = Tournament.objects.get(pk=report.tournament)
        import_run_store(run=None, kind=KIND, file_name=filename or tournament.name,
                         imported_by=user, mapping=mapping, stored=report.stored())
        _audit(tournament, "tournaments.tournament.import", user,
               created=report.created, updated=report.updated, unchanged=report.unchanged)
        if changed:
            # the ratings follow in the same transaction (ratings.receivers)
            results_imported.send(sender=Tournament, tournament=tournament)
    return report


def _write(tournament: Tournament | None, fields: TournamentFields, planned: list[_Planned],
           user: Any, report: ImportReport, *, dry_run: bool = False) -> bool:
    """Create or update the tournament and its standings; True when results changed. A
    preview (``dry_run``) counts and says the same without writing: a new tournament's
    rows are all new, a new player's row is new."""
    values = {
        "name": fields.name, "ruleset": fields.ruleset, "start_date": fields.start_date,
        "end_date": fields.end_date, "city": fields.city, "country": fields.country,
        "mers": fields.mers, "mers_weight": fields.mers_weight, "abroad": fields.abroad,
        "rated": fields.rated, "team": any(p.line.team for p in planned),
        "planned_players": len(planned),
    }
    changed = False
    if tournament is None and dry_run:
        report.decisions.append(_("Tournament %(name)s created, its results confirmed.")
                                % {"name": fields.name})
        report.created += len(planned)
        return True
    if tournament is None:
        tournament = Tournament.objects.create(
            **values, organizer=user, sessions=1, state=Tournament.State.RESULTS_CONFIRMED,
            results_kind=Tournament.ResultsKind.FINAL, confirmed_at=timezone.now(),
        )
        Accreditation.objects.create(
            tournament=tournament, action=Accreditation.Action.CONFIRM, decided_by=user,
            reason=_("Imported: final standings only."),
        )
        report.decisions.append(_("Tournament %(name)s created, its results confirmed.")
                                % {"name": fields.name})
        changed = True
    else:
        moved = {k: v for k, v in values.items() if getattr(tournament, k) != v}
        if moved and not dry_run:
            for k, v in moved.items():
                setattr(tournament, k, v)
            tournament.save(update_fields=list(moved))
        if moved:
            report.decisions.append(_("Tournament changed: %(fields)s.")
                                    % {"fields": ", ".join(sorted(moved))})
            changed = changed or bool({"end_date", "ruleset", "rated", "mers",
                                       "mers_weight"} & set(moved))
    report.tournament = tournament.pk
    new_players = [p for p in planned if p.player is None]
    if dry_run:
        return _compare(tournament, planned, report, len(new_players)) or changed
    created = Player.objects.bulk_create([Player(**p.new_fields) for p in new_players],
                                         batch_size=500)
    for p, player in zip(new_players, created, strict=True):
        p.player = player
    for p in planned:  # an EMA number learnt for a known player
        assert p.player is not None
        if p.line.ema_number and not p.player.ema_number:
            p.player.ema_number = p.line.ema_number
            p.player.save(update_fields=["ema_number"])
    to_create, to_update, gone = _rows_compared(tournament, planned, report)
    if gone:
        TournamentResult.objects.filter(tournament=tournament, player_id__in=gone).delete()
        Registration.objects.filter(tournament=tournament, player_id__in=gone).delete()
    TournamentResult.objects.bulk_create(to_create, batch_size=500)
    TournamentResult.objects.bulk_update(to_update, _COMPARED, batch_size=500)
    report.created += len(to_create)
    report.updated += len(to_update)
    _registrations_sync(tournament, planned)
    return changed or bool(to_create or to_update or gone)


_COMPARED = ("rank", "players", "table_points_numerator", "table_points_denominator",
             "game_points")


def _rows_compared(tournament: Tournament, planned: list[_Planned], report: ImportReport
                   ) -> tuple[list[TournamentResult], list[TournamentResult], list[int]]:
    """The standings rows to create and to update (the unchanged counted) and the players
    no longer in the file (said in the report). A planned player without an id (a new one,
    in a preview) is left to the caller: their row is new."""
    count = len(planned)
    stored = {r.player_id: r for r in TournamentResult.objects.filter(tournament=tournament)}
    wanted: dict[int, TournamentResult] = {}
    for p in planned:
        if p.player is None:
            continue
        tp = Fraction(p.line.table_points)
        wanted[p.player.pk] = TournamentResult(
            tournament=tournament, player=p.player, rank=p.line.place, players=count,
            table_points_numerator=tp.numerator, table_points_denominator=tp.denominator,
            game_points=p.line.game_points, penalties=0, sessions=0,
        )
    to_create, to_update = [], []
    for pid, row in wanted.items():
        old = stored.get(pid)
        if old is None:
            to_create.append(row)
        elif any(getattr(old, f) != getattr(row, f) for f in _COMPARED):
            for f in _COMPARED:
                setattr(old, f, getattr(row, f))
            to_update.append(old)
        else:
            report.unchanged += 1
    gone = [pid for pid in stored if pid not in wanted]
    if gone:
        report.decisions.append(_("Players no longer in the file, removed: %(count)s.")
                                % {"count": len(gone)})
    return to_create, to_update, gone


def _compare(tournament: Tournament, planned: list[_Planned], report: ImportReport,
             new_players: int) -> bool:
    """A preview's counts for a tournament imported before; True when results change."""
    to_create, to_update, gone = _rows_compared(tournament, planned, report)
    report.created += len(to_create) + new_players
    report.updated += len(to_update)
    return bool(to_create or to_update or gone or new_players)


def _registrations_sync(tournament: Tournament, planned: list[_Planned]) -> None:
    """One registration a player (start numbers in the order of the standings, the team)."""
    existing = {r.player_id: r for r in Registration.objects.filter(tournament=tournament)}
    number = max((r.number for r in existing.values()), default=0)
    new, teams = [], []
    for p in sorted(planned, key=lambda p: (p.line.place, p.line.row)):
        assert p.player is not None
        reg = existing.get(p.player.pk)
        if reg is None:
            number += 1
            new.append(Registration(tournament=tournament, player=p.player, number=number,
                                    team=p.line.team[:200]))
        elif reg.team != p.line.team[:200]:
            reg.team = p.line.team[:200]
            teams.append(reg)
    Registration.objects.bulk_create(new, batch_size=500)
    Registration.objects.bulk_update(teams, ["team"], batch_size=500)
