#!/usr/bin/env bash
# Line coverage per folder (make coverage): builds storebench and the tests with GCC's --coverage
# in build-cov/ (-O0, so each line is counted where it stands; atomic counters, as the tests run
# threads), runs the tests of the labels asked
# (ctest -L; every test by default, the servers from `scripts/services.sh env`), then gcovr
# (Debian's) summarizes the lines of src/ and include/ that ran: a table per folder on stdout,
# the per-file report in build-cov/coverage/ (coverage.txt, coverage.json, index.html).
#   scripts/coverage.sh                        every test (make test's servers must be running)
#   COVERAGE_LABELS='^unit$' scripts/coverage.sh   the unit tests only (no server, minutes)
#   COVERAGE_REPORT_ONLY=1 scripts/coverage.sh     the report of what the last run counted
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-cov}
JOBS=${JOBS:-$(nproc)}
COVERAGE_LABELS=${COVERAGE_LABELS:-.}
command -v gcovr >/dev/null || {
  echo "make coverage needs gcovr: scripts/install-deps.sh test (or apt-get install gcovr)" >&2
  exit 2
}

if [ -z "${COVERAGE_REPORT_ONLY:-}" ]; then
  # No unity batches (a batch's lines would be counted under the batch file), no benchmarks.
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O0 -g0" \
    -DCMAKE_CXX_FLAGS="--coverage -fprofile-update=atomic" -DCMAKE_EXE_LINKER_FLAGS="--coverage" \
    -DSTOREBENCH_UNITY=OFF -DSTOREBENCH_BUILD_BENCH=OFF -DSTOREBENCH_BUILD_TESTS=ON >/dev/null
  cmake --build "$BUILD_DIR" -j "$JOBS"
  find "$BUILD_DIR" -name '*.gcda' -delete
  if [ "$COVERAGE_LABELS" != '^unit$' ] && [ -x scripts/services.sh ]; then
    eval "$(scripts/services.sh env 2>/dev/null)" || true
  fi
  # A failing test still leaves its counts; the report says what ran either way.
  (cd "$BUILD_DIR" && ctest -j "$JOBS" -L "$COVERAGE_LABELS" --output-on-failure) || \
    echo "coverage: some tests failed (their lines are counted as far as they ran)" >&2
fi

out="$BUILD_DIR/coverage"
mkdir -p "$out"
# Generated sources (the embedded SQL) and the tests themselves are not what is measured.
gcovr -r . --object-directory "$BUILD_DIR" -j "$JOBS" --filter 'src/' --filter 'include/' \
  --gcov-ignore-parse-errors --print-summary \
  --txt "$out/coverage.txt" --json-summary-pretty --json-summary "$out/coverage.json" \
  --html-details "$out/index.html" >/dev/null
python3 scripts/coverage_folders.py "$out/coverage.json"
