"""POST /api/v1/score and /api/v1/score/batch: the core's answer as JSON, errors, limits,
the OpenAPI schema, and the API against the command line on generated hands."""

from __future__ import annotations

import gc
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.throttling import SimpleRateThrottle

from rulebook.scoring import score
from rulebook.scoring.generate import random_hands
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
KONGS = {"rules": "mcr", "hand": "[1111s][EEEE]SSS7889m8m",
         "context": {"self_drawn": True, "seat": "N", "prevalent": "W"}}


def post(client, url: str, body: Any, **headers: str):  # type: ignore[no-untyped-def]
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, data, content_type="application/json", **headers)


def test_score_answers_the_cores_result_with_fan_names(client) -> None:  # type: ignore[no-untyped-def]
    response = post(client, "/api/v1/score", KONGS, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    body = response.json()
    expected = score(KONGS["hand"], self_drawn=True, seat="N", prevalent="W").to_dict()
    names = {f["id"]: f.pop("name") for f in body["fans"]}
    assert body == expected
    assert names["48"] == "Two Concealed Kongs"
    assert body["payments"] == {"self": 123, "left": -41, "opposite": -41, "right": -41}
    assert {"id": "80", "by": "56"} in body["excluded"]


@pytest.mark.parametrize("language", ["ru", "en", "zh-hans", "fr", "nl"])
def test_every_fan_the_core_can_count_has_a_name(language: str) -> None:
    """The API names fans with ``names[fan id]``: the map must hold every id of the core's
    tables, in every language, even before the rulebook's fans are loaded."""
    from rulebook.fan_labels import clear, fan_name_map
    from rulebook.scoring.hkos.table import FANS_BY_ID as HKOS_FANS
    from rulebook.scoring.mcr.table import FANS as MCR_FANS
    from rulebook.scoring.red.table import FANS_BY_ID as RED_FANS

    clear()
    for ruleset, table in (("mcr", MCR_FANS), ("hkos", HKOS_FANS), ("red", RED_FANS)):
        names = fan_name_map(ruleset, language)
        missing = [fan_id for fan_id in table if not names.get(fan_id)]
        assert not missing, (ruleset, language, missing)


@pytest.mark.parametrize(("language", "name"), [("ru", "Два закрытых конга"),
                                                ("zh-hans", "双暗杠"), ("fr", None)])
def test_fan_names_follow_accept_language(client, language: str, name: str | None) -> None:  # type: ignore[no-untyped-def]
    body = post(client, "/api/v1/score", KONGS, HTTP_ACCEPT_LANGUAGE=language).json()
    fan48 = next(f for f in body["fans"] if f["id"] == "48")
    assert fan48["name"] != "Two Concealed Kongs"
    if name:
        assert fan48["name"] == name


def test_options_switch_the_mcr_variant(client) -> None:  # type: ignore[no-untyped-def]
    question = {"hand": "[1111s,1][EEEE]SSS7889m8m", "context": {"self_drawn": True}}
    six = post(client, "/api/v1/score", question).json()
    five = post(client, "/api/v1/score", {**question, "options": {"fan_57b_points": 5}}).json()
    in_context = post(client, "/api/v1/score", {
        **question, "context": {"self_drawn": True, "options": ["fan_57b_points=5"]}}).json()
    assert six["total"] - five["total"] == 1 and in_context == five
    bad = post(client, "/api/v1/score", {**question, "options": {"fan_57b_points": 7}})
    assert bad.status_code == 400
    assert bad.json() == {"code": "bad_context", "position": None,
                          "message": "option fan_57b_points is 5 or 6, not 7"}


@pytest.mark.parametrize(("question", "code", "position"), [
    ({"hand": "123m456p789s11s12x"}, "unknown_tile", 17),
    ({"hand": "123m456p789s5s5s5s5s5s"}, "too_many_copies", 20),
    ({"hand": "123m456p789s123s5s6s"}, "not_winning", None),
    ({"hand": "123m456p789s123s5s5s", "context": {"self_drawn": True, "from": "left"}},
     "bad_context", None),
    ({"hand": "123m456p789s123s5s5s", "context": {"colour": "red"}}, "bad_context", None),
    ({"hand": "123m456p789s123s5s5s", "rules": "riichi"}, "unknown_rules", None),
    ({"hand": ""}, "bad_request", None),
    ({"hand": "123m", "context": []}, "bad_request", None),
    ({"hand": "123m", "extra": 1}, "bad_request", None),
    ([1, 2], "bad_request", None),
])
def test_bad_questions_get_400_with_code_message_position(client, question: Any, code: str,  # type: ignore[no-untyped-def]
                                                          position: int | None) -> None:
    response = post(client, "/api/v1/score", question)
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"code", "message", "position"}
    assert body["code"] == code and body["position"] == position and body["message"]


def test_invalid_json_is_400_with_its_position(client) -> None:  # type: ignore[no-untyped-def]
    response = post(client, "/api/v1/score", '{"hand": ')
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request" and response.json()["position"] == 9


@pytest.mark.parametrize(("bad", "says"), [
    ({"hand": 5}, "hand is required"),
    ({"hand": "   "}, "hand is required"),
    ({"hand": "1" * 201}, "longer than 200"),
    ({"hand": "123m", "rules": 1}, "rules is a string"),
    ({"hand": "123m", "context": []}, "context is an object"),
    ({"hand": "123m", "colour": "red"}, "unknown field 'colour'"),
    ({"hand": "123m", "options": {"fan_57b_points": 5},
      "context": {"options": {"fan_57b_points": 6}}}, "options given twice"),
    ("123m", "a question is an object"),
])
def test_a_batch_names_the_question_that_cannot_be_read(client, bad: Any, says: str) -> None:  # type: ignore[no-untyped-def]
    response = post(client, "/api/v1/score/batch", {"questions": [KONGS, KONGS, bad]})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_request" and body["position"] == 2
    assert body["message"].startswith("question 2: ") and says in body["message"]


def test_a_batch_may_be_the_list_alone(client) -> None:  # type: ignore[no-untyped-def]
    response = post(client, "/api/v1/score/batch", [KONGS, {**KONGS, "rules": "mcr"}])
    assert response.status_code == 200
    assert [r["total"] for r in response.json()["results"]] == [33, 33]
    empty = post(client, "/api/v1/score/batch", {"questions": []})
    assert empty.status_code == 200 and empty.json() == {"results": []}


def test_a_batch_question_with_unknown_rules_is_answered_without_a_database_lookup(client) -> None:  # type: ignore[no-untyped-def]
    """Regression (issue 37's hostile-input suite on PostgreSQL): rules "a\x00b" reached the
    fan names' query, which PostgreSQL refuses (NUL in a text value): a 500."""
    response = post(client, "/api/v1/score/batch", [KONGS, {**KONGS, "rules": "a\x00b"}])
    assert response.status_code == 200
    first, second = response.json()["results"]
    assert first["total"] == 33
    assert "total" not in second or not second.get("fans")


def test_not_enough_points_is_an_answer_not_an_error(client) -> None:  # type: ignore[no-untyped-def]
    response = post(client, "/api/v1/score", {"hand": "123m456p789s123s5s5s", "context": {
        "from": "left", "options": {"minimum_points": 20}}})
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is False and body["error"]["code"] == "not_enough_points"
    assert body["total"] == 14 and body["fans"]


def test_waits_of_a_hand_of_thirteen(client) -> None:  # type: ignore[no-untyped-def]
    body = post(client, "/api/v1/score", {"hand": "1112345678999m",
                                           "context": {"waits": True}}).json()
    assert body["waits"] == [f"{n}m" for n in range(1, 10)]


def test_batch_answers_each_question_in_order(client) -> None:  # type: ignore[no-untyped-def]
    questions = [KONGS, {"hand": "12x"}, {"rules": "hkos", "hand": "123m456p789s123s5s5s",
                                          "context": {"from": "left"}}]
    response = post(client, "/api/v1/score/batch", {"questions": questions})
    assert response.status_code == 200
    results = response.json()["results"]
    assert [r["ok"] for r in results] == [True, False, True]
    assert results[1]["error"]["code"] == "unknown_tile"
    assert results[2]["rules"] == "hkos" and "doublings" in results[2]
    # a bare list is read as well
    assert post(client, "/api/v1/score/batch", questions).json()["results"] == results


def test_batch_leaves_the_garbage_collector_running(client) -> None:  # type: ignore[no-untyped-def]
    # the batch pauses the cyclic collector while it scores; it must resume it afterwards,
    # whether the batch is answered or refused
    assert gc.isenabled()
    ok = post(client, "/api/v1/score/batch", [KONGS] * 3)
    assert ok.status_code == 200 and [r["total"] for r in ok.json()["results"]] == [33] * 3
    assert gc.isenabled()
    broken = post(client, "/api/v1/score/batch", [KONGS, {"hand": 5}])
    assert broken.status_code == 400 and broken.json()["position"] == 1
    assert gc.isenabled()


def test_batch_limits(client) -> None:  # type: ignore[no-untyped-def]
    user = UserFactory()
    token = Token.objects.create(user=user)
    auth = {"HTTP_AUTHORIZATION": f"Token {token.key}"}
    # a full batch fits a token client's minute (API_USER_RATE, 1000/min) exactly
    full = post(client, "/api/v1/score/batch", {"questions": [KONGS] * 1000}, **auth)
    assert full.status_code == 200 and len(full.json()["results"]) == 1000
    assert full.json()["results"][999]["total"] == 33
    assert post(client, "/api/v1/score", KONGS, **auth).status_code == 429
    from django.core.cache import cache

    cache.clear()
    over = post(client, "/api/v1/score/batch", {"questions": [KONGS] * 1001}, **auth)
    assert over.status_code == 400 and "at most 1000" in over.json()["message"]
    bad_item = post(client, "/api/v1/score/batch", {"questions": [KONGS, "x"]}, **auth)
    assert bad_item.status_code == 400 and bad_item.json()["position"] == 1
    assert post(client, "/api/v1/score/batch", {"questions": 3}, **auth).status_code == 400


@pytest.fixture
def low_rates(monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"anon": "3/min", "user": "5/min"})


def test_anonymous_clients_are_limited(client, low_rates) -> None:  # type: ignore[no-untyped-def]
    codes = [post(client, "/api/v1/score", KONGS).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert "Retry-After" in post(client, "/api/v1/score", KONGS)


def test_token_clients_get_their_own_higher_limit(client, low_rates) -> None:  # type: ignore[no-untyped-def]
    token = Token.objects.create(user=UserFactory())
    auth = {"HTTP_AUTHORIZATION": f"Token {token.key}"}
    codes = [post(client, "/api/v1/score", KONGS, **auth).status_code for _ in range(6)]
    assert codes == [200] * 5 + [429]
    # the anonymous budget is another one
    assert post(client, "/api/v1/score", KONGS).status_code == 200


def test_a_batch_counts_each_question(client, low_rates) -> None:  # type: ignore[no-untyped-def]
    token = Token.objects.create(user=UserFactory())
    auth = {"HTTP_AUTHORIZATION": f"Token {token.key}"}
    assert post(client, "/api/v1/score/batch", [KONGS] * 6, **auth).status_code == 429
    assert post(client, "/api/v1/score/batch", [KONGS] * 4, **auth).status_code == 200
    # one question left in this minute, for either endpoint
    assert post(client, "/api/v1/score", KONGS, **auth).status_code == 200
    assert post(client, "/api/v1/score", KONGS, **auth).status_code == 429
    assert post(client, "/api/v1/score/batch", [KONGS] * 4).status_code == 429  # anon: 3


def test_openapi_schema_documents_and_validates(client) -> None:  # type: ignore[no-untyped-def]
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)  # raises on an invalid schema
    paths = schema["paths"]
    score_op = paths["/api/v1/score"]["post"]
    assert score_op["operationId"] == "score"
    assert set(score_op["responses"]) >= {"200", "400"}
    batch = paths["/api/v1/score/batch"]["post"]
    assert batch["operationId"] == "score_batch"
    fan = schema["components"]["schemas"]["Fan"]["properties"]
    assert set(fan) == {"id", "points", "count", "sets", "name"}
    served = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert served.status_code == 200


# --- the API equals the command line -------------------------------------------------------

_FLAG_ARGS = ("last_of_kind", "last_tile", "kong_replacement", "robbing_kong")


def _cli_line(hand: str, context: dict[str, Any]) -> str:
    args = [shlex.quote(hand)]
    for key, value in context.items():
        if key == "self_drawn":
            args.append("--self-drawn")
        elif key == "from":
            args += ["--from", value]
        elif key in ("seat", "prevalent", "flowers", "players", "liable"):
            args += [f"--{key}", str(value)]
        elif key in _FLAG_ARGS:
            args.append("--" + key.replace("_", "-"))
        elif key == "options":
            for option in value:
                args += ["--option", option]
        else:
            raise AssertionError(key)
    return " ".join(args)


def _questions() -> list[dict[str, Any]]:
    """Generated hands of the three rulesets, with some broken ones."""
    out: list[dict[str, Any]] = []
    for i, g in enumerate(random_hands(240, seed=2026)):
        text, ctx = g.text, dict(g.context)
        if i % 3 == 0:
            out.append({"rules": "mcr", "hand": text, "context": ctx})
            if i % 12 == 0:
                out.append({"rules": "mcr", "hand": text, "context": {
                    **ctx, "options": ["fan_57b_points=5", "fan_48_points=6"]}})
        elif i % 3 == 1:
            ctx.pop("flowers", None)  # HKOS takes flower tiles, not a count
            out.append({"rules": "hkos", "hand": text, "context": ctx})
        else:
            for key in ("kong_replacement", "robbing_kong"):
                ctx.pop(key, None)
            out.append({"rules": "red", "hand": text, "context": ctx})
        if i % 10 == 0:  # a broken copy: a tile too many, an unknown character
            out.append({"rules": "mcr", "hand": text + "5s", "context": {}})
            out.append({"rules": "red", "hand": text[:-1] + "x", "context": {}})
    return out


def test_the_api_equals_the_command_line_on_generated_hands(client) -> None:  # type: ignore[no-untyped-def]
    questions = _questions()
    assert len(questions) >= 300
    assert {q["rules"] for q in questions} == {"mcr", "hkos", "red"}
    # the command line, in one process per ruleset (stdin: one hand and its options a line)
    cli: list[dict[str, Any] | None] = [None] * len(questions)
    for rules in ("mcr", "hkos", "red"):
        indices = [i for i, q in enumerate(questions) if q["rules"] == rules]
        stdin = "\n".join(_cli_line(questions[i]["hand"], questions[i]["context"])
                          for i in indices) + "\n"
        proc = subprocess.run([sys.executable, "-m", "rulebook.scoring", "--rules", rules, "-"],
                              input=stdin, capture_output=True, text=True, cwd=ROOT, check=True)
        lines = proc.stdout.splitlines()
        assert len(lines) == len(indices)
        for i, line in zip(indices, lines, strict=True):
            cli[i] = json.loads(line)
    # the batch endpoint, as tournament software calls it (with a token: the anonymous
    # limit of 60 questions a minute would refuse this batch)
    auth = {"HTTP_AUTHORIZATION": f"Token {Token.objects.create(user=UserFactory()).key}"}
    batch = post(client, "/api/v1/score/batch", {"questions": questions}, **auth)
    assert batch.status_code == 200
    results = batch.json()["results"]
    ok_count = 0
    for question, expected, got in zip(questions, cli, results, strict=True):
        for fan in got["fans"]:
            assert fan.pop("name"), fan
        assert got == expected, question
        ok_count += expected["ok"]  # type: ignore[index]
    assert ok_count > 200
    # and the single endpoint on a sample of them, errors included
    for question, expected in list(zip(questions, cli, strict=True))[::9]:
        assert expected is not None
        response = post(client, "/api/v1/score", question, **auth)
        if expected["error"] and expected["error"]["code"] != "not_enough_points":
            assert response.status_code == 400
            assert response.json() == expected["error"]
        else:
            got = response.json()
            for fan in got["fans"]:
                del fan["name"]
            assert response.status_code == 200 and got == expected
