"""Random complete hands with win conditions (seedable), for tests and benchmarks."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .arrange import KNITTED_PATTERNS
from .hand import CHOW, KONG, PUNG, Hand, Meld
from .tiles import TERMINALS_AND_HONOURS, WIND_NAMES, Tile


@dataclass(frozen=True, slots=True)
class GeneratedHand:
    hand: Hand
    context: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return self.hand.notation()


def _pick_tiles(rng: random.Random, theme: int) -> list[Tile]:
    """The tile pool of a theme: 0 any, 1 one suit (+ honours), 2 honours heavy,
    3 terminals/honours, 4 two suits."""
    if theme == 1:
        s = rng.randrange(3)
        pool = list(range(9 * s, 9 * s + 9))
        if rng.random() < 0.5:
            pool += list(range(27, 34))
        return pool
    if theme == 2:
        return list(range(27, 34)) + rng.sample(range(27), 6)
    if theme == 3:
        return list(TERMINALS_AND_HONOURS)
    if theme == 4:
        a, b = rng.sample(range(3), 2)
        return list(range(9 * a, 9 * a + 9)) + list(range(9 * b, 9 * b + 9))
    return list(range(34))


def _standard(rng: random.Random) -> tuple[list[Meld], list[Tile]] | None:
    counts = [0] * 34
    theme = rng.choice((0, 0, 0, 1, 1, 2, 3, 4))
    pool = _pick_tiles(rng, theme)
    n_melds = rng.choice((0, 0, 1, 1, 2, 2, 3, 4))
    sets: list[tuple[str, Tile]] = []
    tries = 0
    chow_bias = rng.random()
    while len(sets) < 4:
        tries += 1
        if tries > 60:
            return None
        t = rng.choice(pool)
        r = rng.random()
        if t < 27 and t % 9 <= 6 and r < chow_bias:
            if t + 2 not in pool and theme != 0:
                continue
            if any(counts[x] >= 4 for x in (t, t + 1, t + 2)):
                continue
            sets.append((CHOW, t))
            for x in (t, t + 1, t + 2):
                counts[x] += 1
        elif r < chow_bias + (1 - chow_bias) * 0.8 or len(sets) >= 4:
            if counts[t] > 1:
                continue
            sets.append((PUNG, t))
            counts[t] += 3
        else:
            if counts[t] > 0:
                continue
            sets.append((KONG, t))
            counts[t] += 4
    pair_tiles = [t for t in pool if counts[t] <= 2]
    if not pair_tiles:
        return None
    p = rng.choice(pair_tiles)
    counts[p] += 2
    rng.shuffle(sets)
    kongs = [s for s in sets if s[0] == KONG]
    others = [s for s in sets if s[0] != KONG]
    melds: list[Meld] = []
    for _kind, t in kongs:
        r = rng.random()
        if r < 0.4:
            melds.append(Meld(KONG, t, concealed=True))
        elif r < 0.8:
            melds.append(Meld(KONG, t, claimed=rng.randint(1, 3)))
        else:
            melds.append(Meld(KONG, t, claimed=rng.randint(1, 3), promoted=True))
    extra = max(0, n_melds - len(melds))
    concealed: list[Tile] = []
    for kind, t in others:
        if extra > 0:
            extra -= 1
            melds.append(Meld(kind, t, claimed=rng.randint(1, 3)))  # type: ignore[arg-type]
        elif kind == CHOW:
            concealed += [t, t + 1, t + 2]
        else:
            concealed += [t] * 3
    concealed += [p, p]
    return melds, concealed


def _special(rng: random.Random) -> list[Tile] | None:
    kind = rng.random()
    if kind < 0.35:  # seven pairs
        theme = rng.choice((0, 1, 1, 3))
        pool = _pick_tiles(rng, theme)
        tiles: list[Tile] = []
        counts = [0] * 34
        if rng.random() < 0.2:
            s = rng.randrange(3)
            start = rng.randint(0, 2)
            return [9 * s + start + k for k in range(7) for _ in range(2)]
        while len(tiles) < 14:
            t = rng.choice(pool)
            if counts[t] <= 2:
                counts[t] += 2
                tiles += [t, t]
        return tiles
    if kind < 0.5:  # thirteen orphans
        tiles = list(TERMINALS_AND_HONOURS)
        tiles.append(rng.choice(TERMINALS_AND_HONOURS))
        return tiles
    pattern = list(rng.choice(KNITTED_PATTERNS))
    if kind < 0.75:  # honours and knitted tiles
        honours = list(range(27, 34))
        n_h = rng.choice((5, 6, 7))
        suited = rng.sample(pattern, 14 - n_h)
        return suited + rng.sample(honours, n_h)
    # knitted straight + set + pair (concealed)
    counts = [0] * 34
    for t in pattern:
        counts[t] += 1
    rest: list[Tile] = []
    while True:
        t = rng.randrange(34)
        group = [t, t + 1, t + 2] if rng.random() < 0.5 and t < 27 and t % 9 <= 6 else [t] * 3
        if all(counts[g] + group.count(g) <= 4 for g in group):
            for g in group:
                counts[g] += 1
            rest += group
            break
    while True:
        p = rng.randrange(34)
        if counts[p] <= 2:
            rest += [p, p]
            break
    return pattern + rest


def random_hand(rng: random.Random) -> GeneratedHand:
    """A complete hand and a consistent win context."""
    while True:
        melds: list[Meld]
        if rng.random() < 0.12:
            special = _special(rng)
            if special is None:
                continue
            melds, concealed = [], special
        else:
            std = _standard(rng)
            if std is None:
                continue
            melds, concealed = std
        rng.shuffle(concealed)
        win = concealed.pop()
        hand = Hand(tuple(melds), tuple(sorted(concealed)), win)
        return GeneratedHand(hand, random_context(rng, hand))


def random_context(rng: random.Random, hand: Hand) -> dict[str, Any]:
    ctx: dict[str, Any] = {}
    self_drawn = rng.random() < 0.4
    if self_drawn:
        ctx["self_drawn"] = True
    else:
        ctx["from"] = rng.choice(("left", "opposite", "right"))
    ctx["seat"] = rng.choice(WIND_NAMES)
    ctx["prevalent"] = rng.choice(WIND_NAMES)
    if rng.random() < 0.3:
        ctx["flowers"] = rng.randint(1, 8)
    all_tiles = hand.all_tiles
    in_hand = all_tiles.count(hand.win_tile)
    if rng.random() < 0.08 or (in_hand == 4 and rng.random() < 0.3):
        ctx["last_of_kind"] = True
    if rng.random() < 0.06:
        ctx["last_tile"] = True
    has_kong = any(m.kind == KONG for m in hand.melds)
    if self_drawn and has_kong and rng.random() < 0.15 and not ctx.get("last_tile"):
        ctx["kong_replacement"] = True
    if not self_drawn and in_hand == 1 and rng.random() < 0.08 and not ctx.get("last_tile"):
        ctx["robbing_kong"] = True
    return ctx


def random_hands(n: int, seed: int = 0) -> list[GeneratedHand]:
    rng = random.Random(seed)
    return [random_hand(rng) for _ in range(n)]
