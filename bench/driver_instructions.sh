#!/usr/bin/env bash
# User-space instructions per transaction, storebench beside sysbench and pgbench on the same
# servers and tables, counted by callgrind: the noise-free companion of driver_cost.sh (CPU
# seconds move with whatever else the machine does; instruction counts do not).
#   bench/driver_instructions.sh [point-select transactions] [read_write transactions]
# Needs the servers of scripts/services.sh (it starts them if they are not running); takes a few
# minutes (callgrind runs the programs some 50 times slower).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v sysbench >/dev/null || { apt-get update -qq && apt-get install -y -qq sysbench >/dev/null; }
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }
scripts/services.sh start >/dev/null
eval "$(scripts/services.sh env)"
[ -x build/storebench ] || make binary >/dev/null
exec python3 bench/driver_instructions.py --point_selects "${1:-20000}" --read_writes "${2:-1000}"
