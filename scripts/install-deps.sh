#!/usr/bin/env bash
# Installs the Debian packages storebench needs, in two sets:
#   scripts/install-deps.sh run    building and running storebench (make run, make binary): the
#                                  compiler, cmake and the client libraries; no server, no browser
#   scripts/install-deps.sh test   the run set and what the tests need on top (make test, CI):
#                                  GoogleTest, the PostgreSQL and MariaDB servers that
#                                  scripts/services.sh starts on its own ports, Chromium, clang for
#                                  the fuzzers, clang-format and clang-tidy for make lint, fio,
#                                  Open MPI, help2man for the man page, Prometheus (promtool and a
#                                  server the endpoint's test starts on its own port)
# Idempotent: installs only what is missing, so a second run does nothing. Works as root (no sudo)
# or with sudo.
#
# Debian's postgresql and mariadb-server packages start a system server when they are installed.
# On a machine being benchmarked that server would take memory and CPU from the measurement, and
# storebench's tests never use it (services.sh runs its own servers). So when this script installs
# one of those packages itself, it keeps the packaged server from starting during the install
# (policy-rc.d, Debian's hook for exactly that: invoke-rc.d asks it before starting a service) and
# then stops and disables the packaged service. A server package that was already installed is
# left as it is.
set -euo pipefail

set_name=${1:-test}

run_packages=(
  build-essential cmake pkg-config git
  libsqlite3-dev
  nlohmann-json3-dev libtomlplusplus-dev  # JSON; TOML plan files (src/config/plan.cc)
  libpugixml-dev  # Swingbench XML configuration files (src/workload/soe/swingbench_config.cc)
  liburing-dev libaio-dev  # storage engines (io_uring, libaio)
  libcpp-httplib-dev  # the Prometheus endpoint (--metrics_addr), Redfish power readings
  libfreeipmi-dev  # DCMI power readings (src/power/ipmi_source.cc)
  libpq-dev libmariadb-dev  # PostgreSQL and MariaDB client libraries
)
test_packages=(
  sqlite3
  libgtest-dev libgmock-dev libbenchmark-dev
  e2fsprogs xfsprogs fio  # fragmentation tests: ext4/xfs in loop devices, filefrag, xfs_fsr; bench peer
  python3 python3-jsonschema python3-prometheus-client
  prometheus  # promtool check metrics, and a real server scraping --metrics_addr (tests)
  libopenmpi-dev openmpi-bin  # scale-out over MPI (src/dist/, docs/scale-out.md; storebench-mpi)
  chromium chromium-driver python3-selenium poppler-utils  # the HTML report in headless Chromium, its PDF text (tests)
  clang-14 libclang-rt-14-dev  # libFuzzer targets (make fuzz, scripts/fuzz.sh)
  clang-format-14 clang-tidy-14  # make lint (scripts/lint.sh)
  help2man dpkg-dev file  # the man page, the .deb (make deb) and its test
  gcovr  # line coverage per folder (make coverage, scripts/coverage.sh)
  # the servers scripts/services.sh starts for tests (never the packaged system servers)
  postgresql postgresql-client mariadb-server mariadb-client
)
# Packages whose installation starts a system server (package name, its services).
server_packages=(postgresql mariadb-server prometheus)
declare -A server_services=([postgresql]="postgresql" [mariadb-server]="mariadb mysql"
                            [prometheus]="prometheus")

case "$set_name" in
  run) packages=("${run_packages[@]}") ;;
  test) packages=("${run_packages[@]}" "${test_packages[@]}") ;;
  *) echo "usage: scripts/install-deps.sh [run|test]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi

# The server packages this run installs (and so may stop and disable).
ours=()
for p in "${missing[@]}"; do
  for s in "${server_packages[@]}"; do
    [ "$p" = "$s" ] && ours+=("$p")
  done
done

policy=/usr/sbin/policy-rc.d
placed_policy=0
if [ ${#ours[@]} -gt 0 ] && [ ! -e "$policy" ]; then
  # exit 101: "action forbidden by policy" (invoke-rc.d(8)); removed again below.
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
  $SUDO chmod 755 "$policy"
  placed_policy=1
fi
remove_policy() {
  if [ "$placed_policy" = 1 ]; then $SUDO rm -f "$policy"; fi
}
trap remove_policy EXIT

echo "installing ($set_name): ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

# Stop and disable the system servers of the packages installed just now.
for p in "${ours[@]}"; do
  for svc in ${server_services[$p]}; do
    if [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
      $SUDO systemctl disable --now "$svc" >/dev/null 2>&1 || true
    else
      $SUDO service "$svc" stop >/dev/null 2>&1 || true
      $SUDO update-rc.d "$svc" disable >/dev/null 2>&1 || true
    fi
  done
  echo "install-deps: stopped and disabled the $p system server this script installed" \
       "(storebench's tests start their own: scripts/services.sh, the metrics test)" >&2
done
