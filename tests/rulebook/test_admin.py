"""The rulebook in the Wagtail admin: editors edit fans and examples with revisions and
preview; other users cannot."""

from __future__ import annotations

import pytest
from django.test import Client

from rulebook.models import Fan, WorkedExample
from tests.factories import StaffUserFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor_client(rulebook_content):
    client = Client()
    client.force_login(StaffUserFactory())
    return client


def test_editor_edits_a_fan_and_a_revision_is_kept(editor_client):
    fan = Fan.objects.get(ruleset="mcr", code="48", locale__language_code="fr")
    url = f"/admin/snippets/rulebook/fan/edit/{fan.pk}/"
    page = editor_client.get(url)
    assert page.status_code == 200
    assert "Deux Kongs Cachés" in page.content.decode() or fan.name in page.content.decode()
    data = {
        "points": 8, "unit": "points", "category": "pungs", "name": "Deux Kongs Cachés (revu)",
        "description": fan.description, "note": "", "definition": fan.definition,
        "is_translated": "on", "position": fan.position, "action-publish": "publish",
    }
    response = editor_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    fan.refresh_from_db()
    assert fan.name == "Deux Kongs Cachés (revu)"
    assert fan.revisions.count() == 1
    # the public page shows it
    assert "Deux Kongs Cachés (revu)" in Client().get("/fr/rules/mcr/fans/48/").content.decode()


def test_editor_previews_a_fan_and_an_example(editor_client):
    fan = Fan.objects.get(ruleset="mcr", code="1", locale__language_code="en")
    url = f"/admin/snippets/rulebook/fan/preview/{fan.pk}/"
    form = {
        "points": 88, "unit": "points", "category": "honors", "name": "Big Four Winds (draft)",
        "description": fan.description, "note": "", "definition": fan.definition,
        "is_translated": "on", "position": fan.position,
    }
    assert editor_client.post(url, form).json()["is_valid"]
    preview = editor_client.get(url)
    assert preview.status_code == 200
    html = preview.content.decode()
    assert "Big Four Winds (draft)" in html
    assert 'id="fan1-ex1"' in html  # with its examples, scored
    # in the fan's language, not the editor's admin language (Russian here): issue 28
    assert '<html lang="en"' in html and "Open in the calculator" in html
    assert "Открыть в калькуляторе" not in html
    fan.refresh_from_db()
    assert fan.name == "Big Four Winds"  # a preview changes nothing

    example = WorkedExample.objects.get(code="fan1-ex1")
    url = f"/admin/snippets/rulebook/workedexample/preview/{example.pk}/"
    form = {
        "fan_code": "1", "section": "appendix-1", "position": example.position,
        "hand": "EEESSSWWWNNNCC", "context": '{"self_drawn": true, "seat": "E", "prevalent": "E"}',
        "book_text": example.book_text, "book_fans": '["1", "11"]', "book_total": "",
        "conditions": "{}", "expected_fans": "null", "erratum": "",
        "assumptions": "[]", "keyboard": example.keyboard,
    }
    assert editor_client.post(url, form).json()["is_valid"]
    html = editor_client.get(url).content.decode()
    assert "Fully Concealed Hand" in html or "Полностью закрытая рука" in html


def test_the_admin_lists_show_the_rulebook(editor_client):
    fans = editor_client.get("/admin/snippets/rulebook/fan/?ruleset=mcr&points=88")
    assert fans.status_code == 200
    examples = editor_client.get("/admin/snippets/rulebook/workedexample/")
    assert examples.status_code == 200
    html = examples.content.decode()
    assert "fan1-ex1" in html
    assert "совпадает" in html  # the admin speaks the editor's language (Russian by default)
    assert "РАСХОДИТСЯ" not in html


def test_members_and_visitors_cannot_edit_the_rulebook(rulebook_content):
    fan = Fan.objects.get(ruleset="mcr", code="1", locale__language_code="en")
    visitor = Client().get(f"/admin/snippets/rulebook/fan/edit/{fan.pk}/")
    assert visitor.status_code == 302 and "/accounts/login/" in visitor["Location"]
    member = Client()
    member.force_login(UserFactory())
    response = member.get(f"/admin/snippets/rulebook/fan/edit/{fan.pk}/")
    assert response.status_code in (302, 403)
    response = member.post(f"/admin/snippets/rulebook/fan/edit/{fan.pk}/", {"name": "x"})
    assert response.status_code in (302, 403)
    fan.refresh_from_db()
    assert fan.name == "Big Four Winds"
