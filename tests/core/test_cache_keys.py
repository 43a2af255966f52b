"""core.cache_keys: a page's cache key is made of the query parameters it reads (issue 36)."""

from __future__ import annotations

import re

from django.http import QueryDict

from core.cache_keys import NUMBER, TOKEN, page_query_key

SHAPES = {"points": NUMBER, "category": TOKEN, "q": None}


def key(query: str) -> str | None:
    return page_query_key(QueryDict(query), SHAPES)


def test_invented_parameters_are_left_out():
    assert key("") == ""
    assert key("utm_source=x&utm_x=8f3a") == ""
    assert key("points=8&utm_x=1") == key("utm_x=2&points=8") == "points=8"


def test_the_parameters_read_are_kept_in_a_fixed_order():
    assert key("points=8&category=winds") == key("category=winds&points=8")
    assert key("category=winds&points=8") == "category=winds&points=8"


def test_the_value_the_page_reads_is_the_last_one_and_empty_is_absent():
    assert key("points=6&points=8") == "points=8"
    assert key("points=&category=") == ""


def test_a_value_of_another_shape_or_free_text_is_not_kept():
    assert key("points=eight") is None
    assert key("category=" + "x" * 33) is None
    assert key("q=dragons") is None
    assert key("q=") == ""
    assert page_query_key(QueryDict("period=2025-09"), {"period": re.compile(r"\d{4}-\d{2}")}) == (
        "period=2025-09"
    )
