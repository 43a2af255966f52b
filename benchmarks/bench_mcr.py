"""Throughput of the MCR scoring core against PyMahjongGB (C++), same hands, same run.

    .venv/bin/python benchmarks/bench_mcr.py [N] [--runs K]

Generates N (default 20,000) winning hands with win conditions, scores them with
``rulebook.scoring.score`` (from the notation string and the context dict) and with
``MahjongGB.MahjongFanCalculator`` (from its own arguments, prepared before timing; its
C++ code parses the tile names), alternating the two over blocks of 500 hands, and prints
both throughputs, their ratio and the peak memory of the process.

The measurement is repeated in K (default 3) fresh processes, so that every run starts
with empty tables, and the median ratio is printed last: on a shared machine single runs
of the same code differ by a few per cent.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import contextlib

from rulebook.scoring import score
from rulebook.scoring.generate import random_hands


def _gb_args(hands: list) -> list:  # type: ignore[type-arg]
    from rulebook.scoring.hand import make_context

    def tile(t: int) -> str:
        if t < 27:
            return "WBT"[t // 9] + str(t % 9 + 1)
        return ("F" + str(t - 26)) if t < 31 else ("J" + str(t - 30))

    out = []
    for g in hands:
        ctx = make_context(**g.context)
        pack = []
        for m in g.hand.melds:
            if m.kind == "chow":
                pack.append(("CHI", tile(m.tile + 1), m.claimed or 1))
            elif m.kind == "pung":
                pack.append(("PENG", tile(m.tile), m.claimed or 1))
            else:
                pack.append(("GANG", tile(m.tile), 0 if m.concealed else (m.claimed or 1)))
        out.append(dict(
            pack=tuple(pack), hand=tuple(tile(t) for t in g.hand.concealed),
            winTile=tile(g.hand.win_tile), flowerCount=ctx.flowers,
            isSelfDrawn=ctx.self_drawn, is4thTile=ctx.last_of_kind,
            isAboutKong=ctx.kong_replacement or ctx.robbing_kong, isWallLast=ctx.last_tile,
            seatWind="ESWN".index(ctx.seat), prevalentWind="ESWN".index(ctx.prevalent),
        ))
    return out


def measure(n: int) -> float | None:
    """One run in this process; prints its report and returns the ratio (None without
    PyMahjongGB)."""
    hands = random_hands(n, seed=2024)
    texts = [(g.text, g.context) for g in hands]

    try:
        import MahjongGB
    except ImportError:
        MahjongGB = None
    args = _gb_args(hands) if MahjongGB is not None else []

    # The two sides alternate over blocks of the same hands, so that a change in the load
    # of the machine hits both timings alike (one side after the other gave ratios that
    # moved by a factor of two between runs). Each side still scores every hand once, in
    # the same order, our tables starting empty.
    block = 500
    ok = 0
    ours = 0.0
    gb_time: float | None = 0.0 if MahjongGB is not None else None
    for start in range(0, n, block):
        t0 = time.perf_counter()
        for text, ctx in texts[start : start + block]:
            ok += score(text, **ctx).error is None
        ours += time.perf_counter() - t0
        if MahjongGB is not None and gb_time is not None:
            t0 = time.perf_counter()
            for kw in args[start : start + block]:
                with contextlib.suppress(TypeError):
                    MahjongGB.MahjongFanCalculator(**kw)
            gb_time += time.perf_counter() - t0

    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"hands: {n} (valid wins of 8+ points: {ok})")
    print(f"rulebook.scoring (pure Python): {n / ours:,.0f} hands/s ({ours:.2f} s)")
    ratio = None
    if gb_time is not None:
        ratio = gb_time / ours
        print(f"PyMahjongGB (C++):              {n / gb_time:,.0f} hands/s ({gb_time:.2f} s)")
        print(f"ratio ours/C++: {ratio:.3f} (target >= 0.100)")
    print(f"peak memory (max RSS): {peak_mb:.0f} MB (target < 200 MB)")
    return ratio


def main() -> None:
    args = sys.argv[1:]
    runs = 3
    if "--runs" in args:
        k = args.index("--runs")
        runs = int(args[k + 1])
        del args[k : k + 2]
    single = "--single" in args
    if single:
        args.remove("--single")
    n = int(args[0]) if args else 20_000
    if single or runs == 1:
        measure(n)
        return
    ratios = []
    for run in range(1, runs + 1):
        print(f"--- run {run} of {runs} (a fresh process)", flush=True)
        out = subprocess.run(
            [sys.executable, __file__, str(n), "--single"],
            check=True, capture_output=True, text=True,
        ).stdout
        print(out, end="", flush=True)
        ratios += [float(line.split()[2]) for line in out.splitlines()
                   if line.startswith("ratio ours/C++:")]
    if ratios:
        print(f"median ratio of {len(ratios)} runs: {statistics.median(ratios):.3f} "
              f"(runs: {', '.join(f'{r:.3f}' for r in ratios)}; target >= 0.100)")


if __name__ == "__main__":
    main()
