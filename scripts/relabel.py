#!/usr/bin/env python3
"""Scores labelled positions by a reference engine's evaluation, for `distil`.

    scripts/relabel.py --engine REF [--ms 100] [--scale 2] LABELS > OUT

LABELS holds the lines `examples/label.rs` writes (`RULE SCORE x,y x,y ...`:
0-based moves from the start, the side to move after them is scored). Each
position goes to one running REF process as a `BOARD` for `--ms`
milliseconds; the line is written again with SCORE replaced by REF's last
evaluation (Rapfi's "Eval 35", Tianyuan's "ev 35") times `--scale` (Rapfi's
logistic unit is 200, `distil`'s K is 400: scale 2), or by ±(30000 − n) for a
win or loss REF proves in n plies (Rapfi's "Eval +M25"). Positions REF gives
no evaluation for are left out. docs/strength.md, "Fitted to Rapfi's
evaluations".
"""

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mates import MOVE, board_lines, evaluation, stones  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True)
    ap.add_argument("--ms", type=int, default=100)
    ap.add_argument("--scale", type=float, default=2.0)
    ap.add_argument("labels")
    a = ap.parse_args()
    p = subprocess.Popen([a.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1,
                         cwd=os.path.dirname(os.path.abspath(a.engine)))

    def send(text):
        p.stdin.write(text + "\n")
        p.stdin.flush()

    send("START 15")
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit("the engine did not start")
        if line.startswith("OK"):
            break
    rule = None
    with open(a.labels) as f:
        for line in f:
            words = line.split()
            if len(words) < 3:
                continue
            if words[0] != rule:
                rule = words[0]
                for cmd in (f"INFO rule {rule}", f"INFO timeout_turn {a.ms}",
                            "INFO timeout_match 1000000000", "INFO time_left 1000000000"):
                    send(cmd)
            moves = words[2:]
            send("\n".join(["BOARD", *board_lines(stones(moves)), "DONE"]))
            last = None
            while True:
                reply = p.stdout.readline()
                if not reply:
                    sys.exit("the engine stopped")
                reply = reply.strip()
                if reply.startswith("MESSAGE"):
                    last = evaluation(reply) or last
                elif MOVE.match(reply):
                    break
                elif reply.startswith(("ERROR", "UNKNOWN")):
                    print(f"{' '.join(moves)}: {reply}", file=sys.stderr)
                    last = None
                    break
            if last is not None:
                v, mate = last
                print(f"{rule} {v if mate else round(v * a.scale)} {' '.join(moves)}", flush=True)
    send("END")


if __name__ == "__main__":
    sys.exit(main())
