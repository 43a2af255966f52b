"""`/api/docs/`: Swagger UI from the site's own static files, no third-party requests."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest


@pytest.mark.django_db
def test_the_docs_page_uses_our_static_files(client) -> None:
    html = client.get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "cdn.jsdelivr.net" not in html and "unpkg.com" not in html


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_docs_page_shows_the_score_endpoints_without_leaving_the_site(
    browser_page, live_server
) -> None:
    page = browser_page
    hosts = set()
    page.on("request", lambda request: hosts.add(urlparse(request.url).netloc))
    page.goto("/api/docs/")
    page.get_by_text("/api/v1/score/batch").first.wait_for()
    assert page.get_by_text("/api/v1/score", exact=True).first.is_visible()
    assert hosts == {urlparse(live_server.url).netloc}
