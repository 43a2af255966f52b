"""The notes on how a worked example's hand is read (``assumptions`` in the examples' data,
written in English), marked for translation: a note with a translation in the page's
language is shown in it, the others in English marked ``lang="en"`` (decision 0542)."""

from collections.abc import Sequence

from django.utils.translation import get_language, gettext, gettext_noop

SOURCE_LANGUAGE = "en"

NOTES = (
    gettext_noop("no flowers"),
    gettext_noop("seat and prevalent wind East (the book does not say)"),
    gettext_noop("won by discard (the book does not say)"),
    gettext_noop(
        "sets shown without a claimed (upper-case) tile are concealed, and the last tile written is the winning tile (the book does not say)"
    ),
    gettext_noop(
        "the kongs are taken as melded kongs (the rule allows concealed or melded; the book does not say)"
    ),
    gettext_noop("the tile written apart (9 characters) is the winning tile"),
    gettext_noop("the tile written apart (Green dragon) is the winning tile"),
    gettext_noop("the kongs are taken as claimed from a discard (not promoted)"),
    gettext_noop("the kong is taken as claimed from a discard (not promoted)"),
    gettext_noop("the 4 dots written apart is the winning discard"),
    gettext_noop("the pair of 5 characters is completed by a discard, as the fan requires"),
    gettext_noop("the book waits on 2 or 5 dots; the data wins on 2 dots"),
    gettext_noop("seat and prevalent wind East, no flowers (the text does not say)"),
    gettext_noop(
        "won by discard, as a Chicken Hand must be (a self-drawn win would score “Self-Drawn”)"
    ),
)


def example_notes(notes: Sequence[str]) -> list[tuple[str, str]]:
    """Each note as (text, language it is written in): the translation into the active
    language where the catalogue has one, else the English note."""
    language = get_language() or SOURCE_LANGUAGE
    shown = []
    for note in notes:
        translated = gettext(note)
        in_language = translated != note or language == SOURCE_LANGUAGE
        shown.append((translated, language if in_language else SOURCE_LANGUAGE))
    return shown
