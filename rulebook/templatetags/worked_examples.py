"""``{% load worked_examples %}``: the worked examples scored by the core, for the editors'
previews of a fan and of an example (the models do not call the selectors, which read them).

``{% fan_examples_scored fan as examples %}`` and ``{% example_scored example as scored %}``.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import get_language

from rulebook import selectors
from rulebook.example_notes import example_notes
from rulebook.models import Fan, WorkedExample

register = template.Library()


@register.simple_tag
def fan_examples_scored(fan: Fan) -> list[selectors.ScoredExample]:
    """The live examples of the fan, in the fan's language."""
    return selectors.fan_examples_scored(
        ruleset=fan.ruleset, fan_code=fan.code, language=fan.locale.language_code
    )


@register.simple_tag(takes_context=True)
def example_scored(context: dict[str, Any], example: WorkedExample) -> selectors.ScoredExample:
    """The example as it is being edited, in the request's language."""
    return selectors.example_scored(example, language=context["request"].LANGUAGE_CODE)


@register.simple_tag
def example_notes_shown(notes: list[str]) -> dict[str, Any]:
    """A worked example's notes on how its hand is read, in the page's language where
    translated (decision 0542): ``items`` of (text, language), ``english`` whether any
    is shown in English on a page of another language."""
    items = example_notes(notes)
    return {"items": items, "english": any(lang != (get_language() or "en") for _, lang in items)}
