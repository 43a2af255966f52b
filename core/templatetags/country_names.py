"""``{{ code|country_name }}``: a country's name in the page's language (``core.countries``).

Players' countries are ISO 3166 alpha-2 codes (imports and the admin store them so); an
older free-text value that is not a code is shown as written.
"""

from __future__ import annotations

from django import template

from core.countries import country_name as _country_name

register = template.Library()


@register.filter
def country_name(code: str | None) -> str:
    return _country_name(code)
