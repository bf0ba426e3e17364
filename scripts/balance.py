#!/usr/bin/env python3
"""Openings balanced by a reference engine's judgement.

    scripts/balance.py --engine REF --rule N [--ms 1000] [--max 50] [--count 20] OPENINGS

Gives each opening of OPENINGS (one a line in `h8i9j7` notation, as
`pbrain-tianyuan openings` prints them; `#` lines skipped) to the reference
engine REF for `--ms` milliseconds and reads its last evaluation from its
MESSAGE lines (Rapfi's "Eval -35", Tianyuan's "ev -35"). Prints every opening
with its evaluation (for the side to move after it) on stderr, and on stdout
the `--count` openings whose evaluation is nearest 0, at most `--max` in
absolute value (a proven win never is), nearest first. `pbrain-tianyuan
openings` balances openings by Tianyuan's own search, which a stronger engine
may judge one-sided; this lets a stronger engine pick (docs/strength.md,
"Openings balanced by Rapfi").
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mates import last_evaluation, think  # noqa: E402


def parse_opening(text, size=15):
    """`h8i9j7` as 0-based protocol coordinates; the number counts from the bottom."""
    return [(ord(c) - ord("a"), size - int(n)) for c, n in re.findall(r"([a-z])(\d+)", text)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True)
    ap.add_argument("--rule", required=True)
    ap.add_argument("--ms", type=int, default=1000)
    ap.add_argument("--max", type=int, default=50)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("openings")
    a = ap.parse_args()
    kept = []
    with open(a.openings) as f:
        for line in f:
            text = line.split("#")[0].split()
            if not text:
                continue
            out = think(a.engine, parse_opening(text[0]), a.ms, a.rule)
            last = last_evaluation(out)
            # A proven win is never balanced.
            ev = None if last is None else float("inf") if last[1] else last[0]
            print(f"{text[0]} {ev}", file=sys.stderr, flush=True)
            if ev is not None and abs(ev) <= a.max:
                kept.append((abs(ev), text[0]))
    kept.sort()
    for _, opening in kept[: a.count]:
        print(opening)
    if len(kept) < a.count:
        print(f"only {len(kept)} openings within {a.max}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
