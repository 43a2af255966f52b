"""What the browser tests share besides their fixtures (tests/conftest.py): logging in."""

from __future__ import annotations

from tests.factories import DEFAULT_PASSWORD


def log_in(page, email: str, password: str = DEFAULT_PASSWORD, *,
           path: str = "/en/accounts/login/") -> None:
    """Log in through the site's one login form (reached at `path`: /admin/login/ leads to
    it too, decision 0002), which asks for the email as "login", and wait for the next
    page."""
    page.goto(path)
    page.fill("input[name=login]", email)
    page.fill("input[name=password]", password)
    page.locator("form:has(input[name=password]) [type=submit]").click()
    page.wait_for_load_state()
