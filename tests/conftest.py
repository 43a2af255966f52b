"""Fixtures shared by the whole suite.

The browser fixtures drive Debian's Chromium through Playwright (no downloaded browsers):
set CHROMIUM_PATH to use another binary. Every page they open runs under the site's
Content-Security-Policy, and a test fails when the browser reports a violation
(decision 0905).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

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


def _run_folder(config: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's temporary folder, shared by its xdist workers (each has a folder in it)."""
    folder = tmp_path_factory.getbasetemp()
    return folder.parent if hasattr(config, "workerinput") else folder


def _site_content_load() -> None:
    """The per-language home pages, as `make run` loads them (into the template database)."""
    from django.db import transaction

    from content.services import site_skeleton_load

    with transaction.atomic():
        site_skeleton_load()


@pytest.fixture(scope="session")
def django_db_setup(request, django_test_environment, django_db_blocker,
                    django_db_use_migrations, django_db_modify_db_settings, tmp_path_factory):
    """The test database, in place of pytest-django's: a copy of the run's template, which
    the first process to need it migrates and fills with the home pages once for the whole
    run (tests/database_template.py). A transactional test ends with the copy made again
    instead of Django's flush. --reuse-db has nothing to add here and is ignored."""
    from django.db import connections
    from django.test import TransactionTestCase

    from tests import database_template

    if not django_db_use_migrations:  # --nomigrations (the data migrations' rows are missing)
        from pytest_django.fixtures import _disable_migrations

        _disable_migrations()
    verbosity = request.config.option.verbose
    folder = _run_folder(request.config, tmp_path_factory)
    connection = connections["default"]
    original_name = connection.settings_dict["NAME"]
    template = database_template.template_for("default", folder)
    with django_db_blocker.unblock(), database_template.file_lock(folder / "test_database.lock"):
        if not template.built():
            template.build(verbosity, prepare=_site_content_load)
        template.use()
    with pytest.MonkeyPatch.context() as patch:
        # pytest-django runs a transactional test as Django's TransactionTestCase, whose
        # teardown empties every table; this one copies the template again
        patch.setattr(TransactionTestCase, "_fixture_teardown", lambda _test: template.restore())
        yield
    with django_db_blocker.unblock():
        connection.creation.destroy_test_db(original_name, verbosity)
        if not hasattr(request.config, "workerinput"):
            template.drop()  # the xdist controller drops it after its workers (below)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """xdist's controller drops the PostgreSQL template database its workers copied."""
    config = session.config
    if hasattr(config, "workerinput") or not config.pluginmanager.hasplugin("dsession"):
        return
    from django.db import connections
    from pytest_django.plugin import blocking_manager_key

    from tests import database_template

    connection = connections["default"]
    built = _run_folder(config, config._tmp_path_factory) / "test_database_default.built"
    if connection.vendor == "postgresql" and built.exists():
        with config.stash[blocking_manager_key].unblock():
            database_template.postgres_template_drop(
                connection, database_template.template_name(connection))


@pytest.fixture
def site_content(db):
    """The per-language home pages, as `make run` loads them: every test's database has
    them (they are part of the template); this is the default language's."""
    from django.conf import settings

    from content.models import HomePage

    return HomePage.objects.get(depth=2, locale__language_code=settings.LANGUAGE_CODE)


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
def _load_snapshots():
    """Per loader and state of the database before it ran: the rows the loader wrote and
    what it returned (tests/db_snapshot.py's `loaded_or_restored`)."""
    return {}


RULES_DIR = Path(__file__).parent / "content/data/rules"  # a small MCR text, the real schema


def _rulebook_load():
    """The rulebook's data and pages as `load_content` loads them (with `RULES_DIR` patched
    in by the caller); the pages' load report."""
    from content import services
    from rulebook.services import rulebook_data_load

    rulebook_data_load()
    return services.rulebook_pages_load()


@pytest.fixture(scope="module")
def _rulebook_module(_load_snapshots, django_db_setup, django_db_blocker):
    """The rulebook, loaded into a transaction that is rolled back at the module's end; each
    test runs in its own savepoint within it (the `db` fixture). Loading takes seconds;
    restoring an earlier load's rows, milliseconds (`loaded_or_restored`)."""
    from django.db import transaction

    from content import data_files
    from tests.db_snapshot import loaded_or_restored

    with django_db_blocker.unblock(), pytest.MonkeyPatch.context() as patch:
        patch.setattr(data_files, "RULES_DIR", RULES_DIR)
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            yield loaded_or_restored(_load_snapshots, "rulebook", _rulebook_load)
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@pytest.fixture
def rulebook_content(_rulebook_module, db):
    """The rulebook as `load_content` loads it, with a small MCR rule text of the real schema
    (tests/content/data/rules/) instead of the whole book. Changes a test makes are undone."""
    return _rulebook_module


@pytest.fixture
def rulebook_content_committed(_load_snapshots, transactional_db, monkeypatch):
    """The rulebook as `rulebook_content` has it, committed, for a transactional test (whose
    pages a live server reads); the copy of the template made after the test removes it."""
    from django.db import transaction

    from content import data_files
    from tests.db_snapshot import loaded_or_restored

    monkeypatch.setattr(data_files, "RULES_DIR", RULES_DIR)
    with transaction.atomic():
        return loaded_or_restored(_load_snapshots, "rulebook", _rulebook_load)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that drives Chromium is marked `browser`, whether its module says so or it
    only asks for the `browser` or `browser_page` fixture: CI runs these once, on SQLite
    (docs/decisions/0010-what-ci-runs-on-both-databases.md)."""
    for item in items:
        if {"browser", "browser_page"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
