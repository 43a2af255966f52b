"""The one domain error type of the site, and the one way each edge turns it into an answer.

A service that refuses raises a subclass of ``DomainError`` (``TournamentError``,
``ResultsError``, ``MembershipError``, ``RatingError``): a stable ``code``, its ``params``
and the HTTP ``status`` it answers with. The subclass says its words in the reader's
language (``message``; ``items`` when one refusal holds several problems). The edges never
catch it themselves:

- the API: ``core.api_errors.exception_handler`` (DRF) and ``ApiErrorsMiddleware`` (plain
  views under /api/) answer ``{"errors": error.items()}`` with ``error.status``;
  ``error_context`` lets an API view name the field or add to the body;
- the pages: ``errors_as_messages`` (each problem a message, then the view goes on to its
  redirect) and ``errors_on_form`` (each problem on the form, which is shown again).

Usage in a view::

    with errors_as_messages(request) as outcome:
        services.tournament_submit(tournament=tournament, user=request.user)
    if outcome.ok:
        messages.success(request, _("Submitted."))
    return redirect(...)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

_UNSET: Any = object()


class DomainError(Exception):
    """A rule of the domain said no. ``code`` is stable (clients read it), ``params`` say
    what it is about (``field`` names the input it concerns), ``status`` is the HTTP
    status of the API's answer."""

    status: int = 400

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params
        # what an edge adds to the API's answer (error_context)
        self.field_override: Any = _UNSET
        self.extra_body: dict[str, Any] = {}

    @property
    def message(self) -> str:
        """The refusal in the reader's language (subclasses say it with their texts)."""
        return self.code

    @property
    def field(self) -> str | None:
        if self.field_override is not _UNSET:
            return self.field_override
        field = self.params.get("field")
        return None if field is None else str(field)

    def items(self) -> list[dict[str, Any]]:
        """The API's error items: code, message and the field where there is one."""
        item: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field is not None:
            item["field"] = self.field
        return [item]

    def messages(self) -> list[str]:
        """The words of each problem, for a page."""
        return [item["message"] for item in self.items()]

    def body(self) -> dict[str, Any]:
        return {"errors": self.items(), **self.extra_body}


@contextmanager
def error_context(*, field: Any = _UNSET,
                  extra: Callable[[DomainError], dict[str, Any]] | None = None,
                  not_found: Collection[str] = ()) -> Iterator[None]:
    """An API view's say in the answer to a domain error raised inside: the field it
    concerns (``None``: no field; a function: the field for this error) and what the body
    adds (``extra(error)``). The error goes on to the exception handler, except that a code
    in ``not_found`` (the thing asked for does not exist) is answered as any 404 is."""
    try:
        yield
    except DomainError as error:
        if error.code in not_found:
            from django.http import Http404

            raise Http404 from error
        if field is not _UNSET:
            error.field_override = field(error) if callable(field) else field
        if extra is not None:
            error.extra_body.update(extra(error))
        raise


@dataclass
class Outcome:
    """What became of the block: ``error`` is the domain error it raised, if any."""

    error: DomainError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


@contextmanager
def errors_as_messages(request: Any, *,
                       describe: Callable[[DomainError], list[str]] | None = None
                       ) -> Iterator[Outcome]:
    """A page's domain errors as messages (``django.contrib.messages``) on the next page.
    ``describe`` replaces the error's own words (e.g. to name a form's rows)."""
    from django.contrib import messages

    outcome = Outcome()
    try:
        yield outcome
    except DomainError as error:
        outcome.error = error
        for text in (describe or DomainError.messages)(error):
            messages.error(request, text)


@contextmanager
def errors_on_form(form: Any, field: Any = _UNSET, *,
                   describe: Callable[[DomainError], list[str]] | None = None
                   ) -> Iterator[Outcome]:
    """A page's domain errors shown on its form: on ``field`` when given (``None``: the
    form as a whole; a function: the field for this error), else on the field the error
    names, else the form as a whole."""
    outcome = Outcome()
    try:
        yield outcome
    except DomainError as error:
        outcome.error = error
        target = error.field if field is _UNSET else field(error) if callable(field) else field
        if target is not None and target not in form.fields:
            target = None
        for text in (describe or DomainError.messages)(error):
            form.add_error(target, text)


@contextmanager
def errors_collected(into: list[Any], *,
                     describe: Callable[[DomainError], list[Any]] | None = None
                     ) -> Iterator[Outcome]:
    """A page's domain errors added to a list of problems it shows itself."""
    outcome = Outcome()
    try:
        yield outcome
    except DomainError as error:
        outcome.error = error
        into.extend((describe or DomainError.messages)(error))
