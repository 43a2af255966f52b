"""Country names in the page's language from the CLDR, sorted by that language's alphabet
(issue 28: lists sorted by English names everywhere, "Либерии", "Naoero", "Bahamas (The)")."""

from __future__ import annotations

import pytest
from django.utils.translation import override

from core.countries import collation_key, country_choices, country_name
from tournaments.forms import PlayerForm


@pytest.mark.parametrize(("language", "names"), [
    ("ru", {"LR": "Либерия", "MM": "Мьянма (Бирма)", "NR": "Науру", "BS": "Багамы"}),
    ("en", {"LR": "Liberia", "NR": "Nauru", "BS": "Bahamas", "NL": "Netherlands"}),
    ("fr", {"NL": "Pays-Bas", "DZ": "Algérie"}),
    ("nl", {"BS": "Bahama’s", "NL": "Nederland"}),
    ("zh-hans", {"CN": "中国", "NL": "荷兰"}),
])
def test_names_are_the_cldr_names_in_the_nominative(language, names):
    for code, name in names.items():
        assert country_name(code, language) == name
    with override(language):  # the active language by default, codes in any case
        assert country_name(next(iter(names)).lower()) == next(iter(names.values()))


def test_a_value_that_is_not_a_code_is_shown_as_written():
    assert country_name("Holland", "en") == "Holland"
    assert country_name("", "en") == "" and country_name(None, "en") == ""


def test_lists_follow_the_alphabet_of_the_language():
    russian = [name for _code, name in country_choices("ru")]
    assert russian[0] == "Австралия"  # not "Афганистан", the first in English
    assert russian == sorted(russian, key=lambda n: collation_key(n, "ru"))
    french = [name for _code, name in country_choices("fr")]
    # accents sort with their letter: Égypte between Égypte's neighbours, not after Z
    assert french.index("Égypte") < french.index("Équateur") < french.index("Érythrée")
    assert french.index("Danemark") < french.index("Égypte") < french.index("Fidji")
    chinese = [name for _code, name in country_choices("zh-hans")]
    assert chinese.index("阿富汗") < chinese.index("巴西") < chinese.index("中国")  # a, b, zh


def test_a_subset_keeps_the_order_and_unknown_values_come_last():
    assert country_choices("ru", ["RU", "NL", "DE", "Holland"]) == [
        ("DE", "Германия"), ("NL", "Нидерланды"), ("RU", "Россия"), ("Holland", "Holland"),
    ]


def test_forms_offer_the_countries_in_the_languages_order():
    with override("ru"):
        choices = PlayerForm().fields["country"].choices
    assert choices[0] == ("", "—")
    assert choices[1] == ("AU", "Австралия")
    assert ("LR", "Либерия") in choices
