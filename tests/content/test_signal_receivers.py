"""Signal receivers are connected for the models they concern only: deletes of other models
stay Django's fast delete (one statement, not one per row), and the receivers still run for
the fans, worked examples and pages they exist for."""

from __future__ import annotations

from datetime import date

import pytest
from django.apps import apps
from django.db import connection
from django.db.models.signals import post_delete, pre_delete
from django.test.utils import CaptureQueriesContext
from wagtail.models import Locale, Page

from content.models import HomePage, StandardPage
from ratings.models import RatingEntry
from ratings.services import ratings_recompute
from rulebook import selectors as rulebook_selectors
from rulebook.models import Fan, WorkedExample
from tests.tournaments.confirmed_results import confirmed_tournament, players
from tournaments.models import TableResult, TournamentResult

pytestmark = pytest.mark.django_db


def _deletes(context: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in context.captured_queries if q["sql"].startswith("DELETE")]


def test_no_delete_receiver_outside_fans_examples_pages_and_wagtails_own() -> None:
    listened = {
        model._meta.label
        for model in apps.get_models()
        if post_delete.has_listeners(model) or pre_delete.has_listeners(model)
    }
    for label in ("tournaments.TableResult", "tournaments.TournamentResult",
                  "ratings.RatingEntry", "tournaments.Registration", "tournaments.HandRecord"):
        assert label not in listened


@pytest.mark.parametrize("tournaments", [1, 4])
def test_deleting_many_table_results_is_one_statement(tournaments: int) -> None:
    people = players(8)
    for seed in range(tournaments):
        confirmed_tournament(people, date(2025, 1 + seed, 10), sessions=4, seed=seed)
    rows = TableResult.objects.count()
    assert rows == tournaments * 4 * 8
    with CaptureQueriesContext(connection) as context:
        TableResult.objects.all().delete()
        TournamentResult.objects.all().delete()
    assert len(_deletes(context)) == 2
    assert not TableResult.objects.exists()


def test_deleting_many_rating_entries_is_one_statement() -> None:
    people = players(12)
    for month in (1, 3, 5):
        confirmed_tournament(people, date(2025, month, 10), sessions=4, seed=month)
    ratings_recompute()
    rows = RatingEntry.objects.count()
    assert rows >= 36
    with CaptureQueriesContext(connection) as context:
        deleted, _ = RatingEntry.objects.all().delete()
    assert deleted == rows
    assert len(_deletes(context)) == 1


def _version_forgotten(change) -> bool:
    rulebook_selectors.content_version()
    assert rulebook_selectors._version is not None
    change()
    return rulebook_selectors._version is None


def test_the_rulebook_content_version_is_forgotten_on_a_fan_change(site_content) -> None:
    locale = Locale.get_default()
    fan = Fan(ruleset="mcr", code="T1", points=1, name="Test fan", locale=locale)
    assert _version_forgotten(fan.save)
    fan.name = "Renamed"
    assert _version_forgotten(fan.save)
    assert _version_forgotten(fan.delete)


def test_the_rulebook_content_version_is_forgotten_on_a_worked_example_change(db) -> None:
    example = WorkedExample(ruleset="mcr", code="t-ex1", fan_code="T1", hand="123m")
    assert _version_forgotten(example.save)
    assert _version_forgotten(example.delete)


def test_the_rulebook_content_version_is_forgotten_on_a_page_change(site_content) -> None:
    home = HomePage.objects.get(locale__language_code="en")
    page = StandardPage(title="Short-lived", live=True)
    assert _version_forgotten(lambda: home.add_child(instance=page))
    assert _version_forgotten(lambda: page.save_revision().publish())
    assert _version_forgotten(page.unpublish)
    assert _version_forgotten(page.delete)
    assert not Page.objects.filter(pk=page.pk).exists()


def test_the_rulebook_content_version_is_kept_on_unrelated_changes() -> None:
    people = players(4)
    assert not _version_forgotten(lambda: confirmed_tournament(people, date(2025, 1, 10)))
    assert not _version_forgotten(lambda: TableResult.objects.all().delete())
