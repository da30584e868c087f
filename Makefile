# gameserver_exporter: build, test, fuzz, benchmark and release.
GO        ?= go
BINARY    ?= gameserver_exporter
VERSION   ?= $(shell cat VERSION)
# LDFLAGS stamps the version, revision, branch, user and date (scripts/ldflags.sh).
LDFLAGS   ?= $(shell VERSION=$(VERSION) scripts/ldflags.sh)
# The platforms `make cross` checks and `make release` ships.
PLATFORMS ?= linux/amd64 linux/arm64 windows/amd64 darwin/arm64 freebsd/amd64
IMAGE     ?= gameserver_exporter
FUZZTIME  ?= 3s
# Debian packages the integration tests use (reference client, Prometheus, real game
# servers); installed when missing and we are root. Tests whose package is missing skip.
TEST_DEBS ?= qstat prometheus openarena-server nexuiz-server mvdsv cube2-server mumble-server \
	openttd openttd-opengfx armagetronad-dedicated teeworlds-server ddnet-server podman chromium

.PHONY: all build run cross release docker test test-deps lint vet fuzz bench bench-short e2e examples-check chart-test

all: build

# build: a static binary (runs on the FROM scratch image and any Linux), version stamped.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BINARY) .

run: build
	./$(BINARY)

# cross vets (tests included) and builds every package for each of PLATFORMS, and
# vets the portable UDP path on Linux too (-tags gse_portable).
cross:
	@set -e; for p in $(PLATFORMS); do \
		echo "cross: $$p"; \
		GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) vet ./...; \
		GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" ./...; \
	done
	GOOS=linux CGO_ENABLED=0 $(GO) vet -tags gse_portable ./protocols/wire/

# release writes dist/gameserver_exporter-VERSION.OS-ARCH.tar.gz (.zip for windows)
# for each of PLATFORMS, and dist/sha256sums.txt.
release:
	VERSION=$(VERSION) scripts/release.sh $(PLATFORMS)

# docker builds the image from source (multi-stage; the golang image must be pullable).
docker:
	podman build --build-arg VERSION=$(VERSION) -t $(IMAGE):$(VERSION) .

# test installs what the tests need (when root and missing), then runs every test
# with the race detector. Tests whose tools are missing skip with a message.
# Load tests (LOAD_TESTS) skip in the first run and run after it, alone: they take
# both cores for seconds and judge deadlines, so they must not share the CPUs with
# other test binaries (nor those with them).
LOAD_TESTS ?= ^TestLoad$$
test: test-deps vet
	$(GO) test -race -count=1 ./...
	$(GO) test -race -count=1 -tags gse_portable ./protocols/wire/
	GSE_LOAD_TESTS=1 $(GO) test -race -count=1 -p 1 -run '$(LOAD_TESTS)' ./hostile/
	$(MAKE) chart-test

# chart-test: the Helm chart (charts/, a module of its own: Helm and the Kubernetes
# types stay out of the exporter's go.mod): helm lint and template with each ci/
# values file (Helm pinned in charts/go.mod), strict decoding of every object, and
# the rendered Deployment started against its ConfigMap.
chart-test:
	cd charts && $(GO) vet ./... && $(GO) test -count=1 ./...

test-deps:
	@scripts/install-test-deps.sh $(TEST_DEBS)

# lint runs golangci-lint with .golangci.yml (installed with go install when missing).
GOLANGCI ?= $(shell command -v golangci-lint || echo $$(go env GOPATH)/bin/golangci-lint)
lint:
	@test -x "$(GOLANGCI)" || $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0
	$(GOLANGCI) run ./...

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(GO) vet ./...

# fuzz runs every fuzz target for FUZZTIME each (the seed corpora also run in `test`).
fuzz:
	@scripts/fuzz-all.sh $(FUZZTIME)

# bench runs the Go benchmarks; bench-short is the CI smoke run (no timing checks).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

bench-short:
	$(GO) test -run '^$$' -bench . -benchtime 100x -benchmem ./...

# e2e runs the end-to-end tests (exporter + OpenArena + Prometheus, and every packaged
# game server probed through the exporter, all on 127.0.0.1) and the checks of
# examples/, verbosely; `make test` runs them too.
e2e:
	$(GO) test -race -count=1 -v ./e2e/

# examples-check: the promtool checks of the operator's kit alone.
examples-check:
	promtool check config examples/prometheus.yml
	promtool test rules examples/alerts_test.yml
	promtool test rules examples/slo_test.yml
