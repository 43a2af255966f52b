"""Tournaments and ratings. The Player is whoever sits at a table: a member or a guest."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Player(models.Model):
    """A person who plays in tournaments. Foreign guests exist without a member record and can
    be linked to one later. When a member asks for erasure the player keeps its results under
    an anonymous name (see federation.services.member_erase)."""

    name_native = models.CharField(_("name (native script)"), max_length=200, blank=True)
    name_latin = models.CharField(_("name (Latin letters)"), max_length=200)
    country = models.CharField(_("country"), max_length=100, blank=True)
    member = models.OneToOneField(
        "federation.Member",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
        verbose_name=_("member"),
    )
    is_anonymised = models.BooleanField(_("anonymised"), default=False, editable=False)

    class Meta:
        ordering = ["name_latin", "pk"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name_latin or self.name_native


# The rating models live in their own module (issue 12); importing them here makes them
# models of this app.
from ratings.rating_models import (  # noqa: E402, F401
    PublishedRating,
    RatingEntry,
    RatingPeriod,
    RatingRecompute,
)
