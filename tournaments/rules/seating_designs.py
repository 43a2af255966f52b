"""Repeat-free seating designs: sessions of tables of four in which no two players meet
twice. Pure: no Django. Used by ``tournaments.rules.seating_draw`` as the start of its search.

Two constructions (see docs/decisions/0714-seating-designs.md):

- **Resolvable transversal designs.** Players are ``(row, column)`` with 4 rows and ``g``
  columns (``n = 4g``), the columns taken in a ring ``R`` of ``g`` elements with four
  "multipliers" ``m0..m3`` whose differences are invertible. Session ``s`` (an element of
  ``R``) seats at table ``t`` the players ``(r, t + m_r * s)``. Two players of different rows
  meet in exactly one session, players of one row never meet: ``g`` sessions without a repeat.
  ``R`` is a product of finite fields GF(q), q >= 4 (``Z_q`` for q prime to 6, GF(2^k) and
  GF(3^k) from their polynomials), so ``g`` must have no factor 2 or 3 alone (4, 5, 7, 8, 9,
  11, 13, 16, 20, 25, 28, ...). When ``g`` is a multiple of 4, one more session seats each
  row in tables of its own (16 players: the affine plane of order 4, 5 sessions).
- **Cyclic designs with fixed players.** Players are ``Z_m x L`` (L levels) and ``n - L*m``
  fixed players; each base session below gives m sessions, session ``t`` of it adding ``t``
  (mod m) to every residue. With one base session, ``m`` is the number of sessions and
  ``L = 3``; those were found by ``scripts/seating_base_classes.py`` (a search over
  differences: every difference is covered at most once, so no pair meets twice in the m
  sessions). 32 players over 10 sessions take two base sessions over ``Z_5 x 6 levels`` and
  2 fixed players, found by the complete search of ``scripts/seating_exact_bases.py``: every
  pair meets once except 16 disjoint pairs (the fixed players, and ``(x, 0)`` with
  ``(x, 1)``, ``(x, 2)`` with ``(x, 3)``, ``(x, 4)`` with ``(x, 5)``), the social golfer
  problem 8-4-10.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

Schedule = list[list[list[int]]]

# Irreducible polynomials (coefficients, lowest degree first, monic) of the fields GF(p^k)
# used for columns when g is a power of 2 or 3.
_POLYNOMIALS: dict[tuple[int, int], tuple[int, ...]] = {
    (2, 2): (1, 1, 1),  # x^2 + x + 1
    (2, 3): (1, 1, 0, 1),  # x^3 + x + 1
    (2, 4): (1, 1, 0, 0, 1),  # x^4 + x + 1
    (2, 5): (1, 0, 1, 0, 0, 1),  # x^5 + x^2 + 1
    (3, 2): (1, 0, 1),  # x^2 + 1
    (3, 3): (1, 2, 0, 1),  # x^3 + 2x + 1
}

# Base sessions of the cyclic designs: (players, sessions) -> base sessions, each a list of
# tables of (residue, level), a fixed player written None (the i-th None of every base session
# is the same fixed player). The modulus is sessions / number of base sessions.
Point = tuple[int, int]
CYCLIC_BASES: dict[tuple[int, int], list[list[list[Point | None]]]] = {
    (24, 7): [[
        [None, (1, 0), (5, 1), (0, 2)], [None, (6, 0), (1, 1), (6, 2)],
        [None, (2, 0), (0, 1), (4, 2)], [(0, 0), (1, 2), (4, 0), (5, 0)],
        [(3, 0), (3, 1), (4, 1), (6, 1)], [(2, 1), (2, 2), (3, 2), (5, 2)],
    ]],
    (28, 8): [[
        [None, (6, 0), (3, 1), (4, 2)], [None, (5, 0), (0, 1), (0, 2)],
        [None, (3, 0), (7, 1), (3, 2)], [None, (2, 0), (2, 1), (1, 2)],
        [(0, 0), (1, 0), (2, 2), (5, 2)], [(4, 0), (5, 1), (6, 1), (7, 0)],
        [(1, 1), (4, 1), (6, 2), (7, 2)],
    ]],
    (36, 10): [[
        [None, (8, 0), (2, 1), (1, 2)], [None, (3, 0), (5, 1), (9, 2)],
        [None, (7, 0), (3, 1), (4, 2)], [None, (6, 0), (6, 1), (6, 2)],
        [None, (5, 0), (4, 1), (0, 2)], [None, (4, 0), (9, 1), (2, 2)],
        [(0, 0), (1, 1), (7, 1), (8, 1)], [(1, 0), (2, 0), (3, 2), (9, 0)],
        [(0, 1), (5, 2), (7, 2), (8, 2)],
    ]],
    (40, 11): [[
        [None, (7, 0), (4, 1), (3, 2)], [None, (2, 0), (9, 1), (0, 2)],
        [None, (6, 0), (5, 1), (5, 2)], [None, (10, 0), (8, 1), (1, 2)],
        [None, (3, 0), (7, 1), (4, 2)], [None, (8, 0), (10, 1), (2, 2)],
        [None, (9, 0), (1, 1), (6, 2)], [(0, 0), (1, 0), (5, 0), (6, 1)],
        [(4, 0), (7, 2), (8, 2), (10, 2)], [(0, 1), (2, 1), (3, 1), (9, 2)],
    ]],
    # Z_5 x 6 levels and 2 fixed players, two base sessions (5 sessions each), each one
    # mapped to itself by (r, l) -> (-r, l') where l' swaps levels 0 and 1, 2 and 3 (the fixed
    # players keep their tables); printed by `scripts/seating_exact_bases.py two-base`.
    (32, 10): [[
        [None, (0, 4), (1, 0), (4, 1)], [None, (0, 5), (2, 2), (3, 3)],
        [(0, 0), (1, 4), (2, 3), (3, 0)], [(0, 1), (2, 1), (3, 2), (4, 4)],
        [(0, 2), (1, 2), (2, 5), (4, 0)], [(0, 3), (1, 1), (3, 5), (4, 3)],
        [(1, 3), (2, 4), (3, 4), (4, 2)], [(1, 5), (2, 0), (3, 1), (4, 5)],
    ], [
        [None, (0, 5), (1, 2), (4, 3)], [None, (0, 4), (2, 1), (3, 0)],
        [(0, 0), (1, 0), (1, 3), (1, 5)], [(0, 1), (4, 1), (4, 2), (4, 5)],
        [(0, 2), (2, 0), (2, 2), (2, 4)], [(0, 3), (3, 1), (3, 3), (3, 4)],
        [(1, 1), (2, 3), (3, 2), (4, 0)], [(1, 4), (2, 5), (3, 5), (4, 4)],
    ]],
}


class _Field:
    """GF(p^k) on the integers 0..p^k-1 (base-p digits = polynomial coefficients), or Z_q
    for q prime to 6 (``k = 0``: plain arithmetic mod q)."""

    def __init__(self, p: int, k: int) -> None:
        self.p, self.k = p, k
        self.size = p**k if k else p
        if k:
            self.poly = _POLYNOMIALS[(p, k)]

    def add(self, a: int, b: int) -> int:
        if not self.k:
            return (a + b) % self.size
        out, place = 0, 1
        for _ in range(self.k):
            out += ((a % self.p + b % self.p) % self.p) * place
            a, b, place = a // self.p, b // self.p, place * self.p
        return out

    def mul(self, a: int, b: int) -> int:
        if not self.k:
            return (a * b) % self.size
        x = [(a // self.p**i) % self.p for i in range(self.k)]
        y = [(b // self.p**i) % self.p for i in range(self.k)]
        prod = [0] * (2 * self.k - 1)
        for i, xi in enumerate(x):
            for j, yj in enumerate(y):
                prod[i + j] = (prod[i + j] + xi * yj) % self.p
        for d in range(len(prod) - 1, self.k - 1, -1):  # reduce by the monic polynomial
            c = prod[d]
            if c:
                for i, pc in enumerate(self.poly):
                    prod[d - self.k + i] = (prod[d - self.k + i] - c * pc) % self.p
        return sum(prod[i] * self.p**i for i in range(self.k))


def _fields(g: int) -> list[_Field] | None:
    """The fields whose product has ``g`` elements and four elements with invertible
    differences, or None."""
    out: list[_Field] = []
    rest = g
    for p in (2, 3):
        k = 0
        while rest % p == 0:
            rest //= p
            k += 1
        if k == 1 or (k and (p, k) not in _POLYNOMIALS):
            return None
        if k:
            out.append(_Field(p, k))
    if rest > 1:
        out.append(_Field(rest, 0))  # rest is prime to 6: 0, 1, 2, 3 have unit differences
    return out or None


def transversal_design(n: int) -> Schedule | None:
    """The resolvable transversal design for ``n = 4g`` players (players 0..n-1, player
    ``r * g + c`` in row r), or None when ``g`` does not allow it."""
    if n % 4 or n < 16:
        return None
    g = n // 4
    fields = _fields(g)
    if fields is None:
        return None
    # An element of the ring: one integer per field, mixed radix.
    sizes = [f.size for f in fields]

    def split(x: int) -> list[int]:
        parts = []
        for size in sizes:
            parts.append(x % size)
            x //= size
        return parts

    def join(parts: list[int]) -> int:
        x, place = 0, 1
        for part, size in zip(parts, sizes, strict=True):
            x += part * place
            place *= size
        return x

    # Multipliers 0, 1, 2, 3 in Z_q; 0, 1, x, x + 1 in GF(p^k) (distinct, so differences
    # are non-zero, hence invertible in a field).
    def multiplier(r: int, f: _Field) -> int:
        return r if not f.k else (0, 1, f.p, f.p + 1)[r]

    sessions: Schedule = []
    for s in range(g):
        ss = split(s)
        tables = []
        for t in range(g):
            tt = split(t)
            table = []
            for r in range(4):
                col = join([f.add(tt[i], f.mul(multiplier(r, f), ss[i]))
                            for i, f in enumerate(fields)])
                table.append(r * g + col)
            tables.append(table)
        sessions.append(tables)
    if g % 4 == 0:
        sessions.append([[r * g + c for c in range(q, q + 4)]
                         for r in range(4) for q in range(0, g, 4)])
    return sessions


def transversal_rows(n: int) -> list[list[int]]:
    """The rows of ``transversal_design(n)``: players of one row never meet in its first g
    sessions."""
    g = n // 4
    return [list(range(r * g, (r + 1) * g)) for r in range(4)]


def cyclic_design(n: int, sessions: int) -> Schedule | None:
    """The cyclic design of ``CYCLIC_BASES`` for ``n`` players and ``sessions`` sessions,
    or None."""
    bases = CYCLIC_BASES.get((n, sessions))
    if bases is None:
        return None
    return develop(bases, n, sessions // len(bases))


def develop(bases: Sequence[Sequence[Sequence[tuple[int, int] | None]]], n: int,
            m: int) -> Schedule:
    """Each base session developed mod ``m``: session ``t`` of a base adds ``t`` to every
    residue. Players 0..n-1: ``(residue, level)`` is ``level * m + residue``, the fixed
    players (None) follow, numbered in their order in a base session."""
    fixed_count = sum(1 for block in bases[0] for p in block if p is None)
    first_fixed = n - fixed_count
    out: Schedule = []
    for base in bases:
        for t in range(m):
            tables, fixed = [], first_fixed
            for block in base:
                table = []
                for p in block:
                    if p is None:
                        table.append(fixed)
                        fixed += 1
                    else:
                        table.append(p[1] * m + (p[0] + t) % m)
                tables.append(table)
            out.append(tables)
    return out


def best_design(n: int, sessions: int) -> tuple[Schedule, list[list[int]]] | None:
    """The repeat-free design known here for ``n`` players (players 0..n-1) to start
    ``sessions`` sessions from: one with at least that many sessions (preferring one whose
    groups of players never meet, to seat team mates or compatriots in), else the longest;
    with those groups. None when there is none."""
    candidates: list[tuple[Schedule, list[list[int]]]] = []
    td = transversal_design(n)
    if td is not None:
        candidates.append((td[: n // 4], transversal_rows(n)))  # rows never meet here
        if len(td) > n // 4:
            candidates.append((td, []))
    for (players, count) in CYCLIC_BASES:
        if players == n:
            design = cyclic_design(n, count)
            if design is not None:
                candidates.append((design, []))
    if not candidates:
        return None
    return max(candidates,
               key=lambda c: (min(len(c[0]), sessions), len(c[1]) > 0, len(c[0])))


def repeats(schedule: Sequence[Sequence[Sequence[int]]]) -> int:
    """Meetings beyond the first of any pair (0 for a repeat-free design)."""
    seen: set[tuple[int, int]] = set()
    extra = 0
    for session in schedule:
        for table in session:
            for a, b in combinations(sorted(table), 2):
                if (a, b) in seen:
                    extra += 1
                seen.add((a, b))
    return extra
