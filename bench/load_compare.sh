#!/usr/bin/env bash
# Bulk load beside the peers, on the servers of scripts/services.sh: storebench's DVD Store load
# into PostgreSQL and pgbench -i, into MariaDB and sysbench's prepare, each peer sized to about
# the same stored bytes, and into SQLite beside the sqlite3 shell's .import of the same rows;
# prints wall time, rows/s, stored MB, MB/s, client CPU and MB/s ratios (--skip sqlite,... to
# leave targets out).
#   bench/load_compare.sh [size, default M] [load threads, default 2] [extra load_compare.py options]
#   bench/load_compare.sh 1 2 --workload soe --postgres_only   (Order Entry at soe_scale 1)
# Size M takes about 15 minutes on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-M}
threads=${2:-2}
command -v sysbench >/dev/null || { apt-get update -qq && apt-get install -y -qq sysbench >/dev/null; }
scripts/services.sh start >/dev/null
eval "$(scripts/services.sh env)"
[ -x build/storebench ] || make binary >/dev/null
exec python3 bench/load_compare.py --size "$size" --threads "$threads" "${@:3}"
