"""rulebook.links: the one place that builds rulebook and calculator paths."""

from urllib.parse import parse_qs, urlsplit

from django.utils import translation

from rulebook.links import calculator_url, fan_page_url, fan_table_url, rules_url


def test_fan_page_ids_are_lower_case_under_the_language():
    assert fan_page_url("mcr", "57A", "en") == "/en/rules/mcr/fans/57a/"
    assert fan_table_url("hkos", "zh-hans") == "/zh-hans/rules/hkos/fans/"
    assert rules_url(language="fr") == "/fr/rules/"


def test_active_language_is_the_default():
    with translation.override("nl"):
        assert fan_page_url("mcr", "1") == "/nl/rules/mcr/fans/1/"


def test_calculator_url_holds_the_whole_question():
    url = calculator_url(
        "mcr", "[1111s][EEEE]88m", {"self_drawn": True, "seat": "W", "flowers": 2, "x": None}, "ru"
    )
    parts = urlsplit(url)
    assert parts.path == "/ru/calculator/"
    assert parse_qs(parts.query) == {
        "rules": ["mcr"], "hand": ["[1111s][EEEE]88m"], "self_drawn": ["1"], "seat": ["W"],
        "flowers": ["2"],
    }
