"""GET /api/v1/fans and GET /api/v1/examples: fields, languages, ETag, optional pagination,
and the examples' results equal to the command-line calculator's."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook.models import WorkedExample

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


def test_fans_api_gives_the_fan_table_in_the_language_asked(client, rulebook_content):
    response = client.get("/api/v1/fans", {"rules": "mcr", "lang": "en"})
    assert response.status_code == 200
    fans = response.json()
    assert isinstance(fans, list) and len(fans) == 82
    assert fans[0] == {
        "id": "1",
        "points": 88,
        "unit": "points",
        "name": "Big Four Winds",
        "description": "Pungs or Kongs of all four Wind Tiles.",
        "category": "honors",
        "url": "/en/rules/mcr/fans/1/",
    }
    ids = [f["id"] for f in fans]
    assert ids[:3] == ["1", "2", "3"] and "57A" in ids and "57B" in ids
    assert set(ids) == {str(i) for i in range(1, 82) if i != 57} | {"57A", "57B"}
    zh = client.get("/api/v1/fans", {"rules": "mcr", "lang": "zh-hans"}).json()
    assert zh[0]["name"] == "大四喜" and zh[0]["url"] == "/zh-hans/rules/mcr/fans/1/"
    fan_57a = next(f for f in zh if f["id"] == "57A")
    assert fan_57a["url"] == "/zh-hans/rules/mcr/fans/57a/"


def test_api_refuses_an_unknown_ruleset_or_language(client, rulebook_content):
    response = client.get("/api/v1/fans", {"rules": "riichi", "lang": "en"})
    assert response.status_code == 400
    assert "rules" in response.json()
    response = client.get("/api/v1/examples", {"rules": "mcr", "lang": "de"})
    assert response.status_code == 400
    assert "lang" in response.json()


def test_fans_api_is_cacheable_with_an_etag(client, rulebook_content):
    first = client.get("/api/v1/fans", {"rules": "mcr", "lang": "en"})
    etag = first["ETag"]
    assert etag
    again = client.get("/api/v1/fans", {"rules": "mcr", "lang": "en"}, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    other = client.get("/api/v1/fans", {"rules": "mcr", "lang": "fr"}, HTTP_IF_NONE_MATCH=etag)
    assert other.status_code == 200
    # an editor's change gives a new ETag
    from rulebook.models import Fan

    fan = Fan.objects.get(ruleset="mcr", code="2", locale__language_code="en")
    fan.name = "Big Three Dragons!"
    fan.save_revision().publish()
    changed = client.get("/api/v1/fans", {"rules": "mcr", "lang": "en"}, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed.json()[1]["name"] == "Big Three Dragons!"


def test_pagination_only_when_asked(client, rulebook_content):
    whole = client.get("/api/v1/examples", {"rules": "mcr", "lang": "en"}).json()
    assert isinstance(whole, list) and len(whole) == 104
    paged = client.get("/api/v1/examples", {"rules": "mcr", "lang": "en", "page_size": 10, "page": 2})
    body = paged.json()
    assert body["count"] == 104
    assert [e["id"] for e in body["results"]] == [e["id"] for e in whole[10:20]]
    fans = client.get("/api/v1/fans", {"rules": "mcr", "page": 1}).json()
    assert fans["count"] == 82 and len(fans["results"]) == 50


def test_examples_api_fields(client, rulebook_content):
    examples = client.get("/api/v1/examples", {"rules": "mcr", "lang": "en"}).json()
    first = examples[0]
    assert first == {
        "id": "fan1-ex1",
        "fan": "1",
        "hand": "EEESSSWWWNNNCC",
        "context": {"self_drawn": False, "seat": "E", "prevalent": "E"},
        "book_fans": ["1", "11"],
        "result": {
            "ok": True,
            "total": 217,
            "fans": [
                {"id": "1", "points": 88, "count": 1},
                {"id": "11", "points": 64, "count": 1},
                {"id": "12", "points": 64, "count": 1},
                {"id": "79", "points": 1, "count": 1},
            ],
        },
    }


def _cli_arguments(ruleset: str, context: dict) -> list[str]:
    args = ["--rules", ruleset]
    for key, value in context.items():
        flag = "--" + ("from" if key == "from" else key.replace("_", "-"))
        if value is False or value is None:
            continue
        if value is True:
            args.append(flag)
        elif key == "options":
            for name, option in value.items():
                args += ["--option", f"{name}={option}"]
        elif isinstance(value, list | tuple):
            args += [flag, ",".join(str(v) for v in value)]
        else:
            args += [flag, str(value)]
    return args


def test_the_examples_api_equals_the_cli_for_every_example(client, rulebook_content):
    for ruleset in sorted(set(WorkedExample.objects.values_list("ruleset", flat=True))):
        api = client.get("/api/v1/examples", {"rules": ruleset, "lang": "en"}).json()
        assert api, ruleset
        # one CLI run for the whole ruleset: one hand and its options per line on stdin
        lines = [
            shlex.join([example["hand"], *_cli_arguments(ruleset, example["context"])])
            for example in api
        ]
        run = subprocess.run(
            [sys.executable, "-m", "rulebook.scoring", "-"],
            input="\n".join(lines) + "\n", capture_output=True, text=True, cwd=ROOT, check=True,
        )
        answers = [json.loads(line) for line in run.stdout.splitlines()]
        assert len(answers) == len(api)
        for example, cli in zip(api, answers, strict=True):
            assert example["result"] == {
                "ok": cli["ok"],
                "total": cli["total"],
                "fans": [
                    {"id": f["id"], "points": f["points"], "count": f["count"]}
                    for f in cli["fans"]
                ],
            }, example["id"]


def test_the_schema_documents_both_endpoints_and_their_parameters(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in ("/api/v1/fans", "/api/v1/examples"):
        operation = schema["paths"][path]["get"]
        names = {p["name"] for p in operation["parameters"]}
        assert {"rules", "lang", "page", "page_size"} <= names
    example = schema["components"]["schemas"]["WorkedExample"]["properties"]
    assert {"id", "fan", "hand", "context", "book_fans", "result"} <= set(example)
    entry = schema["components"]["schemas"]["FanTableEntry"]["properties"]
    assert {"id", "points", "name", "description", "category", "url"} <= set(entry)
