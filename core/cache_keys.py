"""The query-string part of the cache key of a whole page kept for anonymous visitors.

A page is kept per the query parameters it reads, never per the whole query string: a
visitor (or a crawler) adding ``?utm_x=<random>`` to every request would otherwise add a
cache entry each time and grow the cache without bound (issue 36). Each page names the
parameters it reads, with the shape of a value it may keep; a value of another shape (or a
parameter whose shape is ``None``: free text) means the page is rendered and not kept.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import urlencode

from django.http import QueryDict

# a short word or number: a filter chosen from a list on the page
TOKEN = re.compile(r"[A-Za-z0-9_.-]{1,32}")
NUMBER = re.compile(r"\d{1,6}")

ParameterShapes = Mapping[str, re.Pattern[str] | None]


def page_query_key(query: QueryDict, shapes: ParameterShapes) -> str | None:
    """The parameters of ``shapes`` that ``query`` carries, in a fixed order, as a query
    string ("" when none); every other parameter is left out. None when a value does not
    have its parameter's shape: such a request is served by the page and not kept."""
    pairs: list[tuple[str, str]] = []
    for name in sorted(shapes):
        # what the page reads: the last value (QueryDict.get); an empty one is no filter
        value = query.get(name, "")
        if value == "":
            continue
        shape = shapes[name]
        if shape is None or not shape.fullmatch(value):
            return None
        pairs.append((name, value))
    return urlencode(pairs)
