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
#
# The servers come from the Debian packages (scripts/install-deps.sh), listen on 127.0.0.1 only
# and keep their data, sockets and logs under build/services/ (STOREBENCH_SERVICES_DIR). Neither
# needs a password: PostgreSQL trusts loopback connections and the MariaDB user storebench has
# none, so no password ever appears on a command line. If another server already listens on
# 5432 or 3306, the next free port of 15432.. / 13306.. is used instead and the DSNs say so
# (STOREBENCH_PG_PORT / STOREBENCH_MYSQL_PORT choose a port explicitly).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIR="${STOREBENCH_SERVICES_DIR:-$ROOT/build/services}"
PG_BIN="${STOREBENCH_PG_BIN:-/usr/lib/postgresql/15/bin}"
PG_DIR="$DIR/postgres"
MY_DIR="$DIR/mariadb"
# ds3 and sbtest are for the user (the issue commands), sbbench and sbpeer for bench/;
# storebench_test holds the back-end unit tests' scratch tables; the other sbtest_* databases
# hold one test's workload each, so tests can run in parallel; sbtest_empty stays empty (the
# refusal of a database without a schema).
DATABASES=(ds3 sbtest sbbench sbpeer storebench_test sbtest_dvd sbtest_oltp sbtest_deadlock
  sbtest_dvdconf sbtest_fault sbtest_fault_load sbtest_empty)
# initdb and postgres refuse to run as root; they run as this (unprivileged) user then.
PG_OS_USER="${STOREBENCH_PG_OS_USER:-postgres}"
PG_LINK="$PG_DIR"
# The PostgreSQL data may live elsewhere (see start_pg); work on the real path.
if [ -L "$PG_DIR" ]; then PG_DIR="$(readlink -f "$PG_DIR")"; fi

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
    log "PostgreSQL already running on 127.0.0.1:$(pg_port)"
  else
    local port
    port=$(choose_port "$PG_DIR/port" 5432 15432 "${STOREBENCH_PG_PORT:-}")
    if port_in_use "$port"; then
      die "port $port is in use by another server; set STOREBENCH_PG_PORT to a free port"
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
        alt="/var/tmp/storebench-services-$(echo "$DIR" | cksum | cut -d' ' -f1)/postgres"
        mkdir -p "$alt"
        cp -a "$PG_DIR/." "$alt/" && rm -rf "$PG_DIR" && ln -s "$alt" "$PG_DIR"
        PG_DIR="$alt"
        chown -R "$PG_OS_USER" "$alt"
        log "PostgreSQL data in $alt ($PG_OS_USER cannot reach $DIR)"
      fi
    fi
    if [ ! -s "$PG_DIR/data/PG_VERSION" ]; then
      log "initializing PostgreSQL in $PG_DIR/data"
      as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 \
        >"$PG_DIR/initdb.log" 2>&1 || { cat "$PG_DIR/initdb.log" >&2; die "initdb failed"; }
      cat >>"$PG_DIR/data/postgresql.conf" <<EOF
# storebench throwaway instance (scripts/services.sh)
listen_addresses = '127.0.0.1'
unix_socket_directories = '$PG_DIR/run'
max_connections = 200
shared_buffers = 256MB
max_wal_size = 2GB
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
    log "starting PostgreSQL on 127.0.0.1:$port"
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -o "-p $port" -w -t 60 start \
      >/dev/null || { tail -20 "$PG_DIR/postgres.log" >&2; die "PostgreSQL did not start"; }
  fi
  pg_psql <<'EOF'
SELECT 'CREATE ROLE storebench LOGIN' WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'storebench')
\gexec
EOF
  local db
  for db in "${DATABASES[@]}"; do
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
  mkdir -p "$MY_DIR/run"
  if my_running; then
    log "MariaDB already running on 127.0.0.1:$(my_port)"
  else
    local port
    port=$(choose_port "$MY_DIR/port" 3306 13306 "${STOREBENCH_MYSQL_PORT:-}")
    if port_in_use "$port"; then
      die "port $port is in use by another server; set STOREBENCH_MYSQL_PORT to a free port"
    fi
    echo "$port" >"$MY_DIR/port"
    local user_opt=()
    [ "$(id -u)" -eq 0 ] && user_opt=(--user=root)
    if [ ! -d "$MY_DIR/data/mysql" ]; then
      log "initializing MariaDB in $MY_DIR/data"
      mariadb-install-db --no-defaults --datadir="$MY_DIR/data" "${user_opt[@]}" \
        --auth-root-authentication-method=socket --auth-root-socket-user="$(id -un)" --skip-test-db >"$MY_DIR/install.log" 2>&1 ||
        { cat "$MY_DIR/install.log" >&2; die "mariadb-install-db failed"; }
    fi
    log "starting MariaDB on 127.0.0.1:$port"
    # Full-text: InnoDB tokens from 2 characters, no stop words, so DVD Store's title and actor
    # words are all searchable (docs/dvdstore.md). LOAD DATA LOCAL INFILE for the bulk loader.
    setsid mariadbd --no-defaults --datadir="$MY_DIR/data" --socket="$MY_DIR/run/mariadbd.sock" \
      --port="$port" --bind-address=127.0.0.1 "${user_opt[@]}" --pid-file="$MY_DIR/mariadbd.pid" \
      --log-error="$MY_DIR/mariadbd.err" --skip-name-resolve --local-infile=1 \
      --innodb-buffer-pool-size=512M --innodb-log-file-size=512M --max-connections=300 \
      --innodb-ft-min-token-size=2 --innodb-ft-enable-stopword=0 \
      --character-set-server=utf8mb4 --collation-server=utf8mb4_bin \
      </dev/null >/dev/null 2>&1 &
    local i
    for i in $(seq 1 120); do
      if my_client -e "SELECT 1" >/dev/null 2>&1; then break; fi
      if ! kill -0 $! 2>/dev/null; then tail -20 "$MY_DIR/mariadbd.err" >&2; die "MariaDB did not start"; fi
      sleep 0.5
    done
    my_client -e "SELECT 1" >/dev/null 2>&1 || { tail -20 "$MY_DIR/mariadbd.err" >&2; die "MariaDB did not answer"; }
  fi
  {
    echo "CREATE USER IF NOT EXISTS 'storebench'@'127.0.0.1';"
    echo "CREATE USER IF NOT EXISTS 'storebench'@'localhost';"
    echo "GRANT PROCESS ON *.* TO 'storebench'@'127.0.0.1';"
    for db in "${DATABASES[@]}"; do
      echo "CREATE DATABASE IF NOT EXISTS \`$db\`;"
      echo "GRANT ALL ON \`$db\`.* TO 'storebench'@'127.0.0.1';"
      echo "GRANT ALL ON \`$db\`.* TO 'storebench'@'localhost';"
    done
  } | my_client
}

stop_pg() {
  if pg_running; then
    log "stopping PostgreSQL"
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w -t 60 stop >/dev/null
  fi
}

stop_my() {
  if my_running; then
    log "stopping MariaDB"
    local pid
    pid=$(cat "$MY_DIR/mariadbd.pid")
    kill -TERM "$pid"
    local i
    for i in $(seq 1 120); do
      kill -0 "$pid" 2>/dev/null || return 0
      sleep 0.5
    done
    die "MariaDB (pid $pid) did not stop"
  fi
}

print_env() {
  echo "export STOREBENCH_PG_URL=postgresql://storebench@127.0.0.1:$(pg_port)/storebench_test"
  echo "export STOREBENCH_MYSQL_URL=mysql://storebench@127.0.0.1:$(my_port)/storebench_test"
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
    stop_pg
    stop_my
    ;;
  status)
    rc=0
    if pg_running; then echo "postgresql running  postgresql://storebench@127.0.0.1:$(pg_port)/ds3"
    else echo "postgresql stopped"; rc=3; fi
    if my_running; then echo "mariadb    running  mysql://storebench@127.0.0.1:$(my_port)/ds3"
    else echo "mariadb    stopped"; rc=3; fi
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
    start_pg
    ;;
  restart-mariadb)
    # For fault tests: MariaDB goes away for ${2:-2} seconds (SIGTERM: sessions are killed).
    my_running || die "no MariaDB of $DIR is running (STOREBENCH_SERVICES_DIR names another?)"
    stop_my
    sleep "${2:-2}"
    start_my
    ;;
  destroy)
    stop_pg
    stop_my
    rm -rf "$PG_DIR" "$PG_LINK" "$MY_DIR"
    ;;
  *)
    echo "usage: $0 start|stop|status|env|destroy|restart-postgres|restart-mariadb [seconds]" >&2
    exit 2
    ;;
esac
