"""The rulesets the site knows, in one table: MCR, Hong Kong Old Style, Red Mahjong.

Each :class:`Ruleset` says its code (what URLs, the API, the database and the scoring core
call it), its names in the reader's language, the key under which the scoring core
(``rulebook.scoring.RULESETS``) scores it, and its rating list. Models' choices,
serializers, the calculator, the rulebook's links and loaders and the rating lists read
this table instead of writing the list again (docs/decisions/0112-ruleset-registry.md).

The order of :data:`RULESETS` is the order in which pages, tabs and loaders show them.
What a ruleset's rules *are* stays in the scoring core; this module only names them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

if TYPE_CHECKING:  # the scoring core is heavy to import: only when scoring
    from rulebook.scoring.result import ScoreResult

#: a name: translated when it is shown (a lazy string)
StrOrPromise: TypeAlias = str | Promise


@dataclass(frozen=True)
class Ruleset:
    """One ruleset: how the site names it, scores it and rates it."""

    #: the stable code: URLs, API values, database rows ("mcr")
    code: str
    #: the full name in the reader's language ("Mahjong Competition Rules (MCR)")
    name: StrOrPromise
    #: the short name of the calculator's switch ("MCR", "Hong Kong", "Red")
    short_name: StrOrPromise
    #: the key of the scoring core's registry, ``rulebook.scoring.RULESETS``
    scoring_key: str
    #: the code of the rating list its confirmed tournaments feed (its own, decision 0805),
    #: or None when its tournaments are not rated
    rating_list: str | None

    @property
    def rated(self) -> bool:
        """Whether its confirmed tournaments are rated."""
        return self.rating_list is not None

    def score(self, hand: str, **context: Any) -> ScoreResult:
        """Score a hand under this ruleset: the scoring core's one entry point."""
        from rulebook.scoring import score

        return score(hand, rules=self.scoring_key, **context)


#: Every ruleset, in the order the site shows them.
RULESETS: tuple[Ruleset, ...] = (
    Ruleset(
        code="mcr",
        name=_("Mahjong Competition Rules (MCR)"),
        short_name=pgettext_lazy("rules", "MCR"),
        scoring_key="mcr",
        rating_list="mcr",
    ),
    Ruleset(
        code="hkos",
        name=_("Hong Kong Old Style"),
        short_name=pgettext_lazy("rules", "Hong Kong"),
        scoring_key="hkos",
        rating_list="hkos",
    ),
    Ruleset(
        code="red",
        name=_("Red Mahjong"),
        short_name=pgettext_lazy("rules", "Red"),
        scoring_key="red",
        rating_list="red",
    ),
)

#: The ruleset wherever none is given: the calculator, the APIs, the rating pages.
DEFAULT_CODE = "mcr"

_BY_CODE = {r.code: r for r in RULESETS}


def ruleset(code: str) -> Ruleset:
    """The ruleset of ``code``; KeyError when there is none."""
    return _BY_CODE[code]


def codes() -> tuple[str, ...]:
    """Every ruleset's code, in the site's order: ``("mcr", "hkos", "red")``."""
    return tuple(_BY_CODE)


def choices() -> list[tuple[str, StrOrPromise]]:
    """``(code, name)`` pairs for a model field's or a form's choices."""
    return [(r.code, r.name) for r in RULESETS]


def rated() -> tuple[Ruleset, ...]:
    """The rulesets whose tournaments are rated, in the site's order."""
    return tuple(r for r in RULESETS if r.rated)


def rating_list_codes() -> tuple[str, ...]:
    """The rating lists, one per rated ruleset (decision 0805), in the site's order."""
    return tuple(dict.fromkeys(r.rating_list for r in RULESETS if r.rating_list is not None))


def rating_list_choices() -> list[tuple[str, StrOrPromise]]:
    """``(code, name)`` pairs for the rating rows' ``ruleset`` field: the rating lists."""
    return [(code, ruleset(code).name) for code in rating_list_codes()]


__all__ = [
    "DEFAULT_CODE", "RULESETS", "Ruleset", "choices", "codes", "rated", "rating_list_choices",
    "rating_list_codes", "ruleset",
]
