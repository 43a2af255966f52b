"""A news post mailed to members (issue 29, decision 0315): the post's header button in the
admin hands its translations to the mailing form, for those who may send mailings only."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, Permission
from wagtail.models import GroupPagePermission, Locale, Page
from wagtail.rich_text import RichText
from wagtail.users.models import UserProfile

from content.models import NewsIndexPage, NewsPage
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def publish(language: str, title: str, key=None, body=()) -> NewsPage:
    index = NewsIndexPage.objects.get(locale=Locale.objects.get(language_code=language))
    page = NewsPage(title=title, summary=f"Summary of {title}", tag="federation",
                    date=datetime.date(2026, 1, 5), body=list(body))
    if key:
        page.translation_key = key
    index.add_child(instance=page)
    page.save_revision().publish()
    return page


@pytest.fixture
def posts(site_content):
    ru = publish("ru", "Чемпионат", body=[("paragraph", RichText("<p>Первый <b>абзац</b>.</p>"))])
    en = publish("en", "Championship", key=ru.translation_key)
    return ru, en


def _may_edit_pages(group: Group) -> Group:
    """Page rights as Wagtail's data migration gives its groups (a flushed test database has
    lost them; the roles of config.roles come back with every migrate)."""
    group.permissions.add(Permission.objects.get(codename="access_admin"))
    for codename in ("add_page", "change_page", "publish_page"):
        GroupPagePermission.objects.get_or_create(
            group=group, page=Page.get_first_root_node(),
            permission=Permission.objects.get(codename=codename, content_type__app_label="wagtailcore"))
    return group


def editor():
    user = UserFactory(is_staff=True)
    user.groups.add(_may_edit_pages(Group.objects.get(name="Editors")))
    profile = UserProfile.get_for_user(user)
    profile.preferred_language = "en"
    profile.save()
    return user


def test_an_editor_starts_a_mailing_from_a_post_with_every_translation(client, posts):
    ru, en = posts
    client.force_login(editor())
    edit_page = client.get(f"/admin/pages/{en.pk}/edit/").content.decode()
    assert f"/admin/news/{en.pk}/mailing/" in edit_page  # the header button
    response = client.get(f"/admin/news/{en.pk}/mailing/")
    assert response["Location"] == "/admin/mailings/new/"
    form = client.get("/admin/mailings/new/").context["form"]
    assert form.initial["subject_ru"] == "Чемпионат"
    assert form.initial["body_ru"].startswith("Summary of Чемпионат\n\nПервый абзац.")
    assert ru.url in form.initial["body_ru"]  # the Russian post, on the site
    assert form.initial["subject_en"] == "Championship"
    assert "Read it on the site: http" in form.initial["body_en"]
    # handed over once: a fresh form afterwards is empty
    assert "subject_ru" not in client.get("/admin/mailings/new/").context["form"].initial


def test_who_may_not_send_mailings_gets_no_button_and_no_texts(client, posts):
    _ru, en = posts
    moderator = UserFactory(is_staff=True)
    moderator.groups.add(_may_edit_pages(Group.objects.create(name="Page moderators")))
    client.force_login(moderator)
    assert f"/admin/news/{en.pk}/mailing/" not in client.get(
        f"/admin/pages/{en.pk}/edit/").content.decode()
    response = client.get(f"/admin/news/{en.pk}/mailing/")
    assert response.status_code in (302, 403) and response.get("Location") != (
        "/admin/mailings/new/")
    assert "mailing_from_post" not in client.session
