"""Command-line calculator: ``python -m rulebook.scoring [options] HAND ...`` (JSON lines).

``-`` reads one hand per line from stdin; each line holds a hand followed by the same
options, shell-quoted. Exit status 0 unless the arguments themselves are unusable (2).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Sequence
from typing import Any

from .entry import score
from .tiles import WIND_NAMES


class _ArgError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:
        raise _ArgError(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m rulebook.scoring", description="Score mahjong hands (JSON out).")
    p.add_argument("hands", nargs="*", metavar="HAND", help="hand in MCR notation, or -")
    p.add_argument("--rules", default="mcr")
    p.add_argument("--self-drawn", action="store_true")
    p.add_argument("--from", dest="from_", choices=("left", "opposite", "right"))
    p.add_argument("--seat", choices=tuple(WIND_NAMES), default="E")
    p.add_argument("--prevalent", choices=tuple(WIND_NAMES), default="E")
    p.add_argument("--flowers", type=_flowers, default=0,
                   help="a number, or tiles f1-f4 s1-s4 separated by commas")
    p.add_argument("--last-of-kind", action="store_true")
    p.add_argument("--last-tile", action="store_true")
    p.add_argument("--kong-replacement", action="store_true")
    p.add_argument("--robbing-kong", action="store_true")
    p.add_argument("--waits", action="store_true", help="list the waits of a 13-tile hand")
    # HKOS / Red Mahjong (issue 4)
    p.add_argument("--players", type=int, choices=(2, 3, 4))
    p.add_argument("--liable", choices=("left", "opposite", "right"))
    p.add_argument("--option", dest="options", action="append", metavar="NAME[=VALUE]")
    for flag in _RULESET_FLAGS:
        p.add_argument("--" + flag.replace("_", "-"), dest=flag, action="store_true")
    return p


_RULESET_FLAGS = ("late_discard", "heavenly", "earthly", "first_round", "flower_replacement",
                  "double_fortune", "false_win")


def _flowers(text: str) -> int | tuple[str, ...]:
    if text.strip().isdigit():
        return int(text)
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _context(ns: argparse.Namespace) -> dict[str, Any]:
    ctx: dict[str, Any] = {"seat": ns.seat, "prevalent": ns.prevalent}
    if ns.self_drawn:
        ctx["self_drawn"] = True
    if ns.from_:
        ctx["from"] = ns.from_
    if ns.flowers:
        ctx["flowers"] = ns.flowers
    for key in ("last_of_kind", "last_tile", "kong_replacement", "robbing_kong"):
        if getattr(ns, key):
            ctx[key] = True
    if ns.waits:
        ctx["waits"] = True
    for key in ("players", "liable", "options"):
        if getattr(ns, key):
            ctx[key] = getattr(ns, key)
    for key in _RULESET_FLAGS:
        if getattr(ns, key):
            ctx[key] = True
    return ctx


def _score_line(hand: str, ns: argparse.Namespace) -> str:
    result = score(hand, rules=ns.rules, **_context(ns))
    return json.dumps(result.to_dict(), ensure_ascii=False)


def _stdin_line(line: str, parser: argparse.ArgumentParser, defaults: list[str]) -> str:
    try:
        ns = parser.parse_args([*defaults, *shlex.split(line)])
        if len(ns.hands) != 1 or ns.hands[0] == "-":
            raise _ArgError("each line holds exactly one hand")
    except (_ArgError, ValueError) as err:
        return json.dumps({
            "hand": line.strip(), "rules": None, "ok": False, "total": 0, "fans": [], "excluded": [],
            "payments": None,
            "error": {"code": "bad_arguments", "message": str(err), "position": None},
        })
    return _score_line(ns.hands[0], ns)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        ns = parser.parse_args(args)
    except _ArgError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if not ns.hands:
        print("error: no hand given (use - to read stdin)", file=sys.stderr)
        return 2
    out = sys.stdout
    for hand in ns.hands:
        if hand == "-":
            defaults = [a for a in args if a != "-"]
            defaults = [a for a in defaults if a not in ns.hands]
            for line in sys.stdin:
                if line.strip():
                    out.write(_stdin_line(line, parser, defaults) + "\n")
        else:
            out.write(_score_line(hand, ns) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
