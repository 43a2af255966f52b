"""Anonymous pages are cached by the query parameters they read, not by any string a visitor
invents (issue 36: a random ?utm_x= per request grew the cache by ~2 GB an hour)."""

from __future__ import annotations

import secrets

import pytest
from django.core.cache import cache
from django.test import Client

pytestmark = pytest.mark.django_db


def kept(prefix: str) -> set[str]:
    """The keys of the cache (the tests' local-memory one) that hold a kept page."""
    return {key for key in cache._cache if prefix in key}  # type: ignore[attr-defined]


def visit_with_invented_parameters(client: Client, path: str, times: int = 100) -> str:
    first = client.get(path).content.decode()
    for _ in range(times):
        response = client.get(f"{path}?utm_x={secrets.token_hex(8)}")
        assert response.status_code == 200
        assert response.content.decode() == first
    return first


def test_the_home_page_is_kept_once_whatever_the_query(client: Client, site_content):
    cache.clear()
    visit_with_invented_parameters(client, "/en/")
    assert len(kept("home:page")) == 1


def test_the_fan_table_is_kept_per_filter_it_reads(client: Client, rulebook_content):
    cache.clear()
    visit_with_invented_parameters(client, "/en/rules/mcr/fans/")
    assert len(kept("rulebook:page")) == 1
    # its own filters are separate pages; a free-text search is rendered and not kept
    filtered = client.get("/en/rules/mcr/fans/?points=88&utm_x=1")
    assert filtered.status_code == 200
    assert client.get("/en/rules/mcr/fans/?points=88&utm_x=2").content == filtered.content
    assert len(kept("rulebook:page")) == 2
    assert client.get("/en/rules/mcr/fans/?q=wind").status_code == 200
    assert client.get(f"/en/rules/mcr/fans/?q={secrets.token_hex(4)}").status_code == 200
    assert len(kept("rulebook:page")) == 2


def test_the_rating_list_is_kept_once_whatever_the_query(client: Client):
    cache.clear()
    visit_with_invented_parameters(client, "/en/ratings/")
    assert len(kept("ratings:page")) == 1
    assert client.get("/en/ratings/?ruleset=mcr&utm_x=1").status_code == 200
    assert len(kept("ratings:page")) == 2  # ruleset is read: a page of its own
