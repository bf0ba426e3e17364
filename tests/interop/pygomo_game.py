#!/usr/bin/env python3
"""Play one whole game with pygomo-lib (PyPI `pygomo-lib`, import `pygomo`).

Black and white are each either a pbrain engine (driven through
pygomo.EngineClient, i.e. the library's Gomocup protocol client) or a random
player. pygomo's BitBoard referees: every engine move is checked to be on the
board and on an empty point, and the game ends on five-or-more (freestyle) or a
full board.

Examples:
    # engine vs itself (two processes), 15x15, 1 s a move
    python3 pygomo_game.py --black ENGINE --white ENGINE
    # engine (white) vs a random player
    python3 pygomo_game.py --black random --white ENGINE

Run by tests/interop_pygomo.rs (cargo test) with ENGINE = the built binary.
Exit code: 0 when the game finished normally, 1 on a protocol failure.
"""
import argparse
import os
import random
import sys
import time

from pygomo import EngineClient, Move
from pygomo.board import BitBoard, BLACK, WHITE


class RandomPlayer:
    name = "random"

    def __init__(self, rng):
        self.rng = rng

    def start(self, size, turn_ms, match_ms):
        pass

    def move(self, board, last):
        return self.rng.choice(board.get_legal_moves())

    def close(self):
        pass


class EnginePlayer:
    def __init__(self, path, label, verbose):
        self.path = os.path.abspath(path)
        self.name = f"{os.path.basename(path)}({label})"
        self.verbose = verbose
        # cwd = the binary's folder, as Piskvork/Gomocup managers do
        self.client = EngineClient(self.path, working_directory=os.path.dirname(self.path))
        self.first = True

    def start(self, size, turn_ms, match_ms):
        if not self.client.start(board_size=size, timeout=10.0):
            raise RuntimeError(f"{self.name}: START {size} not answered with OK")
        # pygomo's configure() would send upper-case keys (INFO TIMEOUT_TURN);
        # send the protocol's lower-case spelling.
        self.client.send_raw(f"INFO timeout_turn {turn_ms}")
        self.client.send_raw(f"INFO timeout_match {match_ms}")
        self.client.send_raw("INFO max_memory 367001600")
        self.client.send_raw("INFO game_type 1")
        self.client.send_raw("INFO rule 0")
        self.turn_ms = turn_ms
        about = self.client.about(timeout=5.0)
        if about:
            print(f"  {self.name} ABOUT: {about}")

    def move(self, board, last):
        timeout = self.turn_ms / 1000.0 + 5.0  # generous tolerance for a shared machine
        t = time.time()
        if last is None:
            res = self.client.begin(timeout=timeout)
        else:
            res = self.client.turn(last, timeout=timeout)
        dt = time.time() - t
        if res is None:
            raise RuntimeError(f"{self.name}: no move within {timeout:.1f}s")
        info = res.search_info
        if self.verbose and info:
            print(f"    [{self.name}] {dt*1000:.0f} ms, depth {info.depth}, eval {info.eval.raw_value}")
        self.last_time = dt
        return res.move

    def close(self):
        try:
            self.client.quit()
        except Exception as e:  # noqa: BLE001
            print(f"  {self.name}: quit raised {e!r}")


def make_player(spec, label, rng, verbose):
    return RandomPlayer(rng) if spec == "random" else EnginePlayer(spec, label, verbose)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--black", required=True, help="engine path or 'random'")
    ap.add_argument("--white", required=True, help="engine path or 'random'")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--turn-ms", type=int, default=1000)
    ap.add_argument("--match-ms", type=int, default=180000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--grace-ms", type=float, default=0.0,
                    help="report a move whose wall time (seen from here) exceeds turn_ms + this")
    ap.add_argument("--send-delay-ms", type=float, default=0.0,
                    help="wait this long before sending a move to an engine (Rapfi drops a TURN that"
                         " arrives in the instant after it printed its own move)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    players = {BLACK: make_player(args.black, "black", rng, args.verbose),
               WHITE: make_player(args.white, "white", rng, args.verbose)}
    board = BitBoard(_size=args.size)  # the docstring says size=, the dataclass field is _size
    record, last, result, code, overs = [], None, None, 0, []
    try:
        for p in players.values():
            p.start(args.size, args.turn_ms, args.match_ms)
        color = BLACK
        while True:
            p = players[color]
            mv = p.move(board, last)
            if not (0 <= mv.col < args.size and 0 <= mv.row < args.size) or not board.is_empty(mv):
                result, code = f"{p.name} played an illegal move {mv.to_numeric()}", 1
                break
            board.place(mv, color)
            record.append(mv.to_numeric())
            ms = getattr(p, "last_time", None)
            over = ms is not None and ms * 1000 > args.turn_ms + args.grace_ms
            if over:
                overs.append((len(record), round(ms * 1000 - args.turn_ms)))
            print(f"{len(record):3d}. {'B' if color == BLACK else 'W'} {mv.to_numeric():>6}"
                  + (f"  ({ms*1000:.0f} ms{f' > timeout_turn by {ms*1000-args.turn_ms:.0f} ms' if over else ''})" if ms is not None else ""))
            win = board.check_win(mv)
            if win:
                result = f"{p.name} wins with five after {len(record)} moves"
                break
            if board.is_full():
                result = "draw (board full)"
                break
            last, color = mv, (WHITE if color == BLACK else BLACK)
            if isinstance(players[color], EnginePlayer) and args.send_delay_ms:
                time.sleep(args.send_delay_ms / 1000.0)
    except Exception as e:  # noqa: BLE001
        result, code = f"aborted: {e!r}", 1
    finally:
        for p in players.values():
            p.close()
    print()
    print(board)
    print("moves:", " ".join(record))
    print("result:", result)
    if overs:
        print(f"moves over timeout_turn ({args.turn_ms} ms) + {args.grace_ms:.0f} ms, as (ply, ms over):", overs)
    sys.exit(code)


if __name__ == "__main__":
    main()
