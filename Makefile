# partgate — build, run, test. `make run` and `make test` work on a fresh Debian/Ubuntu machine with Swift,
# as root or as a user with sudo: missing system packages are installed with apt first.

SWIFT        ?= swift
SCRATCH      ?= .build
# The Swift runtime linked in: the binary the container ships, and 2 MiB less RSS than with shared Swift libraries.
# One section per function and lld with scripts/partgate.order: the code serving runs lies together at the start
# of .text (~1.4 MB), so a worker's resident code is that, not fault-around windows all over 17 MB (docs/memory.md).
FUZZ_SECONDS ?= 60
APT_PACKAGES  = libevent-dev libssl-dev pkg-config openssl curl systemd python3-pip
# Python packages scripts/check-deploy.sh uses (Dockerfile parser, Kubernetes schemas bundled for offline use).
PIP_PACKAGES  = dockerfile-parse==2.0.1 kubernetes-validate==1.37.0
PROOF_APT_PACKAGES = nodejs node-formidable chromium chromium-driver python3-venv curl
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps proof-deps build build-debug run test test-wide test-asan proof load fuzz fuzz-replay bench bench-rss bench-idle bench-instructions bench-parser clean

all: build

## deps: install the system packages partgate builds against (apt), only those missing.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@python3 -c 'import dockerfile_parse, kubernetes_validate' 2>/dev/null || \
	  env PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install -q $$([ "$$(id -u)" = 0 ] || echo --user) $(PIP_PACKAGES)
	@command -v $(SWIFT) >/dev/null || { echo "error: swift is not on PATH (Swift 6 toolchain required)"; exit 1; }

## proof-deps: what `make proof` needs besides the build (three backends' runtimes, Chromium), only those missing.
proof-deps: deps
	@missing=""; for p in $(PROOF_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

## build: release binary at .build/release/partgate (scripts/release-build.sh: cross-module, link-time and
## profile-guided optimisation, hot code laid out first).
build: deps
	SWIFT=$(SWIFT) scripts/release-build.sh

build-debug: deps
	$(SWIFT) build

## run: build and start `partgate demo` (proxy on 127.0.0.1:8080 in front of a built-in TLS echo upstream).
run: build
	.build/release/partgate demo

## test: every test suite, the deploy/ checks, then the fuzz corpora replayed through the fuzz targets.
## Tests print only failures and each runner's closing line (TEST_FLAGS= for a line per test and argument).
TEST_FLAGS ?= --quiet
test: deps
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) scripts/swift-test.sh $(TEST_FLAGS)
	scripts/check-deploy.sh
	@if [ -x scripts/fuzz-replay.sh ]; then scripts/fuzz-replay.sh; fi

## proof: the real-world suite (docs/proof.md): corpora and generated requests through partgate to Werkzeug,
## python-multipart and formidable over TLS; curl, requests and headless Chromium as clients. 0 differentials.
proof: proof-deps
	scripts/proof.sh

## test-wide: every test suite with the test process seeing WIDE_CPUS processors (default 16), as on a wide
## machine: a diagnostic for races between tests and the threads they leave (scripts/test-wide.sh).
test-wide: deps
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) scripts/test-wide.sh $(TEST_FLAGS)

## test-asan: the engine fault suites under AddressSanitizer + LeakSanitizer (own scratch path .build-asan).
test-asan: deps
	scripts/test-asan.sh

## load: 256 connections of mixed uploads for 60 s, then 1,000 slowloris clients, through the release binary.
load: deps
	scripts/load.sh

## fuzz: run each libFuzzer target for FUZZ_SECONDS (default 60).
fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS)

fuzz-replay: deps
	scripts/fuzz-replay.sh

## bench: the proxy against nginx and HAProxy (1 GiB uploads, small POSTs), ratios from one run.
bench: deps
	scripts/bench.sh

## bench-rss: peak RSS of partgate, nginx and HAProxy for 1 MiB, 1 GiB and 4 GiB uploads.
bench-rss: deps
	scripts/bench-rss.sh

## bench-idle: heap per idle keep-alive client connection of partgate, nginx and HAProxy (1,000 connections each).
bench-idle: deps
	scripts/bench-idle.sh

## bench-instructions: instructions per small proxied request under callgrind (CACHE=1: simulated cache misses too;
## TARGET=nginx: the nginx baseline proxy counted the same way).
bench-instructions: build
	scripts/callgrind-request.sh

## bench-parser: partgate's parser vs vapor/multipart-kit 4.7.1 (GB/s, parts/s, instructions per part).
bench-parser: deps
	scripts/bench-parser.sh

clean:
	rm -rf .build .build-* bench/parser/.build
