"""Hostile input everywhere (issue 37, "Proof"; docs/reliability.md): every form field and
every API parameter of the site, found by walking the project rather than listed by hand,
is fed control characters, NUL, very long strings, huge and negative numbers and impossible
dates, as an anonymous visitor and as the tournament's organizer. No answer may be a 500;
an API refusal (400) names the field.

- the pages: every URL pattern whose view is the site's own (``django.urls`` resolvers),
  its path arguments filled with real objects (and with a 40-digit number), asked with GET
  carrying every query parameter a view of the site reads (found in the source: ``GET.get``,
  ``query_params.get`` ...) and with POST carrying every field of the forms its module uses;
- the API: every operation of the schema (drf-spectacular's ``SchemaGenerator``), each
  query parameter and each property of its JSON body;
- the forms: every Django form class defined in the project's modules, cleaned directly.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from django import forms
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator

from tests.tournaments.fixtures import token_client

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
APPS = ("config", "core", "content", "tournaments", "ratings", "federation", "rulebook")

HOSTILE: dict[str, str] = {
    "control": "Anna\x0bSmit\x01\x1f",
    "nul": "a\x00b",
    "long": "x" * 20_000,
    "huge": "9" * 40,
    "negative": "-99999999999",
    "date": "0001-01-01",
    "bad_date": "9999-99-99",
}
NUMBERS = {"huge": 10**40, "negative": -(10**12)}


# --- what to send ------------------------------------------------------------------------------


def _read_parameters() -> list[str]:
    """Every query or form parameter a module of the site reads by name."""
    pattern = re.compile(r"(?:GET|POST|query_params|data)\.get(?:list)?\(\s*[\"']([A-Za-z_]\w*)")
    names: set[str] = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" not in path.parts:
                names.update(pattern.findall(path.read_text()))
    return sorted(names)


def _site_patterns() -> Iterator[tuple[str, Any]]:
    """(route, callback) of every URL pattern whose view belongs to the site."""

    def walk(patterns: list[Any], prefix: str) -> Iterator[tuple[str, Any]]:
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                yield prefix + str(p.pattern), p.callback

    for route, callback in walk(get_resolver().url_patterns, ""):
        view = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
        module = (view or callback).__module__
        if module.split(".")[0] in APPS:
            yield route.replace("^", "").replace("$", ""), callback


CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")


def _paths(route: str, objects: dict[str, Any]) -> list[str]:
    """The route with real objects in it, and with every number 40 digits long."""
    route = re.sub(r"^(ru|en|zh-hans|fr|nl)/", "en/", route)

    def fill(huge: bool):
        def one(match: re.Match[str]) -> str:
            kind, name = match.group(1) or "str", match.group(2)
            if kind == "int":
                return HOSTILE["huge"] if huge else str(objects.get(name, 1))
            if kind == "uuid":
                return str(objects.get(name, uuid.uuid4()))
            return str(objects.get(name, "x"))
        return "/" + CONVERTER.sub(one, route)

    paths = [fill(False)]
    if "<int:" in route:
        paths.append(fill(True))
    return paths


def _module_forms(module_name: str) -> list[type[forms.BaseForm]]:
    module = importlib.import_module(module_name)
    return [value for value in vars(module).values()
            if inspect.isclass(value) and issubclass(value, forms.BaseForm)
            and value.__module__.split(".")[0] in APPS]


def _field_value(field: forms.Field, kind: str) -> Any:
    if isinstance(field, forms.FileField):
        return None
    if isinstance(field, (forms.IntegerField, forms.DecimalField, forms.FloatField)):
        return HOSTILE[kind] if kind not in NUMBERS else str(NUMBERS[kind])
    if isinstance(field, forms.MultipleChoiceField):
        return [HOSTILE[kind]]
    return HOSTILE[kind]


def _all_site_forms() -> list[type[forms.BaseForm]]:
    for app in APPS:
        package = importlib.import_module(app)
        for info in pkgutil.walk_packages(package.__path__, f"{app}."):
            if any(part in info.name for part in (".migrations", ".management", "wsgi",
                                                  "settings")):
                continue
            importlib.import_module(info.name)
    found: list[type[forms.BaseForm]] = []
    stack = [forms.BaseForm]
    while stack:
        cls = stack.pop()
        for sub in cls.__subclasses__():
            stack.append(sub)
            if sub.__module__.split(".")[0] in APPS and sub not in found:
                found.append(sub)
    return found


# --- the site's objects ------------------------------------------------------------------------


@pytest.fixture
def site(make_tournament, organizer, make_user, site_content):
    from ratings.services import ratings_recompute
    from tournaments import services

    confirmed = make_tournament("results confirmed", players=16)
    ratings_recompute()
    t = make_tournament("results submitted", players=16)
    player = t.registrations.order_by("number").first().player_id
    penalty = services.penalty_give(tournament=t, user=organizer, session=1, player=player,
                                    kind="deducted", points=10, reason="Slow play")
    return {"tournament": t, "confirmed": confirmed,
            "objects": {"pk": t.pk, "player": player, "session": 1, "table": 1,
                        "penalty": penalty.pk, "entry": 1, "page_id": 1}}


def _clients(organizer) -> dict[str, Client]:
    signed_in = Client()
    signed_in.force_login(organizer)
    return {"anonymous": Client(), "organizer": signed_in}


# --- the pages ---------------------------------------------------------------------------------


def _rotated(names: list[str], turn: int) -> dict[str, str]:
    """Each parameter a different kind of hostile value; the next turn shifts them, so that
    over the turns every parameter meets every kind (NUL apart: the middleware's, once)."""
    return {name: HOSTILE[KINDS[(turn + i) % len(KINDS)]] for i, name in enumerate(names)}


# the pages' kinds (NUL apart: the middleware's, once a page; the invalid date: the forms'
# and the API's tests), split between the two users' GETs
KINDS = ["control", "long", "huge", "negative", "date"]
DOWNLOADS = (".csv", ".pdf", ".xlsx", ".json")


def _form_names(form_classes: list[type[forms.BaseForm]]) -> list[str]:
    return sorted({name for cls in form_classes for name, field in cls.base_fields.items()
                   if not isinstance(field, forms.FileField)})


def test_every_page_survives_hostile_parameters_and_fields(site, organizer):
    names = _read_parameters()
    clients = _clients(organizer)
    failures: list[str] = []
    asked = 0

    def ask(who: str, method: str, path: str, data: dict[str, Any] | None = None) -> None:
        nonlocal asked
        client = clients[who]
        if method == "GET":
            response = client.get(f"{path}?{urlencode(data or {})}")
        else:
            response = client.post(path, data or {})
        asked += 1
        if response.status_code >= 500:
            failures.append(f"{who} {method} {path}: {response.status_code}")

    for route, callback in _site_patterns():
        if route.startswith("api/"):
            continue  # the API's own test below
        view = getattr(callback, "view_class", None) or callback
        fields = _form_names(_module_forms(view.__module__)) + names
        real, *huge = _paths(route, site["objects"])
        download = real.endswith(DOWNLOADS)  # read only: nothing to post
        for turn in range(len(KINDS)):  # the two users between them: every kind
            ask("anonymous" if turn < 2 else "organizer", "GET", real, _rotated(names, turn))
            if not download:
                ask("organizer", "POST", real, _rotated(fields, turn))
        ask("anonymous", "GET", real, {name: HOSTILE["nul"] for name in names})
        if not download:
            ask("anonymous", "POST", real, _rotated(fields, 0))
        for path in huge:  # a 40-digit object number
            ask("organizer", "GET", path)
            if not download:
                ask("organizer", "POST", path, _rotated(fields, 0))
    assert asked > 900
    assert failures == []


# --- the API -----------------------------------------------------------------------------------


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _json_value(schema: dict[str, Any], node: dict[str, Any], kind: str, depth: int = 0
                ) -> Any:
    node = _resolve(schema, node)
    if "allOf" in node:
        node = _resolve(schema, node["allOf"][0])
    kind_type = node.get("type")
    if kind_type == "object" or "properties" in node:
        if depth > 4:
            return {}
        return {name: _json_value(schema, prop, kind, depth + 1)
                for name, prop in node.get("properties", {}).items()}
    if kind_type == "array":
        return [_json_value(schema, node.get("items", {}), kind, depth + 1)] * 2
    if kind_type in ("integer", "number") and kind in NUMBERS:
        return NUMBERS[kind]
    if node.get("format") == "date" and kind in ("date", "bad_date"):
        return HOSTILE[kind]
    return HOSTILE[kind]


def _fields_named(body: Any) -> list[str]:
    if not isinstance(body, dict):
        return []
    named = [body["field"]] if body.get("field") else []
    named += [e["field"] for e in body.get("errors", []) if isinstance(e, dict) and e.get("field")]
    if not named:  # a serializer's own shape: {"name": ["..."]}
        named = [key for key in body if key not in ("detail", "code", "message")]
    return named


def test_every_api_parameter_survives_hostile_values(site, organizer):
    schema = SchemaGenerator().get_schema(request=None, public=True)
    clients = {"anonymous": token_client(None), "organizer": token_client(organizer)}
    objects = {**site["objects"], "id": site["tournament"].pk}
    failures: list[str] = []
    asked = 0
    for template, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method == "delete":
                continue  # nothing to feed but the path
            parameters = operation.get("parameters", [])
            body_schema = (operation.get("requestBody", {}).get("content", {})
                           .get("application/json", {}).get("schema"))
            route = template.lstrip("/").replace("{", "<int:").replace("}", ">")
            for path in _paths(route, objects):
                for who, client in clients.items():
                    for kind in HOSTILE:
                        query = urlencode({p["name"]: HOSTILE[kind] for p in parameters
                                           if p["in"] == "query"})
                        url = f"{path}?{query}" if query else path
                        body = (_json_value(schema, body_schema, kind)
                                if body_schema is not None else None)
                        response = client.generic(method.upper(), url,
                                                  json.dumps(body) if body is not None else "",
                                                  content_type="application/json")
                        asked += 1
                        where = f"{who} {method.upper()} {path} {kind}"
                        if response.status_code >= 500:
                            failures.append(f"{where}: {response.status_code}")
                        elif response.status_code == 400:
                            named = _fields_named(response.json())
                            if not named:
                                failures.append(f"{where}: 400 naming no field: "
                                                f"{response.content[:200]!r}")
    assert asked > 500
    assert failures == []


# --- every form class --------------------------------------------------------------------------


def _construct(cls: type[forms.BaseForm], data: dict[str, Any], site: dict[str, Any],
               organizer) -> forms.BaseForm | None:
    available = {"tournament": site["tournament"], "user": organizer, "request": None,
                 "instance": None, "initial": None, "for_user": organizer}
    parameters = inspect.signature(cls.__init__).parameters
    kwargs = {name: value for name, value in available.items() if name in parameters}
    for attempt in (kwargs, {}):
        try:
            return cls(data=data, files={}, **attempt)
        except TypeError:
            continue
    return None


def test_every_form_of_the_site_cleans_hostile_values_without_an_exception(site, organizer):
    form_classes = _all_site_forms()
    assert len(form_classes) > 20
    failures: list[str] = []
    built = 0
    for cls in form_classes:
        for kind in HOSTILE:
            data = {name: value for name, field in cls.base_fields.items()
                    if (value := _field_value(field, kind)) is not None}
            form = _construct(cls, data, site, organizer)
            if form is None:
                break
            built += 1
            try:
                valid = form.is_valid()
            except Exception as error:  # every exception is a finding
                failures.append(f"{cls.__module__}.{cls.__qualname__} {kind}: {error!r}")
                continue
            if valid and kind in ("nul", "long", "huge"):
                # accepted: then nothing hostile is left in what the form hands on
                for name, value in form.cleaned_data.items():
                    if isinstance(value, str) and ("\x00" in value or "\x0b" in value):
                        failures.append(f"{cls.__qualname__}.{name} {kind}: kept {value!r}")
    assert built > 20 * 5
    assert failures == []
