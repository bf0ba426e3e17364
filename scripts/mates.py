#!/usr/bin/env python3
"""Forced wins an engine finds, and how fast: a tactical suite from game records.

    scripts/mates.py build --engine REF --rule N [--ms 300] [--per-game 2] \\
        [--min-plies 9] --out LIST GAME.psq...
    scripts/mates.py measure --engine ENGINE --rule N [--ms 1000] LIST

`build` replays each record and asks the reference engine REF (any pbrain
engine that reports mates in its MESSAGE lines, as Rapfi's "Eval +M25" or
Tianyuan's "ev 29975") about every position from the 8th stone on; the first
`--per-game` positions of each record where it proves a win for the side to
move, at least `--min-plies` plies long, are appended to LIST, one a line:
the mate length ("M23"), then the moves as 0-based protocol coordinates
("7,7 8,6 ..."), on a 15x15 board. `measure` gives each listed position to
ENGINE for `--ms` milliseconds and prints when it first reported a proven
win (or "-"), then the number solved. RULE is the Gomocup rule code
(0 freestyle, 1 exact five, 4 Renju). scripts/mates/ holds the suites built
from Tianyuan's games against Rapfi (docs/strength.md, "Forced wins Rapfi
finds").
"""

import argparse
import os
import re
import subprocess
import sys

WIN = 30000  # Tianyuan's score of a five now; a win in n plies is WIN - n
WIN_BOUND = 20000  # and every score from here up is a proven win
MOVE = re.compile(r"^(\d+),(\d+)$")  # an engine's answer, "x,y"


def load(psq):
    """The moves of a Piskvork record, as 0-based (x, y), and how many of
    them are opening stones (the leading ones with time 0, as the runner
    writes them)."""
    moves, opening = [], 0
    with open(psq) as f:
        for line in f.read().split("\n")[1:]:
            q = line.strip().split(",")
            if len(q) != 3 or not q[0].isdigit():
                break
            moves.append((int(q[0]) - 1, int(q[1]) - 1))
            if len(moves) == opening + 1 and q[2] == "0":
                opening += 1
    return moves, opening


def stones(words):
    """Moves written as 0-based "x,y" (as the suites hold them), as (x, y)."""
    return [tuple(map(int, w.split(","))) for w in words]


def board_lines(moves):
    """The stone lines of a `BOARD` block after `moves`: the side to move's
    own stones marked 1, the opponent's 2."""
    side = len(moves) % 2
    return [f"{x},{y},{1 if i % 2 == side else 2}" for i, (x, y) in enumerate(moves)]


def think(engine, moves, ms, rule):
    """The engine's output lines for the position after `moves`, up to its move."""
    cmd = ["START 15", f"INFO rule {rule}", f"INFO timeout_turn {ms}",
           "INFO timeout_match 100000000", "INFO time_left 100000000",
           "INFO max_memory 268435456", "BOARD"]
    cmd += board_lines(moves)
    cmd.append("DONE")
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True,
                         cwd=os.path.dirname(os.path.abspath(engine)))
    p.stdin.write("\n".join(cmd) + "\n")
    p.stdin.flush()
    out = []
    for line in p.stdout:
        out.append(line.rstrip())
        if MOVE.match(line.strip()):
            break
    try:
        p.stdin.write("END\n")
        p.stdin.flush()
        p.wait(timeout=10)
    except (BrokenPipeError, subprocess.TimeoutExpired):
        p.kill()
    return out


def evaluation(line):
    """(score, proven) of a MESSAGE line, or None: Rapfi's "Eval -35" and
    Tianyuan's "ev -35" for the side to move; a win or loss proven in n plies
    (Rapfi's "Eval +M25", Tianyuan's scores from WIN_BOUND up) as
    ±(WIN − n) with proven True."""
    m = re.search(r"\bEval ([+-]?)M(\d+)", line)
    if m:
        return (WIN - int(m.group(2))) * (-1 if m.group(1) == "-" else 1), True
    m = re.search(r"\bEval ([+-]?\d+)", line) or re.search(r"\bev (-?\d+)\b", line)
    if not m:
        return None
    v = int(m.group(1))
    return v, abs(v) >= WIN_BOUND


def last_evaluation(out):
    """The last (score, proven) among the lines `out` (see `evaluation`), or None."""
    evals = [e for e in map(evaluation, out) if e is not None]
    return evals[-1] if evals else None


def answer(out):
    """The move (x, y) the engine answered with in the lines `out`, or None."""
    m = next((m for m in map(MOVE.match, map(str.strip, reversed(out))) if m), None)
    return (int(m.group(1)), int(m.group(2))) if m else None


def proven_win(line):
    """(win length in plies, time in ms or None) if `line` reports a proven win."""
    m = re.search(r"Eval \+M(\d+)", line)
    if m:
        t = re.search(r"Time (\d+)ms", line)
        return int(m.group(1)), int(t.group(1)) if t else None
    m = re.search(r"\bev (-?\d+) .*\btm (\d+)", line)
    if m and int(m.group(1)) >= WIN_BOUND:
        return WIN - int(m.group(1)), int(m.group(2))
    return None


def build(a):
    with open(a.out, "a") as out:
        for psq in a.records:
            (moves, _), found, seen = load(psq), 0, set()
            for n in range(8, len(moves) - 2):
                if found >= a.per_game:
                    break
                key = frozenset(moves[:n])
                if key in seen:
                    continue
                seen.add(key)
                wins = [w for w in map(proven_win, think(a.engine, moves[:n], a.ms, a.rule)) if w]
                if wins and wins[-1][0] >= a.min_plies:
                    stones = " ".join(f"{x},{y}" for x, y in moves[:n])
                    out.write(f"M{wins[-1][0]} {stones}\n")
                    out.flush()
                    found += 1


def measure(a):
    solved = total = 0
    with open(a.list) as f:
        for line in f:
            mate, *words = line.split()
            moves = stones(words)
            out = think(a.engine, moves, a.ms, a.rule)
            t = next((w[1] for w in map(proven_win, out) if w), None)
            total += 1
            solved += t is not None
            print(f"{total:3} {len(moves)} stones {mate}: {'-' if t is None else f'{t} ms'}", flush=True)
    print(f"solved {solved}/{total}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--engine", required=True)
    b.add_argument("--rule", required=True)
    b.add_argument("--ms", type=int, default=300)
    b.add_argument("--per-game", type=int, default=2)
    b.add_argument("--min-plies", type=int, default=9)
    b.add_argument("--out", required=True)
    b.add_argument("records", nargs="+")
    m = sub.add_parser("measure")
    m.add_argument("--engine", required=True)
    m.add_argument("--rule", required=True)
    m.add_argument("--ms", type=int, default=1000)
    m.add_argument("list")
    a = ap.parse_args()
    build(a) if a.cmd == "build" else measure(a)


if __name__ == "__main__":
    sys.exit(main())
