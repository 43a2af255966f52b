"""The one domain error type: the API's handler answers it, the pages' helpers show it, and
no view or API function catches a domain error itself."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django import forms
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.http import Http404
from django.test import RequestFactory
from rest_framework.views import APIView

from core.api_errors import exception_handler
from core.errors import (
    DomainError,
    error_context,
    errors_as_messages,
    errors_collected,
    errors_on_form,
)
from federation.errors import E_NOT_PENDING, MembershipError
from ratings.services import RatingError
from rulebook.scoring.standings import Problem
from tournaments.errors import E_ENTRIES_CLOSED, ResultsError, TournamentError

ROOT = Path(__file__).resolve().parents[2]


def test_every_service_error_is_a_domain_error():
    unbalanced = Problem("unbalanced", "The table does not balance.", session=1, table=2)
    for error in (TournamentError(E_ENTRIES_CLOSED), ResultsError([unbalanced]),
                  MembershipError(E_NOT_PENDING), RatingError("period_invalid")):
        assert isinstance(error, DomainError)
        assert error.status == 400
        assert error.message and error.message != error.code


def test_the_api_handler_answers_the_error_items_with_the_status():
    error = TournamentError(E_ENTRIES_CLOSED, field="tournament")
    response = exception_handler(error, {"view": APIView()})
    assert response.status_code == 400
    assert response.data == {"errors": [
        {"code": E_ENTRIES_CLOSED, "message": error.message, "field": "tournament"}]}


def test_an_api_view_names_the_field_and_adds_to_the_body():
    with pytest.raises(TournamentError) as caught, error_context(
            field="from_session", extra=lambda error: {"checks": [error.code]}):
        raise TournamentError(E_ENTRIES_CLOSED, field="tournament")
    assert caught.value.body() == {
        "errors": [{"code": E_ENTRIES_CLOSED, "message": caught.value.message,
                    "field": "from_session"}],
        "checks": [E_ENTRIES_CLOSED],
    }
    with pytest.raises(TournamentError) as caught, error_context(field=None):
        raise TournamentError(E_ENTRIES_CLOSED, field="tournament")
    assert "field" not in caught.value.items()[0]
    # the field for this error, from its code
    with pytest.raises(TournamentError) as caught, error_context(
            field=lambda error: "from_session" if error.code == E_ENTRIES_CLOSED else None):
        raise TournamentError(E_ENTRIES_CLOSED)
    assert caught.value.items()[0]["field"] == "from_session"


def test_an_api_view_answers_a_refusal_that_means_not_found_as_404():
    with pytest.raises(Http404), error_context(not_found={E_ENTRIES_CLOSED}):
        raise TournamentError(E_ENTRIES_CLOSED)
    with pytest.raises(TournamentError), error_context(not_found={"another_code"}):
        raise TournamentError(E_ENTRIES_CLOSED)


def _request():
    request = RequestFactory().post("/")
    request.session = {}
    request._messages = FallbackStorage(request)
    return request


def test_a_page_shows_the_error_as_a_message_and_goes_on():
    request = _request()
    with errors_as_messages(request) as outcome:
        raise MembershipError(E_NOT_PENDING)
    assert not outcome.ok
    assert [str(m) for m in get_messages(request)] == [MembershipError(E_NOT_PENDING).message]
    with errors_as_messages(request) as outcome:
        pass
    assert outcome.ok


class _Form(forms.Form):
    amount = forms.DecimalField(required=False)


def test_a_page_shows_the_error_on_its_form():
    form = _Form({})
    assert form.is_valid()
    with errors_on_form(form) as outcome:
        raise TournamentError(E_ENTRIES_CLOSED, field="amount")
    assert outcome.error is not None
    assert form.errors == {"amount": [outcome.error.message]}

    form = _Form({})
    form.is_valid()
    with errors_on_form(form):  # a field the form does not have: the form as a whole
        raise TournamentError(E_ENTRIES_CLOSED, field="elsewhere")
    assert list(form.errors) == ["__all__"]

    form = _Form({})
    form.is_valid()
    with errors_on_form(form, lambda error: "amount"):
        raise TournamentError(E_ENTRIES_CLOSED)
    assert list(form.errors) == ["amount"]


def test_other_exceptions_pass_through_the_helpers():
    problems: list[str] = []
    with pytest.raises(ValueError), errors_collected(problems):
        raise ValueError("not a domain error")
    assert problems == []
    with errors_collected(problems):
        raise RatingError("period_unknown", period="2030-01")
    assert problems == [RatingError("period_unknown", period="2030-01").message]
    assert "2030-01" in problems[0]


DOMAIN_ERRORS = {"DomainError", "TournamentError", "ResultsError", "MembershipError",
                 "RatingError"}
EDGES = ("views", "api", "viewsets", "admin_views", "member_mail_views", "mailing_admin_views",
         "table_views", "account_views", "calculator_views", "score_api", "fans_api",
         "club_views")


def _edge_files() -> list[Path]:
    files = []
    for app in ("federation", "tournaments", "ratings", "rulebook", "content"):
        for path in sorted((ROOT / app).rglob("*.py")):
            parts = path.relative_to(ROOT / app).with_suffix("").parts
            if any(part in EDGES for part in parts):
                files.append(path)
    return files


def _catches(path: Path, root: Path = ROOT) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ExceptHandler) or node.type is None:
            continue
        types = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
        for caught in types:
            name = caught.attr if isinstance(caught, ast.Attribute) else getattr(
                caught, "id", "")
            if name in DOMAIN_ERRORS:
                found.append(f"{path.relative_to(root)}:{node.lineno} catches {name}")
    return found


def test_no_view_or_api_function_catches_a_domain_error_itself():
    files = _edge_files()
    names = {str(path.relative_to(ROOT)) for path in files}
    # the modules of the edges' packages are read too
    assert {"federation/views.py", "tournaments/viewsets.py", "tournaments/api/players.py",
            "tournaments/views/table_entry.py", "tournaments/views/_common.py"} <= names
    wrong = [catch for path in files for catch in _catches(path)]
    assert not wrong, "\n".join(wrong)


def test_the_catch_finder_finds_catches(tmp_path):
    planted = tmp_path / "views.py"
    planted.write_text("try:\n    pass\nexcept (ValueError, services.TournamentError):\n"
                       "    pass\nexcept MembershipError:\n    pass\nexcept KeyError:\n"
                       "    pass\n")
    assert _catches(planted, tmp_path) == [
        "views.py:3 catches TournamentError", "views.py:5 catches MembershipError"]
