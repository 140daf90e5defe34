#!/bin/sh
# Lists the longest functions in src/ and include/, longest first: lines, file:line, name.
# Function extents come from universal-ctags (Debian package universal-ctags), whose "end" field
# is a function's closing line; a lambda's body counts in its function (and is listed on its own
# when ctags sees it, as "<function>::(anonymous)"). Usage: scripts/function_lengths.sh [N]
# (default 20), from any directory; set ROOT to measure another checkout.
set -eu
cd "${ROOT:-$(dirname "$0")/..}"
n="${1:-20}"
if ! ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
  echo "function_lengths.sh: needs universal-ctags (apt-get install universal-ctags)" >&2
  exit 1
fi
ctags -R -x --_xformat='%{line} %{end} %{input} %{scope}::%{name}' \
  --kinds-C++=f --languages=C++ --fields=+ne src include |
  awk '$2 != "" { print $2 - $1 + 1, $3 ":" $1, $4 }' |
  sed -E 's/__anon[0-9a-f]+/(anonymous)/g; s/ ::/ /' |
  sort -k1,1nr -k2,2 | head -n "$n"
