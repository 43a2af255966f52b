"""Fixtures shared by the whole suite.

The browser fixtures drive Debian's Chromium through Playwright (no downloaded browsers):
set CHROMIUM_PATH to use another binary. Every page they open runs under the site's
Content-Security-Policy, and a test fails when the browser reports a violation
(decision 0905).
"""

from __future__ import annotations

import os
import shutil

import pytest

# The tournament fixtures (roles, a tournament in each state, token clients) serve the
# tournaments', the ratings' and the site's tests; the task queue's (a real Celery worker,
# tests/worker_processes.py) those of the jobs.
pytest_plugins = ["tests.tournaments.fixtures", "tests.worker_processes"]

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")


# What the browser said about the Content-Security-Policy during the current test.
CSP_VIOLATIONS: list[str] = []
CSP_MARK = "Content Security Policy"
# Reported to the console by every page, whatever Chromium writes there itself; scripts
# added by Playwright are not subject to the page's policy.
_CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`Content Security Policy violation: ${e.violatedDirective} blocked `
    + `${e.blockedURI || "inline"} in ${e.documentURI} (${e.sourceFile}:${e.lineNumber})`);
});
"""


def csp_watch(context):
    """Collect the CSP violations a browser context's pages report (console, page errors)."""
    context.add_init_script(script=_CSP_LISTENER)

    def on_console(message) -> None:
        if CSP_MARK in message.text:
            CSP_VIOLATIONS.append(message.text)

    def on_error(error) -> None:
        if CSP_MARK in str(error.error):
            CSP_VIOLATIONS.append(str(error.error))

    context.on("console", on_console)
    context.on("weberror", on_error)
    return context


class CspWatchedBrowser:
    """The Playwright browser, each of whose contexts reports CSP violations."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, **kwargs):
        return csp_watch(self._browser.new_context(**kwargs))

    def new_page(self, **kwargs):
        context = self.new_context(**kwargs)
        page = context.new_page()
        page.on("close", lambda _page: context.close())
        return page

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


@pytest.fixture(autouse=True)
def _no_csp_violations():
    """A test whose pages broke the Content-Security-Policy fails (teardown, after the
    browser contexts are closed)."""
    CSP_VIOLATIONS.clear()
    yield
    found = list(CSP_VIOLATIONS)
    CSP_VIOLATIONS.clear()
    if found:
        pytest.fail("The Content-Security-Policy blocked something:\n" + "\n".join(found))


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium shared by the session's browser tests."""
    executable = chromium_path()
    if executable is None:
        pytest.fail("Chromium is not installed: apt-get install chromium (or set CHROMIUM_PATH)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; Django's ORM refuses to run
    # inside one unless told that this thread is synchronous code after all.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield CspWatchedBrowser(browser)
        browser.close()


@pytest.fixture
def browser_page(browser, live_server):
    """A fresh browser tab (own cookies) with `base_url` pointing at the live test server."""
    context = browser.new_context(base_url=live_server.url, locale="en-US")  # CSP watched
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def site_content(db):
    """The per-language home pages, as `make run` loads them."""
    from content.services import site_skeleton_load

    return site_skeleton_load()


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache: API rate limits and cached pages count afresh."""
    from django.core.cache import cache

    from content.site_search import forget as search_forget
    from rulebook.selectors import content_version_forget

    cache.clear()
    content_version_forget()
    search_forget()
    yield
    cache.clear()
    content_version_forget()
    search_forget()


@pytest.fixture(scope="session")
def _rulebook_snapshots():
    """Per state of the database before the load: the rows `load_content` wrote for the
    rulebook and its report. Loading takes seconds; restoring the rows, milliseconds."""
    return {}


@pytest.fixture(scope="module")
def _rulebook_module(_rulebook_snapshots, django_db_setup, django_db_blocker):
    """The rulebook, loaded into a transaction that is rolled back at the module's end; each
    test runs in its own savepoint within it (the `db` fixture). The first module loads it
    through the services; the next ones restore that load's rows (tests/db_snapshot.py),
    unless the database changed under them (a transactional test flushes it and gives the
    content types new ids), which loads it again."""
    from pathlib import Path

    from django.db import transaction

    from content import data_files, services
    from rulebook.services import rulebook_data_load
    from tests.db_snapshot import snapshot_restore, state_key, tables_read, tables_written

    with django_db_blocker.unblock(), pytest.MonkeyPatch.context() as patch:
        patch.setattr(data_files, "RULES_DIR", Path(__file__).parent / "content/data/rules")
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            before = tables_read()
            key = state_key(before)
            if key in _rulebook_snapshots:
                snapshot, report = _rulebook_snapshots[key]
                snapshot_restore(snapshot)
            else:
                rulebook_data_load()
                report = services.rulebook_pages_load()
                _rulebook_snapshots[key] = (tables_written(before, tables_read()), report)
            yield report
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@pytest.fixture
def rulebook_content(_rulebook_module, db):
    """The rulebook as `load_content` loads it, with a small MCR rule text of the real schema
    (tests/content/data/rules/) instead of the whole book. Changes a test makes are undone."""
    return _rulebook_module
