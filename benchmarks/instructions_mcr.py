"""Instructions per hand of ``score()``, counted by callgrind: repeatable on a loaded machine.

    .venv/bin/python benchmarks/instructions_mcr.py [N]

Wall-clock timings on a shared machine move by more than most changes; instruction
counts do not. The first N (default 8,000) hands of ``bench_mcr.py`` (seed 2024) are
pickled, then ``valgrind --tool=callgrind`` runs this script three times on them: loading
only, one pass of ``score()`` (cold: every table starts empty, as in the benchmark) and
two passes (the second one warm). The differences, divided by N, are printed.
"""

from __future__ import annotations

import pickle
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _run_passes(hands_file: str, passes: int) -> None:
    from rulebook.scoring import score

    with open(hands_file, "rb") as fh:
        hands = pickle.load(fh)
    for _ in range(passes):
        for text, context in hands:
            score(text, **context)


def _instructions(hands_file: str, passes: int, out_dir: str) -> int:
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_dir}/cg.{passes}",
         sys.executable, __file__, "--passes", str(passes), hands_file],
        capture_output=True, text=True, check=True,
    )
    found = re.search(r"Collected : (\d+)", run.stderr)
    assert found, run.stderr[-2000:]
    return int(found.group(1))


def main() -> None:
    if sys.argv[1:2] == ["--passes"]:
        _run_passes(sys.argv[3], int(sys.argv[2]))
        return
    from rulebook.scoring.generate import random_hands

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8000
    with tempfile.TemporaryDirectory() as tmp:
        hands_file = f"{tmp}/hands.pkl"
        with open(hands_file, "wb") as fh:
            pickle.dump([(g.text, g.context) for g in random_hands(n, seed=2024)], fh)
        load, one, two = (_instructions(hands_file, p, tmp) for p in (0, 1, 2))
    print(f"hands: {n}")
    print(f"instructions per hand, cold (first pass): {(one - load) // n:,}")
    print(f"instructions per hand, warm (second pass): {(two - one) // n:,}")


if __name__ == "__main__":
    main()
