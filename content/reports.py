"""The editors' report: rulebook pages whose text is not in their own language yet.

Until an editor translates a rulebook page and ticks "translated" (decision 0502), its
visitors read the Russian text under a notice. This report lists those pages, by language,
with links to edit them (Reports -> "Untranslated rulebook pages", and a line on the
admin's home page).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db.models import QuerySet
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

    class Meta:
        model = Page
        fields = ["content_type"]


class UntranslatedRulebookPagesView(PageReportView):
    page_title = _("Untranslated rulebook pages")
    header_icon = "doc-full"
    filterset_class = UntranslatedFilterSet
    index_url_name = "untranslated_rulebook_pages"
    index_results_url_name = "untranslated_rulebook_pages_results"
    any_permission_required = ["change"]

    def get_queryset(self):
        self.queryset = (
            untranslated_rulebook_pages(self.request.user)
            .select_related("locale", "content_type")
            .order_by("locale__language_code", "path")
        )
        return super().get_queryset()
