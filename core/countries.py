"""Countries for people: ISO 3166 alpha-2 codes named in the page's language from the Unicode
CLDR (Babel) and sorted by that language's alphabet (decision 0540).

django-countries keeps the list of codes and reads free text back into codes
(``countries.alpha2``); its own names are English-ordered and some of its Russian names are
in the genitive ("Либерии"), so the names shown come from here. A leaf module: no app.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from babel import Locale, UnknownLocaleError
from django.utils.translation import get_language
from django_countries.data import COUNTRIES
from pypinyin import Style, lazy_pinyin

DEFAULT_LANGUAGE = "en"


def _babel_locale(language: str | None) -> Locale:
    code = (language or get_language() or DEFAULT_LANGUAGE).replace("-", "_")
    if code.lower() == "zh_hans":
        code = "zh_Hans"
    try:
        return Locale.parse(code)
    except (UnknownLocaleError, ValueError):
        return Locale.parse(DEFAULT_LANGUAGE)


def collation_key(text: str, language: str | None = None) -> tuple[str, str]:
    """A sort key that follows the language's alphabet: Chinese by pinyin (with tones, as
    CLDR's "pinyin" order does), every other language by letters without accents or case
    first (é with e, ё with е), then by the exact text so the order is total."""
    code = (language or get_language() or DEFAULT_LANGUAGE).lower()
    if code.startswith("zh"):
        primary = " ".join(lazy_pinyin(text, style=Style.TONE3))
    else:
        decomposed = unicodedata.normalize("NFKD", text)
        primary = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
    return primary, text


@lru_cache(maxsize=16)
def _names(language: str) -> dict[str, str]:
    territories = _babel_locale(language).territories
    return {code: territories.get(code) or str(name) for code, name in COUNTRIES.items()}


def _active(language: str | None) -> str:
    return (language or get_language() or DEFAULT_LANGUAGE).lower()


def country_name(code: str | None, language: str | None = None) -> str:
    """The name of the country ``code`` in ``language`` (the active language by default);
    a value that is not a code is returned as written, and nothing gives ""."""
    if not code:
        return ""
    return _names(_active(language)).get(code.strip().upper(), code)


@lru_cache(maxsize=16)
def _sorted_choices(language: str) -> tuple[tuple[str, str], ...]:
    names = _names(language)
    return tuple(sorted(names.items(), key=lambda item: collation_key(item[1], language)))


def country_choices(language: str | None = None, codes=None) -> list[tuple[str, str]]:
    """(code, name) of every country, or of ``codes`` only, in the alphabetical order of
    ``language``; a given value that is not a code comes last, as written."""
    choices = _sorted_choices(_active(language))
    if codes is None:
        return list(choices)
    wanted = {code.upper() for code in codes if code}
    known = [(code, name) for code, name in choices if code in wanted]
    rest = sorted(code for code in {c for c in codes if c} if code.upper() not in dict(known))
    return known + [(code, code) for code in rest]
