#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/*_fuzz.cc: ICF, DriverConfig, Swingbench XML, --spec,
# database URL and plan parsers, the result-file reader) with clang in build-fuzz/ and runs each
# for a bounded time from its seed corpus tests/fuzz/corpus/<name>/. Fails on the first crash,
# leak, sanitizer report or timeout; the input that caused it is left as
# build-fuzz/artifacts/<name>/crash-* (add it to the seed corpus with the fix).
#   scripts/fuzz.sh [seconds]        30 s per target by default (CI)
#   FUZZ_TARGETS="icf plan" scripts/fuzz.sh 600
#   JOBS=N BUILD_DIR=... scripts/fuzz.sh
# New inputs libFuzzer finds go to build-fuzz/corpus/<name>/ (kept between runs); the seed
# corpus in the source tree is only read.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
BUILD_DIR=${BUILD_DIR:-build-fuzz}
JOBS=${JOBS:-$(nproc)}
CC=${CC:-$(command -v clang-14 || command -v clang)}
CXX=${CXX:-$(command -v clang++-14 || command -v clang++)}
targets=${FUZZ_TARGETS:-$(cd tests/fuzz && ls ./*_fuzz.cc | sed 's|^\./||; s|_fuzz\.cc$||')}

CC=$CC CXX=$CXX cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DSTOREBENCH_FUZZ=ON -DSTOREBENCH_BUILD_TESTS=OFF -DSTOREBENCH_BUILD_BENCH=OFF >/dev/null
# All targets through the one aggregate target (tests/fuzz/CMakeLists.txt): CMake's top-level
# Makefile is .NOTPARALLEL, so a list of targets would be built one after another, each one-source
# program on one core.
if [ -z "${FUZZ_TARGETS:-}" ]; then
  names=(fuzz_targets)
else
  names=()
  for t in $targets; do names+=("${t}_fuzz"); done
fi
cmake --build "$BUILD_DIR" -j "$JOBS" --target "${names[@]}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
status=0
for t in $targets; do
  corpus="$BUILD_DIR/corpus/$t"
  artifacts="$BUILD_DIR/artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  echo "fuzz: $t for ${seconds} s" >&2
  log="$BUILD_DIR/fuzz-$t.log"
  # -timeout: one input taking over 10 s is a hang; -rss_limit_mb: a parser eating memory is a bug.
  if "$BUILD_DIR/tests/fuzz/${t}_fuzz" "$corpus" "tests/fuzz/corpus/$t" -max_total_time="$seconds" \
      -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$artifacts/" >"$log" 2>&1; then
    grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::average_exec_per_sec)' "$log" \
      | sed "s/^/fuzz: $t: /" >&2 || true
  else
    echo "fuzz: $t FAILED (log: $log; inputs: $artifacts)" >&2
    grep -E -A40 'ERROR:|runtime error|==ERROR|deadly signal' "$log" | head -80 >&2 || tail -40 "$log" >&2
    status=1
  fi
done
exit $status
