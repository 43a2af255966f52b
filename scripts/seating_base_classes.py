"""Find the base classes of the cyclic seating designs in ``tournaments/rules/seating_designs.py``.

A design for ``n`` players and ``m`` sessions: the players are ``Z_m x {0, 1, 2}`` (3m of
them) and ``k = n - 3m`` fixed players. The base class is session 0: ``k`` tables of one fixed
player and three others, one from each level, and tables of four others. Session ``t`` adds
``t`` (mod m) to every non-fixed player. Two players meet at most once over the m sessions
when every "difference" (level, level, residue difference) is covered by at most one pair of
the base class; a difference of m/2 inside one level would meet twice and is refused.

    .venv/bin/python scripts/seating_base_classes.py 32 10 [--seed 1] [--tries 200000]

Prints the base class (tables of (residue, level) pairs, the fixed player as None).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tournaments.rules.seating_designs import develop, repeats  # pure: no Django

Point = tuple[int, int]  # (residue, level)


HALF = False  # --half: a difference of m/2 inside a level may be used (once per level)


def diff_key(a: Point, b: Point, m: int) -> tuple[int, int, int] | None:
    (ra, la), (rb, lb) = a, b
    if la > lb or (la == lb and ra > rb):
        (ra, la), (rb, lb) = (rb, lb), (ra, la)
    d = (rb - ra) % m
    if la == lb:
        d = min(d, m - d)
        if d == 0 or (2 * d == m and not HALF):
            return None
    return (la, lb, d)


def search(n: int, m: int, rng: random.Random, budget: int) -> list[list[Point | None]] | None:
    k = n - 3 * m
    if k < 0 or (3 * m - 3 * k) % 4:
        return None
    points = [(r, lv) for lv in range(3) for r in range(m)]
    used_points: set[Point] = set()
    used_keys: set[tuple[int, int, int]] = set()
    blocks: list[list[Point | None]] = []
    steps = 0

    def fits(block: list[Point], p: Point) -> list[tuple[int, int, int]] | None:
        keys = []
        for q in block:
            key = diff_key(q, p, m)
            if key is None or key in used_keys or key in keys:
                return None
            keys.append(key)
        return keys

    def extend(block: list[Point], size: int, levels: bool) -> bool:
        nonlocal steps
        steps += 1
        if steps > budget:
            return False
        if len(block) == size:
            blocks.append([None, *block] if levels else list(block))
            ok = place()
            if not ok:
                blocks.pop()
            return ok
        if levels:
            candidates = [p for p in points if p[1] == len(block) and p not in used_points]
        else:
            candidates = [p for p in points if p not in used_points
                          and (not block or p > block[-1])]
        rng.shuffle(candidates)
        for p in candidates:
            keys = fits(block, p)
            if keys is None:
                continue
            used_points.add(p)
            used_keys.update(keys)
            block.append(p)
            if extend(block, size, levels):
                return True
            block.pop()
            used_points.discard(p)
            used_keys.difference_update(keys)
        return False

    def place() -> bool:
        fixed = sum(1 for b in blocks if b[0] is None)
        if fixed < k:
            return extend([], 3, True)
        free = [p for p in points if p not in used_points]
        if not free:
            return True
        first = free[0]
        used_points.add(first)
        ok = extend([first], 4, False)
        if not ok:
            used_points.discard(first)
        return ok

    return blocks if place() else None


def check(blocks: list[list[Point | None]], n: int, m: int) -> int:
    """Meetings beyond the first over the m developed sessions (0 for a repeat-free base
    class), the sessions developed as the site does."""
    return repeats(develop([blocks], n, m))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("players", type=int)
    parser.add_argument("sessions", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tries", type=int, default=200000)
    parser.add_argument("--restarts", type=int, default=1000)
    parser.add_argument("--half", action="store_true",
                        help="allow a difference of m/2 inside a level: such a pair meets "
                             "twice (m/2 repeat pairs), for sizes past the repeat-free ones")
    args = parser.parse_args()
    global HALF
    HALF = args.half
    for restart in range(args.restarts):
        rng = random.Random(args.seed * 100003 + restart)
        blocks = search(args.players, args.sessions, rng, args.tries)
        if blocks is not None:
            print(f"found after {restart + 1} restart(s); repeats {check(blocks, args.players, args.sessions)}")
            print(blocks)
            return
    print("not found")
    sys.exit(1)


if __name__ == "__main__":
    main()
