"""Editors find the rulebook pages still showing the Russian text: a report by language,
and a line on the admin's home page; people without page permissions see neither."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group, Permission
from wagtail.models import GroupPagePermission, Page
from wagtail.users.models import UserProfile

from content.models import RuleChapterPage
from content.reports import untranslated_rulebook_pages
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

REPORT = "/admin/reports/untranslated-rulebook/"


def _in_english(user) -> None:
    profile = UserProfile.get_for_user(user)
    profile.preferred_language = "en"
    profile.save()


@pytest.fixture
def editor(rulebook_content):
    group = Group.objects.create(name="Rule editors")
    group.permissions.add(Permission.objects.get(codename="access_admin"))
    GroupPagePermission.objects.create(
        group=group, page=Page.get_first_root_node(),
        permission=Permission.objects.get(codename="change_page"))
    user = UserFactory(is_staff=True)
    user.groups.add(group)
    _in_english(user)
    return user


def _listed_titles(html: str) -> list[str]:
    return re.findall(r'<span id="page_\d+_title">\s*([^<]+?)\s*</span>', html)


def test_the_report_lists_the_untranslated_pages_by_language(client, editor) -> None:
    expected = RuleChapterPage.objects.filter(is_translated=False).exclude(
        locale__language_code="ru")
    assert expected.exists()  # the test rulebook's chapters are not translated
    client.force_login(editor)
    html = client.get(REPORT).content.decode()
    assert "Rulebook translations" in html
    assert len(_listed_titles(html)) == untranslated_rulebook_pages(editor).count() > 0
    french = client.get(REPORT, {"locale": "fr"}).content.decode()
    french_pages = expected.filter(locale__language_code="fr")
    assert 0 < len(_listed_titles(french)) == french_pages.count() < expected.count()


def test_a_page_ticked_translated_leaves_the_report_and_the_dashboard(client, editor) -> None:
    client.force_login(editor)
    before = untranslated_rulebook_pages(editor).count()
    dashboard = client.get("/admin/").content.decode()
    line = re.search(r'<a href="/admin/reports/untranslated-rulebook/\?status=missing">Rulebook pages not '
                     r'translated yet</a>.*?<strong>(\d+)</strong>', dashboard, re.S)
    assert line and int(line.group(1)) == before
    page = RuleChapterPage.objects.filter(is_translated=False).exclude(
        locale__language_code="ru").first()
    page.is_translated = True
    page.save_revision().publish()
    assert untranslated_rulebook_pages(editor).count() == before - 1
    assert f'id="page_{page.pk}_title"' not in client.get(REPORT).content.decode()


def test_the_russian_source_is_never_listed(client, editor) -> None:
    ids = set(untranslated_rulebook_pages(editor).values_list("locale__language_code",
                                                               flat=True))
    assert "ru" not in ids and ids <= {"en", "zh-hans", "fr", "nl"}


def test_without_page_permissions_there_is_no_report_and_no_line(client, rulebook_content
                                                                 ) -> None:
    treasurer = UserFactory(is_staff=True)
    treasurer.user_permissions.add(Permission.objects.get(codename="access_admin"))
    _in_english(treasurer)
    client.force_login(treasurer)
    assert client.get(REPORT).status_code in (302, 403)
    dashboard = client.get("/admin/").content.decode()
    assert "Rulebook pages not translated yet" not in dashboard
    assert "untranslated-rulebook" not in dashboard  # nor in the Reports menu
