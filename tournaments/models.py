"""Tournaments and their results. The Player is whoever sits at a table: a member or a guest.

A tournament moves draft -> submitted -> accredited | rejected -> results submitted ->
results confirmed (which step in which state: ``tournaments.rules.states``); only
``tournaments.services`` changes its state. Results are stored per
session, table and seat (``TableResult``: the seat's game points before deducted penalties and
the deducted penalty); table points and standings are computed from them by
``rulebook.scoring.standings`` (see docs/decisions/0700-tournament-results.md). The final
ranking of a confirmed tournament is kept as ``TournamentResult`` rows, written from that same
computation when the results are confirmed or corrected, so that a player's history reads
stored rows instead of recomputing every tournament.
The ratings computed from these results are the ratings app's (``ratings.models``).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.dates import validate_tournament_date
from rulebook import rulesets
from rulebook.scoring.standings import WINDS
from rulebook.search_text import name_keys, search_fold
from tournaments.rules import states
from tournaments.rules.ema_numbers import ema_number_normalise

EMA_NUMBER_PATTERN = r"^[0-9]{8}$"
"""The EMA's player numbers: 8 digits (country code, then the player's number)."""


class EmaNumberField(models.CharField):
    """An EMA number as typed in a form (the player admin): read by the one rule
    (``tournaments.rules.ema_numbers``), 7 digits padded back to 8, anything else refused."""

    def to_python(self, value):  # type: ignore[no-untyped-def]
        value = super().to_python(value)
        if not value:
            return value
        ema = ema_number_normalise(value)
        if ema.error:
            raise ValidationError(_("An EMA number has 8 digits."), code="invalid")
        return ema.number


class PlayerManager(models.Manager["Player"]):
    def bulk_create(self, objs, *args, **kwargs):  # type: ignore[no-untyped-def, override]
        """As Django's, with the derived search column filled as ``Player.save`` does."""
        objs = list(objs)
        for player in objs:
            player.name_search = player_search_text(player.name_latin, player.name_native)
        return super().bulk_create(objs, *args, **kwargs)


class Player(models.Model):
    """A person who plays in tournaments. Foreign guests exist without a member record and can
    be linked to one later. When a member asks for erasure the player keeps its results under
    an anonymous name (see federation.services.member_erase)."""

    name_native = models.CharField(_("name (native script)"), max_length=200, blank=True)
    name_latin = models.CharField(_("name (Latin letters)"), max_length=200)
    first_name = models.CharField(
        _("first name (Latin letters)"), max_length=100, blank=True,
        help_text=_("As the EMA lists the player; empty: taken from the Latin name."),
    )
    last_name = models.CharField(_("last name (Latin letters)"), max_length=100, blank=True)
    country = models.CharField(_("country"), max_length=100, blank=True)
    ema_number = EmaNumberField(
        _("EMA number"), max_length=20, blank=True, db_index=True,
        validators=[RegexValidator(EMA_NUMBER_PATTERN, _("An EMA number has 8 digits."))],
    )
    member = models.OneToOneField(
        "federation.Member",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
        verbose_name=_("member"),
    )
    is_anonymised = models.BooleanField(_("anonymised"), default=False, editable=False)
    merged_into = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, editable=False,
        related_name="merged_players", verbose_name=_("merged into"),
        help_text=_("A duplicate merged into this player: its page and API answer with a "
                    "redirect to it."),
    )
    # Both names folded (rulebook.search_text.search_fold: no case, no accents) for search,
    # the same on every database: SQLite's LIKE folds ASCII letters only (decision 0525);
    # then their words' transliteration keys (name_key, decision 0546).
    name_search = models.CharField(max_length=1000, blank=True, editable=False)

    objects = PlayerManager()

    class Meta:
        ordering = ["name_latin", "pk"]
        permissions = [("import_players", _("Can import the EMA player register"))]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["ema_number"], condition=~models.Q(ema_number=""),
                name="player_ema_number_once",
            ),
        ]
        # The players in name order (search, lists): a search that matches most names
        # reads the first ones in this order and stops (issue 26).
        indexes = [models.Index(fields=["name_latin", "id"], name="player_name_order")]

    def __str__(self) -> str:
        return self.name_latin or self.name_native

    def save(self, *args, **kwargs) -> None:
        """Keeps ``name_search`` in step with the names (a derived column, not a rule)."""
        self.name_search = player_search_text(self.name_latin, self.name_native)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"name_latin", "name_native"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "name_search"}
        super().save(*args, **kwargs)

    def validate_constraints(self, exclude=None):  # type: ignore[no-untyped-def]
        """As Django's, with a taken EMA number naming the player who holds it (not the
        constraint's name)."""
        if self.ema_number and not (exclude and "ema_number" in exclude):
            holder = Player.objects.filter(ema_number=self.ema_number).exclude(pk=self.pk).first()
            if holder is not None:
                raise ValidationError({"ema_number": ValidationError(
                    _("The EMA number %(number)s already belongs to %(player)s (player "
                      "%(id)s)."),
                    code="unique",
                    params={"number": self.ema_number, "player": str(holder), "id": holder.pk},
                )})
        super().validate_constraints(exclude=exclude)

    @property
    def latin_first_last(self) -> tuple[str, str]:
        """(first name, last name) in Latin letters: the fields when given, else the Latin
        name split before its last word."""
        if self.first_name or self.last_name:
            return self.first_name, self.last_name
        first, _, last = self.name_latin.strip().rpartition(" ")
        return first, last


def player_search_text(name_latin: str, name_native: str) -> str:
    """The folded names a player is searched by, one line, then the keys of their words'
    transliteration variants (``name_key``), each after a space: "fedorov ivan|федоров
    иван| fedorov ivan" (issue 41: "Fyodorov" finds Фёдоров and Fedorov)."""
    names = [name for name in (name_latin, name_native or "") if name]
    keys = " ".join(name_keys(" ".join(names)))
    return "|".join([*(search_fold(name) for name in names), f" {keys}" if keys else ""])


class EntriesOpen(models.TextChoices):
    MEMBERS = "members", _("Members only")
    EVERYONE = "everyone", _("Everyone")


class Tournament(models.Model):
    class State(models.TextChoices):
        DRAFT = states.DRAFT, _("Draft")
        SUBMITTED = states.SUBMITTED, _("Submitted")
        ACCREDITED = states.ACCREDITED, _("Accredited")
        REJECTED = states.REJECTED, _("Rejected")
        RESULTS_SUBMITTED = states.RESULTS_SUBMITTED, _("Results submitted")
        RESULTS_CONFIRMED = states.RESULTS_CONFIRMED, _("Results confirmed")

    #: The rulesets of the registry (rulebook.rulesets) as choices: ``Ruleset.MCR == "mcr"``.
    Ruleset = models.TextChoices(
        "Ruleset", [(r.code.upper(), (r.code, r.name)) for r in rulesets.RULESETS],
        module=__name__, qualname="Tournament.Ruleset",
    )

    name = models.CharField(_("name"), max_length=200)
    start_date = models.DateField(_("start date"), validators=[validate_tournament_date])
    end_date = models.DateField(_("end date"), validators=[validate_tournament_date])
    city = models.CharField(_("city"), max_length=100)
    country = models.CharField(_("country"), max_length=2, help_text=_("ISO 3166 alpha-2 code"))
    venue = models.CharField(_("venue"), max_length=300, blank=True)
    club = models.ForeignKey(
        "federation.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("organizing club"),
    )
    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="organized_tournaments",
        verbose_name=_("organizer"),
    )
    ruleset = models.CharField(_("rules"), max_length=10, choices=Ruleset.choices)
    # MCR variant switches (rulebook.scoring.MCRConfig field names), e.g. {"fan_57b_points": 5}
    variant = models.JSONField(_("variant switches"), default=dict, blank=True)
    individual = models.BooleanField(_("individual competition"), default=True)
    team = models.BooleanField(_("team competition"), default=False)
    sessions = models.PositiveSmallIntegerField(_("number of sessions"))
    session_minutes = models.PositiveSmallIntegerField(_("session length (minutes)"), default=150)
    planned_players = models.PositiveIntegerField(_("planned number of players"))
    fee = models.DecimalField(_("fee"), max_digits=10, decimal_places=2, null=True, blank=True,
                              validators=[MinValueValidator(0)])
    currency = models.CharField(_("currency"), max_length=3, blank=True)
    contact = models.CharField(_("contact"), max_length=300, blank=True)
    website = models.URLField(_("website"), blank=True)
    # entries by the players themselves (issue 24)
    max_players = models.PositiveIntegerField(
        _("maximum number of players"), null=True, blank=True,
        help_text=_("Entries beyond it wait in order; empty: no limit."),
    )
    fee_member = models.DecimalField(
        _("entry fee for members"), max_digits=10, decimal_places=2, null=True, blank=True,
        validators=[MinValueValidator(Decimal(0))],
    )
    fee_other = models.DecimalField(
        _("entry fee for others"), max_digits=10, decimal_places=2, null=True, blank=True,
        validators=[MinValueValidator(Decimal(0))],
    )
    fee_reduced = models.DecimalField(
        _("reduced entry fee"), max_digits=10, decimal_places=2, null=True, blank=True,
        validators=[MinValueValidator(Decimal(0))],
        help_text=_("For those who qualify (see below); each person says so when entering "
                    "and the organizer checks it. Empty: no reduced price."),
    )
    reduced_for = models.CharField(
        _("who pays the reduced fee"), max_length=200, blank=True,
        help_text=_("For example: juniors under 18 and students, card shown at the venue."),
    )
    entries_open = models.CharField(
        _("who may enter"), max_length=10, choices=EntriesOpen.choices,
        default=EntriesOpen.EVERYONE,
    )
    entries_from = models.DateField(
        _("entries open on"), null=True, blank=True,
        help_text=_("The first day players may enter; empty: from the accreditation on."),
    )
    entries_until = models.DateField(
        _("entries close after"), null=True, blank=True,
        help_text=_("The last day players may enter; empty: until the day before the start."),
    )
    members_first_until = models.DateField(
        _("members only until"), null=True, blank=True,
        help_text=_("With “everyone”: only members may enter up to and including this day."),
    )
    refund_until = models.DateField(
        _("full refund until"), null=True, blank=True,
        help_text=_("A withdrawal up to this day is refunded in full, none after it."),
    )
    payment_days = models.PositiveSmallIntegerField(
        _("days to pay the entry fee"), default=14,
        help_text=_("An entry not paid by then is reminded, then its place is released."),
    )
    state = models.CharField(
        _("state"), max_length=20, choices=State.choices, default=State.DRAFT, db_index=True
    )

    class WithdrawnRanking(models.TextChoices):
        BELOW = "below", _("Ranked below the players who finished")
        UNRANKED = "unranked", _("Not ranked")

    withdrawn_ranking = models.CharField(
        _("players who withdraw"), max_length=10, choices=WithdrawnRanking.choices,
        default=WithdrawnRanking.BELOW,
        help_text=_("How players who left the tournament before its end are ranked"),
    )
    class AbsentScore(models.TextChoices):
        NOTHING = "nothing", _("Nothing: no table points and no game points")
        FIXED = "fixed", _("A fixed score")

    absent_score = models.CharField(
        _("a player absent for a session gets"), max_length=10, choices=AbsentScore.choices,
        default=AbsentScore.NOTHING,
        help_text=_("For the session the player misses (late by more than 15 minutes, 3.11.2)."),
    )
    absent_table_points = models.PositiveSmallIntegerField(
        _("table points for an absent session"), default=0,
        validators=[MaxValueValidator(4)], help_text=_("With “a fixed score”."),
    )
    absent_game_points = models.IntegerField(
        _("game points for an absent session"), default=0,
        validators=[MinValueValidator(-10_000), MaxValueValidator(10_000)],
        help_text=_("With “a fixed score”; negative for a loss."),
    )
    hide_last_sessions = models.PositiveSmallIntegerField(
        _("hide the standings of the last sessions"), default=0,
        validators=[MaxValueValidator(10)],
        help_text=_("The public standings stop before the last sessions until you reveal "
                    "them (at the prize-giving)."),
    )
    standings_revealed_at = models.DateTimeField(_("standings revealed at"), null=True,
                                                 blank=True)
    mers = models.BooleanField(
        _("MERS tournament"), default=False,
        help_text=_("Counts in the EMA ranking; set by the accreditation officer."),
    )
    mers_weight = models.DecimalField(
        _("MERS weight"), max_digits=4, decimal_places=2, null=True, blank=True,
        help_text=_("The weight the EMA gave the tournament (days, players, countries, "
                    "qualification)."),
    )
    mers_qualification = models.BooleanField(
        _("qualification required"), default=False,
        help_text=_("Players had to qualify to enter (a championship): +1 to the MERS "
                    "weight."),
    )
    mers_weight_reason = models.TextField(
        _("reason for the MERS weight"), blank=True,
        help_text=_("Why the weight in force differs from the one computed from the "
                    "tournament as played; empty when the officer confirmed the computed "
                    "weight."),
    )
    ema_exported_at = models.DateTimeField(
        _("EMA results sheet taken by the organizer at"), null=True, blank=True,
        editable=False,
        help_text=_("From then on only an accreditation officer corrects the players' names, "
                    "countries and EMA numbers."),
    )

    class ResultsKind(models.TextChoices):
        HANDS = "hands", _("Hand by hand")
        TABLES = "tables", _("Table totals")
        FINAL = "final", _("Final standings only")

    results_kind = models.CharField(
        _("results kept"), max_length=10, choices=ResultsKind.choices,
        default=ResultsKind.TABLES,
        help_text=_("“Final standings only”: a past tournament imported from its final "
                    "ranking (docs/decisions/0810-final-standings-imports.md)."),
    )
    abroad = models.BooleanField(
        _("abroad"), default=False,
        help_text=_("Another country's tournament whose results are kept here for the EMA "
                    "ranking of our players; not accredited here."),
    )
    rated = models.BooleanField(
        _("counts in our rating list"), default=True,
        help_text=_("A tournament with final standings only counts in the rating list as "
                    "one period of pairwise results by final place; off for results abroad "
                    "unless the accreditation officer says otherwise."),
    )
    seating_seed = models.IntegerField(_("seating seed"), null=True, blank=True)
    seating_repeat_pairs = models.PositiveIntegerField(
        _("pairs meeting more than once"), null=True, blank=True
    )
    # the fewest repeat pairs the last draw could reach, the sessions it kept counted
    seating_repeat_minimum = models.PositiveIntegerField(
        _("fewest possible pairs meeting more than once"), null=True, blank=True
    )
    seating_separate_countries = models.BooleanField(
        _("keep compatriots apart"), default=False,
        help_text=_("The seating draw seats players of one country together as rarely as "
                    "it can, after avoiding repeat meetings."),
    )
    seating_country_pairs = models.PositiveIntegerField(
        _("compatriots seated together"), null=True, blank=True
    )
    seating_published = models.PositiveSmallIntegerField(
        _("seating published up to session"), default=0,
        help_text=_("The public sees the seating of the sessions up to this one (where do "
                    "I sit, the room screen, the table distribution); 0: none yet."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    confirmed_at = models.DateTimeField(_("results confirmed at"), null=True, blank=True)
    corrected_at = models.DateTimeField(_("last corrected at"), null=True, blank=True)
    # set when the ratings app has queued the re-rate after this tournament's results, and
    # cleared by it once the re-rate has run (decision 0822): the organizer's page says so
    rerate_queued_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-start_date", "name", "pk"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        permissions = [
            ("organize_tournament", _("Can submit tournaments and enter their results")),
            ("accredit_tournament", _("Can accredit tournaments and correct results")),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end_date__gte=models.F("start_date")),
                name="tournament_dates_in_order",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_public(self) -> bool:
        return states.is_public(self.state)


PUBLIC_STATES = tuple(Tournament.State(state) for state in states.PUBLIC)
"""``tournaments.rules.states.PUBLIC`` as the model's choices."""


class Accreditation(models.Model):
    """The decision log of a tournament: every submission, decision, confirmation and
    correction, with who, when, why and the checks shown at that moment."""

    class Action(models.TextChoices):
        SUBMIT = "submit", _("Submitted")
        ACCREDIT = "accredit", _("Accredited")
        REJECT = "reject", _("Rejected")
        CONFIRM = "confirm", _("Results confirmed")
        CORRECT = "correct", _("Results corrected")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="decisions",
        verbose_name=_("tournament"),
    )
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    reason = models.TextField(_("reason"), blank=True)
    checks = models.JSONField(_("checks"), default=list, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("by"),
    )
    decided_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "decided_at", "pk"]
        verbose_name = _("tournament decision")
        verbose_name_plural = _("tournament decisions")

    def __str__(self) -> str:
        return f"{self.tournament} – {self.get_action_display()}"


class Registration(models.Model):
    """A player entered in a tournament. ``number`` is the start number of Appendix 3."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations",
        verbose_name=_("tournament"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="registrations", verbose_name=_("player")
    )
    number = models.PositiveIntegerField(_("start number"))
    team = models.CharField(_("team"), max_length=200, blank=True)
    substitute = models.BooleanField(_("substitute"), default=False)
    # the player plays no session from this one on (sessions before it are kept)
    withdrawn_from = models.PositiveSmallIntegerField(_("withdrawn from session"), null=True,
                                                      blank=True)
    withdrawal_reason = models.CharField(_("reason for withdrawal"), max_length=300,
                                         blank=True)
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="registration_player_once"
            ),
            models.UniqueConstraint(
                fields=["tournament", "number"], name="registration_number_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.number} {self.player}"


class PendingRegistration(models.Model):
    """A row naming a member number, kept as the organizer gave it until the organizer
    confirms it (issue 37, item 2). Only then is the number matched with the name or date
    of birth and the member's player registered: before, a right pairing and a wrong one
    are answered alike, and nothing of the member is shown."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="pending_registrations",
        verbose_name=_("tournament"),
    )
    name = models.CharField(_("name"), max_length=200)
    country = models.CharField(_("country"), max_length=2)
    member_number = models.PositiveIntegerField(_("member number"))
    date_of_birth = models.DateField(_("date of birth"), null=True, blank=True)
    ema_number = models.CharField(_("EMA number"), max_length=20, blank=True)
    team = models.CharField(_("team"), max_length=200, blank=True)
    substitute = models.BooleanField(_("substitute"), default=False)
    first_name = models.CharField(_("first name (Latin letters)"), max_length=100, blank=True)
    last_name = models.CharField(_("last name (Latin letters)"), max_length=100, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("entered by"),
    )
    created_at = models.DateTimeField(_("entered at"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "pk"]
        verbose_name = _("registration waiting for confirmation")
        verbose_name_plural = _("registrations waiting for confirmation")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.name} ({self.member_number})"


class Seat(models.TextChoices):
    EAST = "E", _("East")
    SOUTH = "S", _("South")
    WEST = "W", _("West")
    NORTH = "N", _("North")


SEAT_ORDER: dict[str, int] = {wind: i for i, wind in enumerate(WINDS)}
"""Each seat's place in the core's seat order (E, S, W, N)."""


class SeatingAssignment(models.Model):
    """Who sits where in a session, as drawn by the seating generator (Appendices 3-4)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="seating",
        verbose_name=_("tournament"),
    )
    session = models.PositiveSmallIntegerField(_("session"))
    table = models.PositiveSmallIntegerField(_("table"))
    seat = models.CharField(_("seat"), max_length=1, choices=Seat.choices)
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )

    class Meta:
        ordering = ["tournament", "session", "table", "seat"]
        verbose_name = _("seat assignment")
        verbose_name_plural = _("seating")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "session", "table", "seat"], name="seating_seat_once"
            ),
            models.UniqueConstraint(
                fields=["tournament", "session", "player"], name="seating_player_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.session}/{self.table}/{self.seat}"


class Session(models.Model):
    """A session whose results are recorded: how and by whom they were entered."""

    class Source(models.TextChoices):
        FORM = "form", _("score-sheet form")
        CSV = "csv", _("CSV upload")
        API = "api", _("API")
        TABLE = "table", _("entry at the table")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="session_records",
        verbose_name=_("tournament"),
    )
    number = models.PositiveSmallIntegerField(_("session"))
    source = models.CharField(_("entered through"), max_length=10, choices=Source.choices)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("entered by"),
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="session_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.number}"


class TableResult(models.Model):
    """One seat of one table in one session: game points before deducted penalties (hand
    payments and transferred penalties included) and the deducted penalty (a positive
    number of points taken from this player and given to no one, 3.11.2)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="table_results",
        verbose_name=_("tournament"),
    )
    session = models.PositiveSmallIntegerField(_("session"))
    table = models.PositiveSmallIntegerField(_("table"))
    seat = models.CharField(_("seat"), max_length=1, choices=Seat.choices)
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="table_results",
        verbose_name=_("player"),
    )
    game_points = models.IntegerField(_("game points"))
    penalty = models.PositiveIntegerField(_("deducted penalty"), default=0)

    class Meta:
        ordering = ["tournament", "session", "table", "seat"]
        verbose_name = _("table result")
        verbose_name_plural = _("table results")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "session", "table", "seat"], name="result_seat_once"
            ),
            models.UniqueConstraint(
                fields=["tournament", "session", "player"], name="result_player_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.session}/{self.table}/{self.seat}: {self.game_points}"


class TableRecord(models.Model):
    """How the stored results of one table of a session came in (``source``: the score-sheet
    form, a CSV upload, the API or the players at the table) and their ``version``, counted
    up each time the table's results are replaced. Whoever saves a table carries the version
    they saw: a save over another version is a conflict, shown with both versions, never a
    silent overwrite (docs/decisions/0719-results-versions-and-conflicts.md)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="table_records",
        verbose_name=_("tournament"),
    )
    session = models.PositiveSmallIntegerField(_("session"))
    table = models.PositiveSmallIntegerField(_("table"))
    source = models.CharField(_("entered through"), max_length=10,
                              choices=Session.Source.choices)
    version = models.PositiveIntegerField(_("version"), default=1)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("entered by"),
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now=True)

    class Meta:
        ordering = ["tournament", "session", "table"]
        verbose_name = _("stored table")
        verbose_name_plural = _("stored tables")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "session", "table"],
                                    name="table_record_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.session}/{self.table} v{self.version}"


class TournamentResult(models.Model):
    """A player's final standing in a confirmed tournament (3.10.1), written by
    ``tournaments.services.tournament_results_store`` from ``tournament_ranking`` whenever the
    results are confirmed or corrected. Table points are kept as an exact fraction (ties share
    places: 7/3, 1.75)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="final_results",
        verbose_name=_("tournament"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="tournament_results",
        verbose_name=_("player"),
    )
    rank = models.PositiveIntegerField(_("rank"))
    players = models.PositiveIntegerField(_("players ranked"))
    table_points_numerator = models.IntegerField(_("table points (numerator)"))
    table_points_denominator = models.PositiveIntegerField(
        _("table points (denominator)"), default=1
    )
    game_points = models.IntegerField(_("game points"))
    penalties = models.PositiveIntegerField(_("deducted penalties"), default=0)
    sessions = models.PositiveSmallIntegerField(_("sessions played"))

    class Meta:
        ordering = ["tournament", "rank", "pk"]
        verbose_name = _("tournament result")
        verbose_name_plural = _("tournament results")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="tournament_result_player_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.rank}. {self.player}"

    @property
    def table_points(self) -> Fraction:
        return Fraction(self.table_points_numerator, self.table_points_denominator)


class HandRecord(models.Model):
    """One line of a score sheet (Appendix 5): a win, a draw or a transferred penalty, with
    the points it moved per seat (``deltas``: {"E": .., "S": .., "W": .., "N": ..})."""

    class Kind(models.TextChoices):
        WIN = "win", _("Win")
        DRAW = "draw", _("Draw")
        PENALTY = "penalty", _("Transferred penalty")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="hands",
        verbose_name=_("tournament"),
    )
    session = models.PositiveSmallIntegerField(_("session"))
    table = models.PositiveSmallIntegerField(_("table"))
    number = models.PositiveSmallIntegerField(_("hand"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    winner = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("winner or offender"),
    )
    discarder = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("discarder"),
    )
    points = models.PositiveIntegerField(_("points"), null=True, blank=True)
    fans = models.JSONField(_("fans"), default=list, blank=True)
    tiles = models.CharField(_("tiles"), max_length=100, blank=True)
    context = models.JSONField(_("win conditions"), default=dict, blank=True)
    deltas = models.JSONField(_("points moved"), default=dict)

    class Meta:
        ordering = ["tournament", "session", "table", "number"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "session", "table", "number"], name="hand_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.session}/{self.table} #{self.number}"


class TableEntry(models.Model):
    """A table's score sheet as the players enter it on a phone
    (docs/decisions/0710-table-side-entry.md): opened by the organizer for a session's seated tables, reached without an account through
    ``token`` (the QR code), valid while results may be posted. ``hands`` holds the sheet's
    lines as entered (``{"kind": "win" | "draw" | "penalty", "seat", "from", "points",
    "reason"}``, seats as winds); ``agreed`` the winds whose players tapped "agree". Once all
    four agreed the table is recorded through ``results_record`` and the entry is "agreed";
    when the organizer had entered the table with other results, the agreed sheet is
    ``held`` until the organizer keeps theirs or takes the players'."""

    class State(models.TextChoices):
        MISSING = "missing", _("missing")
        ENTERED = "entered", _("entered")
        AGREED = "agreed", _("agreed")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="table_entries",
        verbose_name=_("tournament"),
    )
    session = models.PositiveSmallIntegerField(_("session"))
    table = models.PositiveSmallIntegerField(_("table"))
    token = models.CharField(_("token"), max_length=64, unique=True)
    state = models.CharField(_("state"), max_length=10, choices=State.choices,
                             default=State.MISSING)
    hands = models.JSONField(_("hands"), default=list, blank=True)
    agreed = models.JSONField(_("agreed by"), default=list, blank=True)
    held = models.BooleanField(
        _("held for the organizer"), default=False,
        help_text=_("All four agreed after the organizer had entered the table: the "
                    "organizer's results stand until the organizer chooses."))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["tournament", "session", "table"]
        verbose_name = _("table entry")
        verbose_name_plural = _("table entries")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "session", "table"], name="table_entry_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.session}/{self.table}"


class SessionClock(models.Model):
    """The clock of a session (docs/decisions/0710-table-side-entry.md): started and paused
    by the organizer; ``elapsed`` counts the seconds run before ``started_at`` (set while it
    runs); ``extra`` gives tables that started late their extra minutes (``{"3": 5}``). The
    time left is computed by ``tournaments.rules.clock_time.seconds_left``."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="clocks",
        verbose_name=_("tournament"),
    )
    session = models.PositiveSmallIntegerField(_("session"))
    minutes = models.PositiveSmallIntegerField(_("session length (minutes)"))
    elapsed = models.PositiveIntegerField(_("seconds run"), default=0)
    started_at = models.DateTimeField(_("running since"), null=True, blank=True)
    extra = models.JSONField(_("extra minutes per table"), default=dict, blank=True)

    class Meta:
        ordering = ["tournament", "session"]
        verbose_name = _("session clock")
        verbose_name_plural = _("session clocks")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "session"], name="clock_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.session}"


class Entry(models.Model):
    """A person's own entry into a tournament (issue 24). ``entered``: a place is held,
    payment open; ``waiting``: on the waiting list, in order of entry; ``confirmed`` by the
    organizer; ``refused`` (with a reason); ``withdrawn`` (by the person or the organizer,
    or the place released for want of payment). Paid or not is read from the invoice."""

    class Status(models.TextChoices):
        ENTERED = "entered", _("Entered")
        WAITING = "waiting", pgettext_lazy("entry status", "Waiting")
        CONFIRMED = "confirmed", _("Confirmed")
        REFUSED = "refused", _("Refused")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries",
        verbose_name=_("tournament"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries",
        verbose_name=_("account"),
    )
    member = models.ForeignKey(
        "federation.Member", on_delete=models.SET_NULL, null=True, blank=True,
        related_name="tournament_entries", verbose_name=_("member"),
    )
    first_name = models.CharField(_("first name (Latin letters)"), max_length=100)
    last_name = models.CharField(_("last name (Latin letters)"), max_length=100)
    country = models.CharField(_("country"), max_length=2)
    ema_number = models.CharField(_("EMA number"), max_length=20, blank=True)
    ema_number_none = models.BooleanField(
        _("no EMA number yet"), default=False,
        help_text=_("The person said they have no EMA number yet (asked in MERS tournaments)."),
    )
    team = models.CharField(_("team"), max_length=200, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ENTERED,
        db_index=True,
    )
    fee = models.DecimalField(_("fee"), max_digits=10, decimal_places=2, default=Decimal(0))
    reduced = models.BooleanField(
        _("reduced fee claimed"), default=False,
        help_text=_("The person says they qualify for the reduced fee; the organizer checks."),
    )
    registration = models.OneToOneField(
        Registration, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="entry", verbose_name=_("registration"),
    )
    invoice = models.OneToOneField(
        "federation.DuesInvoice", on_delete=models.PROTECT, null=True, blank=True,
        related_name="tournament_entry", verbose_name=_("invoice"),
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    place_at = models.DateTimeField(_("place held since"), null=True, blank=True)
    reminded_on = models.DateField(_("payment reminder sent on"), null=True, blank=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    refund = models.DecimalField(
        _("refund due"), max_digits=10, decimal_places=2, null=True, blank=True
    )

    ACTIVE = (Status.ENTERED, Status.WAITING, Status.CONFIRMED)
    HOLDING = (Status.ENTERED, Status.CONFIRMED)

    class Meta:
        ordering = ["tournament", "entered_at", "pk"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=models.Q(status__in=["entered", "waiting", "confirmed"]),
                name="one_active_entry_per_person",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"


class Penalty(models.Model):
    """A penalty (3.11.2) with who gave it, when and why
    (docs/decisions/0715-penalties-absences-hidden-standings.md). ``deducted``: ``points``
    taken from ``player`` and given to no one (after table points); ``transferred``: moved
    from ``player`` to ``to_player``, or shared by the three others at the table when
    ``to_player`` is empty (as on the score sheet), so they are in the game points.

    ``source`` "results": entered with the results (the seat's deducted penalty, a penalty
    line of the sheet); these records are rewritten with the table they belong to and the
    stored rows (``TableResult``, ``HandRecord``) already hold them. ``source`` "organizer":
    given on the session view or the API (a late arrival among them); they survive a table
    posted again and are added to the stored sheet by ``tournaments.selectors`` for the
    standings and the ratings."""

    class Kind(models.TextChoices):
        DEDUCTED = "deducted", _("deducted")
        TRANSFERRED = "transferred", _("transferred")

    class Source(models.TextChoices):
        RESULTS = "results", _("entered with the results")
        ORGANIZER = "organizer", _("given by the organizer")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="penalties",
        verbose_name=_("tournament"),
    )
    session = models.PositiveSmallIntegerField(_("session"))
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    hand = models.PositiveSmallIntegerField(_("hand"), null=True, blank=True)
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="penalties", verbose_name=_("player"),
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    points = models.PositiveIntegerField(_("points"), validators=[MinValueValidator(1)])
    to_player = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("given to"),
    )
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    late_minutes = models.PositiveSmallIntegerField(_("minutes late"), null=True, blank=True)
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("given by"),
    )
    given_at = models.DateTimeField(_("given at"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "session", "table", "given_at", "pk"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        indexes = [models.Index(fields=["tournament", "session"])]

    def __str__(self) -> str:
        return f"{self.tournament} {self.session}: {self.player} -{self.points}"


class Absence(models.Model):
    """A player who misses one session (late by more than 15 minutes, 3.11.2, or any other
    reason the organizer accepts) and plays the next ones: that session's results leave them
    out, a substitute may take the seat, and they get the tournament's ``absent_score``."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="absences",
        verbose_name=_("tournament"),
    )
    session = models.PositiveSmallIntegerField(_("session"))
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player"),
    )
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    late_minutes = models.PositiveSmallIntegerField(_("minutes late"), null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "session", "pk"]
        verbose_name = _("absence")
        verbose_name_plural = _("absences")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "session", "player"],
                                    name="absence_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.session}: {self.player}"


class UnbalancedTable(models.Model):
    """A table imported as totals without hands whose game points do not sum to zero: kept
    as recorded and flagged until the organizer posts it again balanced (the flag goes) or
    confirms it "as recorded" (``confirmed_by``); the tournament cannot be confirmed while a
    flag is open (docs/decisions/0715-penalties-absences-hidden-standings.md)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="unbalanced_tables",
        verbose_name=_("tournament"),
    )
    session = models.PositiveSmallIntegerField(_("session"))
    table = models.PositiveSmallIntegerField(_("table"))
    total = models.IntegerField(_("sum of the game points"))
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+", verbose_name=_("confirmed as recorded by"),
    )
    confirmed_at = models.DateTimeField(_("confirmed as recorded at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "session", "table"]
        verbose_name = _("unbalanced table")
        verbose_name_plural = _("unbalanced tables")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "session", "table"],
                                    name="unbalanced_table_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.session}/{self.table}: {self.total}"


class PlayerMerge(models.Model):
    """Two players found to be one person (docs/decisions/0811-player-identity.md): the rows
    of ``merged`` moved to ``kept`` (``moved``: model -> field -> ids, to undo), ``merged``
    kept as a pointer (``Player.merged_into``). Undone while no newer merge involves either."""

    kept = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+",
                             verbose_name=_("player kept"))
    merged = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+",
                               verbose_name=_("player merged"))
    moved = models.JSONField(_("rows moved"), default=dict)
    merged_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                  related_name="+", verbose_name=_("merged by"))
    merged_at = models.DateTimeField(_("merged at"), auto_now_add=True)
    undone_at = models.DateTimeField(_("undone at"), null=True, blank=True)

    class Meta:
        ordering = ["-merged_at", "-pk"]
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")

    def __str__(self) -> str:
        return f"{self.merged_id} -> {self.kept_id}"


class PlayerClaim(models.Model):
    """A member says a player is them ("this is me"); the membership officer confirms (the
    player gets the member) or refuses."""

    class State(models.TextChoices):
        PENDING = "pending", _("Waiting for the membership officer")
        CONFIRMED = "confirmed", _("Confirmed")
        REFUSED = "refused", _("Refused")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims",
                               verbose_name=_("player"))
    member = models.ForeignKey("federation.Member", on_delete=models.CASCADE,
                               related_name="player_claims", verbose_name=_("member"))
    state = models.CharField(_("state"), max_length=10, choices=State.choices,
                             default=State.PENDING)
    claimed_at = models.DateTimeField(_("claimed at"), auto_now_add=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   null=True, blank=True, related_name="+",
                                   verbose_name=_("decided by"))
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        ordering = ["-claimed_at", "-pk"]
        verbose_name = _("player claim")
        verbose_name_plural = _("player claims")
        constraints = [
            models.UniqueConstraint(fields=["player", "member"],
                                    condition=models.Q(state="pending"),
                                    name="player_claim_pending_once"),
        ]

    def __str__(self) -> str:
        return f"{self.member} -> {self.player}"


class HandStats(models.Model):
    """What one player's hands in one confirmed tournament say (issue 40; decision 0735):
    kept by ``tournaments.services.hand_stats`` when results are confirmed or corrected and
    when players are merged, so that the statistics pages add up stored rows instead of
    reading every hand."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="hand_stats",
        verbose_name=_("tournament"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="hand_stats", verbose_name=_("player"),
    )
    ruleset = models.CharField(_("rules"), max_length=10)
    year = models.PositiveSmallIntegerField(_("year"))
    hands_played = models.PositiveIntegerField(_("hands played"), default=0)
    hands_won = models.PositiveIntegerField(_("hands won"), default=0)
    self_drawn = models.PositiveIntegerField(_("self-drawn wins"), default=0)
    dealt_in = models.PositiveIntegerField(_("hands paid as discarder"), default=0)
    points_won = models.PositiveIntegerField(_("points of the hands won"), default=0)
    largest_points = models.PositiveIntegerField(_("largest hand"), null=True, blank=True)
    largest_hand = models.ForeignKey(
        HandRecord, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("largest hand"),
    )
    best_session_wins = models.PositiveSmallIntegerField(_("most wins in a session"), default=0)
    longest_streak = models.PositiveSmallIntegerField(_("longest run of wins"), default=0)
    fans = models.JSONField(_("fans scored"), default=dict, blank=True)

    class Meta:
        verbose_name = _("hand statistics")
        verbose_name_plural = _("hand statistics")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="hand_stats_once"),
        ]
        indexes = [
            models.Index(fields=["player", "ruleset", "year"], name="hand_stats_player"),
            models.Index(fields=["ruleset", "year"], name="hand_stats_year"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.player}"
