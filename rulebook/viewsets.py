"""Wagtail admin for the rulebook: fans and worked examples as snippets (grouped as "Rulebook").

Fans are translatable (the locale filter and "translate" come from Wagtail's i18n); both
keep revisions, drafts and preview. The examples' list shows, live, whether the scoring
core agrees with the book, and a filter lists the disagreements.
"""

from __future__ import annotations

import django_filters
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from wagtail.admin.filters import WagtailFilterSet
from wagtail.admin.panels import FieldPanel, FieldRowPanel, MultiFieldPanel
from wagtail.admin.ui.tables import Column
from wagtail.snippets.views.snippets import SnippetViewSet, SnippetViewSetGroup

from rulebook import selectors
from rulebook.models import Fan, WorkedExample


class FanFilterSet(WagtailFilterSet):
    class Meta:
        model = Fan
        fields = ["ruleset", "points", "category", "is_translated"]


class FanViewSet(SnippetViewSet):
    model = Fan
    icon = "list-ol"
    menu_label = _("Fans")
    list_display = ["__str__", "points", "category", "is_translated"]
    list_per_page = 100
    filterset_class = FanFilterSet
    search_fields = ["name", "code", "description"]
    panels = [
        FieldRowPanel([FieldPanel("ruleset", read_only=True), FieldPanel("code", read_only=True)]),
        FieldRowPanel([FieldPanel("points"), FieldPanel("unit"), FieldPanel("category")]),
        FieldPanel("name"),
        FieldPanel("description"),
        FieldPanel("note"),
        FieldPanel("definition"),
        FieldPanel("is_translated"),
        FieldPanel("position"),
    ]


class AgreementColumn(Column):
    """Does the core's live result agree with the book (errata applied)?"""

    def get_value(self, instance):
        scored = selectors.example_scored(instance, language="ru")
        if scored.agreement.ok:
            if instance.erratum:
                return _("agrees (book erratum)")
            return _("agrees")
        return format_html('<strong class="w-text-critical-200">{}</strong>', _("DISAGREES"))


class ExampleFilterSet(WagtailFilterSet):
    disagreeing = django_filters.BooleanFilter(
        label=_("The core disagrees with the book"), method="filter_disagreeing"
    )

    class Meta:
        model = WorkedExample
        fields = ["ruleset"]

    def filter_disagreeing(self, queryset, name, value):
        if value is None:
            return queryset
        bad = {s.example.pk for s in selectors.examples_disagreeing()}
        return queryset.filter(pk__in=bad) if value else queryset.exclude(pk__in=bad)


class WorkedExampleViewSet(SnippetViewSet):
    model = WorkedExample
    icon = "doc-full"
    menu_label = _("Worked examples")
    list_display = [
        "__str__", "fan_code", "hand", AgreementColumn("agreement", label=_("Core and book")),
    ]
    list_per_page = 120
    filterset_class = ExampleFilterSet
    search_fields = ["code", "hand", "book_text"]
    panels = [
        FieldRowPanel([FieldPanel("ruleset", read_only=True), FieldPanel("code", read_only=True)]),
        FieldRowPanel([FieldPanel("fan_code"), FieldPanel("section"), FieldPanel("position")]),
        FieldPanel("hand"),
        FieldPanel("context"),
        FieldPanel("book_text"),
        FieldPanel("book_text_translations"),
        MultiFieldPanel(
            [
                FieldPanel("book_fans"),
                FieldPanel("book_total"),
                FieldPanel("conditions"),
                FieldPanel("expected_fans"),
                FieldPanel("erratum"),
            ],
            heading=_("What the book says"),
        ),
        FieldPanel("assumptions"),
        FieldPanel("keyboard"),
    ]


class RulebookViewSetGroup(SnippetViewSetGroup):
    items = (FanViewSet, WorkedExampleViewSet)
    menu_icon = "bars"
    menu_label = _("Rulebook")
    menu_name = "rulebook"
