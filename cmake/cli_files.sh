#!/usr/bin/env bash
# The files a storebench package installs beside the program, generated from the program's own
# --help at build time, so they list exactly the commands and options that build has:
#   cmake/cli_files.sh completion BINARY OUT        bash completion (commands, verbs, options,
#                                                   the values of options with a fixed choice)
#   cmake/cli_files.sh man BINARY DOCDIR OUT.1.gz   the man page: help2man (Debian's help2man)
#                                                   on `storebench --help` and `--version`, and a
#                                                   section per command from its own --help
# Where the commands come from: the usage lines of `storebench --help` ("storebench oltp ...");
# a command's verbs from "storebench CMD a|b" (and "| CMD c") in that text and in
# `storebench CMD --help`; a command's options from `storebench CMD VERB --help`: the --names in
# its usage lines and at the start of its option lines ("  --db  (no default)  ..."); an
# option's fixed values from "(a, b or c)" at the end of its line. `run` and `consolidate` also
# take every option of `oltp run` (their instances' options; docs/plans.md).
set -euo pipefail

mode=${1:?usage: cli_files.sh completion|man BINARY ...}
bin=${2:?the storebench binary}

help_of() { "$bin" "$@" --help 2>&1 || true; }

# The words in order of first appearance, once each.
unique() { awk '!seen[$0]++'; }

commands() {
  help_of | grep -oE '(^|[[:space:]])storebench [a-z]+' | awk '{print $2}' | unique
}

verbs() {
  local cmd=$1
  { help_of; help_of "$cmd"; } |
    { grep -oE "(storebench|\|) +$cmd [a-z][a-z|]*( |\$)" || true; } | awk '{print $NF}' |
    tr '|' '\n' | { grep -v '^$' || true; } | unique
}

# The usage lines: "usage: ..." and the indented lines that continue it, without remarks in
# parentheses ("(grouped by each run's --label)"); a group of options stays ("(--preset P |
# --spec S)").
usage_lines() {
  awk '/^usage: /{u=1; print; next} u && /^[[:space:]]/ && !/^[[:space:]]+--/{print; next} {u=0}' |
    sed -E 's/\([^-(][^)]*\)//g'
}

# A help text (stdin) with each option's wrapped description joined back onto its option line:
# OptionSet wraps help at 100 columns and indents continuation lines by six spaces.
unwrap_options() {
  awk '/^  --/ {if (buf != "") print buf; buf = $0; next}
       buf != "" && /^      [^ ]/ {sub(/^ +/, " "); buf = buf $0; next}
       {if (buf != "") print buf; buf = ""; print}
       END {if (buf != "") print buf}'
}

# A help text's option names (stdin).
options_of_help() {
  local text
  text=$(unwrap_options)
  {
    usage_lines <<<"$text" | grep -oE -- '--[A-Za-z][A-Za-z0-9_-]*' || true
    # The term of an option line ends at the first two spaces; a one-letter spelling
    # ("-o, --output") may come first.
    sed -nE 's/^ +((-[A-Za-z], )?--[A-Za-z][^ ]*( [^ ][^ ]*)*)  .*$/\1/p; s/^ +(--[A-Za-z][^ ]*( [^ ]+)*)$/\1/p' \
      <<<"$text" | grep -oE -- '--[A-Za-z][A-Za-z0-9_-]*' || true
  } | unique
}

# "--name value value ..." for each option line that ends in a fixed choice "(a, b or c)".
choices_of_help() {
  unwrap_options |
  sed -nE 's/^ +(--[A-Za-z][A-Za-z0-9_-]*).*\((([A-Za-z0-9_.-]+, )*[A-Za-z0-9_.-]+ or [A-Za-z0-9_.-]+)\)$/\1 \2/p' |
    sed -E 's/,? or / /; s/,//g'
}

# The help keys ("oltp run", "compare", ...) in order.
help_keys() {
  local cmd verb vs
  for cmd in $(commands); do
    vs=$(verbs "$cmd")
    if [ -z "$vs" ]; then
      echo "$cmd"
    else
      for verb in $vs; do echo "$cmd $verb"; done
    fi
  done
}

# The help of a key as the completion and the man page read it: run and consolidate add
# oltp run's (every instance option).
help_for_key() {
  # shellcheck disable=SC2086  # a key is its words
  help_of $1
  case $1 in
    run | consolidate) help_of oltp run ;;
  esac
}

completion() {
  local out=$1 key cmd words
  local cmds
  cmds=$(commands | tr '\n' ' ')
  {
    cat <<'EOF'
# bash completion for storebench and storebench-mpi: commands, verbs, options, and the values
# of options with a fixed choice. Generated from the program's --help by cmake/cli_files.sh
# when storebench was built; installed as share/bash-completion/completions/storebench.
EOF
    echo "_storebench_commands='${cmds% }'"
    echo 'declare -gA _storebench_verbs=()'
    for cmd in $(commands); do
      words=$(verbs "$cmd" | tr '\n' ' ')
      if [ -n "$words" ]; then echo "_storebench_verbs[$cmd]='${words% }'"; fi
    done
    echo 'declare -gA _storebench_options=()'
    echo 'declare -gA _storebench_choices=()'
    declare -A union=()
    while read -r key; do
      local text
      text=$(help_for_key "$key")
      words=$(options_of_help <<<"$text" | tr '\n' ' ')
      echo "_storebench_options[$key]='${words% }'"
      cmd=${key%% *}
      if [ "$cmd" != "$key" ]; then union[$cmd]+="$words"; fi
      choices_of_help <<<"$text" | unique | while read -r opt values; do
        echo "_storebench_choices[$key $opt]='$values'"
      done
    done < <(help_keys)
    # A command whose verb is not typed yet (sysbench writes it last): every verb's options.
    for cmd in "${!union[@]}"; do
      words=$(tr ' ' '\n' <<<"${union[$cmd]}" | { grep -v '^$' || true; } | unique | tr '\n' ' ')
      echo "_storebench_options[$cmd]='${words% }'"
    done
    cat <<'EOF'

_storebench() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local cmd=${COMP_WORDS[1]} verb="" opt="" i
  COMPREPLY=()
  if ((COMP_CWORD == 1)); then
    mapfile -t COMPREPLY < <(compgen -W "$_storebench_commands --help --version" -- "$cur")
    return
  fi
  [[ $cmd =~ ^[a-z]+$ ]] || return 0
  # The verb: the first word after the command that is one of its verbs.
  for ((i = 2; i < ${#COMP_WORDS[@]}; i++)); do
    ((i == COMP_CWORD)) && continue
    if [[ " ${_storebench_verbs[$cmd]-} " == *" ${COMP_WORDS[i]} "* ]]; then
      verb=${COMP_WORDS[i]}
      break
    fi
  done
  local key=$cmd${verb:+ $verb}
  # A value: after "--name=" (bash splits the word at "=") or "--name ".
  if [[ $cur == "=" ]]; then
    opt=$prev
    cur=""
  elif [[ $prev == "=" ]] && ((COMP_CWORD >= 3)); then
    opt=${COMP_WORDS[COMP_CWORD - 2]}
  elif [[ $prev == --* ]]; then
    opt=$prev
  fi
  if [[ -n $opt && -n ${_storebench_choices[$key $opt]-} ]]; then
    mapfile -t COMPREPLY < <(compgen -W "${_storebench_choices[$key $opt]}" -- "$cur")
    return
  fi
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "${_storebench_options[$key]-} --help" -- "$cur")
    return
  fi
  if [[ -z $verb && -n ${_storebench_verbs[$cmd]-} ]] && ((COMP_CWORD == 2)); then
    mapfile -t COMPREPLY < <(compgen -W "${_storebench_verbs[$cmd]}" -- "$cur")
    return
  fi
  # Anything else (paths, URLs, numbers): file names (complete -o default).
}
complete -o default -F _storebench storebench storebench-mpi
EOF
  } >"$out.tmp"
  mv "$out.tmp" "$out"
}

# Help text as roff (man(7)): usage lines kept as they are, option lines as tagged paragraphs,
# "... options:" headings as subsections, other lines as running text. An option described the
# same way in an earlier section (file $1: one "term<TAB>text" a line) is only named, at the
# end ("Also, as above: ..."), and a line of text already printed is left out.
roff_of_help() {
  sed -E 's/\\/\\e/g; s/-/\\-/g' | awk -v seen_file="$1" '
    BEGIN { while ((getline l < seen_file) > 0) seen[l] = 1; close(seen_file) }
    # A heading or paragraph break waits for the text under it (none when every option under
    # it was described before).
    function req(s) {
      if (heading != "") { print heading; heading = ""; gap = 0 }
      if (gap) { print ".PP"; gap = 0 }
      print s
    }
    # Text: a line starting with . or a quote would be a request.
    function out(s) { req(s ~ /^[.\047]/ ? "\\&" s : s) }
    /^usage: / { if (!nf) req(".nf"); nf = 1; out($0); next }
    nf && /^[[:space:]]/ && !/^[[:space:]]+\\-\\-/ { out($0); next }
    nf { print ".fi"; nf = 0 }
    /^$/ { gap = 1; heading = ""; next }
    /^ +\\-/ {
      line = $0; sub(/^ +/, "", line)
      at = index(line, "  ")
      term = at ? substr(line, 1, at - 1) : line
      body = at ? substr(line, at) : ""; sub(/^ +/, "", body)
      if ((term "\t" body) in seen) { also = also (also ? ", " : "") "\\fB" term "\\fR"; next }
      print term "\t" body >> seen_file
      req(".TP"); print "\\fB" term "\\fR"; if (body != "") out(body); next
    }
    /^[A-Za-z].*:$/ { h = $0; sub(/:$/, "", h); gsub(/"/, "", h); heading = ".SS \"" h "\""; next }
    {
      sub(/^ +/, "")
      # A remark every oltp verb repeats ("with --workload noop (no options of its own)"): once.
      if (("\t" $0) in seen) next
      print "\t" $0 >> seen_file
      out($0)
    }
    END {
      if (nf) print ".fi"
      if (also != "") { heading = ""; gap = 1; out("Also, as above: " also ".") }
    }'
}

man_page() {
  local docdir=$1 out=$2 key section text
  command -v help2man >/dev/null || { echo "cli_files.sh: help2man is not installed" >&2; exit 1; }
  include=$(mktemp)
  seen=$(mktemp)
  page=${out%.gz}
  trap 'rm -f "$include" "$seen" "$page"' EXIT
  {
    while read -r key; do
      # shellcheck disable=SC2086  # a key is its words
      text=$(help_of $key)
      # Only commands with a usage (not `version`), each usage once (sysbench's prepare and
      # cleanup are load).
      grep -q '^usage: ' <<<"$text" || continue
      grep -qxF -- "$(grep -m1 '^usage: ' <<<"$text")" "$seen" && continue
      grep -m1 '^usage: ' <<<"$text" >>"$seen"
      section=$(tr '[:lower:]' '[:upper:]' <<<"storebench $key")
      echo "[$section]"
      roff_of_help "$seen" <<<"$text"
      case $key in
        run | consolidate) printf '%s\n' ".PP" 'Every option of \fBoltp run\fR applies too.' ;;
      esac
    done < <(help_keys)
    cat <<EOF
[SEE ALSO]
.BR sysbench (1),
.BR fio (1),
.BR pgbench (1),
.BR mpirun (1)
(storebench\\-mpi: storebench with MPI, for runs over several client processes).
.PP
The documentation, with example plans and configuration files, is in
.I $docdir
under the installation prefix
.RI ( /usr/$docdir
from the Debian package): README.md for the commands, the other *.md files per subject,
examples/.
EOF
  } >"$include"
  # The footer names the version; the commit and build type of --version's line would crowd it.
  help2man --no-info --section=1 --version-string="$("$bin" --version | awk 'NR == 1 {print $2}')" \
    --name="benchmark suite for database servers and storage" \
    --include="$include" --output="$page" "$bin"
  gzip -n -9 -c "$page" >"$out.tmp"
  mv "$out.tmp" "$out"
}

case $mode in
  completion) completion "${3:?output file}" ;;
  man) man_page "${3:?the documentation directory}" "${4:?output file}" ;;
  *) echo "usage: cli_files.sh completion|man BINARY ..." >&2; exit 2 ;;
esac
