#!/usr/bin/env bash
# Play Tianyuan (or any pbrain engine) against a list of opponents with tianyuan-match.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: scripts/gauntlet.sh [options] OPPONENT... [-- more tianyuan-match options]

Builds pbrain-tianyuan and tianyuan-match from the current checkout (release) and
plays a gauntlet: Tianyuan against each OPPONENT (a path to a pbrain engine), every
opening twice with colours swapped. Results go to the terminal and to --out.

Options (defaults in brackets):
  --engine PATH     the engine under test instead of the freshly built Tianyuan
  --rule RULE       freestyle, standard, renju, caro, caro-exact [freestyle]
  --board N|WxH     board size [15]
  --openings SRC    opening file or "rif" [none: one empty-board pair per round]
  --rounds N        game pairs per opponent [one per opening, else 10]
  --move-time T     time per move [5s]
  --game-time T     main time per game (optional)
  --concurrency N   games at once [1]
  --out DIR         records folder [gauntlet-out]
  -h, --help        this help

Example:
  scripts/gauntlet.sh --rule renju --openings rif ~/engines/pbrain-rapfi ~/engines/pbrain-embryo
USAGE
}

engine="" rule=freestyle board=15 openings="" rounds="" movetime=5s gametime="" concurrency=1
out=gauntlet-out
opponents=()
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --engine) engine=$2; shift 2 ;;
        --rule) rule=$2; shift 2 ;;
        --board) board=$2; shift 2 ;;
        --openings) openings=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --move-time) movetime=$2; shift 2 ;;
        --game-time) gametime=$2; shift 2 ;;
        --concurrency) concurrency=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --) shift; extra=("$@"); break ;;
        -*) echo "gauntlet.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) opponents+=("$1"); shift ;;
    esac
done
if [[ ${#opponents[@]} -eq 0 ]]; then
    echo "gauntlet.sh: give at least one opponent (see --help)" >&2
    exit 2
fi

root=$(git rev-parse --show-toplevel)
(cd "$root" && cargo build --release --quiet --bin tianyuan-match --bin pbrain-tianyuan)
target=${CARGO_TARGET_DIR:-$root/target}
[[ -n $engine ]] || engine="$target/release/pbrain-tianyuan"

args=(-e "cmd=$engine")
for o in "${opponents[@]}"; do
    args+=(-e "cmd=$o")
done
args+=(--tournament gauntlet --rule "$rule" --board "$board" --move-time "$movetime"
    --concurrency "$concurrency" --out "$out")
[[ -n $openings ]] && args+=(--openings "$openings")
if [[ -n $rounds ]]; then
    args+=(--rounds "$rounds")
elif [[ -z $openings ]]; then
    args+=(--rounds 10)
fi
[[ -n $gametime ]] && args+=(--game-time "$gametime")
"$target/release/tianyuan-match" "${args[@]}" "${extra[@]}"
