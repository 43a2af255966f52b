"""PURE: the folding every fan search uses, so that a reader who types without accents or
with "е" for "ё" still finds the fan: "derniere" finds "Dernière", "смещенные" finds
"смещённые", "Symetrie" finds "Symétrie". The fan table's script folds the same way
(``static/js/fan_table.js``).

Also the site search's words (issue 41): each language's stems and stop words (decision
0545) and the keys that make a name's transliterations one (decision 0546)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

import snowballstemmer


def search_fold(text: str) -> str:
    """``text`` without accents and case: decomposed (NFKD), combining marks dropped, case
    folded. Chinese characters pass through unchanged."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


# --- Stems: one word's forms found by any other (issue 41) -----------------------------------

# The Snowball stemmer of each site language: the algorithms of PostgreSQL's ``russian``,
# ``english``, ``french`` and ``dutch`` text search configurations and of Elasticsearch's
# language analyzers. Chinese has no inflection (and no spaces): no stemmer (decision 0545).
STEMMER_LANGUAGES = {
    "ru": "russian", "en": "english", "fr": "french",
    # the Dutch algorithm PostgreSQL's `dutch` and Elasticsearch's `snowball` Dutch run
    "nl": "dutch_porter",
}
_WORD = re.compile(r"\w+")
# Snowball's stop word lists, PostgreSQL's for the same configurations (stopwords/README.md)
_STOPWORD_FILES = {"ru": "russian", "en": "english", "fr": "french", "nl": "dutch"}
_STOPWORD_DIR = Path(__file__).resolve().parent / "stopwords"


@lru_cache(maxsize=8)
def stopwords(language: str) -> frozenset[str]:
    """The language's stop words ("le", "des", "и", "the"), case folded; none for Chinese."""
    name = _STOPWORD_FILES.get(language)
    if name is None:
        return frozenset()
    text = (_STOPWORD_DIR / f"{name}.txt").read_text(encoding="utf-8")
    return frozenset(lower(line.strip()) for line in text.splitlines() if line.strip())


def is_stopword(word: str, language: str) -> bool:
    """Whether a (case folded) word is a stop word: "des", not "dés"."""
    return word in stopwords(language)


@lru_cache(maxsize=8)
def _stemmer(language: str) -> Any:
    algorithm = STEMMER_LANGUAGES.get(language)
    return snowballstemmer.stemmer(algorithm) if algorithm else None


@lru_cache(maxsize=200_000)
def stem(word: str, language: str) -> str:
    """The stem of one lower-case word in a site language ("dobbelstenen" -> "dobbelsteen",
    "правилами" -> "правил"); the word itself where the language has no stemmer."""
    stemmer = _stemmer(language)
    return stemmer.stemWord(word) if stemmer is not None else word


def lower(text: str) -> str:
    """Case folded, accents kept; Russian "ё" read as "е" (most Russian text leaves the dots
    out, so the two are one letter for search)."""
    return text.casefold().replace("ё", "е")


def words(text: str) -> list[str]:
    """The words of a text, case folded, accents kept (apostrophes and hyphens split)."""
    return _WORD.findall(lower(text))


def accented(word: str) -> bool:
    """Whether a (case folded) word carries an accent or another mark that folding would drop
    ("dés", "één", "й"): such a query word is matched with its marks, so that "dés" does not
    find every "des" (issue 41); a word typed without them finds both."""
    return search_fold(word) != word


@lru_cache(maxsize=300_000)
def word_stems(word: str, language: str) -> tuple[str, str] | None:
    """A (case folded) word's stem as written and its stem without accents; None for a stop
    word (one lookup per distinct word: a page's text is mostly words seen before)."""
    if is_stopword(word, language):
        return None
    return stem(word, language), stem(search_fold(word), language)


def stems_lines(text: str, language: str) -> tuple[str, str]:
    """Every word's stem but the stop words', space separated with a space at each end (a
    phrase of stems is then a substring), as PostgreSQL's ``to_tsvector`` keeps them: the
    words as written, and the words without their accents first."""
    pairs = [p for w in words(text) if (p := word_stems(w, language)) is not None]
    return (" " + " ".join(p[0] for p in pairs) + " ",
            " " + " ".join(p[1] for p in pairs) + " ")


# --- Names in Cyrillic and Latin letters (issue 41) --------------------------------------------

_CYRILLIC_TO_LATIN = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z",
    "и": "i", "й": "y", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r",
    "с": "s", "т": "t", "у": "u", "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh",
    "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu", "я": "ya",
    # Ukrainian and Belarusian letters
    "є": "ye", "і": "i", "ї": "yi", "ґ": "g", "ў": "u",
}
# Spellings the usual romanisations of Russian names differ by, each brought to one form.
_NAME_SPELLINGS = (
    (re.compile(r"x"), "ks"),            # Alexei / Aleksei
    (re.compile(r"w"), "v"),             # Fedorow / Fedorov
    (re.compile(r"ph"), "f"),
    (re.compile(r"kh"), "h"),            # Mikhail / Mihail
    (re.compile(r"j"), "y"),             # Jelena / Yelena, Jurij / Yuriy
    (re.compile(r"[iy]+$"), "i"),        # Dmitriy / Dmitrii / Dmitry / Dmitri
    (re.compile(r"[iy]+o"), "e"),        # ё: Fyodorov / Fiodorov / Fedorov
    (re.compile(r"[iy]+(?=[aeu])"), ""),  # Yelena / Elena, Natalya / Natalia
    (re.compile(r"([^\W\d_])\1+"), r"\1"),  # Filipp / Filip (letters, not digits)
)


def name_key(word: str) -> str:
    """One spelling for the transliteration variants of a name's word: Фёдоров, Fedorov,
    Fyodorov, Fiodorov and Fedorow are all "fedorov"; Дмитрий, Dmitriy, Dmitry and Dmitrii
    "dmitri"; Елена, Yelena, Jelena and Elena "elena". Cyrillic is romanised first, then
    accents and case are dropped and the spellings romanisations differ by are unified. A
    key, compared with keys only (never shown)."""
    latin = "".join(_CYRILLIC_TO_LATIN.get(ch, ch) for ch in lower(word))
    key = search_fold(latin)
    for pattern, replacement in _NAME_SPELLINGS:
        key = pattern.sub(replacement, key)
    return key


def name_keys(text: str) -> list[str]:
    """The keys of a name's words (``name_key``), in order, without repeats."""
    return list(dict.fromkeys(k for w in words(text) if (k := name_key(w))))
