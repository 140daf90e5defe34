# storebench: the two commands of the README's Quick start, plus build helpers.
#   make run    install dependencies, build, load a small DVD Store database into SQLite, run it
#   make test   install dependencies, build, start the project's throwaway PostgreSQL and MariaDB
#               servers (scripts/services.sh; running ones are reused), run every test (ctest)
#   make check  build, then only the unit tests (ctest -L unit: no server, no network, no binary,
#               seconds): the edit-compile-test loop (the labels: tests/CMakeLists.txt)
#   make lint   clang-format and clang-tidy on the C++ files changed against origin/main (or main,
#               or the last commit): scripts/lint.sh
#   make sanitize   unit tests and short runs under ASan + UBSan (build-asan/, scripts/sanitize.sh)
#   make fuzz       each libFuzzer target FUZZ_SECONDS seconds (build-fuzz/, scripts/fuzz.sh)
#   make coverage   line coverage per folder of src/ over every test (build-cov/, scripts/coverage.sh;
#                   COVERAGE_LABELS='^unit$$' for the unit tests only)
#   make deb        Debian packages of the program (build/storebench_<version>_<arch>.deb, and
#                   storebench-mpi_... when Open MPI is installed; cmake/packaging.cmake)
BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc)
DB_SIZE ?= S
DB ?= $(CURDIR)/$(BUILD_DIR)/ds3-$(DB_SIZE).db
RUN_ARGS ?= --n_threads=4 --warmup_time=0 --run_time=30s
FUZZ_SECONDS ?= 30

.PHONY: all deps deps-run build binary run services test check lint sanitize fuzz coverage deb clean

all: build

# What building and running need (compiler, cmake, client libraries), and what the tests need on
# top (servers, Chromium, clang, fio, Open MPI): scripts/install-deps.sh says which is which.
deps-run:
	scripts/install-deps.sh run

deps:
	scripts/install-deps.sh test

$(BUILD_DIR)/CMakeCache.txt:
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)

build: $(BUILD_DIR)/CMakeCache.txt
	cmake -S . -B $(BUILD_DIR) -DSTOREBENCH_BUILD_TESTS=ON >/dev/null
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Only the program, not the tests (faster on a fresh machine).
binary: $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) -j $(JOBS) --target storebench

# Loads the S database (DB_SIZE) once (kept in the build tree), then runs 30 seconds with 4
# threads.
run: deps-run binary
	@if ! [ -s "$(DB)" ]; then \
	  $(BUILD_DIR)/storebench oltp load --db sqlite://$(DB) --db_size=$(DB_SIZE); \
	fi
	$(BUILD_DIR)/storebench oltp run --db sqlite://$(DB) --db_size=$(DB_SIZE) $(RUN_ARGS) \
	  --json $(BUILD_DIR)/results/make-run.json

# The project's own throwaway servers: started on free ports when they are not running, reused
# (never restarted) when they are; STOREBENCH_SERVICES_DIR names another services directory.
# Three small servers of each kind more for test_plan_servers.
services:
	scripts/services.sh start
	scripts/services.sh start-instances 3

# Tests reach servers only through the DSNs 'services.sh env' prints (never a guessed address),
# and with STOREBENCH_REQUIRE_SERVICES=1 a server test fails instead of skipping.
test: deps build services
	eval "$$(scripts/services.sh env)" && export STOREBENCH_REQUIRE_SERVICES=1 && \
	  cd $(BUILD_DIR) && ctest --output-on-failure -j 2

# No deps and no servers: what an edit needs to be checked within seconds of its build.
check: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) -L '^unit$$'

# Reads the build's compile commands (configured by the script): after make build or make test.
lint:
	BUILD_DIR=$(BUILD_DIR) scripts/lint.sh

sanitize: deps
	JOBS=$(JOBS) scripts/sanitize.sh

fuzz: deps
	JOBS=$(JOBS) scripts/fuzz.sh $(FUZZ_SECONDS)

# Every test by default, so the servers run (as for make test).
coverage: deps services
	JOBS=$(JOBS) scripts/coverage.sh

# Only what the packages hold is built (install_files: the programs, the man page, the
# completion), then CPack makes the packages; their Depends come from dpkg-shlibdeps (dpkg-dev)
# and the man page from help2man, both in scripts/install-deps.sh's test set.
deb: deps-run $(BUILD_DIR)/CMakeCache.txt
	@for tool in help2man dpkg-shlibdeps; do \
	  command -v $$tool >/dev/null || { echo "make deb needs $$tool: scripts/install-deps.sh test" \
	    "(or apt-get install help2man dpkg-dev)" >&2; exit 2; }; \
	done
	cmake -S . -B $(BUILD_DIR) >/dev/null
	cmake --build $(BUILD_DIR) -j $(JOBS) --target install_files
	cd $(BUILD_DIR) && cpack -G DEB
	@ls -l $(BUILD_DIR)/*.deb

clean:
	rm -rf $(BUILD_DIR)
