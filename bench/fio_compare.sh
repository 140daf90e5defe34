#!/usr/bin/env bash
# storebench side by side with fio on the same specifications (4 KiB random read at queue depth
# 32 and the four VMTN specs), the same file, engine (io_uring, libaio) and queue depth, runs
# alternating. Prints the IOPS ratio (storebench / fio; goal >= 1.0) and the CPU time per I/O
# ratio (storebench / fio; goal <= 1.0), both tools' CPU measured the same way (process rusage),
# and the null engine's ceiling in IOPS per core.
#   bench/fio_compare.sh [--seconds 10] [--rounds 2] [--target build/bench-io/iobw.tst]
#                        [--size 1GiB] [--qd 32] [--vmtn_qd 64] [--engines io_uring,libaio]
#                        [--fio_extra "--iodepth_batch_submit=32"]
# Longer, steadier numbers: bench/fio_compare.sh --seconds 60 --rounds 3
set -euo pipefail
cd "$(dirname "$0")/.."
command -v fio >/dev/null || { apt-get update -qq && apt-get install -y -qq fio >/dev/null; }
[ -x build/storebench ] || make binary >/dev/null
exec python3 bench/fio_compare.py "$@"
