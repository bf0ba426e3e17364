#!/usr/bin/env bash
# Build two versions of Tianyuan and run an SPRT between them with tianyuan-match.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: scripts/sprt.sh [options] NEW BASE [-- more tianyuan-match options]

Builds the engine (pbrain-tianyuan) at two git refs (commits, branches, tags) in
temporary worktrees, builds tianyuan-match from the current checkout, and runs an
SPRT of NEW against BASE on game pairs. It stops as soon as the test decides.
NEW may be "." for the current working tree, uncommitted changes included.

Options (defaults in brackets):
  --elo0 E          Elo under H0 [0]
  --elo1 E          Elo under H1 [5]
  --alpha P         false-positive rate [0.05]
  --beta P          false-negative rate [0.05]
  --rule RULE       freestyle, standard, renju, caro, caro-exact [freestyle]
  --board N|WxH     board size [15]
  --openings SRC    opening file or "rif" (the 26 RIF openings) [none]
  --move-time T     time per move, e.g. 1s, 500ms [1s]
  --game-time T     main time per game, e.g. 60s (optional)
  --increment T     increment per move (with --game-time)
  --concurrency N   games at once [number of cores / 2, at least 1]
  --threads N       search threads per engine [1]
  --out DIR         where to keep records (games.sgf, games.pgn, psq/) [sprt-out]
  --keep            keep the temporary worktrees and builds
  -h, --help        this help

Example:
  scripts/sprt.sh --elo1 10 --rule renju --openings rif my-branch main
  scripts/sprt.sh . HEAD -- --max-moves 120
USAGE
}

elo0=0 elo1=5 alpha=0.05 beta=0.05 rule=freestyle board=15 openings="" movetime=1s
gametime="" increment="" threads=1 out=sprt-out keep=0
cores=$(nproc 2>/dev/null || echo 2)
concurrency=$(( cores / 2 > 0 ? cores / 2 : 1 ))
positional=()
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --elo0) elo0=$2; shift 2 ;;
        --elo1) elo1=$2; shift 2 ;;
        --alpha) alpha=$2; shift 2 ;;
        --beta) beta=$2; shift 2 ;;
        --rule) rule=$2; shift 2 ;;
        --board) board=$2; shift 2 ;;
        --openings) openings=$2; shift 2 ;;
        --move-time) movetime=$2; shift 2 ;;
        --game-time) gametime=$2; shift 2 ;;
        --increment) increment=$2; shift 2 ;;
        --concurrency) concurrency=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        --) shift; extra=("$@"); break ;;
        -*) echo "sprt.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) positional+=("$1"); shift ;;
    esac
done
if [[ ${#positional[@]} -ne 2 ]]; then
    echo "sprt.sh: give NEW and BASE (see --help)" >&2
    exit 2
fi
new_ref=${positional[0]}
base_ref=${positional[1]}

root=$(git rev-parse --show-toplevel)
cd "$root"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tianyuan-sprt.XXXXXX")
worktrees=()
cleanup() {
    if [[ $keep -eq 0 ]]; then
        for w in "${worktrees[@]}"; do
            git worktree remove --force "$w" >/dev/null 2>&1 || true
        done
        rm -rf "$tmp"
    else
        echo "kept $tmp" >&2
    fi
}
trap cleanup EXIT

# One target folder for both builds, so dependencies compile once.
export CARGO_TARGET_DIR="$tmp/target"
mkdir -p "$tmp/bin"

build_engine() { # ref label
    local ref=$1 label=$2 src
    if [[ $ref == "." ]]; then
        src=$root
    else
        git rev-parse --verify --quiet "$ref^{commit}" >/dev/null \
            || { echo "sprt.sh: $ref is not a git ref" >&2; exit 2; }
        src="$tmp/src-$label"
        git worktree add --detach "$src" "$ref" >/dev/null
        worktrees+=("$src")
    fi
    echo "building $label ($ref)" >&2
    (cd "$src" && cargo build --release --quiet --bin pbrain-tianyuan)
    cp "$CARGO_TARGET_DIR/release/pbrain-tianyuan" "$tmp/bin/pbrain-$label"
}

build_engine "$new_ref" new
build_engine "$base_ref" base
echo "building tianyuan-match" >&2
cargo build --release --quiet --bin tianyuan-match
cp "$CARGO_TARGET_DIR/release/tianyuan-match" "$tmp/bin/"

short() { if [[ $1 == "." ]]; then echo worktree; else git rev-parse --short "$1"; fi; }
args=(
    -e "cmd=$tmp/bin/pbrain-new" "name=new-$(short "$new_ref")" "threads=$threads"
    -e "cmd=$tmp/bin/pbrain-base" "name=base-$(short "$base_ref")" "threads=$threads"
    --sprt --elo0 "$elo0" --elo1 "$elo1" --alpha "$alpha" --beta "$beta"
    --rule "$rule" --board "$board" --move-time "$movetime"
    --concurrency "$concurrency" --out "$out"
)
[[ -n $openings ]] && args+=(--openings "$openings" --random-openings)
[[ -n $gametime ]] && args+=(--game-time "$gametime")
[[ -n $increment ]] && args+=(--increment "$increment")
"$tmp/bin/tianyuan-match" "${args[@]}" "${extra[@]}"
