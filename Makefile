# staysearch: the two set-up commands are `make demo` and `make test`; both install what is missing.
SWIFT ?= swift
BIN := .build/release/staysearch

.PHONY: deps build release demo test bench clean

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product staysearch

# A search on the shipped Antwerp sample: three nights near Centraal Station for two adults.
demo: release
	$(BIN) search --region "Centraal Station" --checkin 2024-07-12 --checkout 2024-07-15 --adults 2 --limit 10
	$(BIN) search --region antwerp --max-price 120 --sort rating --limit 5

# Unit, differential and end-to-end tests (Swift Testing).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

# The package-benchmark suite (its own package in Benchmarks/; about two minutes to build).
bench: deps
	cd Benchmarks && $(SWIFT) package --allow-writing-to-directory .benchmarkBaselines/ benchmark

clean:
	rm -rf .build
