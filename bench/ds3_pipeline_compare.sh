#!/usr/bin/env bash
# DVD Store 3's own load pipeline beside storebench's, on the servers of scripts/services.sh:
# rounds alternating DS3 end to end (its C data generators, built with gcc from the sources, then
# its pgsqlds3/ or mysqlds3/ build scripts through psql or mariadb, as Install_DVDStore.pl and its
# create_all scripts run them) and `storebench oltp load` of the same size, each into a new empty
# database; prints each round's phase times, the medians and the DS3/storebench ratio
# (docs/load-performance.md, "DVD Store 3's own pipeline").
#   bench/ds3_pipeline_compare.sh [--ds3 DIR] [--size S|M] [--rounds N] [--servers postgres,mariadb]
#       [--pg_dbs DS3DB,SBDB] [--mysql_dbs DS3DB,SBDB] [--pipelines DS3,storebench]
#       [--sb_args 'more storebench load options'] [--keep]
# DIR is a checkout of github.com/dvdstore/ds3 (its root or its ds3/), only read: the sources are
# copied into a temporary directory. Without --ds3 only storebench's phase times are printed.
# Size S, 3 rounds: about 3 minutes on PostgreSQL and 5.5 on MariaDB on a busy 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(scripts/services.sh env)"
[ -x build/storebench ] || make binary >/dev/null
exec python3 bench/ds3_pipeline_compare.py "$@"
