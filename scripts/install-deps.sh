#!/usr/bin/env bash
# Installs every Debian package storebench's build and tests need. Idempotent: installs only
# what is missing, so a second run does nothing. Works as root (no sudo) or with sudo.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libsqlite3-dev sqlite3
  nlohmann-json3-dev libtomlplusplus-dev  # JSON; TOML plan files (src/config/plan.cc)
  libpugixml-dev  # Swingbench XML configuration files (src/workload/soe/swingbench_config.cc)
  libgtest-dev libgmock-dev libbenchmark-dev
  liburing-dev libaio-dev  # storage engines (io_uring, libaio)
  e2fsprogs xfsprogs fio  # fragmentation tests: ext4/xfs in loop devices, filefrag, xfs_fsr; bench peer
  python3 python3-jsonschema python3-prometheus-client
  libcpp-httplib-dev  # the Prometheus endpoint (--metrics_addr), Redfish power readings
  libfreeipmi-dev  # DCMI power readings (src/power/ipmi_source.cc)
  libopenmpi-dev openmpi-bin  # scale-out over MPI (src/dist/, docs/scale-out.md)
  chromium chromium-driver python3-selenium  # the HTML report opened in headless Chromium (tests)
  clang-14 libclang-rt-14-dev  # libFuzzer targets (make fuzz, scripts/fuzz.sh)
  # PostgreSQL and MariaDB client libraries, and the servers scripts/services.sh starts for tests
  libpq-dev libmariadb-dev
  postgresql postgresql-client mariadb-server mariadb-client
)

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
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
