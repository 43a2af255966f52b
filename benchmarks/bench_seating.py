"""Seating draw: repeats of our draw against a random draw and against the best known
figure, for 16 to 200 players over 4 to 10 sessions, timed.

    .venv/bin/python benchmarks/bench_seating.py [--sizes 16,24,...] [--sessions 4-10] [--seed 1]

Columns: players, sessions; "ours": pairs meeting more than once in our draw (the API's
``repeat_pairs``), "most": the most meetings of one pair; "random": the same count for a
plain random draw (mean of five seeds); "bound": the counting lower bound (each table makes
6 meetings, n(n-1)/2 pairs can meet once, no pair may meet three times while that can be
avoided); "known": the fewest known (see KNOWN below), "-" when we know no published figure;
time of our draw in seconds.

Targets (issue 23): the known figure everywhere, 200 players x 10 sessions under 10 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.rules.seating_draw import (
    draw,
    meetings,
    random_draw,
    repeat_pairs,
    repeat_pairs_bound,
)

SIZES = (16, 24, 32, 40, 48, 64, 80, 100, 128, 160, 200)


def counting_bound(n: int, sessions: int) -> int:
    """Meetings beyond one per pair: with no pair meeting three times, each is a repeat pair."""
    return repeat_pairs_bound(n, sessions)


def known(n: int, sessions: int) -> int | None:
    """The fewest pairs meeting twice known for n players and that many sessions.

    Repeat-free schedules (the most sessions without any pair meeting twice):
    - 16 players, 5 sessions: the affine plane of order 4 (a resolvable 2-(16,4,1) design;
      every pair meets once, so a 6th session repeats 24 pairs, and each further one 24
      more: the counting bound, reached by playing the plane again).
    - 24 players, 7 sessions: the social golfer problem 6-4-7 has solutions (W. Harvey's
      table of social golfer results; the issue cites the published AIM grids).
    - 28 players, 9 sessions: the resolvable 2-(28,4,1) design (a resolvable design with
      blocks of 4 exists for every v = 4 mod 12: Hanani, Ray-Chaudhuri and Wilson, 1972);
      a 10th session then repeats exactly 42 pairs (the counting bound).
    - 32 players, 10 sessions: social golfer 8-4-10, the original problem; A. Aguado gave
      an explicit solution in 2004 (M. Triska, "The Social Golfer Problem",
      metalevel.at/sgp; W. Harvey's table of social golfer results). Ours is another one,
      found by scripts/seating_exact_bases.py (decision 0714).
    - 40 players, 13 sessions: the resolvable 2-(40,4,1) design (40 = 4 mod 12, as above).
    - 4g players with g a product of prime powers of at least 4 (16, 20, 28, 32, 36, 44, 52,
      64, 80, 100, 128, 160, ...): g sessions from a resolvable transversal design TD(4, g)
      (three mutually orthogonal Latin squares of order g, from finite fields).
    - Any size here with at most floor((n-1)/3) sessions and no construction above (48, 200):
      the schedule printed by this draw, which anyone can check.
    Beyond the repeat-free sessions the counting bound is the known figure only where it is
    reached (16 and 28 players); 24 players over 8-10 sessions: no published figure known to
    us ("-"), the bound is shown.
    """
    repeat_free = {16: 5, 24: 7, 28: 9, 32: 10, 40: 13}.get(n, (n - 1) // 3)
    if sessions <= repeat_free:
        return 0
    if n in (16, 28):
        return counting_bound(n, sessions)
    return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--sessions", default="4-10")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    low, _, high = args.sessions.partition("-")
    session_counts = range(int(low), int(high or low) + 1)
    print("players  sessions  ours  most  random  bound  known  time (s)")
    slowest = (0.0, 0, 0)
    misses = []
    for n in sizes:
        players = list(range(1, n + 1))
        for sessions in session_counts:
            start = time.perf_counter()
            seating = draw(players, sessions, seed=args.seed)
            elapsed = time.perf_counter() - start
            slowest = max(slowest, (elapsed, n, sessions))
            baseline = statistics.mean(
                repeat_pairs(random_draw(players, sessions, seed=args.seed + k))
                for k in range(5))
            best = known(n, sessions)
            if best is not None and seating.repeat_pairs > best:
                misses.append(f"{n}x{sessions}")
            print(f"{n:>7}  {sessions:>8}  {seating.repeat_pairs:>4}  "
                  f"{max(meetings(seating.sessions).values()):>4}  {baseline:>6.0f}  "
                  f"{counting_bound(n, sessions):>5}  {'-' if best is None else best:>5}  "
                  f"{elapsed:>8.2f}", flush=True)
    elapsed, n, sessions = slowest
    print(f"slowest draw: {elapsed:.2f} s ({n} x {sessions})")
    print(f"above the known figure: {', '.join(misses) or 'none'}")


if __name__ == "__main__":
    main()
