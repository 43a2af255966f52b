"""Complete searches for the base sessions of cyclic seating designs (exact cover).

A repeat-free draw of 32 players over 10 sessions (the social golfer problem 8-4-10) seats
each player with 30 of the 31 others: the pairs that never meet are a perfect matching. Two
symmetric shapes are decided here; both are exact-cover problems (every player once in each
base session, every allowed "difference" once), solved by Knuth's Algorithm X with the item
of fewest options first, so "no solution" is a proof for that shape.

``one-base N S``: players ``Z_S x {0, 1, 2}`` and ``k = N - 3S`` fixed players, one base
session developed mod S (the shape of ``scripts/seating_base_classes.py``). Every in-level
difference but S/2 and every mixed difference must be covered exactly once, which needs as
many pairs in the base session as differences (true for 32 x 10 and 28 x 9). The first fixed
player's table is ``(0, 0), (0, 1), (0, 2)`` (translate each level); the second one's is taken
up to permutations of the levels, multiplication by a unit and the exchange of the two fixed
players (these keep the first table and map solutions to solutions).

    .venv/bin/python scripts/seating_exact_bases.py one-base 32 10   # no solution (~3 min of CPU)
    .venv/bin/python scripts/seating_exact_bases.py one-base 28 9    # found (~30 s)

``two-base``: 32 players as ``Z_5 x {0..5}`` and 2 fixed players, two base sessions each
developed mod 5. The unmet pairs are the fixed players and, after relabelling, ``(x, 0)``
with ``(x, 1)``, ``(x, 2)`` with ``(x, 3)``, ``(x, 4)`` with ``(x, 5)`` (in-level
differences of Z_5 cannot be a matching). Each fixed player sits with three levels in one
base session and the other three in the other. Without more symmetry the search gave no
answer in over half an hour; so each base session is asked to be invariant under ``mu(r, l)
= (-r, lam(l))`` for an involution ``lam`` of the levels that keeps the matching, ``mu``
fixing the fixed players or exchanging them. An option is then an orbit of tables under
``mu``. The default ``lam`` (swap levels 0 and 1, 2 and 3, in both base sessions; fixed
players kept) gives the design in ``tournaments/rules/seating_designs.py``; ``--all`` tries the
pairs of classes of ``lam`` (one per base session) with both behaviours of the fixed players
in turn, and stops at the first that has a solution: every case before it has none.

    .venv/bin/python scripts/seating_exact_bases.py two-base [--all]

Prints the base sessions in the form of ``CYCLIC_BASES`` (the fixed players as None) and
checks them by developing every session.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Hashable, Iterator
from itertools import combinations, permutations
from math import gcd
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tournaments.rules.seating_designs import develop, repeats  # pure: no Django

Point = tuple[int, int]  # (residue, level)
Triple = tuple[int, int, int]
Item = Hashable
Name = tuple[Any, ...]  # an option's name: what it places
Options = dict[Name, list[Item]]


def exact_cover(options: Options) -> tuple[Iterator[list[Name]], list[int]]:
    """Algorithm X over ``options`` (name -> items, every item to be covered exactly once):
    the solutions as they are found, and a one-element list counting the search nodes. The
    options are tried in the order given, so the search is the same on every run."""
    names = list(options)
    rows = [list(options[name]) for name in names]
    columns: dict[Item, set[int]] = {}
    for row, items in enumerate(rows):
        for item in items:
            columns.setdefault(item, set()).add(row)
    nodes = [0]

    def select(row: int) -> list[set[int]]:
        removed = []
        for item in rows[row]:
            for other in columns[item]:
                for other_item in rows[other]:
                    if other_item != item:
                        columns[other_item].discard(other)
            removed.append(columns.pop(item))
        return removed

    def deselect(row: int, removed: list[set[int]]) -> None:
        for item in reversed(rows[row]):
            columns[item] = removed.pop()
            for other in columns[item]:
                for other_item in rows[other]:
                    if other_item != item:
                        columns[other_item].add(other)

    def solve(chosen: list[int]) -> Iterator[list[Name]]:
        nodes[0] += 1
        if not columns:
            yield [names[row] for row in chosen]
            return
        item = min(columns, key=lambda c: len(columns[c]))
        for row in sorted(columns[item]):
            chosen.append(row)
            removed = select(row)
            yield from solve(chosen)
            deselect(row, removed)
            chosen.pop()

    return solve([]), nodes


def difference(a: Point, b: Point, m: int) -> tuple[int, int, int] | None:
    """The orbit of the pair {a, b} under adding the same residue to both: (level, level,
    residue difference), in-level differences taken up to sign; None for a pair that the
    development would seat together twice (difference m/2 inside a level) or not at all."""
    (ra, la), (rb, lb) = a, b
    if la > lb or (la == lb and ra > rb):
        (ra, la), (rb, lb) = (rb, lb), (ra, la)
    d = (rb - ra) % m
    if la == lb:
        d = min(d, m - d)
        if d == 0 or 2 * d == m:
            return None
    return (la, lb, d)


def differences(tables: list[tuple[Point, ...]], m: int,
                forbidden: frozenset[tuple[int, int, int]] = frozenset()
                ) -> list[tuple[int, int, int]] | None:
    """The differences of the pairs at ``tables``, or None if one is refused or repeated."""
    out = []
    for table in tables:
        for a, b in combinations(table, 2):
            key = difference(a, b, m)
            if key is None or key in forbidden:
                return None
            out.append(key)
    return out if len(set(out)) == len(out) else None


def report(bases: list[list[list[Point | None]]], m: int, players: int) -> bool:
    """Develops the base sessions as the site does (tournaments.rules.seating_designs.develop),
    checks that each session seats every player once, and prints the pairs met."""
    sessions = develop(bases, players, m)
    met: set[tuple[int, int]] = set()
    for tables in sessions:
        seated = sorted(p for table in tables for p in table)
        if seated != list(range(players)):
            print("a session does not seat every player once")
            return False
        for table in tables:
            met.update(combinations(sorted(table), 2))
    extra = repeats(sessions)
    print(f"{len(sessions)} sessions, {len(met)} pairs meet, meetings beyond the first "
          f"{extra}, pairs never met {players * (players - 1) // 2 - len(met)}")
    print(bases)
    return extra == 0


# --- one base session over Z_m x {0, 1, 2} ---------------------------------------------------

def one_base_options(n: int, m: int) -> Options | None:
    k = n - 3 * m
    if k < 1 or (3 * m - 3 * k) % 4:
        return None
    points = [(r, lv) for lv in range(3) for r in range(m)]
    keys = {difference(a, b, m) for a, b in combinations(points, 2)} - {None}
    if 3 * k + 6 * ((3 * m - 3 * k) // 4) != len(keys):
        print("not an exact cover: the base session has not as many pairs as differences")
        return None
    units = [u for u in range(1, m) if gcd(u, m) == 1]

    def canonical(t: Triple) -> Triple:
        seen, todo = {t}, [t]
        while todo:
            a = todo.pop()
            images: list[Triple] = [(a[i], a[j], a[k]) for i, j, k in permutations(range(3))]
            images += [(u * a[0] % m, u * a[1] % m, u * a[2] % m) for u in units]
            # exchange the fixed players, then translate each level back: t -> -t
            images.append((-a[0] % m, -a[1] % m, -a[2] % m))
            for b in images:
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        return min(seen)

    options: Options = {}
    for f in range(k):
        if f == 0:
            triples: list[Triple] = [(0, 0, 0)]
        else:
            triples = [(a, b, c) for a in range(m) for b in range(m) for c in range(m)]
            if f == 1 and k == 2:
                triples = sorted({canonical(t) for t in triples if 0 not in t})
        for t in triples:
            table = ((t[0], 0), (t[1], 1), (t[2], 2))
            keys_here = differences([table], m)
            if keys_here is not None:
                options[("fixed", f, t)] = [("slot", f), *table, *keys_here]
    for block in combinations(points, 4):
        keys_here = differences([block], m)
        if keys_here is not None:
            options[("table", block)] = [*block, *keys_here]
    return options


def one_base(n: int, m: int) -> int:
    options = one_base_options(n, m)
    if options is None:
        return 2
    start = time.perf_counter()
    solutions, nodes = exact_cover(options)
    found = next(solutions, None)
    print(f"{len(options)} options, {nodes[0]} nodes, {time.perf_counter() - start:.1f} s")
    if found is None:
        print(f"no base session: {n} players x {m} sessions has no design of this shape")
        return 1
    base: list[list[Point | None]] = []
    for name in sorted(found, key=repr):
        if name[0] == "fixed":
            t = name[2]
            base.append([None, (t[0], 0), (t[1], 1), (t[2], 2)])
        else:
            base.append(list(name[1]))
    return 0 if report([base], m, n) else 1


# --- two base sessions over Z_5 x {0..5}, each invariant under mu --------------------------

UNMET = frozenset({(0, 1, 0), (2, 3, 0), (4, 5, 0)})
# Involutions of the six levels that keep the pairs {0, 1}, {2, 3}, {4, 5}, one of each class.
LAMBDAS = {
    "id": (0, 1, 2, 3, 4, 5), "(01)": (1, 0, 2, 3, 4, 5), "(01)(23)": (1, 0, 3, 2, 4, 5),
    "(01)(23)(45)": (1, 0, 3, 2, 5, 4), "(02)(13)": (2, 3, 0, 1, 4, 5),
    "(02)(13)(45)": (2, 3, 0, 1, 5, 4),
}


def two_base_options(lams: tuple[tuple[int, ...], ...], swaps: tuple[bool, bool]) -> Options:
    m = 5
    points = [(r, lv) for lv in range(6) for r in range(m)]
    options: Options = {}
    for s in range(2):
        lam = lams[s]

        def image(table: tuple[Point, ...], lam: tuple[int, ...] = lam) -> tuple[Point, ...]:
            return tuple(sorted((-r % m, lam[lv]) for r, lv in table))

        for triple in combinations(points, 3):
            table = tuple(sorted(triple))
            if len({lv for _, lv in table}) < 3:
                continue
            other = image(table)
            if swaps[s]:  # mu exchanges the fixed players: their tables are images
                if set(table) & set(other):
                    continue
                keys = differences([table, other], m, UNMET)
                if keys is None:
                    continue
                for f in range(2):
                    options[("fixed", s, f, table, other)] = [
                        ("slot", s, 0), ("slot", s, 1), *((s, p) for p in table + other),
                        *keys, *(("level", f, lv) for _, lv in table),
                        *(("level", 1 - f, lv) for _, lv in other)]
            elif other == table:
                keys = differences([table], m, UNMET)
                if keys is not None:
                    for f in range(2):
                        options[("fixed", s, f, table)] = [
                            ("slot", s, f), *((s, p) for p in table), *keys,
                            *(("level", f, lv) for _, lv in table)]
        for quad in combinations(points, 4):
            table = tuple(sorted(quad))
            other = image(table)
            if other == table:
                tables = [table]
            elif set(other) & set(table) or other < table:
                continue
            else:
                tables = [table, other]
            keys = differences(tables, m, UNMET)
            if keys is not None:
                options[("tables", s, tuple(tables))] = [
                    *((s, p) for t in tables for p in t), *keys]
    return options


def two_base_bases(found: list[Name]) -> list[list[list[Point | None]]]:
    bases: list[list[list[Point | None]]] = []
    for s in range(2):
        fixed: dict[int, tuple[Point, ...]] = {}
        tables: list[tuple[Point, ...]] = []
        for name in found:
            if name[1] != s:
                continue
            if name[0] == "fixed":
                fixed[name[2]] = name[3]
                if len(name) == 5:
                    fixed[1 - name[2]] = name[4]
            else:
                tables.extend(name[2])
        bases.append([[None, *fixed[f]] for f in range(2)]
                     + [list(t) for t in sorted(tables)])
    return bases


def two_base(try_all: bool) -> int:
    names = list(LAMBDAS)
    cases = ([(a, b, sa, sb) for i, a in enumerate(names) for b in names[i:]
              for sa in (False, True) for sb in (False, True)]
             if try_all else [("(01)(23)", "(01)(23)", False, False)])
    for a, b, sa, sb in cases:
        options = two_base_options((LAMBDAS[a], LAMBDAS[b]), (sa, sb))
        start = time.perf_counter()
        solutions, nodes = exact_cover(options)
        found = next(solutions, None)
        print(f"lam {a} {'swaps' if sa else 'keeps'} / {b} {'swaps' if sb else 'keeps'}: "
              f"{'found' if found else 'none'}, {nodes[0]} nodes, "
              f"{time.perf_counter() - start:.1f} s", flush=True)
        if found is not None:
            return 0 if report(two_base_bases(found), 5, 32) else 1
    print("no base sessions of this shape")
    return 1


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="shape", required=True)
    one = sub.add_parser("one-base")
    one.add_argument("players", type=int)
    one.add_argument("sessions", type=int)
    two = sub.add_parser("two-base")
    two.add_argument("--all", action="store_true",
                     help="try the classes of lam in turn, up to the first with a solution")
    args = parser.parse_args()
    if args.shape == "one-base":
        sys.exit(one_base(args.players, args.sessions))
    sys.exit(two_base(args.all))


if __name__ == "__main__":
    main()
