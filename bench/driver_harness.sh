#!/usr/bin/env bash
# Measures the driver itself with the null back end and the noop workload (one trivial call per
# operation): the closed-loop maximum operations per second per core, and open-loop accuracy
# (achieved vs requested rate at 1k, 10k and 100k operations/s). Prints a table.
#   bench/driver_harness.sh [build/storebench] [seconds]
set -euo pipefail
bin=${1:-build/storebench}
secs=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {  # run NAME ARGS...: runs storebench, prints "ops_per_sec p99_ms cpu_share"
  local name=$1
  shift
  "$bin" oltp run --workload=noop --db null:// --warmup_time=0 --run_time="${secs}s" \
    --progress=none --json "$tmp/$name.json" "$@" >/dev/null 2>&1
  python3 - "$tmp/$name.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ops = {o["type"]: o for o in d["operations"]}
lag = ops.get("schedule_lag", {}).get("p99_ms", 0.0)
print(d["figures"]["ops_per_sec"], ops["op"]["p99_ms"], lag, d["driver"]["cpu_share_of_core"])
PY
}

printf '%-34s %14s %10s %12s %10s\n' "case" "ops/s" "ratio" "lag p99 ms" "cpu/core"
read -r ops p99 lag cpu <<<"$(run closed1 --n_threads=1)"
printf '%-34s %14.0f %10s %12s %10.2f\n' "closed loop, 1 thread (max)" "$ops" "-" "-" "$cpu"
printf '%-34s %14.0f %10s %12s %10s\n' "  per core of driver CPU" "$(python3 -c "print($ops/$cpu)")" "-" "-" "-"
for rate in 1000 10000 100000; do
  read -r ops p99 lag cpu <<<"$(run "open$rate" --n_threads=2 --rate="$rate")"
  printf '%-34s %14.0f %10.4f %12.3f %10.2f\n' "open loop, requested ${rate}/s" "$ops" \
    "$(python3 -c "print($ops/$rate)")" "$lag" "$cpu"
done
