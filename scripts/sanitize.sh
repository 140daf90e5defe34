#!/usr/bin/env bash
# The sanitizer check (make sanitize; .ci/run runs it after make test): builds storebench and the
# unit test programs with AddressSanitizer + UndefinedBehaviorSanitizer (float-cast-overflow
# included, no recovery) in build-asan/, runs the unit-labelled GoogleTest cases (ctest -L unit:
# no server, not the slow ones; the server, slow and integration tests run in make test), then
# short real runs of the binary: an SQLite DVD Store load, verify and 10-second run, an oltp
# (sysbench-style) load and run, an Order Entry load, run and verify, and io runs with the null
# engine and on a small prepared file (--icf tests/data/some.icf, --preset). Any sanitizer report
# fails: the program stops with a failing status (no recovery), and the whole output of the tests
# and runs (build-asan/sanitize-logs/) is also searched for reports, so one from a process whose
# status nobody checks fails too.
#   scripts/sanitize.sh            configure, build, test
#   BUILD_DIR=... JOBS=N CTEST_ARGS="-R Histogram" CTEST_LABELS='^(unit|server|slow)$' \
#     CTEST_EXCLUDE='Slow' scripts/sanitize.sh   other tests (CTEST_LABELS='.' every labelled one)
#   SANITIZE_CXXFLAGS="-O1" scripts/sanitize.sh   other compile flags (default -O1 -g1)
# Only storebench and the test programs with unit cases are built: not storebench-mpi, the
# benchmarks, nor the programs whose every case needs a server (postgres_backend_test,
# mysql_backend_test) or is slow (generator_data_test); SANITIZE_TARGETS=all builds everything.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-asan}
JOBS=${JOBS:-$(nproc)}
CTEST_ARGS=${CTEST_ARGS:-}
CTEST_LABELS=${CTEST_LABELS:-'^unit$'}
CTEST_EXCLUDE=${CTEST_EXCLUDE:-}

# -O1 -g1 (line tables), without NDEBUG (asserts on). -O0 halves the compile time (CPU time of one
# compile with GCC 12 and ASan + UBSan, against -O2 without them: src/cli/consolidate.cc 8.0 s at
# -O1 -g1, 5.5 s at -O0 (4.4 s at -O2); tests/unit/metrics/histogram_test.cc 6.2-6.5 s, 2.9-3.3 s,
# 2.3-2.5 s with <gtest/gtest.h> precompiled (3.1-3.3 s)) but not the check's time: the DVD Store
# generator's unit tests ran ~15 times slower (GeneratorDataTest.* 40-52 s each instead of 3.3 s,
# CsvDs3SizeS.CountsAndFieldsPerFile 132 s; the unit tests 705 s on a loaded machine). Other flags:
# SANITIZE_CXXFLAGS="-O1". <gtest/gtest.h> is precompiled once for the test programs
# (STOREBENCH_TEST_PCH, tests/CMakeLists.txt).
SANITIZE_CXXFLAGS=${SANITIZE_CXXFLAGS:-"-O1 -g1"}
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$SANITIZE_CXXFLAGS" \
  -DSTOREBENCH_SANITIZE=ON -DSTOREBENCH_BUILD_BENCH=OFF -DSTOREBENCH_TEST_PCH=ON >/dev/null
# One target (tests/CMakeLists.txt: sb_sanitize_programs, the list above), so that make builds
# its programs side by side: a list of targets is built one after another.
SANITIZE_TARGETS=${SANITIZE_TARGETS:-sb_sanitize_programs}
# shellcheck disable=SC2086
cmake --build "$BUILD_DIR" -j "$JOBS" --target $SANITIZE_TARGETS

logs="$(pwd)/$BUILD_DIR/sanitize-logs"
rm -rf "$logs"
mkdir -p "$logs"
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:strict_string_checks=1:check_initialization_order=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

# Reports in the saved output (GCC's UBSan runtime ignores log_path, so the output is searched).
check_logs() {
  local pattern='runtime error:|ERROR: (AddressSanitizer|LeakSanitizer)|SUMMARY: [A-Za-z]+Sanitizer'
  if grep -E -l "$pattern" "$logs"/* >/dev/null 2>&1; then
    echo "sanitize: sanitizer reports:" >&2
    grep -E -h -A30 "$pattern" "$logs"/* | head -200 >&2
    return 1
  fi
}
fail() {
  echo "sanitize: FAILED: $*" >&2
  check_logs || true
  exit 1
}

start=$(date +%s)
# shellcheck disable=SC2086
(cd "$BUILD_DIR" && ctest --output-on-failure --output-log "$logs/ctest.log" -j 2 \
  -L "$CTEST_LABELS" ${CTEST_EXCLUDE:+-E "$CTEST_EXCLUDE"} $CTEST_ARGS) ||
  fail "unit tests"
check_logs || fail "unit tests"
echo "sanitize: unit tests passed in $(($(date +%s) - start)) s" >&2

bin="$(pwd)/$BUILD_DIR/storebench"
tmp="$(pwd)/$BUILD_DIR/sanitize-tmp"
rm -rf "$tmp"
mkdir -p "$tmp"
run() {
  echo "sanitize: storebench $*" >&2
  "$bin" "$@" >"$tmp/last.out" 2>&1 || { cat "$tmp/last.out" >&2; fail "storebench $*"; }
  { echo "== storebench $*"; cat "$tmp/last.out"; } >>"$logs/runs.log"
}
start=$(date +%s)
run oltp load --db "sqlite://$tmp/ds.db" --db_size=1MB --load_threads=2
# Paced: at 1MB new customers draw names from newuser1..2000, which an unpaced run on a quiet
# machine uses up within seconds (then every new customer finds its name taken).
run oltp run --db "sqlite://$tmp/ds.db" --db_size=1MB --n_threads=2 --warmup_time=0 \
  --think_time=0.01 --run_time=10s --json "$tmp/run.json"
run oltp verify --db "sqlite://$tmp/ds.db"
run oltp load --workload oltp --db "sqlite://$tmp/sb.db" --tables 2 --table_size 2000
run oltp run --workload oltp --test read_write --db "sqlite://$tmp/sb.db" --tables 2 \
  --table_size 2000 --threads 2 --duration 3s --warmup 0 --json "$tmp/oltp.json"
run oltp load --workload soe --db "sqlite://$tmp/soe.db" --soe_scale 0.001 --load_threads=2
run oltp run --workload soe --db "sqlite://$tmp/soe.db" --config_file docs/examples/soe_vmware_ft.xml \
  --n_threads 4 --min_delay 1 --max_delay 5 --run_time 3s --json "$tmp/soe.json"
run oltp verify --workload soe --db "sqlite://$tmp/soe.db"
run io prepare --target "$tmp/io.tst" --size 16MiB
run io run --engine null --target "$tmp/io.tst" --preset vmtn --run_time 2s \
  --json "$tmp/io-null.json"
run io run --engine psync --target "$tmp/io.tst" --icf tests/data/some.icf --run_time 2s \
  --ramp_time 0s --json "$tmp/io-icf.json"
run io run --target "$tmp/io.tst" --spec "8KiB,65%read,60%random;64KiB,100%read,0%random" \
  --outstanding 8 --run_time 2s --json "$tmp/io-spec.json" --csv "$tmp/io-spec.csv"
run io verify --target "$tmp/io.tst" --verify_phase=both
check_logs || fail "storebench runs"
echo "sanitize: storebench runs passed in $(($(date +%s) - start)) s" >&2
rm -rf "$tmp"
echo "sanitize: no sanitizer reports" >&2
