#!/usr/bin/env bash
# storebench's driver side by side with the C drivers of the field, on the same servers and the
# same tables: sysbench oltp_read_write / oltp_point_select vs storebench's oltp workload, and
# pgbench -S -M prepared vs storebench point_select (one statement per transaction). Runs each
# pair alternating (three times by default; medians), and prints the throughput ratio and the
# client CPU seconds per transaction ratio, both measured the same way for both programs (the
# child's own rusage).
#   bench/driver_cost.sh [seconds per run] [threads] [rounds]
# Needs the servers of scripts/services.sh (it starts them if they are not running).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}
threads=${2:-4}
rounds=${3:-3}
command -v sysbench >/dev/null || { apt-get update -qq && apt-get install -y -qq sysbench >/dev/null; }
scripts/services.sh start >/dev/null
eval "$(scripts/services.sh env)"
[ -x build/storebench ] || make binary >/dev/null
exec python3 bench/driver_cost.py --seconds "$secs" --threads "$threads" --rounds "$rounds"
