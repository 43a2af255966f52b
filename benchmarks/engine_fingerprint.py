"""Fingerprint of the scoring engine's outputs, for refactoring the fast code safely.

    .venv/bin/python benchmarks/engine_fingerprint.py OUT.jsonl [N]

Writes one JSON line per call for N (default 30,000) generated hands from three seeds:
``score()`` (fast path), ``score_mcr_full`` (reference path), two non-default MCR
configurations, the fans of every arrangement (``alternatives``), the waits of the
thirteen standing tiles, HKOS and Red scoring of the same hands, and the same hands with
one tile changed (mostly not winning or invalid). Run it before and after a change to the
engine's speed-critical code and compare the files (``cmp``): a speed change must not
change a single line. The last line is a SHA-256 of all the others.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulebook.scoring import score
from rulebook.scoring.entry import score_mcr_full
from rulebook.scoring.generate import random_hands
from rulebook.scoring.hand import context_from, parse_hand
from rulebook.scoring.mcr.config import MCRConfig
from rulebook.scoring.mcr.evaluate import evaluate
from rulebook.scoring.tiles import format_tiles

CONFIGS = (
    MCRConfig(fan_57b_points=5, fan_48_points=6, wait_fans_in_knitted_straight=True),
    MCRConfig(
        all_green_excludes_half_flush=True,
        concealed_fans_exclude_fully_concealed=True,
        waits_include_fifth_copy=True,
        all_terminals_excludes_double_pung=True,
    ),
)
_TILE_CHARS = "123456789mpsESWNCFP"


def _mutate(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text))
    return text[:i] + rng.choice(_TILE_CHARS) + text[i + 1 :]


def records(n: int):  # type: ignore[no-untyped-def]
    per_seed = max(1, n // 3)
    for seed in (2024, 7, 99):
        rng = random.Random(seed)
        for g in random_hands(per_seed, seed=seed):
            text, ctx = g.text, g.context
            yield ["score", text, ctx, score(text, **ctx).to_dict()]
            yield ["full", text, score_mcr_full(text, **ctx).to_dict()]
            for k, config in enumerate(CONFIGS):
                yield [f"config{k}", text, score_mcr_full(text, config=config, **ctx).to_dict()]
            alternatives: list[dict[str, int]] = []
            ev = evaluate(parse_hand(text), context_from(ctx), alternatives=alternatives)
            yield ["alternatives", text, alternatives,
                   None if ev is None else [[[e.id, e.by] for e in ev.excluded], ev.total]]
            h = parse_hand(text)
            standing = "".join(m.notation() for m in h.melds) + format_tiles(h.concealed)
            yield ["waits", standing, score(standing, waits=True).to_dict()]
            for rules in ("hkos", "red"):
                yield [rules, text, score(text, rules=rules).to_dict()]
            bad = _mutate(text, rng)
            yield ["mutated", bad, ctx, score(bad, **ctx).to_dict()]


def main() -> None:
    out = Path(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 30_000
    digest = hashlib.sha256()
    count = 0
    with out.open("w", encoding="utf-8") as fh:
        for rec in records(n):
            line = json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n"
            digest.update(line.encode())
            fh.write(line)
            count += 1
        fh.write(json.dumps({"records": count, "sha256": digest.hexdigest()}) + "\n")
    print(f"{count} records, sha256 {digest.hexdigest()}")


if __name__ == "__main__":
    main()
