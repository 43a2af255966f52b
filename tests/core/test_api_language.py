"""Issue 41, item 10: the API answers in English a client that states no language, and in
the language it asks for otherwise (Accept-Language, or the site's language cookie)."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db

CYRILLIC = re.compile(r"[\u0400-\u04ff]")


def message(response) -> str:  # type: ignore[no-untyped-def]
    assert response.status_code == 400
    return response.json()["errors"][0]["message"]


def test_an_api_error_without_accept_language_is_english(client) -> None:  # type: ignore[no-untyped-def]
    text = message(client.get("/api/v1/search"))
    assert text and not CYRILLIC.search(text)


def test_an_api_error_follows_accept_language(client) -> None:  # type: ignore[no-untyped-def]
    russian = message(client.get("/api/v1/search", HTTP_ACCEPT_LANGUAGE="ru"))
    english = message(client.get("/api/v1/search"))
    assert CYRILLIC.search(russian) and russian != english
    french = message(client.get("/api/v1/search", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9"))
    assert french != english or french == english.replace(" ", " ")


def test_an_api_error_follows_the_sites_language_cookie(client) -> None:  # type: ignore[no-untyped-def]
    client.cookies["django_language"] = "ru"
    assert CYRILLIC.search(message(client.get("/api/v1/search")))
