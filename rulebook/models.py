"""The rulebook's data as editors edit it: fans (per ruleset and language) and worked examples.

Both are Wagtail snippets with revisions, drafts and preview (docs/decisions/0500). A fan is
translatable (one row per language, linked by ``translation_key``); a worked example is the
book's hand and its Russian words, one row per example.
"""

from __future__ import annotations

import re
import uuid

from django.contrib.contenttypes.fields import GenericRelation
from django.db import models
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from wagtail.models import (
    DraftStateMixin,
    PreviewableMixin,
    RevisionMixin,
    TranslatableMixin,
)
from wagtail.search import index

from rulebook import rulesets

UNIT_CHOICES = [
    ("points", _("points")),
    ("doublings", _("doublings")),
]

# The MCR fan categories (rulebook/data/mcr_fan_categories.json assigns each fan one).
CATEGORY_CHOICES = [
    ("honors", _("Winds and dragons")),
    ("terminals", _("Terminals and honors")),
    ("suits", _("Suits and colours")),
    ("numbers", _("Tile ranges")),
    ("chows", _("Chows")),
    ("pungs", _("Pungs and kongs")),
    ("special", _("Special hands")),
    ("winning", _("Concealment and winning")),
    ("bonus", _("Flowers")),
    # HKOS
    ("limit", _("Limit hands")),
    ("optional", _("Optional fans")),
]

_CYRILLIC = re.compile(r"[\u0400-\u04ff]")

_KEY_NAMESPACE = uuid.UUID("6f0c2a8e-7a55-4f0e-9b8c-2d1e8b0f9a11")


def fan_translation_key(ruleset: str, code: str) -> uuid.UUID:
    """The same key for a fan in every language (stable across databases and reloads)."""
    return uuid.uuid5(_KEY_NAMESPACE, f"fan:{ruleset}:{code}")


class Fan(TranslatableMixin, DraftStateMixin, RevisionMixin, PreviewableMixin, models.Model):
    """One fan of one ruleset in one language."""

    ruleset = models.CharField(_("rules"), max_length=8, choices=rulesets.choices())
    code = models.CharField(
        _("number"), max_length=8, help_text=_('The number in the fan table, e.g. "57A".')
    )
    position = models.PositiveSmallIntegerField(_("order in the table"), default=0)
    points = models.PositiveIntegerField(_("value"))
    unit = models.CharField(_("unit"), max_length=12, choices=UNIT_CHOICES, default="points")
    category = models.CharField(
        _("category"), max_length=16, choices=CATEGORY_CHOICES, blank=True
    )
    name = models.CharField(_("name"), max_length=200)
    description = models.TextField(_("description"), blank=True)
    definition = models.TextField(
        _("definition in the rules"),
        blank=True,
        help_text=_(
            "The rules' own definition (Appendix 1 for MCR) in this fan's language. Outside "
            'Russian, a text in Russian is shown with a "not yet translated" label.'
        ),
    )
    note = models.TextField(_("note"), blank=True)
    is_translated = models.BooleanField(
        _("translated"),
        default=True,
        help_text=_(
            "Tick when the name and description are in this page's language; until then "
            'visitors see the Russian text with a "not yet translated" notice.'
        ),
    )
    loaded_hash = models.CharField(max_length=64, blank=True, editable=False)
    updated_at = models.DateTimeField(auto_now=True)
    revisions = GenericRelation(
        "wagtailcore.Revision", content_type_field="content_type", object_id_field="object_id",
        for_concrete_model=False, related_query_name="rulebook_fan",
    )

    search_fields = [
        index.SearchField("name"),
        index.SearchField("description"),
        index.FilterField("ruleset"),
        index.FilterField("locale_id"),
    ]

    class Meta(TranslatableMixin.Meta):
        verbose_name = _("fan")
        verbose_name_plural = _("fans")
        ordering = ["ruleset", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["ruleset", "code", "locale"], name="rulebook_fan_unique_per_locale"
            )
        ]

    def __str__(self) -> str:
        return f"{self.ruleset.upper()} {self.code}. {self.name}"

    @property
    def slug(self) -> str:
        return self.code.lower()

    @property
    def definition_is_russian(self) -> bool:
        """Whether the definition is the Russian text (a fan of another language whose
        definition is not translated yet): of the site's five languages only Russian is
        written in Cyrillic (decision 0528)."""
        return bool(_CYRILLIC.search(self.definition))

    def get_preview_template(self, request, mode_name):
        return "rulebook/fan_preview.html"

    def get_preview_context(self, request, mode_name):
        # the template scores the fan's examples ({% fan_examples_scored %})
        context = super().get_preview_context(request, mode_name)
        context["fan"] = self
        return context

    def serve_preview(self, request, mode_name):
        """The preview as the fan's readers see it: in the fan's language, whatever the
        editor's admin language (the page around an English fan is English)."""
        with translation.override(self.locale.language_code):
            request.LANGUAGE_CODE = self.locale.language_code
            response = super().serve_preview(request, mode_name)
            if hasattr(response, "render"):
                response.render()
        return response


class WorkedExample(DraftStateMixin, RevisionMixin, PreviewableMixin, models.Model):
    """A worked example of the rules: the book's hand, its words and its fan list."""

    ruleset = models.CharField(_("rules"), max_length=8, choices=rulesets.choices())
    code = models.CharField(_("identifier"), max_length=32, help_text=_('E.g. "fan48-ex1".'))
    fan_code = models.CharField(_("fan"), max_length=8)
    position = models.PositiveIntegerField(_("order"), default=0)
    section = models.CharField(_("section of the rules"), max_length=32, blank=True)
    hand = models.CharField(
        _("hand"), max_length=100, help_text=_("In the calculator's notation.")
    )
    context = models.JSONField(_("win context"), default=dict, blank=True)
    book_text = models.TextField(_("the book's words (Russian)"), blank=True)
    book_text_translations = models.JSONField(
        _("the book's words in other languages"), default=dict, blank=True,
        help_text=_('The project\'s translations of the book\'s words: {"en": "…", "fr": "…"}.'),
    )
    book_fans = models.JSONField(
        _("the book's fans"), default=list, blank=True,
        help_text=_("Fan numbers the book lists for this hand (the example's fan included)."),
    )
    expected_fans = models.JSONField(
        _("corrected fans"), null=True, blank=True,
        help_text=_("Where the book is wrong (an erratum): the fans the hand really scores."),
    )
    conditions = models.JSONField(
        _("further conditions of the book"), default=dict, blank=True,
        help_text=_(
            'Optional: {"times": {fan: n}} a fan counted at least n times, {"one_of": [[fans]]} '
            'at least one of them, {"if": {fan: context key}} a fan when the context says so.'
        ),
    )
    book_total = models.IntegerField(_("the book's total"), null=True, blank=True)
    erratum = models.TextField(_("erratum"), blank=True)
    assumptions = models.JSONField(_("assumptions"), default=list, blank=True)
    keyboard = models.CharField(_("the book's tile string"), max_length=100, blank=True)
    loaded_hash = models.CharField(max_length=64, blank=True, editable=False)
    updated_at = models.DateTimeField(auto_now=True)
    revisions = GenericRelation(
        "wagtailcore.Revision", content_type_field="content_type", object_id_field="object_id",
        for_concrete_model=False, related_query_name="rulebook_worked_example",
    )

    class Meta:
        verbose_name = _("worked example")
        verbose_name_plural = _("worked examples")
        ordering = ["ruleset", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["ruleset", "code"], name="rulebook_example_unique_code"
            )
        ]

    def __str__(self) -> str:
        return f"{self.ruleset.upper()} {self.code}"

    @property
    def number(self) -> str:
        """The example's number among its fan's examples ("fan48-ex2" -> "2")."""
        match = re.search(r"(\d+)$", self.code)
        return match.group(1) if match else self.code

    def get_preview_template(self, request, mode_name):
        return "rulebook/example_preview.html"
