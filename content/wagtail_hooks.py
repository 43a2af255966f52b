"""Wagtail admin for the site's pages: the rulebook translation report and its lines on
the admin's home page (content/reports.py), and the editors' reviews of translations."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from wagtail import hooks


@hooks.register("register_admin_urls")
def register_rulebook_report_urls():
    from django.urls import path

    from content.reports import UntranslatedRulebookPagesView, translation_diff

    return [
        path("reports/untranslated-rulebook/<int:page_id>/diff/", translation_diff,
             name="rule_translation_diff"),
        path("reports/untranslated-rulebook/", UntranslatedRulebookPagesView.as_view(),
             name="untranslated_rulebook_pages"),
        path("reports/untranslated-rulebook/results/",
             UntranslatedRulebookPagesView.as_view(results_only=True),
             name="untranslated_rulebook_pages_results"),
    ]


def _can_edit_pages(user) -> bool:
    from wagtail.permission_policies.pages import PagePermissionPolicy

    return PagePermissionPolicy().user_has_permission(user, "change")


@hooks.register("register_reports_menu_item")
def register_rulebook_report_menu_item():
    from django.urls import reverse
    from wagtail.admin.menu import MenuItem

    class EditorsMenuItem(MenuItem):
        def is_shown(self, request):
            return _can_edit_pages(request.user)

    return EditorsMenuItem(_("Rulebook translations"),
                           reverse("untranslated_rulebook_pages"), icon_name="doc-full",
                           order=1200)


def rulebook_tasks(user) -> list:
    """The editors' line on the admin's home page."""
    from django.urls import reverse

    from content.reports import rulebook_translation_pages
    from core.admin_dashboard import Task

    if not _can_edit_pages(user):
        return []
    url = reverse("untranslated_rulebook_pages")
    return [
        Task(str(_("Rulebook pages not translated yet")),
             rulebook_translation_pages(user, "missing").count(), url + "?status=missing"),
        Task(str(_("Rule translations not reviewed yet")),
             rulebook_translation_pages(user, "unreviewed").count(), url + "?status=unreviewed"),
        Task(str(_("Rule translations outdated by a change of the Russian text")),
             rulebook_translation_pages(user, "outdated").count(), url + "?status=outdated"),
    ]


@hooks.register("construct_homepage_panels")
def add_rulebook_tasks_panel(request, panels):
    from core.admin_dashboard import TasksPanel

    panels.append(TasksPanel(name="rulebook_tasks", heading=str(_("Rulebook: waiting")),
                             order=70, tasks=rulebook_tasks))


@hooks.register("after_publish_page")
def record_translation_review(request, page):
    """An editor published a translated rule chapter with "translation reviewed" ticked (or
    unticked): record who reviewed it and when, against the current Russian text."""
    from content.models import RuleChapterPage
    from content.services import rule_translation_review

    page = page.specific
    if not isinstance(page, RuleChapterPage) or not page.is_project_translation:
        return
    fresh = RuleChapterPage.objects.get(pk=page.pk)
    if page.translation_reviewed and (
        fresh.translation_reviewed_by_id is None or fresh.translation_outdated
    ):
        rule_translation_review(page=fresh, user=request.user, reviewed=True)
    elif not page.translation_reviewed and fresh.translation_reviewed_at is not None:
        rule_translation_review(page=fresh, user=request.user, reviewed=False)


@hooks.register("register_page_header_buttons")
def news_mailing_button(page, user, view_name, next_url=None):
    """On a news post: "Mail to members", for those who may send mailings."""
    from django.urls import reverse
    from wagtail.admin.ui.menus import MenuItem

    from content.models import NewsPage

    if isinstance(page.specific_deferred, NewsPage) and user.has_perm("federation.send_mailing"):
        yield MenuItem(_("Mail to members"), reverse("news_mailing", args=[page.pk]),
                       icon_name="mail", priority=40)


@hooks.register("register_admin_urls")
def register_news_mailing_url():
    from django.urls import path

    return [path("news/<int:pk>/mailing/", news_mailing_view, name="news_mailing")]


def news_mailing_view(request, pk):
    """Hands a news post's texts (every translation) to the mailing form."""
    from django.core.exceptions import PermissionDenied
    from django.shortcuts import get_object_or_404, redirect

    from content.models import NewsPage
    from content.news import news_mailing_texts

    if not request.user.has_perm("federation.send_mailing"):
        raise PermissionDenied
    post = get_object_or_404(NewsPage, pk=pk)
    request.session["mailing_from_post"] = news_mailing_texts(post)
    return redirect("mailing_new")


def _can_publish_pages(user) -> bool:
    from wagtail.permission_policies.pages import PagePermissionPolicy

    return PagePermissionPolicy().user_has_permission(user, "publish")


def news_draft_tasks(user) -> list:
    """The editors' lines on the admin's home page: each news post the tournaments wrote and
    no editor has published yet (decision 0727), in the editor's language when there is
    one, with the languages still waiting."""
    from django.urls import reverse
    from django.utils.translation import get_language

    from content.services import news_drafts_waiting
    from core.admin_dashboard import Task

    if not _can_publish_pages(user):
        return []
    language = get_language()
    tasks = []
    for drafts in news_drafts_waiting():
        mine = next((page for page in drafts if page.locale.language_code == language), drafts[0])
        languages = ", ".join(page.locale.get_display_name() for page in drafts)
        tasks.append(Task(mine.title, len(drafts),
                          reverse("wagtailadmin_pages:edit", args=[mine.pk]),
                          detail=str(_("Drafts not published yet: %(languages)s")
                                     % {"languages": languages})))
    return tasks


@hooks.register("construct_homepage_panels")
def add_news_drafts_panel(request, panels):
    from core.admin_dashboard import TasksPanel

    panels.append(TasksPanel(name="news_drafts", heading=str(_("News drafts from tournaments")),
                             order=60, tasks=news_draft_tasks))
