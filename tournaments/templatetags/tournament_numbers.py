"""Table points as every page shows them: whole numbers whole, shares with up to two
decimals (0.5, 9.5, 2.33), in the page's language's number format, as in the PDF."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django import template
from django.utils import formats

from tournaments.selectors import table_points_number

register = template.Library()


@register.filter
def table_points(value: Any) -> str:
    if value is None or value == "":
        return ""
    number = table_points_number(Fraction(str(value)) if not isinstance(value, Fraction)
                                 else value)
    return str(formats.number_format(number, use_l10n=True))
