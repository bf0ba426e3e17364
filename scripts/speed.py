#!/usr/bin/env python3
"""Time an engine's game searches of a fixed size, to compare two builds.

    scripts/speed.py --engine ENGINE --rule N [--nodes 1000000] \\
        [--threads 1] LIST

Gives one engine process the positions of LIST (a suite of scripts/mates/:
each line a tag, then moves as 0-based "x,y"), each cut to half its stones
(at least 8), as `BOARD` with `INFO max_node NODES` and no time limit, one
after the other, and prints the wall time of the whole run and the answers.
With one thread the same build searches the same nodes and answers the same
moves every run, so two builds that search alike differ only in speed; run
them side by side, one per core, since the machine's speed drifts
(docs/benchmarks.md).
"""

import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mates import board_lines, stones  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", required=True)
    ap.add_argument("--rule", type=int, required=True)
    ap.add_argument("--nodes", type=int, default=1_000_000)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("list")
    a = ap.parse_args()
    p = subprocess.Popen([a.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def reply():
        """The next line that is neither a MESSAGE nor a DEBUG line."""
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("the engine closed its output")
            line = line.strip()
            if line and not line.startswith(("MESSAGE", "DEBUG")):
                return line

    start = time.time()
    answers = []
    with open(a.list) as f:
        for entry in f:
            moves = stones(entry.split()[1:])
            moves = moves[:max(8, len(moves) // 2)]
            send("START 15")
            if reply() != "OK":
                raise SystemExit("START was not answered OK")
            for line in (f"INFO rule {a.rule}", f"INFO thread_num {a.threads}",
                         f"INFO max_node {a.nodes}", "INFO timeout_turn 1000000",
                         "BOARD"):
                send(line)
            for line in board_lines(moves):
                send(line)
            send("DONE")
            answers.append(reply())
    send("END")
    p.wait(timeout=10)
    print(f"{time.time() - start:.2f} s", " ".join(answers))


if __name__ == "__main__":
    main()
