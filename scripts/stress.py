#!/usr/bin/env python3
"""Random protocol sessions against a pbrain engine: it must never panic,
must answer ABOUT after any of them, and must exit cleanly on END.

    scripts/stress.py --engine target/release/pbrain-tianyuan --seeds 0 100

Each seed is one session: a fresh engine process gets `--commands` random
commands (good and bad: START/RECTSTART of any size, BEGIN, TURN on and off
the board, BOARD/YXBOARD/SWAP2BOARD blocks with random or nearly full
positions, TAKEBACK, PLAY, INFO of every key with good and bad values, Renju
positions with many stones, Yixin-Board commands, garbage), some of them
while it is thinking (short `timeout_turn`). Then ABOUT must be answered
within 8 s, END must end the process with status 0, and stderr must hold no
panic. The engine works in a scratch folder (commands such as `YXHASHDUMP`
take the next line as a file name). A failing session's input and stderr
tail go to `--out`.
"""
import argparse
import os
import queue
import random
import subprocess
import tempfile
import threading
import time


def random_command(r, size):
    """One command (a list of lines) for a board of `size` (as the session thinks)."""
    any_pt = lambda: f"{r.randrange(-1, size + 2)},{r.randrange(-1, size + 2)}"
    pt = lambda: f"{r.randrange(size)},{r.randrange(size)}"

    def stones(n, sz, colours=(1, 2)):
        cells = r.sample([(x, y) for x in range(sz) for y in range(sz)], min(n, sz * sz))
        return [f"{x},{y},{r.choice(colours)}" for (x, y) in cells]

    makers = [
        lambda: [f"START {r.choice([5, 6, 7, 9, 10, 15, 19, 20, 32, 33, 4, 0, -1, 'x', ''])}"],
        lambda: [f"START {r.choice([5, 15, 20])} {r.choice([5, 12, 15, 20, 33])}"],
        lambda: [f"RECTSTART {r.randrange(3, 35)},{r.randrange(3, 35)}"],
        lambda: ["RESTART"],
        lambda: ["BEGIN"],
        lambda: [f"TURN {pt() if r.random() < 0.8 else any_pt()}"],
        lambda: [f"TURN {pt()}" for _ in range(r.randrange(1, 6))],
        lambda: [f"TAKEBACK {pt()}"],
        lambda: [f"PLAY {pt()}"],
        lambda: ["ABOUT"],
        lambda: [f"INFO timeout_turn {r.choice([0, 1, 50, 100, 200, 'x', -5])}"],
        lambda: [f"INFO timeout_match {r.choice([0, 1000, 100000, ''])}"],
        lambda: [f"INFO time_left {r.choice([0, 10, 500, 100000, 2147483647, -1])}"],
        lambda: [f"INFO rule {r.choice([0, 1, 2, 4, 8, 9, 5, 17, 'q'])}"],
        lambda: [f"INFO max_memory {r.choice([0, 1, 1000000, 83886080, 'z'])}"],
        lambda: [
            f"INFO {r.choice(['game_type', 'evaluate', 'folder', 'thread_num', 'pondering', 'show_detail', 'caution_factor', 'hash_size'])}"
            f" {r.choice([0, 1, 2, 'abc', 4, 100])}"
        ],
        lambda: ["BOARD"] + stones(r.randrange(0, 12), size, (1, 2, 3, 0))
        + (["DONE"] if r.random() < 0.9 else []),
        lambda: ["BOARD"] + stones(r.choice([size * size // 2, size * size - 3, size * size - 1, 60]), size)
        + ["DONE"],
        lambda: ["YXBOARD"] + stones(r.randrange(0, 8), size) + ["DONE"],
        lambda: ["SWAP2BOARD"] + [pt() for _ in range(r.choice([0, 3, 5, 6]))] + ["DONE"],
        lambda: ["INFO rule 4", "START 15", "BOARD"]
        + stones(r.choice([20, 80, 150, 200, 224]), 15, (1, 1, 2)) + ["DONE"],
        lambda: with_path(["YXNBEST 3", "YXBALANCEONE 100", "YXBALANCETWO 0", "YXSEARCHDEFEND",
                           "YXHASHDUMP", "YXHASHLOAD", "YXSHOWFORBID"][r.randrange(7):][:2]),
        lambda: ["yxblock"] + [pt() for _ in range(r.randrange(0, 3))] + ["done"],
        lambda: [r.choice(["YXDBTOTXT", "YXDBTOTXTALL", "YXTXTTODB", "YXSETDATABASE"])]
        + [r.choice(["db.txt", "my db.txt", "no/such/dir/x.txt"])],
        lambda: [r.choice(["yxshowforbid", "yxshowinfo", "yxblockreset", "yxnbest 2",
                           "yxquerydatabaseall", "yxhashclear", "yxstop", "stop", "END?", "",
                           "   ", "\x00\x01", "TURN", "TURN 1", "BOARD 1", "DONE", "ÄÖÜ",
                           "yxswap2step1", "yxdraw"])],
    ]
    return r.choice(makers)()


def with_path(lines):
    """`lines` with a file name after a last bare `YXHASHDUMP` / `YXHASHLOAD`:
    the engine takes the next line as the path, which must not be the
    closing `ABOUT` (a bare one earlier in `lines` takes the line after it)."""
    return lines + (["t.hash"] if lines[-1] in ("YXHASHDUMP", "YXHASHLOAD") else [])


def pump(stream, q):
    for line in iter(stream.readline, b""):
        q.put(line.decode("utf-8", "replace").rstrip("\r\n"))
    q.put(None)


def read_until_quiet(q, quiet):
    """The lines from `q` until none came for `quiet` seconds or the stream ended."""
    lines = []
    while True:
        try:
            line = q.get(timeout=quiet)
        except queue.Empty:
            return lines
        if line is None:
            return lines
        lines.append(line)


def session(engine, seed, commands):
    """Runs one random session; returns (passed, input lines, stderr lines, why)."""
    with tempfile.TemporaryDirectory(prefix="stress-") as scratch:
        return session_in(os.path.abspath(engine), seed, commands, scratch)


def session_in(engine, seed, commands, scratch):
    """`session` with the engine working in `scratch`: `YXHASHDUMP` and the
    like take the next line as a file name and write there."""
    r = random.Random(seed)
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=scratch)
    out, err = queue.Queue(), queue.Queue()
    threading.Thread(target=pump, args=(p.stdout, out), daemon=True).start()
    threading.Thread(target=pump, args=(p.stderr, err), daemon=True).start()
    sent, size, why = [], 15, ""

    def send(line):
        sent.append(line)
        p.stdin.write((line + "\r\n").encode("utf-8", "replace"))
        p.stdin.flush()

    answered, rc = False, None
    try:
        send("INFO timeout_turn 100")
        for _ in range(commands):
            cmd = random_command(r, size)
            words = cmd[0].split()
            if len(words) >= 2 and words[0] == "START" and words[1].isdigit():
                size = max(5, min(32, int(words[1])))
            for line in cmd:
                send(line)
            if r.random() < 0.3:
                time.sleep(r.choice([0, 0.01, 0.05, 0.2]))
        # Let the engine settle, and drop what it said so far: the name
        # line must answer the final ABOUT, not an earlier one.
        read_until_quiet(out, 1.0)
        send("ABOUT")
        deadline = time.time() + 8
        while time.time() < deadline and not answered:
            try:
                line = out.get(timeout=0.2)
            except queue.Empty:
                continue
            if line is None:
                break
            answered = "name=" in line
        send("END")
        rc = p.wait(timeout=5)
    except BrokenPipeError:
        rc = p.wait()
    except subprocess.TimeoutExpired:
        p.kill()
        rc = "still running 5 s after END"
    errors = read_until_quiet(err, 0.5)
    panics = [e for e in errors if "panic" in e.lower()]
    if not answered:
        why = "ABOUT not answered"
    elif rc != 0:
        why = f"exit status {rc}"
    elif panics:
        why = f"panic: {panics[0]}"
    return not why, sent, errors, why


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", required=True)
    ap.add_argument("--seeds", nargs=2, type=int, default=[0, 20], metavar=("FROM", "TO"))
    ap.add_argument("--commands", type=int, default=60, help="commands a session")
    ap.add_argument("--out", default="stress-failures", help="folder for failing sessions")
    a = ap.parse_args()
    failed = 0
    for seed in range(*a.seeds):
        ok, sent, errors, why = session(a.engine, seed, a.commands)
        if not ok:
            failed += 1
            os.makedirs(a.out, exist_ok=True)
            path = os.path.join(a.out, f"seed-{seed}.txt")
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(sent) + "\n--- stderr (tail) ---\n" + "\n".join(errors[-40:]) + "\n")
            print(f"seed {seed}: {why} (input and stderr in {path})")
    print(f"{a.seeds[1] - a.seeds[0]} sessions, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
