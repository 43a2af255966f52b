"""Loading the rulebook's fans and worked examples: complete, idempotent, editors respected."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from rulebook import selectors
from rulebook.models import Fan, WorkedExample
from rulebook.services import examples_load, fan_table_load

DATA = Path(__file__).resolve().parents[2] / "rulebook" / "data" / "mcr_fans.json"
LANGUAGES = ["ru", "en", "zh-hans", "fr", "nl"]

pytestmark = pytest.mark.django_db


@pytest.fixture
def mcr_loaded(db):
    fan_table_load(ruleset="mcr")
    examples_load(ruleset="mcr")


def test_every_language_has_82_fans_named_as_in_the_seed(mcr_loaded):
    seed = json.loads(DATA.read_text(encoding="utf-8"))["fans"]
    for language in LANGUAGES:
        fans = selectors.fans("mcr", language)
        assert len(fans) == 82, language
        assert [f.code for f in fans] == [f["id"] for f in seed]
        assert {f.code: f.name for f in fans} == {f["id"]: f[language]["name"] for f in seed}
        assert all(f.is_translated for f in fans)
    # spot checks against seed 004 itself
    names = {lang: selectors.fan_names("mcr", lang) for lang in LANGUAGES}
    assert names["ru"]["1"] == "Большие четыре ветра"
    assert names["en"]["1"] == "Big Four Winds"
    assert names["zh-hans"]["1"] == "大四喜"
    assert names["fr"]["57A"] == "Deux Kongs Exposés"
    assert names["nl"]["57B"] == "Een open kong en een verborgen kong"


def test_57a_and_57b_are_two_fans_with_the_split_note(mcr_loaded):
    a = Fan.objects.get(ruleset="mcr", code="57A", locale__language_code="en")
    b = Fan.objects.get(ruleset="mcr", code="57B", locale__language_code="en")
    assert (a.points, b.points) == (4, 6)
    assert "57A" in a.note and "57B" in a.note
    assert a.translation_key != b.translation_key
    assert a.category == b.category == "pungs"


def test_translations_of_a_fan_share_one_key(mcr_loaded):
    fans = Fan.objects.filter(ruleset="mcr", code="48")
    assert fans.count() == 5
    assert len({f.translation_key for f in fans}) == 1


def test_104_worked_examples_with_the_books_fan_lists(mcr_loaded):
    assert WorkedExample.objects.filter(ruleset="mcr").count() == 104
    ex = WorkedExample.objects.get(code="fan1-ex1")
    assert ex.hand == "EEESSSWWWNNNCC"
    assert ex.book_fans == ["1", "11"]
    assert ex.expected_fans is None
    erratum = WorkedExample.objects.get(code="fan32-ex2")
    assert erratum.book_fans == ["32", "8", "49"]
    assert erratum.expected_fans == ["32", "8"]
    assert "8" in erratum.erratum


def test_fan_names_falls_back_to_russian(mcr_loaded):
    Fan.objects.filter(ruleset="mcr", code="5", locale__language_code="nl").delete()
    names = selectors.fan_names("mcr", "nl")
    assert names["5"] == "Четыре конга"
    assert names["4"] == "Negen poorten"


def test_loading_twice_changes_nothing(db):
    call_command("load_content", stdout=_Sink())
    before = _snapshot()
    call_command("load_content", stdout=_Sink())
    assert _snapshot() == before


def test_changed_data_updates_an_unedited_fan(mcr_loaded):
    fan = Fan.objects.get(ruleset="mcr", code="3", locale__language_code="en")
    Fan.objects.filter(pk=fan.pk).update(loaded_hash="outdated", name="Old name")
    # the row says what was loaded last time (its hash is recomputed from the row)
    fan.refresh_from_db()
    from rulebook.book_data import FAN_FIELDS, content_hash

    Fan.objects.filter(pk=fan.pk).update(
        loaded_hash=content_hash({f: getattr(fan, f) for f in FAN_FIELDS})
    )
    report = fan_table_load(ruleset="mcr")
    assert report.updated == 1
    assert Fan.objects.get(pk=fan.pk).name == "All Green"


def test_an_editors_revision_is_kept_unless_forced(mcr_loaded):
    fan = Fan.objects.get(ruleset="mcr", code="3", locale__language_code="en")
    fan.name = "All Green (edited)"
    fan.save_revision().publish()
    Fan.objects.filter(pk=fan.pk).update(loaded_hash="the data changed since")

    report = fan_table_load(ruleset="mcr")
    assert report.kept_edits == ["3/en"]
    assert Fan.objects.get(pk=fan.pk).name == "All Green (edited)"

    report = fan_table_load(ruleset="mcr", force=True)
    assert report.updated == 1
    fan = Fan.objects.get(pk=fan.pk)
    assert fan.name == "All Green"
    # the admin shows the latest revision: it says what is live now
    assert fan.get_latest_revision_as_object().name == "All Green"


def test_an_editors_draft_of_an_example_is_kept(mcr_loaded):
    ex = WorkedExample.objects.get(code="fan1-ex1")
    ex.book_text = "Исправлено редактором."
    ex.save_revision()  # a draft, not published
    WorkedExample.objects.filter(pk=ex.pk).update(loaded_hash="the data changed since")
    report = examples_load(ruleset="mcr")
    assert report.kept_edits == ["fan1-ex1"]
    assert WorkedExample.objects.get(pk=ex.pk).get_latest_revision_as_object().book_text == (
        "Исправлено редактором."
    )


def _snapshot():
    from wagtail.models import Page, Revision

    fans = list(Fan.objects.order_by("pk").values())
    examples = list(WorkedExample.objects.order_by("pk").values())
    for row in fans + examples:
        row.pop("updated_at")
    pages = list(Page.objects.order_by("pk").values_list("pk", "title", "live", "latest_revision_id"))
    return fans, examples, pages, Revision.objects.count()


class _Sink:
    def write(self, *args, **kwargs):
        pass

    def flush(self):
        pass
