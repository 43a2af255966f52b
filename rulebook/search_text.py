"""PURE: the folding every fan search uses, so that a reader who types without accents or
with "е" for "ё" still finds the fan: "derniere" finds "Dernière", "смещенные" finds
"смещённые", "Symetrie" finds "Symétrie". The fan table's script folds the same way
(``static/js/fan_table.js``)."""

from __future__ import annotations

import unicodedata


def search_fold(text: str) -> str:
    """``text`` without accents and case: decomposed (NFKD), combining marks dropped, case
    folded. Chinese characters pass through unchanged."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
