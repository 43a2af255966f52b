"""The calculator page, ``/<lang>/calculator/``: the question in the URL, the answer
rendered by the server (JavaScript only enhances: palette, live update).

``?partial=1`` answers with the answer fragment alone and the canonical query string in
the ``X-Calculator-Query`` header, for the page's script.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from core.templatetags.punctuation import in_parentheses
from rulebook import error_texts, rulesets
from rulebook.calculator import (
    FLAGS,
    OPTIONS,
    PLAYERS,
    RULES,
    Answer,
    Question,
    answer,
    question_from_query,
)
from rulebook.calculator_texts import (
    ACCOUNT_ONCE,
    DEFAULT_WORD,
    FLAG_NAMES,
    SEAT_NAMES,
    WIN_NAMES,
    WIND_LETTERS,
    WIND_NAMES,
    exclusion_text,
    option_name,
)
from rulebook.fan_labels import fan_name_map, implies
from rulebook.links import fan_page_url
from rulebook.scoring.result import ScoreResult
from rulebook.scoring.standings import WINDS
from rulebook.scoring.tiles import (
    BONUS_TILES,
    DRAGONS,
    NUM_KINDS,
    tile_name,
)
from rulebook.scoring.tiles import (
    WINDS as WIND_TILES,
)
from rulebook.tile_display import tile_label

SEAT_ORDER = ("self", "left", "opposite", "right")
# relative seat -> steps from the winner's wind, counter-clockwise (the player on the left
# plays just before the winner)
_SEAT_STEP = {"self": 0, "right": 1, "opposite": 2, "left": 3}


@dataclass
class FanRow:
    id: str
    name: str
    url: str
    points: int
    count: int
    value: int
    sets: list[list[str]]  # each occurrence: the notations of its sets


@dataclass
class PaymentRow:
    seat: str
    label: str
    wind: str | None
    amount: int


@dataclass
class ScoredHand:
    result: ScoreResult
    ok: bool
    total: int
    fans: list[FanRow] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)
    payments: list[PaymentRow] = field(default_factory=list)
    error: error_texts.ErrorText | None = None
    doublings: int | None = None
    fan_count: int = 0


def _sets(notations: tuple[str, ...]) -> list[list[str]]:
    return [n.split("+") for n in notations]


def _wind_of(seat: str, winner_wind: str) -> str | None:
    """The seat's wind as the page's language writes it in one letter (东, O, E ...)."""
    if winner_wind not in WINDS or seat not in _SEAT_STEP:
        return None
    return str(WIND_LETTERS[WINDS[(WINDS.index(winner_wind) + _SEAT_STEP[seat]) % 4]])


def present(result: ScoreResult, question: Question, hand: str) -> ScoredHand:
    """A core result as the page shows it (names, links, reasons, seats)."""
    lang = get_language() or "ru"
    names = fan_name_map(result.rules, lang)
    rules = result.rules if result.rules in RULES else question.rules

    def name(fid: str) -> str:
        return names.get(fid, fid)

    fans = [
        FanRow(f.id, name(f.id), fan_page_url(rules, f.id, lang), f.points, f.count,
               f.points * f.count, _sets(f.sets))
        for f in result.fans
    ]
    excluded = []
    for e in result.excluded:
        by = None if e.by == ACCOUNT_ONCE else e.by
        excluded.append(exclusion_text(
            name(e.id), name(by) if by else None, by is not None and implies(rules, by, e.id)
        ))
    winner_wind = str(question.context.get("seat", "E"))
    payments = [
        PaymentRow(seat, str(SEAT_NAMES.get(seat, seat)),
                   _wind_of(seat, winner_wind), amount)
        for seat, amount in sorted(
            (result.payments or {}).items(),
            key=lambda item: SEAT_ORDER.index(item[0]) if item[0] in SEAT_ORDER else 9,
        )
    ]
    error = error_texts.error_text(result.error, hand) if result.error else None
    return ScoredHand(
        result, result.ok, result.total, fans, excluded, payments, error,
        getattr(result, "doublings", None), sum(f.count for f in result.fans),
    )


@dataclass
class WaitRow:
    tile: str
    scored: ScoredHand
    query: str  # the question with this wait as the winning tile


@dataclass
class AnswerView:
    answer: Answer
    scored: ScoredHand | None = None
    waits: list[WaitRow] | None = None
    error: error_texts.ErrorText | None = None


def answer_view(a: Answer) -> AnswerView:
    q = a.question
    if a.waits is not None:
        error = error_texts.error_text(a.error, q.hand) if a.error else None
        return AnswerView(a, waits=[
            WaitRow(w.tile, present(w.result, q, q.hand + w.tile),
                    q.with_hand(q.hand + w.tile).query())
            for w in a.waits
        ], error=error)
    if a.result is not None:
        return AnswerView(a, scored=present(a.result, q, q.hand))
    return AnswerView(a)


# --- the form ------------------------------------------------------------------------------


@dataclass
class Choice:
    value: str
    label: str
    selected: bool = False


@dataclass
class OptionField:
    name: str
    label: str
    is_flag: bool
    checked: bool = False
    choices: list[Choice] = field(default_factory=list)


def _option_fields(q: Question, rules: str) -> list[OptionField]:
    given: dict[str, str] = {}
    for item in q.options:
        key, sep, value = item.partition("=")
        given[key.strip()] = value.strip() if sep else "1"
    out = []
    for opt in OPTIONS[rules]:
        label = option_name(opt.name)
        if opt.values is None:
            value = given.get(opt.name, "")
            out.append(OptionField(opt.name, label, True,
                                   checked=value.lower() in ("1", "true", "yes", "on")))
            continue
        current = given.get(opt.name, "")
        shown = list(opt.values)
        if len(shown) > 12:  # long ranges: the usual values, and the one asked for
            shown = sorted({*shown[:11], int(opt.default), *(
                [int(current)] if current.isdigit() and int(current) in opt.values else []
            )})
        choices = [Choice("", f"{opt.default}{in_parentheses(DEFAULT_WORD)}",
                          current in ("", str(opt.default)))]
        choices += [Choice(f"{opt.name}={v}", str(v), current == str(v))
                    for v in shown if v != opt.default]
        out.append(OptionField(opt.name, label, False, choices=choices))
    return out


def _form(q: Question) -> dict[str, Any]:
    rules = q.rules if q.rules in RULES else rulesets.DEFAULT_CODE
    ctx = q.context
    win = "self" if ctx.get("self_drawn") else str(ctx.get("from", ""))
    flowers = ctx.get("flowers", 0)
    # flowers named in the URL (f1,s2) stay named: an option of their own, selected, so
    # that the box shows how many and Count sends them again
    named = tuple(flowers) if isinstance(flowers, (tuple, list)) else ()
    flower_choices = [Choice(str(n), str(n), not named and flowers == n) for n in range(9)]
    if named:
        flower_choices.insert(
            min(len(named), 8) + 1,
            Choice(",".join(named), f"{len(named)} ({', '.join(named)})", True),
        )
    return {
        "rules": rules,
        "rules_choices": [
            Choice(r.code, str(r.short_name), r.code == rules) for r in rulesets.RULESETS
        ],
        "rules_name": rulesets.ruleset(rules).name,
        "win_choices": [Choice(k, str(v), k == win) for k, v in WIN_NAMES.items()],
        "win_unknown": not win,
        "seat_choices": [Choice(w, str(WIND_NAMES[w]), ctx.get("seat", "E") == w)
                         for w in WINDS],
        "prevalent_choices": [
            Choice(w, str(WIND_NAMES[w]), ctx.get("prevalent", "E") == w)
            for w in WINDS
        ],
        "flowers_count": len(named) if named else flowers if isinstance(flowers, int) else 0,
        "flower_choices": flower_choices,
        "flags": [
            {"name": f, "label": str(FLAG_NAMES[f]), "checked": ctx.get(f) is True}
            for f in FLAGS[rules]
        ],
        "players_choices": [Choice(str(n), str(n), ctx.get("players", 4) == n)
                            for n in PLAYERS[rules]],
        "liable_choices": [Choice(k, str(SEAT_NAMES[k]), ctx.get("liable") == k)
                           for k in ("left", "opposite", "right")],
        "options": _option_fields(q, rules),
        "options_given": bool(q.options),
        "all_rules": {
            r: {"flags": list(FLAGS[r]), "players": len(PLAYERS[r]) > 1} for r in RULES
        },
    }


def palette() -> list[dict[str, Any]]:
    suits = [
        ("m", [tile_name(t) for t in range(0, 9)]),
        ("p", [tile_name(t) for t in range(9, 18)]),
        ("s", [tile_name(t) for t in range(18, 27)]),
        ("z", [tile_name(t) for t in (*WIND_TILES, *DRAGONS)]),
        ("f", [tile_name(t) for t in BONUS_TILES]),
    ]
    assert sum(len(row) for _, row in suits[:4]) == NUM_KINDS
    return [
        {"suit": suit, "tiles": [{"token": t, "label": tile_label(t)} for t in row]}
        for suit, row in suits
    ]


@require_safe
def calculator(request: HttpRequest) -> HttpResponse:
    q = question_from_query(request.GET)
    canonical = q.query()
    partial = request.GET.get("partial") == "1"
    if "form" in request.GET and not partial:
        # the plain form (no JavaScript) was sent: show the question's canonical URL
        return HttpResponseRedirect(f"{request.path}?{canonical}")
    view = answer_view(answer(q))
    context = {
        "question": q,
        "view": view,
        "query": canonical,
        "form": _form(q),
        "palette": palette(),
    }
    if partial:
        response = render(request, "rulebook/calculator_answer.html", context)
        response["X-Calculator-Query"] = canonical
    else:
        response = render(request, "rulebook/calculator.html", context)
    response["Cache-Control"] = "no-cache"
    return response
