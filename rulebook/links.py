"""Where things of the rulebook live on the site: one place builds these paths.

The rulebook pages are Wagtail pages under each language's home page
(``/<lang>/rules/<ruleset>/fans/<id>/``); the calculator is a Django view
(``/<lang>/calculator/``). Pages, the API and the calculator link through these helpers.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode

from django.utils.translation import get_language


def _language(language: str | None) -> str:
    return (language or get_language() or "ru").lower()


def rules_url(ruleset: str | None = None, language: str | None = None) -> str:
    """`/<lang>/rules/` or `/<lang>/rules/<ruleset>/`."""
    base = f"/{_language(language)}/rules/"
    return f"{base}{ruleset}/" if ruleset else base


def fan_table_url(ruleset: str, language: str | None = None) -> str:
    return f"{rules_url(ruleset, language)}fans/"


def fan_page_url(ruleset: str, fan_id: str, language: str | None = None) -> str:
    """The page of one fan, e.g. `/en/rules/mcr/fans/57a/` (ids are lower-cased)."""
    return f"{fan_table_url(ruleset, language)}{fan_id.lower()}/"


def calculator_url(
    ruleset: str,
    hand: str = "",
    context: Mapping[str, object] | None = None,
    language: str | None = None,
) -> str:
    """The calculator with a whole question in its query string (shareable, server-rendered).

    Booleans become ``1``/``0``; the keys are the score call's context keys; flower tiles
    (a list) are joined by commas and ``options`` become repeated ``option=NAME=VALUE``
    (decision 0600).
    """
    params: dict[str, object] = {"rules": ruleset}
    if hand:
        params["hand"] = hand
    for key, value in (context or {}).items():
        if value is None:
            continue
        if key == "options":
            items = value.items() if isinstance(value, Mapping) else None
            params["option"] = (
                [f"{k}={int(v) if isinstance(v, bool) else v}" for k, v in items]
                if items is not None else list(value)  # type: ignore[call-overload]
            )
            continue
        if isinstance(value, (list, tuple)):
            if not value:
                continue
            value = ",".join(str(v) for v in value)
        params[key] = int(value) if isinstance(value, bool) else value
    return f"/{_language(language)}/calculator/?{urlencode(params, doseq=True)}"
