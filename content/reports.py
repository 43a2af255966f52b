"""The editors' translation report: rulebook pages whose translation is missing, not yet
reviewed, or outdated.

Until an editor translates a rulebook page and ticks "translated" (decision 0502), its
visitors read the Russian text under a notice ("missing"). A chapter loaded from the
project's translation file waits for an editor of its language to review it
("unreviewed"); when the Russian chapter changes, its translation is "outdated" until an
editor reviews it again (decision 0521). This report lists those pages, by language and
status, with links to edit them (Reports -> "Rulebook translations", and lines on the
admin's home page).
"""

from __future__ import annotations

import django_filters
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db.models import F, QuerySet
from django.utils.translation import gettext_lazy as _
from wagtail.admin.filters import ContentTypeFilter, WagtailFilterSet
from wagtail.admin.views.reports import PageReportView
from wagtail.models import Page
from wagtail.permission_policies.pages import PagePermissionPolicy

from content.models import FanTablePage, RuleChapterPage, RulesetPage, RulesIndexPage

RULEBOOK_PAGE_TYPES = (RulesIndexPage, RulesetPage, RuleChapterPage, FanTablePage)


def untranslated_rulebook_pages(user) -> QuerySet[Page]:
    """The rulebook pages marked not translated that ``user`` may edit, outside the
    source language (settings.LANGUAGE_CODE: the rules are written in Russian)."""
    ids: list[int] = []
    for model in RULEBOOK_PAGE_TYPES:
        ids += model.objects.filter(is_translated=False).exclude(
            locale__language_code=settings.LANGUAGE_CODE).values_list("pk", flat=True)
    return PagePermissionPolicy().instances_user_has_permission_for(user, "change").filter(
        pk__in=ids)


TRANSLATION_STATUSES = [
    ("missing", _("Missing")),
    ("unreviewed", _("Not reviewed")),
    ("outdated", _("Outdated")),
]


def _status_ids(status: str) -> list[int]:
    chapters = RuleChapterPage.objects.exclude(locale__language_code=settings.LANGUAGE_CODE)
    if status == "unreviewed":
        chapters = chapters.filter(
            translation_source=RuleChapterPage.TRANSLATION_PROJECT, translation_reviewed=False)
    elif status == "outdated":
        chapters = chapters.filter(
            translation_source=RuleChapterPage.TRANSLATION_PROJECT
        ).exclude(translated_from_hash="").exclude(russian_hash="").exclude(
            translated_from_hash=F("russian_hash"))
    else:
        raise ValueError(status)
    return list(chapters.values_list("pk", flat=True))


def rulebook_translation_pages(user, status: str | None = None) -> QuerySet[Page]:
    """The rulebook pages ``user`` may edit whose translation is missing, not reviewed or
    outdated (``status`` one of them; None: any)."""
    if status == "missing":
        return untranslated_rulebook_pages(user)
    statuses = [status] if status else ["unreviewed", "outdated"]
    ids = [pk for name in statuses for pk in _status_ids(name)]
    pages = PagePermissionPolicy().instances_user_has_permission_for(user, "change").filter(
        pk__in=ids)
    if status is None:
        pages = pages | untranslated_rulebook_pages(user)
    return pages


def rulebook_page_types() -> QuerySet[ContentType]:
    return ContentType.objects.filter(
        pk__in=[ct.pk for ct in ContentType.objects.get_for_models(*RULEBOOK_PAGE_TYPES).values()]
    )


class UntranslatedFilterSet(WagtailFilterSet):
    # (the language filter is added by WagtailFilterSet for translatable models)
    content_type = ContentTypeFilter(
        label=_("Type"),
        queryset=lambda request: rulebook_page_types(),
    )
    status = django_filters.ChoiceFilter(
        label=_("Translation"), choices=TRANSLATION_STATUSES, method="filter_status",
    )

    class Meta:
        model = Page
        fields = ["content_type"]

    def filter_status(self, queryset, name, value):
        if not value:
            return queryset
        return queryset.filter(
            pk__in=rulebook_translation_pages(self.request.user, value).values("pk"))


class UntranslatedRulebookPagesView(PageReportView):
    page_title = _("Rulebook translations")
    header_icon = "doc-full"
    filterset_class = UntranslatedFilterSet
    index_url_name = "untranslated_rulebook_pages"
    index_results_url_name = "untranslated_rulebook_pages_results"
    any_permission_required = ["change"]

    results_template_name = "content/admin/translation_report_results.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        outdated = set(_status_ids("outdated"))
        context["outdated_pages"] = [
            page for page in context.get("object_list") or [] if page.pk in outdated
        ]
        return context

    def get_queryset(self):
        self.queryset = (
            rulebook_translation_pages(self.request.user)
            .select_related("locale", "content_type")
            .order_by("locale__language_code", "path")
        )
        return super().get_queryset()


def translation_diff(request, page_id: int):
    """What changed in the Russian chapter since a translation was made or last reviewed:
    the lines removed and added (decision 0526). Editors who may edit the page only."""
    from django.core.exceptions import PermissionDenied
    from django.shortcuts import get_object_or_404, render

    from content.rule_translations import text_diff

    page = get_object_or_404(
        RuleChapterPage.objects.exclude(locale__language_code=settings.LANGUAGE_CODE)
        .select_related("locale"), pk=page_id)
    allowed = PagePermissionPolicy().instances_user_has_permission_for(request.user, "change")
    if not allowed.filter(pk=page.pk).exists():
        raise PermissionDenied
    known = bool(page.translated_from_text)
    lines = text_diff(page.translated_from_text, page.russian_text) if known else []
    if lines and all(kind in ("same", "skipped") for kind, _line in lines):
        lines = []
    russian_page = (RuleChapterPage.objects.filter(
        translation_key=page.translation_key, locale__language_code=settings.LANGUAGE_CODE)
        .first())
    return render(request, "content/admin/translation_diff.html", {
        "page": page, "lines": lines, "known": known, "russian_page": russian_page,
    })
