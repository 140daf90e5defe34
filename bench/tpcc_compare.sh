#!/usr/bin/env bash
# TPC-C-like figures on the servers of scripts/services.sh: the load of W warehouses into
# PostgreSQL beside pgbench -i for the same stored bytes, storebench's CPU per New-Order at 8
# virtual users on PostgreSQL and MariaDB, and 15,000 keying-and-thinking terminals over 64
# connections on PostgreSQL and on the null back end (bench/tpcc_compare.py says how each is
# measured).
#   bench/tpcc_compare.sh [warehouses, default 10] [load threads, default 2] [run seconds, 30]
#                         [database, default sbbench] [parts, default load,driver,terminals,null]
#   bench/tpcc_compare.sh 10 2 30 sbbench null    # the null back end's terminals only
set -euo pipefail
cd "$(dirname "$0")/.."
parts=${5:-load,driver,terminals,null}
if [ "$parts" != null ]; then
  scripts/services.sh start >/dev/null
  eval "$(scripts/services.sh env)"
fi
[ -x build/storebench ] || make binary >/dev/null
exec python3 bench/tpcc_compare.py --warehouses "${1:-10}" --threads "${2:-2}" \
  --seconds "${3:-30}" --database "${4:-sbbench}" --parts "$parts"
