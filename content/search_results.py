"""The site search's results: kinds, ranks and ``Result`` (decision 0525). Shared by the
database search (content.site_search) and the Elasticsearch one (content.search_documents)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import pgettext_lazy

from rulebook import rulesets

FAN, RULE, EXAMPLE, PAGE, PLAYER, CLUB, TOURNAMENT = (
    "fan", "rule", "example", "page", "player", "club", "tournament",
)
KINDS = (FAN, RULE, EXAMPLE, PAGE, PLAYER, CLUB, TOURNAMENT)
KIND_ORDER = {kind: n for n, kind in enumerate(KINDS)}
KIND_LABELS = {
    FAN: pgettext_lazy("search result kind", "Fan"),
    RULE: pgettext_lazy("search result kind", "Rules"),
    EXAMPLE: pgettext_lazy("search result kind", "Worked example"),
    PAGE: pgettext_lazy("search result kind", "Page"),
    PLAYER: pgettext_lazy("search result kind", "Player"),
    CLUB: pgettext_lazy("search result kind", "Club"),
    TOURNAMENT: pgettext_lazy("search result kind", "Tournament"),
}
PER_PAGE = 20
MAX_PER_KIND = 200  # results of one kind taken into the ranking (the count says so)
SNIPPET_CHARS = 160
MIN_QUERY = 1
MAX_QUERY = 200

# Ranks, best first.
EXACT, TITLE_PHRASE, TITLE_WORDS, TEXT_PHRASE, TEXT_WORDS = range(5)


@dataclass(frozen=True)
class Result:
    kind: str
    id: str
    title: str
    snippet: SafeString | None  # None: made from `snippet_text` once the result is shown
    url: str
    ruleset: str = ""  # rulebook results: "mcr", "hkos", "red"
    rank: int = TEXT_WORDS
    order: int = 0  # the source's own order inside a rank
    snippet_text: str = ""
    snippet_suffix: str = ""  # plain text after the snippet, never highlighted
    # every word of the query found where a word starts ("Léa" for "lea"), not only inside
    # one ("Tableau"): whole words come first inside a rank (issue 41)
    whole: bool = True

    @property
    def ruleset_label(self) -> str:
        if self.ruleset not in rulesets.codes():  # none, or one the site no longer knows
            return ""
        return str(rulesets.ruleset(self.ruleset).name)

    @property
    def kind_label(self) -> str:
        return str(KIND_LABELS[self.kind])

    def as_json(self) -> dict[str, Any]:
        """The API's result: ``type``, ``id``, ``title``, ``snippet`` (HTML: escaped text,
        the match in <mark>), ``url``; and ``type_label``, ``ruleset``, ``ruleset_label``."""
        return {"type": self.kind, "id": self.id, "title": self.title,
                "snippet": str(self.snippet), "url": self.url, "type_label": self.kind_label,
                "ruleset": self.ruleset, "ruleset_label": self.ruleset_label}


