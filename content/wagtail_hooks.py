"""Wagtail admin for the site's pages: the untranslated-rulebook report and its line on
the admin's home page (content/reports.py)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from wagtail import hooks


@hooks.register("register_admin_urls")
def register_rulebook_report_urls():
    from django.urls import path

    from content.reports import UntranslatedRulebookPagesView

    return [
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

    return EditorsMenuItem(_("Untranslated rulebook pages"),
                           reverse("untranslated_rulebook_pages"), icon_name="doc-full",
                           order=1200)


def rulebook_tasks(user) -> list:
    """The editors' line on the admin's home page."""
    from django.urls import reverse

    from config.admin_dashboard import Task
    from content.reports import untranslated_rulebook_pages

    if not _can_edit_pages(user):
        return []
    return [Task(str(_("Rulebook pages not translated yet")),
                 untranslated_rulebook_pages(user).count(),
                 reverse("untranslated_rulebook_pages"))]


@hooks.register("construct_homepage_panels")
def add_rulebook_tasks_panel(request, panels):
    from config.admin_dashboard import TasksPanel

    panels.append(TasksPanel(name="rulebook_tasks", heading=str(_("Rulebook: waiting")),
                             order=70, tasks=rulebook_tasks))
