"""Editors see what changed in the Russian chapter since a translation was made, as the
lines removed and added (decision 0526): the report links to it; only editors who may edit
the page see it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from content.data_files import RULES_DIR
from content.models import RuleChapterPage
from content.rule_translations import text_diff
from content.services import rulebook_pages_load
from tests.factories import StaffUserFactory, UserFactory

CHAPTERS = 3


@pytest.fixture
def red_rules(rulebook_content, tmp_path):
    shutil.copy(Path(__file__).parent / "data/rules/mcr.json", tmp_path / "mcr.json")
    for name in ("red.json", "red.en.json"):
        data = json.loads((RULES_DIR / name).read_text("utf-8"))
        data["chapters"] = data["chapters"][:CHAPTERS]
        (tmp_path / name).write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    rulebook_pages_load(rules_dir=tmp_path)
    return tmp_path


def _english(slug: str = "tsel-igry") -> RuleChapterPage:
    return RuleChapterPage.objects.get(
        slug=slug, locale__language_code="en", url_path__contains="/red/")


def _change_russian(rules_dir: Path) -> tuple[str, str]:
    data = json.loads((rules_dir / "red.json").read_text("utf-8"))
    block = data["chapters"][2]["blocks"][0]
    before = block["text"]
    block["text"] = before + " Новое предложение."
    (rules_dir / "red.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    rulebook_pages_load(rules_dir=rules_dir)
    return before, block["text"]


def test_text_diff_keeps_context_and_cuts_long_unchanged_runs() -> None:
    before = "\n".join(f"line {i}" for i in range(10))
    after = before.replace("line 8", "line eight")
    assert text_diff(before, after) == [
        ("same", "line 0"), ("same", "line 1"), ("same", "line 2"), ("skipped", "2"),
        ("same", "line 5"), ("same", "line 6"), ("same", "line 7"),
        ("removed", "line 8"), ("added", "line eight"), ("same", "line 9"),
    ]


@pytest.mark.django_db
def test_a_loaded_translation_keeps_the_russian_text_it_was_made_from(red_rules) -> None:
    page = _english()
    assert page.translated_from_text and page.translated_from_text == page.russian_text
    assert page.russian_text.splitlines()[0] == RuleChapterPage.objects.get(
        pk=RuleChapterPage.objects.get(translation_key=page.translation_key,
                                       locale__language_code="ru").pk).title


@pytest.mark.django_db
def test_the_editor_sees_the_change_as_a_diff(red_rules) -> None:
    before, after = _change_russian(red_rules)
    page = _english()
    assert page.translation_outdated
    editor = StaffUserFactory(is_superuser=True)
    client = Client()
    client.force_login(editor)
    report = client.get("/admin/reports/untranslated-rulebook/", {"status": "outdated"})
    assert f"/admin/reports/untranslated-rulebook/{page.pk}/diff/" in report.content.decode()
    html = client.get(f"/admin/reports/untranslated-rulebook/{page.pk}/diff/").content.decode()
    assert f"<del>{before}</del>" in html
    assert f"<ins>{after}</ins>" in html
    # unchanged chapters have nothing to show
    other = _english("introduction")
    html = client.get(f"/admin/reports/untranslated-rulebook/{other.pk}/diff/").content.decode()
    assert "Изменений нет: перевод актуален." in html  # the admin speaks the editor's language


@pytest.mark.django_db
def test_a_review_takes_the_current_russian_text_as_the_new_source(red_rules) -> None:
    from content.services import rule_translation_review

    _change_russian(red_rules)
    page = _english()
    rule_translation_review(page=page, user=StaffUserFactory(), reviewed=True)
    page.refresh_from_db()
    assert page.translated_from_text == page.russian_text and not page.translation_outdated


@pytest.mark.django_db
def test_only_editors_who_may_edit_the_page_see_the_diff(red_rules) -> None:
    page = _english()
    url = f"/admin/reports/untranslated-rulebook/{page.pk}/diff/"
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    member = UserFactory()
    member.user_permissions.add(Permission.objects.get(codename="access_admin"))
    client = Client()
    client.force_login(member)
    refused = client.get(url)  # Wagtail sends users it refuses back to the admin home
    assert refused.status_code == 302 and refused["Location"] == "/admin/"
    russian = RuleChapterPage.objects.get(translation_key=page.translation_key,
                                          locale__language_code="ru")
    client.force_login(StaffUserFactory(is_superuser=True))
    not_a_translation = f"/admin/reports/untranslated-rulebook/{russian.pk}/diff/"
    assert client.get(not_a_translation, follow=True).status_code == 404
