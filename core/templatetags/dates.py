"""The ``date`` template filter, as Django's, writing the date with ``core.dates.date_display``
(French « 1er août 2026 »). Loaded as a builtin library after Django's own (settings
TEMPLATES ``builtins``), so every ``{{ value|date:"DATE_FORMAT" }}`` of the site's
templates, the mails' included, uses it without a ``{% load %}``."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.dateformat import format as time_or_date_format

from core.dates import date_display

register = template.Library()


@register.filter(expects_localtime=True, is_safe=False)
def date(value: Any, arg: str | None = None) -> str:
    """Format a date according to the given format (Django's ``date`` filter)."""
    if value in (None, ""):
        return ""
    try:
        return date_display(value, arg)
    except AttributeError:
        try:
            return time_or_date_format(value, arg)
        except AttributeError:
            return ""
