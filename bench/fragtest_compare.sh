#!/usr/bin/env bash
# storebench io fragtest beside fio on the same files at 16, 2,048 and 16,384 extents of a 1 GiB
# test file: 1 MiB sequential read MB/s and RealLife-60%Rand-65%Read IOPS before and after
# defragmentation, medians of 3 (docs/storage.md, "Fragmentation").
#   bench/fragtest_compare.sh [--target build/bench-io/frag.tst] [--size 1GiB]
#                             [--extents 16,2048,16384] [--rounds 3] [--seconds 5]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v fio >/dev/null || { echo "fio is missing (scripts/install-deps.sh)" >&2; exit 2; }
[ -x build/storebench ] || make binary >/dev/null
exec python3 bench/fragtest_compare.py "$@"
