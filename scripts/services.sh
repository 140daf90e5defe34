#!/usr/bin/env bash
# Throwaway PostgreSQL and MariaDB servers for tests, CI and development.
#
#   scripts/services.sh start    start both (idempotent), create user storebench and the
#                                databases (DATABASES below), print the DSNs
#   scripts/services.sh stop     stop both (data stays; 'start' reuses it)
#   scripts/services.sh status   say what runs where
#   scripts/services.sh env      print the DSNs as shell exports (eval "$(scripts/services.sh env)")
#   scripts/services.sh destroy  stop both and delete their data
#   scripts/services.sh restart-postgres|restart-mariadb [seconds]
#                                fault tests: the server goes away for that long, then returns
#   scripts/services.sh checkpoint-postgres
#                                fault tests: PostgreSQL's CHECKPOINT now, so a restart is quick
#   scripts/services.sh start-instances K
#                                also K small PostgreSQL and K small MariaDB servers (1..16), each
#                                with its own port, data directory and memory limit (idempotent;
#                                'env' prints their URLs, 'stop' and 'stop-instances' stop them)
#   scripts/services.sh restart-instance pg|mariadb I [seconds]
#                                fault tests: instance server I goes away, the others go on
#   scripts/services.sh stop-instance|start-instance pg|mariadb I
#                                the same in two steps (the test chooses when it comes back)
#   scripts/services.sh start-pfs  also one small MariaDB server with performance_schema on (the
#                                per-schema cross-check; start-instances starts it too; 'env'
#                                prints its URL, 'stop' and 'stop-instances' stop it)
#   scripts/services.sh instance-plan [database]
#                                the running instance servers as plan groups, one per kind
#                                (pg, my) listing its servers' databases
#
# The servers come from the Debian packages (scripts/install-deps.sh), listen on 127.0.0.1 only
# and keep their data, sockets and logs under build/services/ (STOREBENCH_SERVICES_DIR). Neither
# needs a password: PostgreSQL trusts loopback connections and the MariaDB user storebench has
# none, so no password ever appears on a command line. If another server already listens on
# 5432 or 3306, the next free port of 15432.. / 13306.. is used instead and the DSNs say so
# (STOREBENCH_PG_PORT / STOREBENCH_MYSQL_PORT choose a port explicitly).
set -euo pipefail

# Through links too (a directory that links to scripts/ finds this repository).
ROOT="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
DIR="${STOREBENCH_SERVICES_DIR:-$ROOT/build/services}"
PG_BIN="${STOREBENCH_PG_BIN:-/usr/lib/postgresql/15/bin}"
PG_DIR="$DIR/postgres"
MY_DIR="$DIR/mariadb"
# ds3, oltp, soe and tpcc are for the user (the README's commands, which
# tests/integration/test_readme_commands.py runs), sbtest, sbbench and sbpeer for bench/;
# storebench_test holds the back-end unit tests' scratch tables; the other sbtest_* databases
# hold one test's workload each, so tests can run in parallel; sbtest_empty stays empty (the
# refusal of a database without a schema).
DATABASES=(ds3 oltp soe tpcc sbtest sbbench sbpeer storebench_test sbtest_dvd sbtest_oltp
  sbtest_deadlock sbtest_dvdconf sbtest_fault sbtest_fault_load sbtest_empty sbtest_restore
  sbtest_soe sbbench_soe sbtest_tpcc sbtest_ds3compat sbtest_ds3case SBTEST_DS3CASE)
# initdb and postgres refuse to run as root; they run as this (unprivileged) user then.
PG_OS_USER="${STOREBENCH_PG_OS_USER:-postgres}"
PG_LINK="$PG_DIR"
# The PostgreSQL data may live elsewhere (see start_pg); work on the real path.
if [ -L "$PG_DIR" ]; then PG_DIR="$(readlink -f "$PG_DIR")"; fi

# What start_pg / start_my set up: the main servers' settings here; use_pg_instance and
# use_my_instance switch them to one instance server (in a subshell).
PG_SETTINGS="max_connections = 200
shared_buffers = 256MB
max_wal_size = 2GB"
PG_EXPLICIT_PORT="${STOREBENCH_PG_PORT:-}"
PG_PORT_HINT="set STOREBENCH_PG_PORT to a free port"
PG_ALT_NAME=postgres  # under /var/tmp when the OS user cannot reach $DIR (see start_pg)
PG_NAME=PostgreSQL
MY_EXPLICIT_PORT="${STOREBENCH_MYSQL_PORT:-}"
MY_PORT_HINT="set STOREBENCH_MYSQL_PORT to a free port"
MY_MEMORY=(--innodb-buffer-pool-size=512M --innodb-log-file-size=512M --max-connections=300)
MY_NAME=MariaDB
MY_EXTRA=()  # more server options (the performance_schema server's)
SERVER_DATABASES=("${DATABASES[@]}")
# 0: start_pg / start_my only start the server (the restart-* commands: a server that ran has its
# user and databases already, and PostgreSQL's 40-odd psql calls took seconds of each restart).
SERVER_SETUP=1

# Instance servers (start-instances K): K PostgreSQL and K MariaDB servers besides the main
# ones, for consolidation runs where several servers compete for the host as VMs do. Instance
# i listens on 127.0.0.1 port PG base + i / MariaDB base + i, keeps its data under
# $INST_DIR/pg<i> and $INST_DIR/mariadb<i>, and has small memory: PostgreSQL shared_buffers
# 64MB, MariaDB innodb_buffer_pool_size 64M.
INST_DIR="$DIR/instances"
INST_MAX=16
PG_INST_BASE="${STOREBENCH_PG_INSTANCE_PORT:-25432}"     # instances on 25433..25448
MY_INST_BASE="${STOREBENCH_MYSQL_INSTANCE_PORT:-23306}"  # instances on 23307..23322
# ds3 for the user, sbtest_plan for tests/integration/test_plan_servers.py.
INST_DATABASES=(ds3 sbtest_plan sbtest_fault_plan)
# The performance_schema server (start-pfs): MariaDB ships with performance_schema off, and so
# do the servers above; this one has it on, for the cross-check's per-schema statement counts
# (docs/measurement.md). It listens on the instance base itself (23306: instances use base + i,
# i >= 1) and keeps its data in $DIR/mariadb-pfs. sbtest_pfs holds the test's workload,
# sbtest_pfs_other another client's.
PFS_DATABASES=(sbtest_pfs sbtest_pfs_other)

log() { echo "services: $*" >&2; }
die() { echo "services: $*" >&2; exit 1; }

port_in_use() {  # port
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Runs a command as the PostgreSQL OS user when we are root, else as ourselves.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u "$PG_OS_USER" -- "$@"
  else
    "$@"
  fi
}

pg_running() {
  [ -f "$PG_DIR/data/postmaster.pid" ] && as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" status >/dev/null 2>&1
}

my_running() {
  [ -f "$MY_DIR/mariadbd.pid" ] && kill -0 "$(cat "$MY_DIR/mariadbd.pid")" 2>/dev/null
}

# The port a service uses: the one recorded at first start, else the default or the next free one.
choose_port() {  # state_file default fallback_base explicit
  local file=$1 def=$2 base=$3 explicit=$4
  if [ -n "$explicit" ]; then echo "$explicit"; return; fi
  if [ -s "$file" ]; then cat "$file"; return; fi
  if ! port_in_use "$def"; then echo "$def"; return; fi
  local p
  for p in $(seq "$base" $((base + 20))); do
    if ! port_in_use "$p"; then echo "$p"; return; fi
  done
  die "no free port near $def or $base"
}

pg_port() { cat "$PG_DIR/port" 2>/dev/null || echo 5432; }
my_port() { cat "$MY_DIR/port" 2>/dev/null || echo 3306; }

pg_psql() {  # psql as the superuser over the instance's own socket; SQL on stdin
  as_pg psql -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR/run" -p "$(pg_port)" -d postgres "$@"
}

my_client() {  # mariadb as the OS user's socket-authenticated account over the instance's own socket; SQL on stdin
  mariadb --no-defaults --protocol=socket --socket="$MY_DIR/run/mariadbd.sock" -u "$(id -un)" "$@"
}

start_pg() {
  [ -x "$PG_BIN/initdb" ] || die "PostgreSQL is not installed ($PG_BIN/initdb missing); run scripts/install-deps.sh"
  mkdir -p "$PG_DIR"
  if pg_running; then
    log "$PG_NAME already running on 127.0.0.1:$(pg_port)"
  else
    local port
    port=$(choose_port "$PG_DIR/port" 5432 15432 "$PG_EXPLICIT_PORT")
    if port_in_use "$port"; then
      die "port $port is in use by another server; $PG_PORT_HINT"
    fi
    echo "$port" >"$PG_DIR/port"
    mkdir -p "$PG_DIR/run"
    if [ "$(id -u)" -eq 0 ]; then
      chown -R "$PG_OS_USER" "$PG_DIR/"
      # The OS user must be able to reach its data directory. When the tree lives where it
      # cannot (a private home directory), the data goes to /var/tmp and build/services links it.
      if ! runuser -u "$PG_OS_USER" -- test -w "$PG_DIR/"; then
        [ -L "$PG_DIR" ] && die "$PG_DIR is not reachable by $PG_OS_USER; set STOREBENCH_SERVICES_DIR"
        local alt
        alt="/var/tmp/storebench-services-$(echo "$DIR" | cksum | cut -d' ' -f1)/$PG_ALT_NAME"
        mkdir -p "$alt"
        cp -a "$PG_DIR/." "$alt/" && rm -rf "$PG_DIR" && ln -s "$alt" "$PG_DIR"
        PG_DIR="$alt"
        chown -R "$PG_OS_USER" "$alt"
        log "$PG_NAME data in $alt ($PG_OS_USER cannot reach $DIR)"
      fi
    fi
    if [ ! -s "$PG_DIR/data/PG_VERSION" ]; then
      log "initializing $PG_NAME in $PG_DIR/data"
      # --no-sync: a throwaway server; a crash of the host loses nothing worth keeping.
      as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync \
        >"$PG_DIR/initdb.log" 2>&1 || { cat "$PG_DIR/initdb.log" >&2; die "initdb failed"; }
      cat >>"$PG_DIR/data/postgresql.conf" <<EOF
# storebench throwaway instance (scripts/services.sh)
listen_addresses = '127.0.0.1'
unix_socket_directories = '$PG_DIR/run'
$PG_SETTINGS
logging_collector = off
EOF
      # Loopback and the socket only, no password (throwaway test instance).
      cat >"$PG_DIR/data/pg_hba.conf" <<EOF
local all all trust
host all all 127.0.0.1/32 trust
EOF
    fi
    # pg_stat_statements gives the server cross-check statement counts by kind
    # (docs/measurement.md). Added to existing data directories too: it takes effect when the
    # server next starts.
    if ! grep -q "^shared_preload_libraries" "$PG_DIR/data/postgresql.conf"; then
      echo "shared_preload_libraries = 'pg_stat_statements'" >>"$PG_DIR/data/postgresql.conf"
    fi
    log "starting $PG_NAME on 127.0.0.1:$port"
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -o "-p $port" -w -t 60 start \
      >/dev/null || { tail -20 "$PG_DIR/postgres.log" >&2; die "$PG_NAME did not start"; }
  fi
  [ "$SERVER_SETUP" = 1 ] || return 0
  pg_psql <<'EOF'
SELECT 'CREATE ROLE storebench LOGIN' WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'storebench')
\gexec
EOF
  # CREATEDB: run --restore keeps a pristine copy of each database as a database of its own
  # (CREATE DATABASE ... TEMPLATE; docs/consolidation.md).
  pg_psql -c 'ALTER ROLE storebench CREATEDB' >/dev/null
  local db
  for db in "${SERVER_DATABASES[@]}"; do
    pg_psql -v db="$db" <<'EOF'
SELECT format('CREATE DATABASE %I OWNER storebench', :'db')
WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'db')
\gexec
EOF
    # Only a superuser can create it; storebench reads the view when it is there.
    pg_psql -d "$db" -c 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements'
  done
}

start_my() {
  command -v mariadbd >/dev/null || die "MariaDB is not installed (mariadbd missing); run scripts/install-deps.sh"
  # Each server's own temporary directory: instance servers are set up in parallel, and
  # bootstraps sharing /tmp were seen to trip over each other's temporary tables
  # ("Could not remove temporary table '/tmp/#sql-temptable-...'", then "Aborting").
  mkdir -p "$MY_DIR/run" "$MY_DIR/tmp"
  if my_running; then
    log "$MY_NAME already running on 127.0.0.1:$(my_port)"
  else
    local port
    port=$(choose_port "$MY_DIR/port" 3306 13306 "$MY_EXPLICIT_PORT")
    if port_in_use "$port"; then
      die "port $port is in use by another server; $MY_PORT_HINT"
    fi
    echo "$port" >"$MY_DIR/port"
    local user_opt=()
    [ "$(id -u)" -eq 0 ] && user_opt=(--user=root)
    if [ ! -d "$MY_DIR/data/mysql" ]; then
      log "initializing $MY_NAME in $MY_DIR/data"
      mariadb-install-db --no-defaults --datadir="$MY_DIR/data" --tmpdir="$MY_DIR/tmp" "${user_opt[@]}" "${MY_MEMORY[@]}" \
        --auth-root-authentication-method=socket --auth-root-socket-user="$(id -un)" --skip-test-db >"$MY_DIR/install.log" 2>&1 ||
        { cat "$MY_DIR/install.log" >&2; die "mariadb-install-db failed"; }
    fi
    log "starting $MY_NAME on 127.0.0.1:$port"
    # Full-text: InnoDB tokens from 2 characters, no stop words, so DVD Store's title and actor
    # words are all searchable (docs/dvdstore.md). LOAD DATA LOCAL INFILE for the bulk loader.
    setsid mariadbd --no-defaults --datadir="$MY_DIR/data" --tmpdir="$MY_DIR/tmp" --socket="$MY_DIR/run/mariadbd.sock" \
      --port="$port" --bind-address=127.0.0.1 "${user_opt[@]}" --pid-file="$MY_DIR/mariadbd.pid" \
      --log-error="$MY_DIR/mariadbd.err" --skip-name-resolve --local-infile=1 \
      "${MY_MEMORY[@]}" "${MY_EXTRA[@]}" \
      --innodb-ft-min-token-size=2 --innodb-ft-enable-stopword=0 \
      --character-set-server=utf8mb4 --collation-server=utf8mb4_bin \
      </dev/null >/dev/null 2>&1 &
    local i
    for i in $(seq 1 120); do
      if my_client -e "SELECT 1" >/dev/null 2>&1; then break; fi
      if ! kill -0 $! 2>/dev/null; then tail -20 "$MY_DIR/mariadbd.err" >&2; die "$MY_NAME did not start"; fi
      sleep 0.5
    done
    my_client -e "SELECT 1" >/dev/null 2>&1 || { tail -20 "$MY_DIR/mariadbd.err" >&2; die "$MY_NAME did not answer"; }
  fi
  [ "$SERVER_SETUP" = 1 ] || return 0
  {
    echo "CREATE USER IF NOT EXISTS 'storebench'@'127.0.0.1';"
    echo "CREATE USER IF NOT EXISTS 'storebench'@'localhost';"
    echo "GRANT PROCESS ON *.* TO 'storebench'@'127.0.0.1';"
    for db in "${SERVER_DATABASES[@]}"; do
      echo "CREATE DATABASE IF NOT EXISTS \`$db\`;"
      echo "GRANT ALL ON \`$db\`.* TO 'storebench'@'127.0.0.1';"
      echo "GRANT ALL ON \`$db\`.* TO 'storebench'@'localhost';"
      # The pristine copy that run --restore brings the database back from.
      echo "GRANT ALL ON \`${db}_sbpristine\`.* TO 'storebench'@'127.0.0.1';"
      echo "GRANT ALL ON \`${db}_sbpristine\`.* TO 'storebench'@'localhost';"
    done
  } | my_client
}

stop_pg() {
  if pg_running; then
    log "stopping $PG_NAME"
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w -t 60 stop >/dev/null
  fi
}

stop_my() {
  if my_running; then
    log "stopping $MY_NAME"
    local pid
    pid=$(cat "$MY_DIR/mariadbd.pid")
    kill -TERM "$pid"
    local i
    for i in $(seq 1 120); do
      kill -0 "$pid" 2>/dev/null || return 0
      sleep 0.5
    done
    die "$MY_NAME (pid $pid) did not stop"
  fi
}

# Switches start_pg/stop_pg/pg_running/... to PostgreSQL instance server $1 (call in a subshell).
use_pg_instance() {  # i
  PG_DIR="$INST_DIR/pg$1"
  PG_LINK="$PG_DIR"
  if [ -L "$PG_DIR" ]; then PG_DIR="$(readlink -f "$PG_DIR")"; fi
  PG_SETTINGS="max_connections = 100
shared_buffers = 64MB
max_wal_size = 256MB"
  PG_EXPLICIT_PORT=$((PG_INST_BASE + $1))
  PG_PORT_HINT="set STOREBENCH_PG_INSTANCE_PORT to another base (instance i listens on base + i)"
  PG_ALT_NAME="instances/pg$1"
  PG_NAME="PostgreSQL instance $1"
  SERVER_DATABASES=("${INST_DATABASES[@]}")
}

use_my_instance() {  # i
  MY_DIR="$INST_DIR/mariadb$1"
  MY_EXPLICIT_PORT=$((MY_INST_BASE + $1))
  MY_PORT_HINT="set STOREBENCH_MYSQL_INSTANCE_PORT to another base (instance i listens on base + i)"
  MY_MEMORY=(--innodb-buffer-pool-size=64M --innodb-log-file-size=48M --max-connections=100)
  MY_NAME="MariaDB instance $1"
  SERVER_DATABASES=("${INST_DATABASES[@]}")
}

# Switches start_my/stop_my/my_running/... to the performance_schema server (call in a subshell).
use_my_pfs() {
  MY_DIR="$DIR/mariadb-pfs"
  MY_EXPLICIT_PORT="${STOREBENCH_MYSQL_PFS_PORT:-$MY_INST_BASE}"
  MY_PORT_HINT="set STOREBENCH_MYSQL_PFS_PORT to a free port"
  MY_MEMORY=(--innodb-buffer-pool-size=64M --innodb-log-file-size=48M --max-connections=100)
  MY_EXTRA=(--performance-schema=ON)
  MY_NAME="MariaDB (performance_schema)"
  SERVER_DATABASES=("${PFS_DATABASES[@]}")
}

start_pfs() {
  if ! (use_my_pfs; my_running) && port_in_use "$(use_my_pfs; echo "$MY_EXPLICIT_PORT")"; then
    die "port $(use_my_pfs; echo "$MY_EXPLICIT_PORT") (MariaDB with performance_schema) is in use by another server; set STOREBENCH_MYSQL_PFS_PORT to a free port"
  fi
  (
    use_my_pfs
    start_my
    # The cross-check reads the statement summaries as the test user (docs/measurement.md).
    {
      echo "GRANT SELECT ON performance_schema.* TO 'storebench'@'127.0.0.1';"
      echo "GRANT SELECT ON performance_schema.* TO 'storebench'@'localhost';"
    } | my_client
  )
}

pfs_url() {  # the performance_schema server's URL, or nothing when it does not run
  if (use_my_pfs; my_running); then
    echo "mysql://storebench@127.0.0.1:$(use_my_pfs; my_port)/sbtest_pfs"
  fi
}

# The numbers of the instance servers that have a directory (started at least once), ascending.
instance_numbers() {
  local d
  for d in "$INST_DIR"/pg* "$INST_DIR"/mariadb*; do
    [ -e "$d" ] || continue
    d=${d##*/}
    echo "${d#pg}" | sed 's/^mariadb//'
  done | grep -E '^[0-9]+$' | sort -nu
}

running_pg_instances() { local i; for i in $(instance_numbers); do (use_pg_instance "$i"; pg_running) && echo "$i"; done; true; }
running_my_instances() { local i; for i in $(instance_numbers); do (use_my_instance "$i"; my_running) && echo "$i"; done; true; }

start_instances() {  # k
  local k=$1
  [[ "$k" =~ ^[0-9]+$ ]] && [ "$k" -ge 1 ] && [ "$k" -le "$INST_MAX" ] ||
    die "start-instances takes a number of instances from 1 to $INST_MAX, not '$k'"
  [ -x "$PG_BIN/initdb" ] || die "PostgreSQL is not installed ($PG_BIN/initdb missing); run scripts/install-deps.sh"
  command -v mariadbd >/dev/null || die "MariaDB is not installed (mariadbd missing); run scripts/install-deps.sh"
  # Every port first: nothing starts when one of them belongs to something else.
  local i taken=()
  for i in $(seq 1 "$k"); do
    if ! (use_pg_instance "$i"; pg_running) && port_in_use $((PG_INST_BASE + i)); then
      taken+=("$((PG_INST_BASE + i)) (PostgreSQL instance $i)")
    fi
    if ! (use_my_instance "$i"; my_running) && port_in_use $((MY_INST_BASE + i)); then
      taken+=("$((MY_INST_BASE + i)) (MariaDB instance $i)")
    fi
  done
  if [ ${#taken[@]} -gt 0 ]; then
    die "port $(printf '%s, ' "${taken[@]}" | sed 's/, $//') in use by another server; set STOREBENCH_PG_INSTANCE_PORT / STOREBENCH_MYSQL_INSTANCE_PORT to other bases (instance i listens on base + i)"
  fi
  # Instances beyond k stop (their data stays), so exactly k of each kind run.
  stop_instances $((k + 1))
  mkdir -p "$INST_DIR"
  # All servers at once: initdb and mariadb-install-db (first start only) are most of the time.
  local pids=() names=() rc=0 n
  for i in $(seq 1 "$k"); do
    (use_pg_instance "$i"; start_pg) & pids+=($!); names+=("PostgreSQL instance $i")
    (use_my_instance "$i"; start_my) & pids+=($!); names+=("MariaDB instance $i")
  done
  for n in "${!pids[@]}"; do
    wait "${pids[$n]}" || { log "${names[$n]} failed to start"; rc=1; }
  done
  [ "$rc" -eq 0 ] || die "some instance servers did not start (see above); 'stop-instances' stops the others"
  start_pfs
}

stop_instances() {  # [first]: only instances from this number on
  local i pids=() rc=0 p
  for i in $(instance_numbers); do
    [ "$i" -ge "${1:-1}" ] || continue
    (use_pg_instance "$i"; stop_pg) & pids+=($!)
    (use_my_instance "$i"; stop_my) & pids+=($!)
  done
  # All of them (not 'start-instances K' stopping those beyond K).
  [ -n "${1:-}" ] || { (use_my_pfs; stop_my) & pids+=($!); }
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  [ "$rc" -eq 0 ] || die "some instance servers did not stop (see above)"
}

instance_urls() {  # pg|my [database]
  local db=${2:-ds3} i urls=()
  if [ "$1" = pg ]; then
    for i in $(running_pg_instances); do
      urls+=("postgresql://storebench@127.0.0.1:$(use_pg_instance "$i"; pg_port)/$db")
    done
  else
    for i in $(running_my_instances); do
      urls+=("mysql://storebench@127.0.0.1:$(use_my_instance "$i"; my_port)/$db")
    done
  fi
  echo "${urls[*]}"
}

# The running instance servers as TOML's array of tables: one group per kind of server, each
# listing its servers' databases (instance i of the group on the i-th; without a count, one
# instance per server): put it at the top of a plan, before [run].
instance_plan_groups() {  # [database]
  local db=${1:-ds3} i groups=() urls
  urls=()
  for i in $(running_pg_instances); do
    urls+=("\"postgresql://storebench@127.0.0.1:$(use_pg_instance "$i"; pg_port)/$db\"")
  done
  [ ${#urls[@]} -eq 0 ] || groups+=("{ name = \"pg\", load = true, db = [$(list_join "${urls[@]}")] }")
  urls=()
  for i in $(running_my_instances); do
    urls+=("\"mysql://storebench@127.0.0.1:$(use_my_instance "$i"; my_port)/$db\"")
  done
  [ ${#urls[@]} -eq 0 ] || groups+=("{ name = \"my\", load = true, db = [$(list_join "${urls[@]}")] }")
  [ ${#groups[@]} -gt 0 ] || return 0
  echo "group = [$(list_join "${groups[@]}")]"
}

# The arguments joined by ", ".
list_join() {
  local out="" sep="" a
  for a in "$@"; do out+="$sep$a"; sep=", "; done
  echo "$out"
}

print_env() {
  echo "export STOREBENCH_PG_URL=postgresql://storebench@127.0.0.1:$(pg_port)/storebench_test"
  echo "export STOREBENCH_MYSQL_URL=mysql://storebench@127.0.0.1:$(my_port)/storebench_test"
  # The running instance servers (start-instances), space-separated; empty when none runs.
  echo "export STOREBENCH_PG_URLS=\"$(instance_urls pg)\""
  echo "export STOREBENCH_MYSQL_URLS=\"$(instance_urls my)\""
  # The performance_schema server (start-pfs); empty when it does not run.
  echo "export STOREBENCH_MYSQL_PFS_URL=$(pfs_url)"
  # The same as plan groups (instance-plan prints them alone), for a plan file's first line.
  local groups
  groups=$(instance_plan_groups)
  [ -z "$groups" ] || echo "# plan: $groups"
}

print_dsns() {
  echo "postgresql://storebench@127.0.0.1:$(pg_port)/ds3"
  echo "mysql://storebench@127.0.0.1:$(my_port)/ds3"
}

case "${1:-}" in
  start)
    start_pg
    start_my
    print_dsns
    ;;
  stop)
    stop_instances
    stop_pg
    stop_my
    ;;
  start-instances)
    start_instances "${2:-}"
    instance_urls pg | tr ' ' '\n'
    instance_urls my | tr ' ' '\n'
    ;;
  stop-instances)
    stop_instances
    ;;
  start-pfs)
    start_pfs
    pfs_url
    ;;
  instance-plan)
    instance_plan_groups "${2:-}"
    ;;
  status)
    rc=0
    if pg_running; then echo "postgresql running  postgresql://storebench@127.0.0.1:$(pg_port)/ds3"
    else echo "postgresql stopped"; rc=3; fi
    if my_running; then echo "mariadb    running  mysql://storebench@127.0.0.1:$(my_port)/ds3"
    else echo "mariadb    stopped"; rc=3; fi
    for i in $(instance_numbers); do
      if (use_pg_instance "$i"; pg_running); then
        echo "postgresql instance $i running  $(instance_urls pg | tr ' ' '\n' | grep ":$((PG_INST_BASE + i))/")"
      else echo "postgresql instance $i stopped"; fi
      if (use_my_instance "$i"; my_running); then
        echo "mariadb    instance $i running  $(instance_urls my | tr ' ' '\n' | grep ":$((MY_INST_BASE + i))/")"
      else echo "mariadb    instance $i stopped"; fi
    done
    if (use_my_pfs; my_running); then echo "mariadb    performance_schema running  $(pfs_url)"; fi
    exit $rc
    ;;
  env)
    print_env
    ;;
  restart-postgres)
    # For fault tests: PostgreSQL goes away for ${2:-2} seconds (fast shutdown aborts sessions).
    # Only a running server of this services dir: starting a second one elsewhere would leave
    # the server under test untouched.
    pg_running || die "no PostgreSQL of $DIR is running (STOREBENCH_SERVICES_DIR names another?)"
    stop_pg
    sleep "${2:-2}"
    SERVER_SETUP=0 start_pg
    ;;
  checkpoint-postgres)
    # For fault tests, before their run: PostgreSQL writes and syncs what it holds dirty now
    # (CHECKPOINT), so that a restart's fast shutdown during the run has little left to do. A
    # fresh server's first shutdown checkpoint synced its 6,533 database files in 23 s.
    pg_running || die "no PostgreSQL of $DIR is running (STOREBENCH_SERVICES_DIR names another?)"
    pg_psql -c CHECKPOINT >/dev/null
    ;;
  restart-instance|stop-instance|start-instance)
    # For fault tests: instance server I of kind pg|mariadb goes away for ${4:-2} seconds while
    # the others go on (a VM that reboots during a consolidation run). stop-instance and
    # start-instance are its two halves, for a test that ends the outage at a point of its run.
    cmd="$1"
    kind="${2:-}"
    i="${3:-}"
    [[ "$i" =~ ^[0-9]+$ ]] || die "$cmd takes pg|mariadb and an instance number"
    case "$kind" in
      pg)
        use_pg_instance "$i"
        if [ "$cmd" != start-instance ]; then
          pg_running || die "PostgreSQL instance $i is not running"
          stop_pg
        fi
        if [ "$cmd" = restart-instance ]; then sleep "${4:-2}"; fi
        if [ "$cmd" != stop-instance ]; then SERVER_SETUP=0 start_pg; fi
        ;;
      mariadb)
        use_my_instance "$i"
        if [ "$cmd" != start-instance ]; then
          my_running || die "MariaDB instance $i is not running"
          stop_my
        fi
        if [ "$cmd" = restart-instance ]; then sleep "${4:-2}"; fi
        if [ "$cmd" != stop-instance ]; then SERVER_SETUP=0 start_my; fi
        ;;
      *) die "$cmd takes pg|mariadb, not '$kind'" ;;
    esac
    ;;
  restart-mariadb)
    # For fault tests: MariaDB goes away for ${2:-2} seconds (SIGTERM: sessions are killed).
    my_running || die "no MariaDB of $DIR is running (STOREBENCH_SERVICES_DIR names another?)"
    stop_my
    sleep "${2:-2}"
    SERVER_SETUP=0 start_my
    ;;
  destroy)
    stop_instances
    stop_pg
    stop_my
    for i in $(instance_numbers); do
      (use_pg_instance "$i"; rm -rf "$PG_DIR" "$PG_LINK")
    done
    rm -rf "$PG_DIR" "$PG_LINK" "$MY_DIR" "$INST_DIR" "$DIR/mariadb-pfs"
    ;;
  *)
    echo "usage: $0 start|stop|status|env|destroy|restart-postgres|restart-mariadb [seconds]" >&2
    echo "       $0 checkpoint-postgres" >&2
    echo "       $0 start-instances K|stop-instances|start-pfs|instance-plan [database]" >&2
    echo "       $0 restart-instance pg|mariadb I [seconds]" >&2
    echo "       $0 stop-instance|start-instance pg|mariadb I" >&2
    exit 2
    ;;
esac
