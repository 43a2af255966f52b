"""Forms of the tournament pages: the tournament, players, seating, the score sheet, uploads."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from core.countries import country_choices

from .models import Registration, Seat, Tournament
from .rules import states
from .rules.results_files import INT_MAX, INT_MIN, MAX_HAND_POINTS
from .rules.seating_draw import SEED_MAX, SEED_MIN

MAX_RESULTS_FILE_BYTES = 2 * 1024 * 1024  # a results CSV (docs/reliability.md, item 7)

WINDS = Seat.choices  # (wind, its name) in the core's seat order E, S, W, N


class TournamentForm(forms.ModelForm):
    country = forms.ChoiceField(label=_("country"), choices=[])
    website = forms.URLField(label=_("website"), required=False, assume_scheme="https")

    class Meta:
        model = Tournament
        fields = [
            "name", "start_date", "end_date", "city", "country", "venue", "club", "ruleset",
            "individual", "team", "sessions", "session_minutes", "planned_players", "fee",
            "currency", "contact", "website", "withdrawn_ranking", "max_players", "fee_member",
            "fee_other", "fee_reduced", "reduced_for", "entries_open", "entries_from",
            "entries_until", "members_first_until", "refund_until", "payment_days",
            "absent_score", "absent_table_points", "absent_game_points", "hide_last_sessions",
        ]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "entries_from": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "entries_until": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "members_first_until": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "refund_until": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    resubmit = forms.BooleanField(
        label=_("Send back to the accreditation officer"), required=False,
        help_text=_("Needed to change what the officer accredited (the name, the dates, the "
                    "place, the organizing club, the rules, the competition, the number of "
                    "sessions): the tournament leaves the calendar and takes no entries until "
                    "the officer decides again. Everything else changes at once."))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not (self.instance.pk and states.allows("resubmit", self.instance.state)):
            del self.fields["resubmit"]
        self.fields["country"].choices = [("", "—"), *country_choices()]
        self.fields["withdrawn_ranking"].required = False  # a form without it keeps the default
        # left out or empty: the model's defaults (everyone may enter, 14 days to pay)
        self.fields["entries_open"].required = False
        self.fields["payment_days"].required = False
        for name in self.DEFAULTED:
            self.fields[name].required = False

    DEFAULTED = ("absent_score", "absent_table_points", "absent_game_points",
                 "hide_last_sessions")

    def _defaults(self, data: dict[str, Any]) -> None:
        for name in self.DEFAULTED:  # left out or empty: kept, or the model's default
            if data.get(name) in (None, ""):
                data[name] = (getattr(self.instance, name) if self.instance.pk
                              else Tournament._meta.get_field(name).get_default())

    def clean_withdrawn_ranking(self) -> str:
        return (self.cleaned_data.get("withdrawn_ranking")
                or self.instance.withdrawn_ranking or Tournament.WithdrawnRanking.BELOW)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self._defaults(data)
        if not data.get("entries_open"):
            data["entries_open"] = Tournament._meta.get_field("entries_open").default
        if data.get("payment_days") is None:
            data["payment_days"] = Tournament._meta.get_field("payment_days").default
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The tournament cannot end before it starts."))
        return data


MEMBER_NUMBER_MAX = 2**31 - 1  # the largest number a member number's column holds


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    country = forms.ChoiceField(label=_("Country"), choices=[])
    member_number = forms.IntegerField(label=_("Member number"), required=False, min_value=1,
                                       max_value=MEMBER_NUMBER_MAX)
    date_of_birth = forms.DateField(
        label=_("Date of birth"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text=_("With a member number: the member's name or date of birth must agree."))
    ema_number = forms.CharField(label=_("EMA number"), required=False, max_length=20)
    team = forms.CharField(label=_("Team"), required=False, max_length=200)
    substitute = forms.BooleanField(label=_("Substitute"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["country"].choices = [("", "—"), *country_choices()]


class SeatingForm(forms.Form):
    seed = forms.IntegerField(label=_("Seed"), initial=1, min_value=SEED_MIN, max_value=SEED_MAX,
                              help_text=_("The same seed always gives the same seating."))
    from_session = forms.IntegerField(
        label=_("Redraw from session"), required=False, min_value=1,
        help_text=_("Keeps the sessions before it; empty: every session is drawn again."))
    separate_countries = forms.BooleanField(
        label=_("Keep compatriots apart"), required=False,
        help_text=_("Players of one country sit together as rarely as possible, after "
                    "avoiding repeat meetings."))


class SeatingPublishForm(forms.Form):
    through = forms.TypedChoiceField(label=_("Published"), coerce=int)

    def __init__(self, *args: Any, sessions: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["through"].choices = [(0, _("nothing yet"))] + [
            (n, _("session 1") if n == 1 else _("sessions 1 to %(n)s") % {"n": n})
            for n in range(1, sessions + 1)
        ]


class WithdrawForm(forms.Form):
    from_session = forms.IntegerField(label=_("Withdrawn from session"), min_value=1)
    reason = forms.CharField(label=_("Reason"), required=False, max_length=300)


class UploadForm(forms.Form):
    file = forms.FileField(label=_("CSV file"))

    def clean_file(self) -> Any:
        file = self.cleaned_data["file"]
        if file.size > MAX_RESULTS_FILE_BYTES:
            limit = MAX_RESULTS_FILE_BYTES // (1024 * 1024)
            raise forms.ValidationError(
                ngettext("The file is larger than %(limit)s MB.",
                         "The file is larger than %(limit)s MB.", limit)
                % {"limit": limit}, code="too_large")
        return file


class CorrectionForm(UploadForm):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}))


class MersForm(forms.Form):
    """The officer's MERS flag and weight of an accredited tournament (the EMA sometimes
    certifies late; issue 38, item 4)."""

    mers = forms.BooleanField(
        label=_("MERS tournament"), required=False,
        help_text=_("Certified by the EMA: the results count in the EMA ranking."),
    )
    mers_weight = forms.DecimalField(
        label=_("MERS weight"), required=False, max_digits=4, decimal_places=2,
        min_value=Decimal("0.01"),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("mers") and data.get("mers_weight") is None:
            self.add_error("mers_weight", _("A MERS tournament needs its MERS weight, a "
                                            "number above 0."))
        return data


class MersWeightForm(MersForm):
    """:class:`MersForm` after accreditation, beside the weight computed from the
    tournament as played (decision 0830): the officer confirms it (gives the same weight)
    or gives another with the reason, which the tournament's page shows."""

    qualification = forms.BooleanField(
        label=_("Qualification required"), required=False,
        help_text=_("Players had to qualify to enter (a championship): +1 to the computed "
                    "weight."),
    )
    reason = forms.CharField(
        label=_("Reason for another weight"), required=False, max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Required when the weight differs from the computed one; shown on the "
                    "tournament's page."),
    )


class DecisionForm(MersForm):
    """The officer's decision on a submitted tournament: the reason, and the MERS flag and
    weight as on :class:`MersForm`."""

    field_order = ["reason", "mers", "mers_weight"]

    reason = forms.CharField(
        label=_("Reason"), required=False, widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Required for a rejection; kept in the decision log."),
    )


HAND_ROWS = 16  # the lines of a score sheet (Appendix 5)
HAND_KINDS = (("", "—"), ("win", _("Win")), ("draw", _("Draw")),
              ("penalty", _("Transferred penalty")))


class ScoreSheetForm(forms.Form):
    """One session, table by table: for each seat the player, the game points before
    deducted penalties and the deducted penalty (Appendix 5, totals line), and optionally
    the hand lines of the sheet (a win, a draw or a transferred penalty), which the scoring
    core turns into the session's game points."""

    def __init__(
        self, *args: Any, registrations: list[Registration], tables: int,
        initial_seats: dict[tuple[int, str], dict[str, Any]] | None = None,
        versions: dict[int, int] | None = None, **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        versions = versions or {}
        choices = [("", "—")] + [
            (str(r.player_id), f"{r.number}. {r.player}") for r in registrations
        ]
        self.tables = tables
        initial_seats = initial_seats or {}
        for table in range(1, tables + 1):
            for wind, _label in WINDS:
                seat = initial_seats.get((table, wind), {})
                prefix = f"t{table}_{wind}"
                self.fields[f"{prefix}_player"] = forms.ChoiceField(
                    label=_("Player"), choices=choices, initial=seat.get("player"))
                self.fields[f"{prefix}_game_points"] = forms.IntegerField(
                    label=_("Game points"), initial=seat.get("game_points"), required=False,
                    min_value=INT_MIN, max_value=INT_MAX)
                self.fields[f"{prefix}_penalty"] = forms.IntegerField(
                    label=_("Penalty"), min_value=0, max_value=INT_MAX,
                    initial=seat.get("penalty", 0))
            # the version of the table's stored results this form shows (0: none)
            self.fields[f"t{table}_version"] = forms.IntegerField(
                widget=forms.HiddenInput, min_value=0, required=False,
                initial=versions.get(table, 0))
            winds = [("", "—"), *WINDS]
            for row in range(1, HAND_ROWS + 1):
                prefix = f"t{table}_h{row}"
                self.fields[f"{prefix}_kind"] = forms.ChoiceField(
                    label=_("Hand"), choices=HAND_KINDS, required=False)
                self.fields[f"{prefix}_seat"] = forms.ChoiceField(
                    label=_("Winner or offender"), choices=winds, required=False)
                self.fields[f"{prefix}_from"] = forms.ChoiceField(
                    label=_("Discarder"), choices=[("", _("self-drawn")), *WINDS],
                    required=False)
                self.fields[f"{prefix}_points"] = forms.IntegerField(
                    label=_("Points"), min_value=0, max_value=MAX_HAND_POINTS, required=False)
                self.fields[f"{prefix}_fans"] = forms.CharField(
                    label=_("Fans"), required=False, max_length=200)
                self.fields[f"{prefix}_tiles"] = forms.CharField(
                    label=_("Tiles"), required=False, max_length=100)
                self.fields[f"{prefix}_context"] = forms.CharField(
                    label=_("Win conditions"), required=False, max_length=200)

    def table_rows(self) -> list[dict[str, Any]]:
        """For the template: table -> four seats with their bound fields."""
        rows = []
        for table in range(1, self.tables + 1):
            seats = []
            for wind, label in WINDS:
                prefix = f"t{table}_{wind}"
                seats.append({
                    "wind": wind, "label": label,
                    "player": self[f"{prefix}_player"],
                    "game_points": self[f"{prefix}_game_points"],
                    "penalty": self[f"{prefix}_penalty"],
                })
            hands = [
                {"row": row, **{
                    name: self[f"t{table}_h{row}_{name}"]
                    for name in ("kind", "seat", "from", "points", "fans", "tiles", "context")
                }}
                for row in range(1, HAND_ROWS + 1)
            ]
            rows.append({"table": table, "seats": seats, "hands": hands,
                         "version": self[f"t{table}_version"],
                         "conflict": self.table_conflicts.get(table),
                         "has_hands": self.is_bound and any(
                             self.data.get(f"t{table}_h{row}_kind")
                             for row in range(1, HAND_ROWS + 1)),
                         "errors": self.table_errors.get(table, [])})
        return rows

    def hand_row(self, table: int, hand: int) -> int:
        """The sheet line of the ``hand``-th filled hand of ``table``."""
        rows = self.filled_rows.get(table, [])
        return rows[hand - 1] if 0 < hand <= len(rows) else hand

    filled_rows: dict[int, list[int]] = {}

    def _hands(self, table: int) -> list[dict[str, Any]] | None:
        from .rules.results_files import parse_context

        data = self.cleaned_data
        player_of = {w: int(data[f"t{table}_{w}_player"]) for w, _label in WINDS}
        hands: list[dict[str, Any]] = []
        rows: list[int] = []
        for row in range(1, HAND_ROWS + 1):
            prefix = f"t{table}_h{row}"
            kind = data.get(f"{prefix}_kind")
            if not kind:
                continue
            rows.append(row)
            seat = data.get(f"{prefix}_seat") or None
            if kind == "draw":
                hands.append({"draw": True})
            elif kind == "penalty":
                hands.append({"penalty": player_of.get(seat or ""),
                              "points": data.get(f"{prefix}_points")})
            else:
                fans = (data.get(f"{prefix}_fans") or "").replace(",", " ").split()
                discarder = data.get(f"{prefix}_from") or None
                hand: dict[str, Any] = {
                    "winner": player_of.get(seat or ""),
                    "from": player_of[discarder] if discarder else None,
                }
                if data.get(f"{prefix}_points") is not None:
                    hand["points"] = data[f"{prefix}_points"]
                if fans:
                    hand["fans"] = fans
                if data.get(f"{prefix}_tiles"):
                    hand["tiles"] = data[f"{prefix}_tiles"]
                    hand["context"] = parse_context(data.get(f"{prefix}_context") or "")
                hands.append(hand)
        self.filled_rows[table] = rows
        return hands or None

    table_errors: dict[int, list[str]] = {}
    table_conflicts: dict[int, dict[str, Any]] = {}

    def session_payload(self, session: int) -> dict[str, Any]:
        data = self.cleaned_data
        self.filled_rows = {}
        tables = []
        for table in range(1, self.tables + 1):
            entry: dict[str, Any] = {"table": table, "seats": [
                {
                    "player": int(data[f"t{table}_{wind}_player"]),
                    "game_points": data[f"t{table}_{wind}_game_points"],
                    "penalty": data[f"t{table}_{wind}_penalty"] or 0,
                }
                for wind, _label in WINDS
            ]}
            hands = self._hands(table)
            if hands is not None:
                entry["hands"] = hands
            entry["version"] = data.get(f"t{table}_version") or 0
            tables.append(entry)
        return {"sessions": [{"session": session, "tables": tables}]}


class EntryForm(forms.Form):
    """A person's own entry: only what the tournament needs, filled from what the site
    knows (the member's Latin name and country)."""

    first_name = forms.CharField(label=_("First name (Latin letters)"), max_length=100)
    last_name = forms.CharField(label=_("Last name (Latin letters)"), max_length=100)
    country = forms.ChoiceField(label=_("Country"), choices=[])
    ema_number = forms.CharField(label=_("EMA number"), required=False, max_length=20)
    ema_number_none = forms.BooleanField(label=_("I have no EMA number yet"), required=False)
    team = forms.CharField(label=_("Team"), required=False, max_length=200)
    reduced = forms.BooleanField(label=_("I qualify for the reduced entry fee"), required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["country"].choices = [("", "—"), *country_choices()]
        if tournament.mers:
            # asked, and why (decision 0720); the service refuses neither given
            self.fields["ema_number"].help_text = _(
                "This tournament counts in the EMA ranking (MERS): with your EMA number your "
                "result goes to your EMA record. If you have none yet, say so below: the "
                "federation gives you one.")
        else:
            del self.fields["ema_number_none"]
            if tournament.ruleset != Tournament.Ruleset.MCR:
                del self.fields["ema_number"]
        if not tournament.team:
            del self.fields["team"]
        if tournament.fee_reduced is None:
            del self.fields["reduced"]
        elif tournament.reduced_for:
            self.fields["reduced"].help_text = _(
                "%(who)s. The organizer checks it; if you do not qualify, you pay the full fee."
            ) % {"who": tournament.reduced_for}


class PlayerCorrectionForm(forms.Form):
    """A registered player's names (as the EMA lists them), country and EMA number,
    corrected by the organizer or an accreditation officer."""

    first_name = forms.CharField(label=_("First name (Latin letters)"), max_length=100)
    last_name = forms.CharField(label=_("Last name (Latin letters)"), max_length=100)
    country = forms.ChoiceField(label=_("Country"), choices=[])
    ema_number = forms.CharField(
        label=_("EMA number"), required=False, max_length=20,
        help_text=_("8 digits; empty: none yet."))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["country"].choices = [("", "—"), *country_choices()]


class EntryDecisionForm(forms.Form):
    action = forms.ChoiceField(choices=[("confirm", "confirm"), ("refuse", "refuse"),
                                        ("withdraw", "withdraw"), ("cash", "cash"),
                                        ("full_fee", "full_fee")])
    reason = forms.CharField(label=_("Reason"), required=False, max_length=1000)
