"""Rating rows: periods, each player's history, published (frozen) lists, the recompute lock.

Every row but the lock belongs to one ruleset (MCR, HKOS, Red): each ruleset has its own
rating list, fed only by its own tournaments (docs/decisions/0805-one-rating-per-ruleset.md).

The players and their results are the tournaments app's (``tournaments.models``). Only
periods in which a player played are stored (RatingEntry); any month's list is derived
from them with the closed-form step-6 increase (docs/decisions/0801-rating-storage.md). A published list
is stored whole (PublishedRating) and never changes again.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from rulebook import rulesets

#: Each rated ruleset has its own rating list (decision 0805), named as the ruleset
#: (rulebook.rulesets); MCR's is the one shown when none is asked for.
RATING_LIST_CHOICES = rulesets.rating_list_choices()
DEFAULT_RULESET = rulesets.DEFAULT_CODE


class RatingPeriod(models.Model):
    """A calendar month of the rating, "YYYY-MM". Rows exist from the first month with results
    to the last; publishing freezes the month's list."""

    ruleset = models.CharField(
        _("rules"), max_length=10, choices=RATING_LIST_CHOICES, default=DEFAULT_RULESET
    )
    period = models.CharField(_("period"), max_length=7)
    has_results = models.BooleanField(_("has results"), default=False)
    published = models.BooleanField(_("published"), default=False)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("published by"),
    )

    class Meta:
        ordering = ["ruleset", "-period"]
        verbose_name = _("rating period")
        verbose_name_plural = _("rating periods")
        permissions = [("publish_ratingperiod", _("Can publish rating lists"))]
        constraints = [
            models.UniqueConstraint(fields=["ruleset", "period"], name="rating_period_once"),
        ]

    def __str__(self) -> str:
        return f"{self.ruleset} {self.period}"


class RatingEntry(models.Model):
    """A player's rating period with games: the rating before and after it, the games, the
    score and the expected score. The games by opponent are derived again when a player page
    shows them (`selectors.period_explanations`): storing them would make the
    recompute write ten times as much."""

    player = models.ForeignKey(
        "tournaments.Player",
        on_delete=models.CASCADE,
        related_name="rating_entries",
        verbose_name=_("player"),
    )
    ruleset = models.CharField(
        _("rules"), max_length=10, choices=RATING_LIST_CHOICES, default=DEFAULT_RULESET
    )
    period = models.CharField(_("period"), max_length=7, db_index=True)
    rating_before = models.FloatField(_("rating before"))
    rd_before = models.FloatField(_("RD before"))
    vol_before = models.FloatField(_("volatility before"))
    rating = models.FloatField(_("rating"))
    rd = models.FloatField(_("RD"))
    vol = models.FloatField(_("volatility"))
    games = models.PositiveIntegerField(_("games"))
    total_games = models.PositiveIntegerField(_("games to date"))
    score = models.FloatField(_("score"))
    expected = models.FloatField(_("expected score"))
    is_new = models.BooleanField(_("first period"), default=False)
    tournaments = models.JSONField(_("tournaments"), default=list)

    class Meta:
        ordering = ["ruleset", "player_id", "period"]
        verbose_name = _("rating history entry")
        verbose_name_plural = _("rating history entries")
        constraints = [
            models.UniqueConstraint(
                fields=["ruleset", "player", "period"], name="rating_entry_once_per_ruleset"
            ),
        ]
        indexes = [models.Index(fields=["ruleset", "period"], name="rating_entry_ruleset_period")]

    def __str__(self) -> str:
        return f"{self.ruleset} {self.player_id} {self.period}"


class PublishedRating(models.Model):
    """One row of a published (frozen) rating list."""

    period = models.ForeignKey(
        RatingPeriod, on_delete=models.CASCADE, related_name="rows", verbose_name=_("period")
    )
    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    rank = models.PositiveIntegerField(_("rank"))
    rating = models.FloatField(_("rating"))
    rd = models.FloatField(_("RD"))
    vol = models.FloatField(_("volatility"))
    games = models.PositiveIntegerField(_("games"))
    provisional = models.BooleanField(_("provisional"))
    change = models.FloatField(_("change"), null=True, blank=True)
    last_period = models.CharField(_("last period with games"), max_length=7)

    class Meta:
        ordering = ["period", "rank"]
        verbose_name = _("published rating")
        verbose_name_plural = _("published ratings")
        constraints = [
            models.UniqueConstraint(fields=["period", "player"], name="published_rating_once"),
        ]

    def __str__(self) -> str:
        return f"{self.period_id} #{self.rank}"


class RatingRecompute(models.Model):
    """The single row (pk=1) that recomputes lock, and what the last one did. One lock for
    every ruleset: recomputes are rare, and one stamp keys every cached list."""

    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    ruleset = models.CharField(_("rules"), max_length=10, choices=RATING_LIST_CHOICES, blank=True)
    from_period = models.CharField(_("from period"), max_length=7, blank=True)
    periods = models.PositiveIntegerField(_("periods rated"), default=0)
    entries = models.PositiveIntegerField(_("history rows written"), default=0)
    #: changes with every recompute and publication: cached lists are keyed by it
    stamp = models.CharField(_("stamp"), max_length=32, blank=True)

    class Meta:
        verbose_name = _("rating recompute")
        verbose_name_plural = _("rating recomputes")

    def __str__(self) -> str:
        return f"{self.finished_at}"


class EmaBaseRank(models.Model):
    """A player's EMA base rank in one confirmed MERS tournament (decision 0821), stored
    with the tournament's final standings when they are confirmed, corrected, imported or a
    player merged: an exact fraction, as ``ratings.rules.ema.base_ranks`` gives it, and the
    number of players ranked (substitutes left out)."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="ema_base_ranks",
        verbose_name=_("tournament"),
    )
    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.CASCADE, related_name="+",
        verbose_name=_("player"),
    )
    numerator = models.BigIntegerField()
    denominator = models.BigIntegerField(default=1)
    place = models.PositiveIntegerField(_("place"))
    field = models.PositiveIntegerField(_("players ranked"))

    class Meta:
        verbose_name = _("EMA base rank")
        verbose_name_plural = _("EMA base ranks")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="ema_base_rank_once"),
        ]
        indexes = [models.Index(fields=["player", "tournament"], name="ema_base_rank_player")]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.player_id} {self.numerator}/{self.denominator}"


class StoredRanking(models.Model):
    """The last time a ranking of a ruleset was computed and stored (decision 0821): the EMA
    ranking on a day (``on``) or the club ranking on a rating list's month (``period``)."""

    class Kind(models.TextChoices):
        EMA = "ema", _("EMA ranking")
        CLUB = "club", _("club ranking")

    kind = models.CharField(max_length=10, choices=Kind.choices)
    ruleset = models.CharField(_("rules"), max_length=10, choices=RATING_LIST_CHOICES)
    on = models.DateField(null=True, blank=True)
    period = models.CharField(max_length=7, blank=True)
    computed_at = models.DateTimeField(auto_now=True)
    #: the countries of the players listed (the EMA page's country filter)
    countries = models.JSONField(default=list)
    #: the settings it was computed with: stored again when they change
    config = models.CharField(max_length=500, blank=True)
    #: set when the data changed and the queued job will store it again (decision 0828):
    #: readers keep reading these rows, with a note, instead of computing it themselves
    updating_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "ruleset"], name="stored_ranking_once"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.ruleset} {self.on or self.period}"


class EmaRankingRow(models.Model):
    """One listed player of a stored EMA ranking, with its published (rounded) figures."""

    ranking = models.ForeignKey(StoredRanking, on_delete=models.CASCADE, related_name="ema_rows")
    rank = models.PositiveIntegerField(_("rank"))
    player = models.ForeignKey("tournaments.Player", on_delete=models.CASCADE, related_name="+")
    score = models.DecimalField(max_digits=8, decimal_places=2)
    part_a = models.DecimalField(max_digits=8, decimal_places=2)
    part_b = models.DecimalField(max_digits=8, decimal_places=2)
    tournaments = models.PositiveIntegerField()

    class Meta:
        ordering = ["ranking", "rank", "player_id"]
        indexes = [models.Index(fields=["ranking", "rank", "player"], name="ema_row_order")]

    def __str__(self) -> str:
        return f"{self.ranking_id} #{self.rank}"


class ClubRankingRow(models.Model):
    """One club of a stored club ranking: its place in the order, rank (None: not enough
    established players), mean, the players counted ([player id, rating], best first)."""

    ranking = models.ForeignKey(StoredRanking, on_delete=models.CASCADE,
                                related_name="club_rows")
    position = models.PositiveIntegerField()
    club = models.ForeignKey("federation.Club", on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField(null=True)
    mean = models.FloatField(null=True)
    counted = models.JSONField(default=list)
    players = models.PositiveIntegerField()

    class Meta:
        ordering = ["ranking", "position"]

    def __str__(self) -> str:
        return f"{self.ranking_id} {self.position}"


class QualificationList(models.Model):
    """The federation's own qualification list for a championship (issue 39, decision
    0842): who takes the federation's seats, by the rule the accreditation officer sets,
    with reserves; published as a page and exported."""

    class Rule(models.TextChoices):
        EMA = "ema", _("by EMA rank")
        RATING = "rating", _("by national rating")
        SERIES = "series", _("by a series of tournaments")

    name = models.CharField(_("championship"), max_length=200)
    ruleset = models.CharField(_("rules"), max_length=10, choices=RATING_LIST_CHOICES,
                               default=DEFAULT_RULESET)
    rule = models.CharField(_("qualification rule"), max_length=10, choices=Rule.choices,
                            default=Rule.EMA)
    seats = models.PositiveIntegerField(_("seats"), default=1)
    reserves = models.PositiveIntegerField(_("reserves"), default=0)
    country = models.CharField(
        _("country"), max_length=2, blank=True,
        help_text=_("Only players of this country (ISO 3166 alpha-2 code); empty: everyone."))
    tournaments = models.ManyToManyField(
        "tournaments.Tournament", blank=True, related_name="+", verbose_name=_("tournaments"),
        help_text=_("The series: the tournaments whose places earn points (rule: by a series "
                    "of tournaments)."))
    points = models.CharField(
        _("points per place"), max_length=500, blank=True,
        help_text=_("Points for 1st, 2nd, 3rd ... place, separated by commas, e.g. "
                    "\"10, 8, 6, 5, 4, 3, 2, 1\"; places further down earn none."))
    published = models.BooleanField(_("published"), default=False)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["-updated_at", "pk"]
        verbose_name = _("qualification list")
        verbose_name_plural = _("qualification lists")

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        from django.core.exceptions import ValidationError

        from ratings.rules.qualification import PointsInvalid, parse_points

        try:
            parse_points(self.points)
        except PointsInvalid as error:
            raise ValidationError({"points": _(
                "Give whole numbers of points separated by commas, e.g. \"10, 8, 6\".")}) from error
        if self.rule == self.Rule.SERIES and not self.points.strip():
            raise ValidationError({"points": _("A series needs the points per place.")})
class ClubMemberRating(models.Model):
    """One listed member's row of the latest rating list, stored with the club ranking it
    was read for (decision 0824), so that a club's page reads its own members' rows only:
    the list's row as it was (rank, rating, RD, volatility, games, provisional, change, the
    player's last month with games)."""

    ranking = models.ForeignKey(StoredRanking, on_delete=models.CASCADE,
                                related_name="member_rows")
    club = models.ForeignKey("federation.Club", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("tournaments.Player", on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField(_("rank"))
    rating = models.FloatField()
    rd = models.FloatField()
    vol = models.FloatField()
    games = models.PositiveIntegerField()
    provisional = models.BooleanField()
    change = models.FloatField(null=True)
    last_period = models.CharField(max_length=7)

    class Meta:
        ordering = ["ranking", "rank"]
        indexes = [models.Index(fields=["club", "ranking", "rank"], name="club_member_rating")]

    def __str__(self) -> str:
        return f"{self.ranking_id} {self.club_id} #{self.rank}"
