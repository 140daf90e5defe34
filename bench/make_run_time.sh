#!/usr/bin/env bash
# Times the README's `make run` from a clean clone of this repository, phase by phase: the
# packages (scripts/install-deps.sh run), configure and build of the program, the S load and the
# run. Each phase is the Makefile's own target, run in the order `make run` runs them, so the sum is
# what a user waits for. On a machine that has the packages already, the packages phase measures
# only the check (a fresh machine's figure is in the closing notes / docs).
#   bench/make_run_time.sh [RUN_ARGS...]     e.g. bench/make_run_time.sh --run_time=30s
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
dir="$(mktemp -d /tmp/storebench-make-run.XXXXXX)"
trap 'rm -rf "$dir"' EXIT
git clone -q "$src" "$dir/repo"
cd "$dir/repo"
args=()
if [ $# -gt 0 ]; then args=("RUN_ARGS=$*"); fi
phase() {
  local name=$1; shift
  local t0; t0=$(date +%s.%N)
  "$@" >"$dir/$name.log" 2>&1 || { echo "$name failed: see below" >&2; tail -20 "$dir/$name.log" >&2; exit 1; }
  local t1; t1=$(date +%s.%N)
  printf '%-10s %7.1f s\n' "$name" "$(echo "$t1 - $t0" | bc)"
  echo "$t1 - $t0" | bc >>"$dir/total"
}
phase packages make deps-run
phase build make binary
phase load+run make -o deps-run -o binary run "${args[@]}"
printf '%-10s %7.1f s\n' total "$(paste -sd+ "$dir/total" | bc)"
grep -E '^Final \(' "$dir/load+run.log" | tail -1
