"""The public scoring API: ``POST /api/v1/score`` and ``POST /api/v1/score/batch``.

A question is ``{"rules": "mcr", "hand": "...", "context": {...}}``; the context keys are
the command line's options (``self_drawn``, ``from``, ``seat``, ``prevalent``, ``flowers``,
``last_of_kind``, ..., ``waits``, ``options``). The answer is the core's result as the
command line prints it, each fan with its ``name`` in the request's language
(``Accept-Language``). The core validates the context; this module only checks the shape
of the request.

Speed: the batch endpoint must stay within 20 % of the core's own time per hand, so the
questions are read and the answers written with orjson, the result objects go to JSON
as they are (orjson writes dataclasses), and fan names come from a per-process map.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson
from django.http import HttpResponse
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView

from federation.api_tokens import CachedTokenAuthentication
from rulebook.fan_labels import fan_name_map
from rulebook.scoring import score
from rulebook.scoring.result import ScoreResult

MAX_BATCH = 1000
MAX_HAND_LENGTH = 200
E_BAD_REQUEST = "bad_request"
# Errors of the question itself (400 on the single endpoint). A complete hand below the
# minimum is an answer (ok: false, with its fans), not a bad question.
ANSWER_CODES = frozenset({"not_enough_points"})

_JSON = "application/json"
_FIELDS = frozenset({"rules", "hand", "context", "options"})


class BadRequest(Exception):
    def __init__(self, message: str, position: int | None = None,
                 code: str = E_BAD_REQUEST) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.position = position


def _error_response(code: str, message: str, position: int | None, status: int = 400
                    ) -> HttpResponse:
    body = {"code": code, "message": message, "position": position}
    return HttpResponse(orjson.dumps(body), status=status, content_type=_JSON)


def _read_body(request: Request) -> Any:
    try:
        return orjson.loads(request.body or b"null")
    except orjson.JSONDecodeError as err:
        raise BadRequest(f"the body is not JSON: {err.msg}", err.pos) from None


def _bad_question(message: str, index: int | None) -> BadRequest:
    """The error of a question; inside a batch it names the question (``index``)."""
    return BadRequest(message if index is None else f"question {index}: {message}", index)


def _question(item: Any, index: int | None = None) -> tuple[str, str, dict[str, Any]]:
    """(rules, hand, context) of one question; ``index`` names it inside a batch."""
    if not isinstance(item, dict):
        raise _bad_question("a question is an object with rules, hand and context", index)
    hand = item.get("hand")
    if isinstance(hand, str):
        hand = hand.strip()
    if not hand or not isinstance(hand, str):
        raise _bad_question("hand is required: a hand in the notation, e.g. "
                            "123m456p789s123s5s5s", index)
    if len(hand) > MAX_HAND_LENGTH:
        raise _bad_question(f"hand is longer than {MAX_HAND_LENGTH} characters", index)
    rules = item.get("rules", "mcr")
    if not isinstance(rules, str):
        raise _bad_question("rules is a string: mcr, hkos or red", index)
    context = item.get("context")
    if context is None:
        context = {}
    elif not isinstance(context, dict):
        raise _bad_question("context is an object of win conditions", index)
    if not item.keys() <= _FIELDS:
        unknown = sorted(set(item) - _FIELDS)[0]
        raise _bad_question(f"unknown field {unknown!r} (fields: rules, hand, context, "
                            "options)", index)
    if "options" in item:
        if "options" in context:
            raise _bad_question("options given twice (top level and in context)", index)
        context = {**context, "options": item["options"]}
    return rules, hand, context


def _answer(result: ScoreResult, names: dict[str, str]) -> dict[str, Any]:
    """The result as the command line prints it, each fan with its name."""
    error = result.error
    out: dict[str, Any] = {
        "hand": result.hand,
        "rules": result.rules,
        "ok": result.ok,
        "total": result.total,
        "fans": [
            {"id": f.id, "points": f.points, "count": f.count, "sets": f.sets,
             "name": names.get(f.id, f.id)}
            for f in result.fans
        ],
        "excluded": [{"id": e.id, "by": e.by} for e in result.excluded],
        "payments": result.payments,
        "error": None if error is None else {
            "code": error.code, "message": error.message, "position": error.position},
    }
    if result.waits is not None:
        out["waits"] = result.waits
    doublings = getattr(result, "doublings", None)
    if doublings is not None:
        out["doublings"] = doublings
    return out


# answers written per call to orjson: one call per answer kept a thousand ~1 KB buffers
# alive (four times the cost of writing them); a few calls per batch keep memory small
ANSWERS_PER_WRITE = 20


def _batch_content(questions: list[Any], language: str) -> bytes:
    """The batch's answer as JSON. Each question is read, scored and named in turn, while
    its result is still in the processor's caches, and freed once written. A question
    that cannot be read raises :class:`BadRequest` (scoring changes nothing, so the
    work done before it is simply dropped)."""
    named: dict[str, dict[str, str]] = {}
    written: list[bytes] = []
    answers: list[dict[str, Any]] = []
    for index, item in enumerate(questions):
        rules, hand, context = _question(item, index)
        result = score(hand, rules=rules, **context)
        names = named.get(result.rules)
        if names is None:
            names = named[result.rules] = fan_name_map(result.rules, language)
        answers.append(_answer(result, names))
        if len(answers) == ANSWERS_PER_WRITE:
            written.append(orjson.dumps(answers)[1:-1])  # the answers without brackets
            answers = []
    if answers:
        written.append(orjson.dumps(answers)[1:-1])
    return b'{"results":[' + b",".join(written) + b"]}"


@contextmanager
def _collector_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


# --- schema ---------------------------------------------------------------------------------

_CONTEXT_HELP = (
    "Win conditions, named like the command line's options: self_drawn (bool), from "
    "(left|opposite|right), seat and prevalent (E|S|W|N), flowers (0-8 or tile names such "
    "as [\"f1\",\"s2\"]), last_of_kind, last_tile, kong_replacement, robbing_kong (bool), "
    "waits (bool: list the waits of a hand of thirteen); HKOS: liable, late_discard, "
    "heavenly, earthly, first_round, flower_replacement, double_fortune, false_win; Red: "
    "players (2-4), false_win; options (also at the top level): MCR fan_57b_points (5|6), "
    "fan_48_points (6|8), minimum_points, wait_fans_in_knitted_straight, "
    "waits_include_fifth_copy, all_green_excludes_half_flush, "
    "all_terminals_excludes_double_pung, concealed_fans_exclude_fully_concealed; HKOS "
    "additional, fan31-fan38, min_doublings, ...; Red jokers, chaotic_hand_3, min_points. "
    "An unknown key or a bad value is the error bad_context."
)


class QuestionSerializer(serializers.Serializer):
    rules = serializers.ChoiceField(choices=["mcr", "hkos", "red"], default="mcr")
    hand = serializers.CharField(
        max_length=MAX_HAND_LENGTH,
        help_text="The hand in the notation: melds in brackets, then the concealed tiles; "
                  "the last concealed tile is the winning tile.",
    )
    context = serializers.DictField(required=False, help_text=_CONTEXT_HELP)
    options = serializers.JSONField(
        required=False,
        help_text='Variant switches: {"fan_57b_points": 5} or ["fan_57b_points=5"].',
    )


class FanSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The fan's number in the ruleset's table, e.g. 48, 57B")
    points = serializers.IntegerField(help_text="Points of one occurrence (HKOS: doublings)")
    count = serializers.IntegerField()
    sets = serializers.ListField(child=serializers.CharField(),
                                 help_text="The sets that make the fan, in the notation")
    name = serializers.CharField(help_text="The fan's name in the request's language")


class ExcludedSerializer(serializers.Serializer):
    id = serializers.CharField()
    by = serializers.CharField(
        help_text="The counted fan that excluded it, or the principle 3.9.1.5")


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable error code, e.g. too_many_copies")
    message = serializers.CharField(help_text="What is wrong (English)")
    position = serializers.IntegerField(
        allow_null=True, help_text="0-based character offset in the hand, or null")


class ResultSerializer(serializers.Serializer):
    hand = serializers.CharField()
    rules = serializers.CharField()
    ok = serializers.BooleanField()
    total = serializers.IntegerField()
    fans = FanSerializer(many=True)
    excluded = ExcludedSerializer(many=True)
    payments = serializers.DictField(
        child=serializers.IntegerField(), allow_null=True,
        help_text="Points each seat receives (+) or pays (-): self, left, opposite, right; "
                  "null when the discarder is not given")
    error = ErrorSerializer(allow_null=True)
    waits = serializers.ListField(child=serializers.CharField(), required=False,
                                  help_text="Only with context waits: the tiles that "
                                            "complete a hand of thirteen")
    doublings = serializers.IntegerField(required=False, help_text="HKOS only")


BatchRequestSerializer = inline_serializer(
    "ScoreBatchRequest",
    {"questions": QuestionSerializer(many=True, help_text=f"Up to {MAX_BATCH} questions")},
)
BatchResponseSerializer = inline_serializer(
    "ScoreBatchResponse",
    {"results": ResultSerializer(many=True, help_text="One result per question, in order; "
                                                     "a bad question has ok false and its "
                                                     "error")},
)

_EXAMPLE = OpenApiExample(
    "Two concealed kongs, self-drawn",
    value={"rules": "mcr", "hand": "[1111s][EEEE]SSS7889m8m",
           "context": {"self_drawn": True, "seat": "N", "prevalent": "W"}},
    request_only=True,
)
_EXAMPLE_57B = OpenApiExample(
    "57B at 5 points",
    value={"rules": "mcr", "hand": "[1111s,1][EEEE]SSS7889m8m",
           "context": {"self_drawn": True}, "options": {"fan_57b_points": 5}},
    request_only=True,
)


# the token's user comes from the cache: no database round trip per question
AUTHENTICATION = [CachedTokenAuthentication, SessionAuthentication]


class ScoreView(APIView):
    """Score one hand."""

    authentication_classes = AUTHENTICATION
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="score",
        request=QuestionSerializer,
        responses={200: ResultSerializer, 400: ErrorSerializer, 429: OpenApiTypes.OBJECT},
        examples=[_EXAMPLE, _EXAMPLE_57B],
        description="Score one hand with the scoring core. A hand that cannot be read, is "
                    "not complete or has impossible win conditions answers 400 with the "
                    "core's error code, message and position. A complete hand below the "
                    "ruleset's minimum answers 200 with ok false, its fans and the error "
                    "not_enough_points. Fan names follow Accept-Language.",
    )
    def post(self, request: Request) -> HttpResponse:
        try:
            item = _read_body(request)
            rules, hand, context = _question(item)
        except BadRequest as err:
            return _error_response(err.code, err.message, err.position)
        result = score(hand, rules=rules, **context)
        error = result.error
        if error is not None and error.code not in ANSWER_CODES:
            return _error_response(error.code, error.message, error.position)
        body = _answer(result, fan_name_map(result.rules, get_language()))
        return HttpResponse(orjson.dumps(body), content_type=_JSON)


class ScoreBatchView(APIView):
    """Score up to 1,000 hands in one request."""

    authentication_classes = AUTHENTICATION
    permission_classes = [AllowAny]
    _questions: list[Any] | BadRequest | None = None

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> HttpResponse:
        # A batch makes no reference cycles, so the cyclic collector waits until it is
        # answered, and until the questions read from the body are freed as well:
        # resumed while thousands of them were alive, it would at once walk them all.
        with _collector_paused():
            try:
                return super().dispatch(request, *args, **kwargs)  # type: ignore[no-any-return]
            finally:
                self._questions = None

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # the body is read before the rate limit is checked: each question counts
        # (federation.api_throttles, the API's throttles, read request.throttle_weight)
        try:
            self._questions = self._read_questions(request)
            request.throttle_weight = len(self._questions)  # type: ignore[attr-defined]
        except BadRequest as err:
            self._questions = err
        super().initial(request, *args, **kwargs)

    @staticmethod
    def _read_questions(request: Request) -> list[Any]:
        body = _read_body(request)
        questions = body.get("questions") if isinstance(body, dict) else body
        if not isinstance(questions, list):
            raise BadRequest('the body is {"questions": [...]}, a list of questions')
        if len(questions) > MAX_BATCH:
            raise BadRequest(f"at most {MAX_BATCH} questions in one batch, "
                             f"not {len(questions)}")
        return questions

    @extend_schema(
        operation_id="score_batch",
        request=BatchRequestSerializer,
        responses={200: BatchResponseSerializer, 400: ErrorSerializer, 429: OpenApiTypes.OBJECT},
        description=f"Score up to {MAX_BATCH} hands. Each question counts against the rate "
                    "limit (a batch of 100 uses 100 requests of the client's budget). Each "
                    "result is what the single endpoint answers, or for a bad question "
                    "ok false and its error (the batch itself answers 400 only when it "
                    "cannot be read: position then names the question).",
    )
    def post(self, request: Request) -> HttpResponse:
        questions = self._questions or []
        if isinstance(questions, BadRequest):
            return _error_response(questions.code, questions.message, questions.position)
        try:
            content = _batch_content(questions, get_language())
        except BadRequest as err:
            return _error_response(err.code, err.message, err.position)
        return HttpResponse(content, content_type=_JSON)
