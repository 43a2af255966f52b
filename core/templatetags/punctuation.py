"""Punctuation that differs by language, for the pieces a template puts together (decision
0552): a list of names (“小四喜、字一色”), a place (“Moscow，俄罗斯”), clauses (“；”) and a
remark in parentheses (“（27 号）”), a label's colon (“Période : ”). Chinese takes full-width marks, French a narrow no-break
space before « ; »; the others the English marks. Loaded as a builtin library (settings
TEMPLATES ``builtins``), so templates use the tags without a ``{% load %}``."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext

register = template.Library()


@register.simple_tag
def list_sep() -> str:
    """Between the items of a list of names: ", " (Chinese 、)."""
    return pgettext("list separator", ", ")


@register.simple_tag
def comma() -> str:
    """Between the parts of a place or of a sentence: ", " (Chinese ，)."""
    return pgettext("comma", ", ")


@register.simple_tag
def colon() -> str:
    """After a label: ": " (French " : " with a no-break space, Chinese ：)."""
    return pgettext("colon", ": ")


@register.simple_tag
def clause_sep() -> str:
    """Between two clauses: "; " (French " ; ", Chinese ；)."""
    return pgettext("clause separator", "; ")


def in_parentheses(text: Any) -> SafeString:
    """``text`` as a remark after what precedes it, in the language's parentheses:
    " (6 doublings)", "（6 番）" with no space before (escaped unless it is safe already)."""
    return mark_safe(pgettext("in parentheses", " (%(text)s)") % {"text": conditional_escape(text)})


register.filter("in_parentheses", in_parentheses, is_safe=True)
