#!/usr/bin/env bash
# make lint: clang-format-14 (the repository's .clang-format) on the lines changed, and
# clang-tidy-14 (the repository's .clang-tidy, every finding an error) on the lines changed,
# against a base:
#   LINT_BASE if set; else the merge-base of HEAD with origin/main, else with main; when that
#   is HEAD itself (a clean clone of main, as in CI) the last commit's parent, HEAD~1. Without
#   any of them (a single commit or a shallow clone) there is nothing to compare: a note, and
#   success.
# The working tree is compared, so uncommitted changes are checked too. clang-tidy reads the
# compile commands of BUILD_DIR (default build/, configured here with
# CMAKE_EXPORT_COMPILE_COMMANDS; the generated headers must exist: run it after a build); a
# changed header is checked through the .cc file of the same name when there is one (and any
# changed .cc that includes it), and findings count only on changed lines.
#   scripts/lint.sh                     the changes against the base above
#   LINT_BASE=HEAD~3 scripts/lint.sh    against another commit
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
CLANG_FORMAT=${CLANG_FORMAT:-clang-format-14}
CLANG_TIDY=${CLANG_TIDY:-clang-tidy-14}

commit_exists() { git rev-parse --verify -q "$1^{commit}" >/dev/null 2>&1; }

base=${LINT_BASE:-}
if [ -z "$base" ]; then
  head=$(git rev-parse HEAD)
  for ref in origin/main main; do
    if commit_exists "$ref"; then
      base=$(git merge-base HEAD "$ref" 2>/dev/null || true)
      break
    fi
  done
  if [ -z "$base" ] || [ "$base" = "$head" ]; then
    base=""
    commit_exists HEAD~1 && base=$(git rev-parse HEAD~1)
  fi
fi
if [ -z "$base" ]; then
  echo "lint: no base to compare with (no origin/main, main or HEAD~1): nothing checked" >&2
  exit 0
fi
if ! commit_exists "$base"; then
  echo "lint: LINT_BASE=$base is not a commit" >&2
  exit 2
fi

mapfile -t files < <(git diff --name-only --diff-filter=ACMR "$base" -- \
  '*.cc' '*.h' | grep -v '^tests/fuzz/corpus' || true)
if [ ${#files[@]} -eq 0 ]; then
  echo "lint: no C++ file changed since $(git rev-parse --short "$base")" >&2
  exit 0
fi
echo "lint: ${#files[@]} C++ file(s) changed since $(git rev-parse --short "$base")" >&2
for tool in "$CLANG_FORMAT" "$CLANG_TIDY" "git-$CLANG_FORMAT"; do
  command -v "$tool" >/dev/null || {
    echo "lint: $tool is missing: scripts/install-deps.sh test (Debian: clang-format-14," \
      "clang-tidy-14)" >&2
    exit 2
  }
done
status=0

# Only the changed lines: a file's untouched lines keep their format (git clang-format).
format_diff=$("git-$CLANG_FORMAT" --binary "$CLANG_FORMAT" --diff "$base" -- "${files[@]}" 2>&1 ||
  true)
if grep -q '^@@' <<<"$format_diff"; then
  echo "lint: clang-format: these changed lines are not formatted" \
    "(fix: git-$CLANG_FORMAT --binary $CLANG_FORMAT $base):" >&2
  echo "$format_diff" >&2
  status=1
fi

cmake -S . -B "$BUILD_DIR" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
# A source compiled in a unity batch (STOREBENCH_UNITY) is not in compile_commands.json by its own
# name: it gets its batch's command, with itself in place of the batch, in a copy of the database.
tidy_dir=$(mktemp -d)
trap 'rm -rf "$tidy_dir"' EXIT
python3 - "$BUILD_DIR/compile_commands.json" "$tidy_dir/compile_commands.json" <<'PY'
import glob, json, os, re, sys
entries = json.load(open(sys.argv[1]))
by_file = {os.path.realpath(e["file"]): e for e in entries}
for e in list(entries):
    if "/Unity/" not in e["file"]:
        continue
    for source in re.findall(r'#include "([^"]+)"', open(e["file"]).read()):
        source = os.path.realpath(source)
        if source not in by_file:
            entry = dict(e, file=source, command=e["command"].replace(e["file"], source))
            entries.append(entry)
            by_file[source] = entry
json.dump(entries, open(sys.argv[2], "w"), indent=1)
PY
db="$tidy_dir/compile_commands.json"
# Findings count only on the changed lines (clang-tidy's -line-filter: the added lines of each
# changed file, headers included), as for clang-format: an untouched line is not linted.
line_filter=$(for f in "${files[@]}"; do
  git diff -U0 "$base" -- "$f" | awk -v f="$f" '
    /^@@/ {
      split($3, a, ",")  # +start[,count]
      start = substr(a[1], 2); count = (a[2] == "") ? 1 : a[2]
      if (count > 0) ranges = ranges (ranges == "" ? "" : ",") "[" start "," start + count - 1 "]"
    }
    END { if (ranges != "") printf "{\"name\":\"%s\",\"lines\":[%s]}\n", f, ranges }'
done | paste -sd, -)
sources=()
for f in "${files[@]}"; do
  case "$f" in
    *.h) [ -f "${f%.h}.cc" ] && sources+=("${f%.h}.cc") ;;
    *) sources+=("$f") ;;
  esac
done
mapfile -t sources < <(printf '%s\n' "${sources[@]}" | sort -u | sed '/^$/d')
# Only lines removed: nothing to tidy (an empty -line-filter would check every line).
[ -n "$line_filter" ] || sources=()
for f in "${sources[@]}"; do
  if ! grep -q "\"file\": \".*/$f\"" "$db"; then
    echo "lint: clang-tidy: $f is not in $db (not built here): skipped" >&2
    continue
  fi
  echo "lint: clang-tidy $f" >&2
  # The compile commands are GCC's: clang ignores the warning options it does not know. Its
  # count of the findings it suppressed (in system headers, off the changed lines) is dropped.
  set +e
  "$CLANG_TIDY" --quiet -p "$tidy_dir" --warnings-as-errors='*' --header-filter='.*' \
    --line-filter="[$line_filter]" --extra-arg=-Wno-unknown-warning-option "$f" 2>&1 |
    grep -v '^[0-9]* warnings\? generated\.$' >&2
  rc=${PIPESTATUS[0]}
  set -e
  [ "$rc" -eq 0 ] || status=1
done
[ $status -eq 0 ] && echo "lint: passed" >&2
exit $status
