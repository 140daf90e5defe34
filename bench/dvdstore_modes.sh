#!/usr/bin/env bash
# DVD Store's two SQL modes side by side: --sql_mode=client (prepared statements from the
# driver) and --sql_mode=procedures (one stored-procedure call per step), on PostgreSQL and
# MariaDB, 8 threads, alternating client / procedures runs on the same loaded database. Prints
# OPM and the driver's CPU seconds per order (the storebench process's own rusage, user +
# system, the same way for both modes) and the procedures/client ratios.
#   bench/dvdstore_modes.sh [seconds per run] [rounds] [database]
# Defaults: 30 s per run, 2 rounds (60 s per mode and server), database ds3, loaded with
# db_size=S first (--force: it replaces the DVD Store database there). Needs the servers of
# scripts/services.sh (it starts them if they are not running).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}
rounds=${2:-2}
db=${3:-ds3}
scripts/services.sh start >/dev/null
eval "$(scripts/services.sh env)"
[ -x build/storebench ] || make binary >/dev/null
exec python3 bench/dvdstore_modes.py --seconds "$secs" --rounds "$rounds" --database "$db"
