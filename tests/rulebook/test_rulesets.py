"""The ruleset registry (rulebook/rulesets.py, docs/decisions/0112): one table of the
rulesets that the scoring core, the models, the serializers, the calculator and the rating
lists all read, agreeing with the scoring core's own registry."""

from __future__ import annotations

import pytest
from django.utils import translation

from content.models import RulesetPage
from ratings import selectors as rating_selectors
from ratings.models import DEFAULT_RULESET, RatingEntry, RatingPeriod, RatingRecompute
from ratings.services import RULESET_UNKNOWN
from rulebook import calculator, error_texts, rulesets, scoring
from rulebook.fans_api import PARAMETERS
from rulebook.fans_api import QuerySerializer as FansQuery
from rulebook.models import Fan, WorkedExample
from rulebook.score_api import QuestionSerializer
from tournaments.models import Tournament

CODES = ("mcr", "hkos", "red")


def test_the_registry_holds_the_three_rulesets_in_the_sites_order() -> None:
    assert rulesets.codes() == CODES
    assert tuple(r.code for r in rulesets.RULESETS) == CODES
    assert rulesets.DEFAULT_CODE == "mcr"
    assert rulesets.ruleset("hkos").code == "hkos"
    with pytest.raises(KeyError):
        rulesets.ruleset("riichi")


def test_the_registry_matches_the_scoring_cores_registry() -> None:
    assert set(rulesets.codes()) == set(scoring.RULESETS)
    assert {r.scoring_key for r in rulesets.RULESETS} == set(scoring.RULESETS)


@pytest.mark.parametrize("code", CODES)
def test_each_ruleset_scores_through_the_scoring_core(code: str) -> None:
    hand = "123m456m789m123p55p"
    assert rulesets.ruleset(code).score(hand) == scoring.score(hand, rules=code)


def test_the_choices_are_the_codes_with_their_names() -> None:
    assert rulesets.choices() == [(r.code, r.name) for r in rulesets.RULESETS]
    assert [code for code, _name in rulesets.choices()] == list(CODES)


@pytest.mark.parametrize(("model", "field"), [
    (Fan, "ruleset"), (WorkedExample, "ruleset"), (RulesetPage, "ruleset"),
    (Tournament, "ruleset"),
])
def test_the_models_choices_are_the_registrys(model: type, field: str) -> None:
    assert model._meta.get_field(field).choices == rulesets.choices()


@pytest.mark.parametrize("model", [RatingPeriod, RatingEntry, RatingRecompute])
def test_the_rating_rows_choices_are_the_rating_lists(model: type) -> None:
    assert model._meta.get_field("ruleset").choices == rulesets.rating_list_choices()


def test_the_tournaments_ruleset_choices_name_each_code() -> None:
    assert Tournament.Ruleset.MCR == "mcr"
    assert Tournament.Ruleset.HKOS == "hkos"
    assert Tournament.Ruleset.RED == "red"
    assert [choice.value for choice in Tournament.Ruleset] == list(CODES)
    assert Tournament.Ruleset("red").label == rulesets.ruleset("red").name


def test_every_ruleset_is_rated_with_a_list_of_its_own() -> None:
    assert rulesets.rated() == rulesets.RULESETS
    assert all(r.rating_list == r.code for r in rulesets.RULESETS)
    assert rulesets.rating_list_codes() == CODES
    assert rulesets.rating_list_codes() == rating_selectors.RULESETS
    assert DEFAULT_RULESET == rulesets.DEFAULT_CODE


def test_the_serializers_offer_the_registrys_codes() -> None:
    for serializer in (QuestionSerializer(), FansQuery()):
        rules = serializer.fields["rules"]
        assert list(rules.choices) == list(CODES)
        assert rules.default == rulesets.DEFAULT_CODE
    assert PARAMETERS[0].enum == list(CODES)


def test_the_calculator_offers_the_registrys_rulesets() -> None:
    assert calculator.RULES == CODES
    assert calculator.DEFAULT_RULES == rulesets.DEFAULT_CODE
    for per_ruleset in (calculator.FLAGS, calculator.OPTIONS, calculator.PLAYERS):
        assert tuple(per_ruleset) == CODES


def test_the_messages_that_list_the_rulesets_name_every_code() -> None:
    """These messages spell the codes out (their msgids must not change): they stay true."""
    with translation.override("en"):
        rating_message = str(RULESET_UNKNOWN)
        calculator_message = str(error_texts.REASON_TEXT["unknown_rules"])
    rated_codes = ", ".join(rulesets.rating_list_codes())
    assert rating_message == f"The rules must be one of: {rated_codes}."
    assert f"rules ({', '.join(CODES)})." in calculator_message
    assert PARAMETERS[0].description == "The ruleset: mcr, hkos or red."


@pytest.mark.parametrize(("language", "names", "short_names"), [
    ("en", ["Mahjong Competition Rules (MCR)", "Hong Kong Old Style", "Red Mahjong"],
     ["MCR", "Hong Kong", "Red"]),
    ("ru", ["Спортивный маджонг (MCR)", "Гонконгский старый стиль", "Красный маджонг"],
     ["MCR", "Гонконг", "Красный"]),
])
def test_the_names_are_in_the_readers_language(
    language: str, names: list[str], short_names: list[str]
) -> None:
    with translation.override(language):
        assert [str(r.name) for r in rulesets.RULESETS] == names
        assert [str(r.short_name) for r in rulesets.RULESETS] == short_names
        assert [str(label) for _code, label in rulesets.choices()] == names
        assert rating_selectors.ruleset_name("hkos") == names[1]
