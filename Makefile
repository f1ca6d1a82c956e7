# staysearch: the two set-up commands are `make demo` and `make test`; both install what is missing.
SWIFT ?= swift
BIN := .build/release/staysearch

.PHONY: deps fleet-deps build release demo serve fleet test test-tsan test-api test-browser test-fleet test-failover bench bench-smoke bench-thresholds peers scaling clean

deps:
	@bash scripts/install-deps.sh

fleet-deps:
	@FLEET=1 bash scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product staysearch

# A search on the shipped Antwerp sample: three nights near Centraal Station for two adults.
demo: release
	$(BIN) search --region "Centraal Station" --checkin 2024-07-12 --checkout 2024-07-15 --adults 2 --limit 10
	$(BIN) search --region antwerp --max-price 120 --sort rating --limit 5

# The HTTP API and the search page on the shipped sample (saved as an index first, so that live changes are
# journalled beside it): prints the page's address; Ctrl-C stops it. PORT=0 takes any free port.
PORT ?= 8080
SAMPLE_INDEX := .build/antwerp-sample.ssx
serve: release
	@test -f $(SAMPLE_INDEX) || $(BIN) import Antwerp=Data/antwerp --output $(SAMPLE_INDEX)
	$(BIN) serve --index $(SAMPLE_INDEX) --port $(PORT)

# A fleet on the shipped sample: a PostgreSQL primary and its synchronous standby (pg_auto_failover) in a
# temporary folder (loopback only), the sample loaded, three replicas following it, and haproxy in front on
# 127.0.0.1:$(PORT). Ctrl-C stops it all.
fleet: release fleet-deps
	BIN=$(BIN) python3 scripts/fleet.py run --port $(PORT)

# Unit, differential and end-to-end tests (Swift Testing), then the concurrency tests of live changes under
# ThreadSanitizer, the API under attack, the search page in a real browser, and a fleet with a real PostgreSQL.
# Everything runs on the one release build `make demo` makes (the tests use the package's `package` API, not
# @testable imports, so that building them reuses every optimized module); each part's wall time is printed
# (docs/testing.md, "Where the time goes").
TIMED = bash scripts/timed.sh
test: deps fleet-deps
	$(TIMED) "release build with the tests" $(SWIFT) build -c release --build-tests
	$(TIMED) "swift test" $(SWIFT) test -c release --skip-build
	$(TIMED) "test-tsan" $(MAKE) --no-print-directory test-tsan
	$(TIMED) "test-api" $(MAKE) --no-print-directory test-api
	$(TIMED) "test-browser" $(MAKE) --no-print-directory test-browser
	$(TIMED) "test-fleet" $(MAKE) --no-print-directory test-fleet
	$(TIMED) "test-failover" $(MAKE) --no-print-directory test-failover

# Three replicas and a real PostgreSQL (scripts/fleet.py test): racing bookings, 10,000 mixed changes against a
# fresh index of the database, a replica killed mid-stream, the database restarted under load, commit order.
test-fleet: fleet-deps release
	BIN=$(BIN) python3 scripts/fleet.py test

# Hosts apart, as root (scripts/fleet.py failover): the primary, its synchronous standby (pg_auto_failover) and
# two replicas each in its own network namespace; the standby and a replica cut off, the primary lost twice
# (its data kept, then deleted) while 20 clients book through haproxy; no acknowledged booking lost.
test-failover: fleet-deps release
	BIN=$(BIN) python3 scripts/fleet.py failover

# The search page in headless Chromium (Debian's chromium and chromium-driver, selenium in a venv): region,
# calendar, guests, the price slider's thumbs, the map's pins and a listing's quote, each checked against the
# API; screenshots at desktop and phone widths in .build/browser-artefacts/.
test-browser: release
	BIN=$(BIN) bash scripts/test-browser.sh

# The HTTP API under attack: schemathesis from /openapi.json (no 5xx) and hand-written abuse (long query
# strings, invalid UTF-8, deep JSON, oversized bodies, a trickling client, 2,000 idle connections).
test-api: release
	BIN=$(BIN) bash scripts/test-api.sh

# Queries and changes on many threads at once in the library, under ThreadSanitizer (its own build folder, of
# the engine alone: STAYSEARCH_ENGINE_ONLY in Package.swift); a race stops it with exit status 66.
test-tsan: deps
	STAYSEARCH_ENGINE_ONLY=1 TSAN_OPTIONS="halt_on_error=1 exitcode=66" $(SWIFT) test --sanitize=thread --scratch-path .build-tsan \
	  --filter 'LiveIndexConcurrencyTests|ScratchPoolTests'

# The package-benchmark suite (its own package in Benchmarks/; about two minutes to build): everything
# on 100,000 generated listings, then the searches and the index load on 1,000,000.
BENCH := $(SWIFT) package --allow-writing-to-directory .benchmarkBaselines/ benchmark
bench: deps
	cd Benchmarks && $(BENCH)
	cd Benchmarks && STAYSEARCH_BENCH_LISTINGS=1000000 $(BENCH) --filter 'Search\..*|HistogramOnly|TopKOnly|LoadIndex|Live\..*'

# CI's smoke run: a few iterations of every benchmark on 20,000 listings, failing when a malloc count
# leaves its committed threshold (Benchmarks/Thresholds/) by more than 5%. Wall clock is not checked.
SMOKE := STAYSEARCH_BENCH_SMOKE=1 STAYSEARCH_BENCH_LISTINGS=20000
bench-smoke: deps
	cd Benchmarks && $(SMOKE) $(SWIFT) package benchmark thresholds check --metric mallocCountTotal --no-progress

# Re-records those thresholds after an intended change in allocations.
bench-thresholds: deps
	cd Benchmarks && $(SMOKE) $(SWIFT) package --allow-writing-to-package-directory benchmark thresholds update \
	  --metric mallocCountTotal --no-progress

# staysearch beside DuckDB and SQLite (Benchmarks/peers/run.sh; options: make peers PEERS="--listings 1000000
# --pricing dynamic").
peers: deps
	bash Benchmarks/peers/run.sh $(PEERS)

# Build, size, load and query cost at 100k, 1M and 10M listings (make scaling SIZES="100000 1000000"
# PRICING=dynamic).
PRICING ?= calibrated
scaling: deps
	bash Benchmarks/scaling.sh --pricing $(PRICING) $(SIZES)

clean:
	rm -rf .build
