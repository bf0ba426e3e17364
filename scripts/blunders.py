#!/usr/bin/env python3
"""Moves of an engine that a reference engine judges costly, and whether
the engine still plays them: a defensive suite from lost game records.

    scripts/blunders.py build --ref REF --name NAME --rule N [--ms 1000] \\
        [--drop 200] [--lost 600] --out LIST GAME.psq...
    scripts/blunders.py measure --engine ENGINE --ref REF --rule N \\
        [--ms 1000] [--ref-ms 1000] [--drop 200] LIST

`build` takes the records NAME lost (runner records are named
`NNNN-BLACK-vs-WHITE.psq`; the opening stones are the leading ones with
time 0) and has REF evaluate, for `--ms` each, the positions before and
after each of NAME's moves, from the opening on. The first move whose
evaluation (for NAME) falls by at least `--drop` from a position not worse
than `-lost` (nor proven lost) is the costly move: the position before it
is a line of LIST (once: runs from the same openings repeat positions):
REF's evaluation there, the costly move, then the stones (0-based protocol
coordinates "x,y" on 15x15). Proven wins count as ±(30000 - plies), so a
move into a proven loss always counts.

`measure` gives each position to ENGINE for `--ms` milliseconds and has
REF evaluate the position after ENGINE's move; the move holds when it costs
less than `--drop` against the listed evaluation (replaying the costly move
never holds). It prints each verdict and the number held. REF's
evaluations vary between runs (tens of points, at times hundreds), so a
move near the line may pass or fail: compare two engines on the same LIST
and machine, and mind that an engine that plays like the one that lost
those games replays their costly moves.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mates import WIN, answer, last_evaluation, load, stones, think  # noqa: E402

def makes_five(moves, move):
    """Does the side to move after `moves` make five or more in a row on `move`?"""
    own = set(moves[len(moves) % 2 :: 2]) | {move}
    x, y = move
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for s in (1, -1):
            k = 1
            while (x + s * k * dx, y + s * k * dy) in own:
                run, k = run + 1, k + 1
        if run >= 5:
            return True
    return False


def verdict(engine, moves, ms, rule):
    """The last (score, proven) the engine reports for the side to move; a
    win in one when it answers with a five without a report."""
    out = think(engine, moves, ms, rule)
    last, move = last_evaluation(out), answer(out)
    if last is None and move is not None and makes_five(moves, move):
        return WIN - 1, True
    return last


def build(a):
    # Runs from the same openings repeat positions: each goes in once.
    seen = set()
    if os.path.exists(a.out):
        with open(a.out) as f:
            seen = {frozenset(line.split()[2:]) for line in f}
    with open(a.out, "a") as out:
        for psq in a.records:
            m = re.match(r"\d+-(.+)-vs-(.+)\.psq$", os.path.basename(psq))
            if not m or a.name not in m.groups():
                continue
            moves, opening = load(psq)
            # The first name holds black (the stones of even index).
            parity = 0 if m.group(1) == a.name else 1
            if (len(moves) - 1) % 2 == parity:
                continue  # NAME placed the last stone: not lost
            # Evaluations for NAME, of the positions where NAME is to move
            # (before) and of those right after NAME's move (after).
            for i in range(opening, len(moves) - 1):
                if i % 2 != parity:
                    continue
                before = verdict(a.ref, moves[:i], a.ms, a.rule)
                after = verdict(a.ref, moves[: i + 1], a.ms, a.rule)
                if before is None or after is None:
                    continue
                if before[1] and before[0] < 0:
                    break  # lost already, as far as REF sees
                drop = before[0] + after[0]  # after[0] is the opponent's view
                if before[0] >= -a.lost and drop >= a.drop:
                    x, y = moves[i]
                    position = " ".join(f"{p},{q}" for p, q in moves[:i])
                    if frozenset(position.split()) in seen:
                        break
                    seen.add(frozenset(position.split()))
                    out.write(f"{before[0]} {x},{y} {position}\n")
                    out.flush()
                    print(f"{os.path.basename(psq)}: stone {i + 1} {x},{y} "
                          f"{before[0]} -> {-after[0]}", flush=True)
                    break


def measure(a):
    held = total = 0
    with open(a.list) as f:
        for line in f:
            before, costly, *words = line.split()
            moves = stones(words)
            move = answer(think(a.engine, moves, a.ms, a.rule))
            total += 1
            if move is None:
                print(f"{total:3} {len(moves)} stones: no move", flush=True)
                continue
            if f"{move[0]},{move[1]}" == costly:
                ok, what = False, "the costly move"
            else:
                after = verdict(a.ref, moves + [move], a.ref_ms, a.rule)
                ok = after is not None and int(before) + after[0] < a.drop
                what = "no evaluation" if after is None else f"{int(before)} -> {-after[0]}"
            held += ok
            print(f"{total:3} {len(moves)} stones: {move[0]},{move[1]} "
                  f"{'held' if ok else 'lost'} ({what})", flush=True)
    print(f"held {held}/{total}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--ref", required=True)
    b.add_argument("--name", required=True)
    b.add_argument("--rule", required=True)
    b.add_argument("--ms", type=int, default=1000)
    b.add_argument("--drop", type=int, default=200)
    b.add_argument("--lost", type=int, default=600)
    b.add_argument("--out", required=True)
    b.add_argument("records", nargs="+")
    m = sub.add_parser("measure")
    m.add_argument("--engine", required=True)
    m.add_argument("--ref", required=True)
    m.add_argument("--rule", required=True)
    m.add_argument("--ms", type=int, default=1000)
    m.add_argument("--ref-ms", type=int, default=1000)
    m.add_argument("--drop", type=int, default=200)
    m.add_argument("list")
    a = ap.parse_args()
    build(a) if a.cmd == "build" else measure(a)


if __name__ == "__main__":
    main()
