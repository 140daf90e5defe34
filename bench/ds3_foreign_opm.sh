#!/usr/bin/env bash
# storebench on a storebench-loaded and on a DVD Store-built database, side by side: the same
# S data (seed 5) loaded by storebench into one database and, as DVD Store's own scripts would,
# created with the DVD Store 3 DDL of tests/data/ds3/ and loaded from --csv_layout=ds3 files by
# the database's client into another; then alternating runs on PostgreSQL and MariaDB, 8
# threads. Prints OPM, rollback rates, the DS3-built/storebench-loaded OPM ratio and the load
# average around each run (docs/dvdstore.md, "Working with the original DVD Store").
#   bench/ds3_foreign_opm.sh [seconds per run] [rounds]
# Defaults: 60 s per run, 1 round. Replaces the DVD Store data in sbtest_ds3case and
# sbtest_ds3compat. Needs the servers of scripts/services.sh (it starts them if they are not
# running).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
rounds=${2:-1}
scripts/services.sh start >/dev/null
eval "$(scripts/services.sh env)"
[ -x build/storebench ] || make binary >/dev/null
exec python3 bench/ds3_foreign_opm.py --seconds "$secs" --rounds "$rounds"
