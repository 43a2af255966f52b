"""OpenAPI schema (/api/schema/): only the public API, the paths under /api/v1/. The admin's
own DRF endpoints (Wagtail's /admin/api/...) and anything else stay out, whoever adds them."""

from __future__ import annotations

from typing import Any

PUBLIC_PREFIX = "/api/v1/"


def public_endpoints_only(endpoints: list[tuple[str, Any, Any, Any]]) -> list[Any]:
    """drf-spectacular PREPROCESSING_HOOKS entry: (path, path_regex, method, callback)."""
    return [endpoint for endpoint in endpoints if endpoint[0].startswith(PUBLIC_PREFIX)]
