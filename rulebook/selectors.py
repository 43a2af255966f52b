"""Reads of the rulebook: fan names and tables per language, worked examples scored live."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.core.cache import cache
from django.db.models import Max, Q
from django.utils.translation import override

from rulebook import book_data, rulesets
from rulebook.agreement import Agreement, compare
from rulebook.links import calculator_url, fan_page_url
from rulebook.models import Fan, WorkedExample
from rulebook.scoring import ScoreResult, score
from rulebook.search_text import search_fold

SOURCE_LANGUAGE = book_data.SOURCE_LANGUAGE


# The content version is read from the database at most every VERSION_SECONDS per process;
# a save in this process forgets it at once (rulebook.apps connects content_version_forget),
# other processes see a publish within VERSION_SECONDS.
VERSION_SECONDS = 2.0
_version: tuple[float, str] | None = None


def content_version() -> str:
    """Changes whenever a fan, an example or a page is saved: the key of cached renderings."""
    global _version
    now = time.monotonic()
    if _version is not None and now - _version[0] < VERSION_SECONDS:
        return _version[1]
    from wagtail.models import Page

    stamps = [
        Fan.objects.aggregate(m=Max("updated_at"))["m"],
        WorkedExample.objects.aggregate(m=Max("updated_at"))["m"],
        Page.objects.aggregate(m=Max("last_published_at"))["m"],
        Fan.objects.count(),
        Page.objects.filter(live=True).count(),
    ]
    version = "-".join(str(s.timestamp() if hasattr(s, "timestamp") else s) for s in stamps)
    _version = (now, version)
    return version


def content_version_forget(*args: Any, **kwargs: Any) -> None:
    global _version
    _version = None


def _cached(key: str, compute):
    full_key = f"rulebook:{content_version()}:{key}"
    value = cache.get(full_key)
    if value is None:
        value = compute()
        cache.set(full_key, value, 3600)
    return value


def _language_fans(ruleset: str, language: str):
    return Fan.objects.filter(ruleset=ruleset, locale__language_code=language, live=True)


def fan_names(ruleset: str, language: str) -> dict[str, str]:
    """Fan id -> the fan's name in `language` (the Russian name where it has none)."""

    def compute() -> dict[str, str]:
        names = dict(
            _language_fans(ruleset, SOURCE_LANGUAGE).values_list("code", "name")
        )
        if language != SOURCE_LANGUAGE:
            names.update(_language_fans(ruleset, language).values_list("code", "name"))
        return names

    return _cached(f"names:{ruleset}:{language}", compute)


def fans(ruleset: str, language: str) -> list[Fan]:
    """The live fans of a ruleset in one language, in table order (Russian ones where the
    language has none)."""
    rows = list(_language_fans(ruleset, language).order_by("position"))
    if not rows and language != SOURCE_LANGUAGE:
        rows = list(_language_fans(ruleset, SOURCE_LANGUAGE).order_by("position"))
    return rows


def fan_get(ruleset: str, code: str, language: str) -> Fan | None:
    code_q = Q(code__iexact=code)
    found = _language_fans(ruleset, language).filter(code_q).first()
    if found is None and language != SOURCE_LANGUAGE:
        found = _language_fans(ruleset, SOURCE_LANGUAGE).filter(code_q).first()
    return found


def fan_list(ruleset: str, language: str) -> list[dict[str, Any]]:
    """The fan table as the API gives it."""

    def compute() -> list[dict[str, Any]]:
        return [
            {
                "id": fan.code,
                "points": fan.points,
                "unit": fan.unit,
                "name": fan.name,
                "description": fan.description,
                "category": fan.category,
                "url": fan_page_url(ruleset, fan.code, language),
            }
            for fan in fans(ruleset, language)
        ]

    return _cached(f"list:{ruleset}:{language}", compute)


def all_language_names(ruleset: str) -> dict[str, list[str]]:
    """Fan id -> its names in every language, in the site's language order (the fan
    table's search finds any of them)."""
    from django.conf import settings

    order = {code: i for i, (code, _name) in enumerate(settings.LANGUAGES)}
    rows = sorted(
        Fan.objects.filter(ruleset=ruleset, live=True).values_list(
            "code", "locale__language_code", "name"
        ),
        key=lambda row: order.get(row[1], len(order)),
    )
    names: dict[str, list[str]] = {}
    for code, _language, name in rows:
        names.setdefault(code, [])
        if name not in names[code]:
            names[code].append(name)
    return names


def fans_matching(query: str, language: str, limit: int = 12) -> list[dict[str, Any]]:
    """The fans site search shows: those whose number is ``query`` ("57a", "1") or whose
    name in any of the site's languages contains it (two characters at least), each as
    :func:`fan_list` gives it in ``language`` plus its ``ruleset``; MCR, HKOS, Red, in
    table order, at most ``limit``."""
    needle = search_fold(query.strip())
    if not needle:
        return []
    found: list[dict[str, Any]] = []
    for ruleset in rulesets.codes():
        names = all_language_names(ruleset) if len(needle) >= 2 else {}
        for fan in fan_list(ruleset, language):
            if search_fold(fan["id"]) == needle or any(
                needle in search_fold(name) for name in names.get(fan["id"], ())
            ):
                found.append({**fan, "ruleset": ruleset})
                if len(found) == limit:
                    return found
    return found


# --- Worked examples scored by the core ---------------------------------------------------


@dataclass(frozen=True)
class FanRef:
    id: str
    name: str
    url: str
    points: int = 0
    count: int = 1

    @property
    def value(self) -> int:
        return self.points * self.count


@dataclass(frozen=True)
class ScoredExample:
    example: WorkedExample
    result: ScoreResult
    fans: list[FanRef]  # the core's counted fans, named and linked
    book_fans: list[FanRef]
    expected_fans: list[FanRef] | None
    agreement: Agreement
    calculator_url: str
    book_text: str = ""  # the book's words in the page's language where translated
    book_text_language: str = SOURCE_LANGUAGE

    @property
    def counted(self) -> dict[str, int]:
        return {f.id: f.count for f in self.result.fans}

    @property
    def doublings(self) -> int | None:
        """HKOS: the doublings behind the total (None for the other rulesets)."""
        value = self.result.to_dict().get("doublings")
        return int(value) if value is not None else None


@lru_cache(maxsize=4096)
def _score(ruleset: str, hand: str, context_items: tuple[tuple[str, Any], ...]) -> ScoreResult:
    return score(hand, rules=ruleset, **dict(context_items))


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return value


def example_result(example: WorkedExample) -> ScoreResult:
    """The core's answer for an example (the result objects are immutable: memoised)."""
    context = tuple(sorted((k, _freeze(v)) for k, v in (example.context or {}).items()))
    return _score(example.ruleset, example.hand, context)


def _refs(ruleset: str, ids: Iterable[str], names: dict[str, str], language: str) -> list[FanRef]:
    return [
        FanRef(id=fid, name=names.get(fid, fid), url=fan_page_url(ruleset, fid, language))
        for fid in ids
    ]


def example_scored(
    example: WorkedExample, *, language: str, names: dict[str, str] | None = None
) -> ScoredExample:
    ruleset = example.ruleset
    names = names if names is not None else fan_names(ruleset, language)
    result = example_result(example)
    counted = {f.id: f.count for f in result.fans}
    agreement = compare(
        counted=counted,
        total=result.total,
        book_fans=example.book_fans,
        expected_fans=example.expected_fans,
        conditions=example.conditions,
        context=example.context,
        book_total=example.book_total,
        doublings=result.to_dict().get("doublings"),
        error=result.error.message if result.error else "",
    )
    translated = (example.book_text_translations or {}).get(language, "")
    core_fans = [
        FanRef(
            id=f.id, name=names.get(f.id, f.id), url=fan_page_url(ruleset, f.id, language),
            points=f.points, count=f.count,
        )
        for f in result.fans
    ]
    return ScoredExample(
        example=example,
        result=result,
        fans=core_fans,
        book_fans=_refs(ruleset, example.book_fans, names, language),
        expected_fans=(
            _refs(ruleset, example.expected_fans, names, language)
            if example.expected_fans is not None
            else None
        ),
        agreement=agreement,
        calculator_url=calculator_url(ruleset, example.hand, example.context, language),
        book_text=translated or example.book_text,
        book_text_language=language if translated else SOURCE_LANGUAGE,
    )


def examples(ruleset: str) -> list[WorkedExample]:
    return list(WorkedExample.objects.filter(ruleset=ruleset, live=True).order_by("position"))


def examples_scored(ruleset: str, language: str) -> list[ScoredExample]:
    names = fan_names(ruleset, language)
    return [example_scored(ex, language=language, names=names) for ex in examples(ruleset)]


def fan_examples_scored(*, ruleset: str, fan_code: str, language: str) -> list[ScoredExample]:
    names = fan_names(ruleset, language)
    rows = WorkedExample.objects.filter(
        ruleset=ruleset, fan_code__iexact=fan_code, live=True
    ).order_by("position")
    return [example_scored(ex, language=language, names=names) for ex in rows]


def example_list(ruleset: str, language: str) -> list[dict[str, Any]]:
    """Every worked example as the API gives it (with the core's live result)."""

    def compute() -> list[dict[str, Any]]:
        items = []
        with override(language):
            for ex in examples(ruleset):
                result = example_result(ex)
                items.append({
                    "id": ex.code,
                    "fan": ex.fan_code,
                    "hand": ex.hand,
                    "context": ex.context,
                    "book_fans": list(ex.book_fans),
                    "result": {
                        "ok": result.ok,
                        "total": result.total,
                        "fans": [
                            {"id": f.id, "points": f.points, "count": f.count}
                            for f in result.fans
                        ],
                    },
                })
        return items

    return _cached(f"examples:{ruleset}:{language}", compute)


def examples_disagreeing(ruleset: str | None = None) -> list[ScoredExample]:
    """Examples where the core and the book (errata applied) disagree: for editors."""
    chosen = [ruleset] if ruleset else list(rulesets.codes())
    found = []
    for name in chosen:
        found += [s for s in examples_scored(name, SOURCE_LANGUAGE) if not s.agreement.ok]
    return found
