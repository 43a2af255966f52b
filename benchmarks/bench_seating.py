"""Seating draw: 100 players over 10 sessions, timed, with its repeat count beside a random
draw's (same players, same seed).

    .venv/bin/python benchmarks/bench_seating.py [--players 100] [--sessions 10] [--seeds 5]

Target: under 5 seconds a draw.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.seating import draw, meetings, random_draw, repeat_pairs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    players = list(range(1, args.players + 1))
    print(f"{args.players} players, {args.sessions} sessions")
    print("seed  time (s)  repeat pairs  most meetings  | random draw: repeat pairs  most")
    worst = 0.0
    for seed in range(1, args.seeds + 1):
        start = time.perf_counter()
        seating = draw(players, args.sessions, seed=seed)
        elapsed = time.perf_counter() - start
        worst = max(worst, elapsed)
        baseline = random_draw(players, args.sessions, seed=seed)
        print(f"{seed:>4}  {elapsed:8.3f}  {seating.repeat_pairs:>12}  "
              f"{max(meetings(seating.sessions).values()):>13}  | "
              f"{repeat_pairs(baseline):>25}  {max(meetings(baseline).values()):>4}")
    print(f"slowest draw: {worst:.3f} s ({'under' if worst < 5 else 'OVER'} the 5 s target)")


if __name__ == "__main__":
    main()
