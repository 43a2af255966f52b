"""Issue 37, item 10: the editor role edits the fans and worked examples the README gives it.

The role groups are set up as after ``migrate`` (config.roles); the editor is a member of
the "Editors" group and nothing more (not a superuser), like the demo's editor@example.org.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from config.roles import roles_setup_all
from federation.services import ROLE_EDITORS, ROLE_TREASURER
from rulebook.models import Fan, WorkedExample
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _client_in(group_name: str) -> Client:
    roles_setup_all()
    user = UserFactory(is_staff=True)
    user.groups.add(Group.objects.get(name=group_name))
    client = Client()
    client.force_login(user)
    return client


def test_an_editor_lists_edits_and_publishes_fans_and_examples(rulebook_content):
    editor = _client_in(ROLE_EDITORS)
    for listing in ("/admin/snippets/rulebook/fan/", "/admin/snippets/rulebook/workedexample/"):
        response = editor.get(listing)
        assert response.status_code == 200, (listing, response.get("Location"))
    fan = Fan.objects.get(ruleset="mcr", code="48", locale__language_code="fr")
    url = f"/admin/snippets/rulebook/fan/edit/{fan.pk}/"
    assert editor.get(url).status_code == 200
    data = {
        "points": 8, "unit": "points", "category": "pungs", "name": "Deux Kongs Cachés (revu)",
        "description": fan.description, "note": "", "definition": fan.definition,
        "is_translated": "on", "position": fan.position, "action-publish": "publish",
    }
    assert editor.post(url, data).status_code == 302
    fan.refresh_from_db()
    assert fan.name == "Deux Kongs Cachés (revu)" and fan.live
    example = WorkedExample.objects.get(code="fan1-ex1")
    assert editor.get(
        f"/admin/snippets/rulebook/workedexample/edit/{example.pk}/").status_code == 200
    # the admin's menu offers them
    assert "/admin/snippets/rulebook/fan/" in editor.get("/admin/").content.decode()


def test_other_roles_still_cannot_edit_the_rulebook(rulebook_content):
    treasurer = _client_in(ROLE_TREASURER)
    fan = Fan.objects.get(ruleset="mcr", code="1", locale__language_code="en")
    response = treasurer.get(f"/admin/snippets/rulebook/fan/edit/{fan.pk}/")
    assert response.status_code in (302, 403)
    assert treasurer.get("/admin/snippets/rulebook/fan/").status_code in (302, 403)
