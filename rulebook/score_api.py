"""The public scoring API: ``POST /api/v1/score`` and ``POST /api/v1/score/batch``.

A question is ``{"rules": "mcr", "hand": "...", "context": {...}}``; the context keys are
the command line's options (``self_drawn``, ``from``, ``seat``, ``prevalent``, ``flowers``,
``last_of_kind``, ..., ``waits``, ``options``). The answer is the core's result as the
command line prints it, each fan with its ``name`` in the request's language
(``Accept-Language``). The core validates the context; this module only checks the shape
of the request.

Speed: the batch endpoint must stay within 20 % of the core's own time per hand. The
questions are read with msgspec into typed structs (the shape checked in C on the way);
only a request that fails that check is read again by :func:`_question`, which says
what is wrong and where. The answers are msgspec structs (cheaper to make than dicts),
the core's excluded fans go to JSON as the dataclasses they are, and fan names
come from a per-process map. See docs/benchmarks.md.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import msgspec
from django.http import HttpResponse
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView

from core.api_errors import E_BAD_ENCODING, E_TOO_DEEP, bad_encoding_message, too_deep_message
from core.tokens import CachedTokenAuthentication
from rulebook import rulesets
from rulebook.fan_labels import fan_name_map
from rulebook.scoring import score
from rulebook.scoring.hkos import HkosScoreResult
from rulebook.scoring.result import ExcludedFan, ScoreResult

MAX_BATCH = 1000
MAX_HAND_LENGTH = 200
E_BAD_REQUEST = "bad_request"
# Errors of the question itself (400 on the single endpoint). A complete hand below the
# minimum is an answer (ok: false, with its fans), not a bad question.
ANSWER_CODES = frozenset({"not_enough_points"})

_JSON = "application/json"
BODY_CODES = frozenset({E_TOO_DEEP, E_BAD_ENCODING})


class BadRequest(Exception):
    def __init__(self, message: str, position: int | None = None,
                 code: str = E_BAD_REQUEST) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.position = position


def _error_response(code: str, message: str, position: int | None, status: int = 400
                    ) -> HttpResponse:
    body: dict[str, Any] = {"code": code, "message": message, "position": position}
    if code in BODY_CODES:  # the body itself cannot be read (core.api_errors)
        body["field"] = "body"
    return HttpResponse(msgspec.json.encode(body), status=status, content_type=_JSON)


# --- reading the questions ------------------------------------------------------------------


class Question(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A question as it is read. A body that does not fit is read again as plain JSON by
    :func:`_question`, which says what is wrong and where. (``gc=False``: JSON values
    cannot form reference cycles, so the cyclic collector need not track questions.)"""

    hand: Annotated[str, msgspec.Meta(max_length=MAX_HAND_LENGTH)]
    rules: str = rulesets.DEFAULT_CODE
    context: dict[str, Any] | None = None
    options: Any = msgspec.UNSET


_FIELDS = frozenset(Question.__struct_fields__)
_HAND_REQUIRED = "hand is required: a hand in the notation, e.g. 123m456p789s123s5s5s"
_Questions = Annotated[list[Question], msgspec.Meta(max_length=MAX_BATCH)]


class BatchBody(msgspec.Struct):
    questions: _Questions


_READ_QUESTION = msgspec.json.Decoder(Question)
_READ_BATCH = msgspec.json.Decoder(BatchBody | _Questions)  # {"questions": [...]} or [...]


_BYTE = re.compile(r"\(byte (\d+)\)")


def _plain_json(body: bytes) -> Any:
    """The body as plain JSON values; not JSON: the error names the byte at fault (the end
    of the body when it stops early)."""
    try:
        return msgspec.json.decode(body or b"null")
    except msgspec.DecodeError as err:
        at = _BYTE.search(str(err))
        message = _BYTE.sub("", str(err)).strip().removeprefix("JSON is malformed: ")
        raise BadRequest(f"the body is not JSON: {message.lower()}",
                         int(at.group(1)) if at else len(body)) from None


def _bad_question(message: str, index: int | None) -> BadRequest:
    """The error of a question; inside a batch it names the question (``index``)."""
    return BadRequest(message if index is None else f"question {index}: {message}", index)


def _question(item: Any, index: int | None = None) -> tuple[str, str, dict[str, Any]]:
    """(rules, hand, context) of a question given as plain JSON values, or what is wrong
    with it; ``index`` names it inside a batch."""
    if not isinstance(item, dict):
        raise _bad_question("a question is an object with rules, hand and context", index)
    hand = item.get("hand")
    if not isinstance(hand, str) or not hand.strip():
        raise _bad_question(_HAND_REQUIRED, index)
    if len(hand) > MAX_HAND_LENGTH:
        raise _bad_question(f"hand is longer than {MAX_HAND_LENGTH} characters", index)
    if not isinstance(item.get("rules", rulesets.DEFAULT_CODE), str):
        raise _bad_question("rules is a string: mcr, hkos or red", index)
    if not isinstance(item.get("context", {}), dict | None):
        raise _bad_question("context is an object of win conditions", index)
    if not item.keys() <= _FIELDS:
        unknown = sorted(set(item) - _FIELDS)[0]
        raise _bad_question(f"unknown field {unknown!r} (fields: rules, hand, context, "
                            "options)", index)
    try:
        question = msgspec.convert(item, Question)
    except msgspec.ValidationError as err:
        raise _bad_question(str(err), index) from None
    return _asked(question, index)


def _asked(question: Question, index: int | None) -> tuple[str, str, dict[str, Any]]:
    """(rules, hand, context) of a question read into a :class:`Question`."""
    hand = question.hand.strip()
    if not hand:
        raise _bad_question(_HAND_REQUIRED, index)
    context = question.context
    if context is None:
        context = {}
    if question.options is not msgspec.UNSET:
        if "options" in context:
            raise _bad_question("options given twice (top level and in context)", index)
        context = {**context, "options": question.options}
    return question.rules, hand, context


@contextmanager
def _body_readable() -> Iterator[None]:
    """JSON nested too deep for the parser, or a string that is not UTF-8: a 400 naming
    the body (``too_deep``, ``bad_encoding``) instead of an exception."""
    try:
        yield
    except RecursionError:
        raise BadRequest(too_deep_message(), code=E_TOO_DEEP) from None
    except UnicodeDecodeError as err:
        raise BadRequest(bad_encoding_message(), err.start, code=E_BAD_ENCODING) from None


def _read_question(body: bytes) -> tuple[str, str, dict[str, Any]]:
    """(rules, hand, context) of the single endpoint's body."""
    with _body_readable():
        return _read_question_json(body)


def _read_question_json(body: bytes) -> tuple[str, str, dict[str, Any]]:
    try:
        question = _READ_QUESTION.decode(body)
    except msgspec.DecodeError:  # (and ValidationError, its subclass) say what is wrong
        return _question(_plain_json(body))
    return _asked(question, None)


def _read_batch(body: bytes) -> list[Question]:
    """The questions of a batch; a batch that cannot be read raises :class:`BadRequest`
    naming the question at fault."""
    with _body_readable():
        return _read_batch_json(body)


def _read_batch_json(body: bytes) -> list[Question]:
    try:
        read = _READ_BATCH.decode(body)
    except msgspec.DecodeError as err:
        plain = _plain_json(body)
        questions = plain.get("questions") if isinstance(plain, dict) else plain
        if not isinstance(questions, list):
            raise BadRequest('the body is {"questions": [...]}, a list of questions') from None
        if len(questions) > MAX_BATCH:
            raise BadRequest(f"at most {MAX_BATCH} questions in one batch, "
                             f"not {len(questions)}") from None
        for index, item in enumerate(questions):
            _question(item, index)
        raise BadRequest(str(err)) from None  # not reached while the checks agree
    return read.questions if isinstance(read, BatchBody) else read


# --- answers --------------------------------------------------------------------------------


# The answers hold only the core's immutable values (strings, numbers, tuples, frozen
# dataclasses, the payments' dict): no reference cycles, so the cyclic collector need not
# track them (gc=False: cheaper to make and to free).


class FanAnswer(msgspec.Struct, gc=False):
    id: str
    points: int
    count: int
    sets: tuple[str, ...]
    name: str


class ErrorAnswer(msgspec.Struct, gc=False):
    """The core's error as the command line prints it (``ScoreError.to_dict``): the
    reason and params by which the site words it are not part of the answer."""

    code: str
    message: str
    position: int | None


class Answer(msgspec.Struct, gc=False):
    """The core's result as the command line prints it, each fan with its name. The
    excluded fans are the core's own dataclasses (msgspec writes them field by field);
    ``waits`` and ``doublings`` appear only when the result has them."""

    hand: str
    rules: str
    ok: bool
    total: int
    fans: list[FanAnswer]
    excluded: tuple[ExcludedFan, ...]
    payments: Any
    error: ErrorAnswer | None
    waits: Any = msgspec.UNSET
    doublings: Any = msgspec.UNSET


def _answer(result: ScoreResult, names: dict[str, str]) -> Answer:
    """``names``: :func:`rulebook.fan_labels.fan_name_map` of the result's ruleset, which
    names every fan of the core's tables."""
    fans = []
    for f in result.fans:  # (a loop: cheaper than a comprehension's call in Python 3.11)
        fans.append(FanAnswer(f.id, f.points, f.count, f.sets, names[f.id]))
    error = result.error
    answer = Answer(result.hand, result.rules, result.ok, result.total, fans,
                    result.excluded, result.payments,
                    None if error is None else ErrorAnswer(error.code, error.message,
                                                           error.position))
    if result.waits is not None:
        answer.waits = result.waits
    if isinstance(result, HkosScoreResult):
        answer.doublings = result.doublings
    return answer


_ENCODER = msgspec.json.Encoder()
_CHUNK = 32  # answers written to JSON at a time


def _batch_content(questions: list[Question], language: str) -> bytes:
    """The batch's answer as JSON; a question the core cannot use raises
    :class:`BadRequest` (scoring changes nothing, the work before it is dropped).

    The answers are written to JSON a few dozen at a time and freed with their results,
    so the next hands' objects reuse memory still in the processor's caches; the pieces
    are joined once at the end."""
    named: dict[str, dict[str, str]] = {}
    chunk: list[Answer] = []
    buffer = bytearray()
    pieces: list[bytes] = []

    def write_chunk() -> None:
        _ENCODER.encode_into(chunk, buffer)
        pieces.append(buffer[1:-1])  # without the list's brackets
        chunk.clear()

    for index, question in enumerate(questions):
        rules, hand, context = question.rules, question.hand, question.context
        # the usual question is used as read (no call); _asked handles the rest: no
        # context, top-level options, blanks around the hand, an empty hand
        if (context is None or question.options is not msgspec.UNSET
                or not hand or hand != hand.strip()):
            rules, hand, context = _asked(question, index)
        result = score(hand, rules=rules, **context)
        names = named.get(result.rules)
        if names is None:
            names = named[result.rules] = fan_name_map(result.rules, language)
        chunk.append(_answer(result, names))
        if len(chunk) == _CHUNK:
            write_chunk()
    if chunk:
        write_chunk()
    return b"".join((b'{"results":[', b",".join(pieces), b"]}"))


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
    rules = serializers.ChoiceField(choices=list(rulesets.codes()), default=rulesets.DEFAULT_CODE)
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
            rules, hand, context = _read_question(request.body)
        except BadRequest as err:
            return _error_response(err.code, err.message, err.position)
        result = score(hand, rules=rules, **context)
        error = result.error
        if error is not None and error.code not in ANSWER_CODES:
            return _error_response(error.code, error.message, error.position)
        answer = _answer(result, fan_name_map(result.rules, get_language()))
        return HttpResponse(msgspec.json.encode(answer), content_type=_JSON)


class ScoreBatchView(APIView):
    """Score up to 1,000 hands in one request."""

    authentication_classes = AUTHENTICATION
    permission_classes = [AllowAny]
    _questions: list[Question] | BadRequest | None = None

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
        # (core.throttles, the API's throttles, read request.throttle_weight)
        try:
            self._questions = _read_batch(request.body)
            request.throttle_weight = len(self._questions)  # type: ignore[attr-defined]
        except BadRequest as err:
            self._questions = err
        super().initial(request, *args, **kwargs)

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
