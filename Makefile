# gameserver_exporter: build, test, fuzz, benchmark and release.
GO        ?= go
BINARY    ?= gameserver_exporter
# The version builds are stamped with: the VERSION file's for a release, else
# VERSION+unreleased.REV (scripts/version.sh).
VERSION   ?= $(shell scripts/version.sh)
# LDFLAGS stamps the version, revision, branch, user and date (scripts/ldflags.sh).
LDFLAGS   ?= $(shell VERSION=$(VERSION) scripts/ldflags.sh)
# The platforms `make cross` checks and `make release` ships.
# OS/ARCH, or linux/arm/vN for 32-bit ARM (GOARM=N: v7 is the Raspberry Pi 2 and later).
PLATFORMS ?= linux/amd64 linux/arm64 linux/arm/v7 windows/amd64 darwin/arm64 darwin/amd64 freebsd/amd64
# The image name releases publish (CONTRIBUTING.md, Cutting a release).
IMAGE     ?= ghcr.io/gameserver-exporter/gameserver_exporter
# podman, or docker.
CONTAINER ?= podman
FUZZTIME  ?= 3s
# The bench tools (bench/abuse, fakefleet, floorprobe, inflight) and scripts/gotest
# build only with this tag, so that `go install ./...` installs the exporter alone;
# vet, test, cross and lint pass it to cover them.
TOOLS_TAGS = -tags tools
# Debian packages the integration tests use (reference client, Prometheus, real game
# servers); installed when missing and we are root. Tests whose package is missing skip.
TEST_DEBS ?= qstat prometheus openarena-server nexuiz-server mvdsv cube2-server mumble-server \
	openttd openttd-opengfx armagetronad-dedicated teeworlds-server ddnet-server redeclipse-server \
	minetest-server podman chromium
# gamedig (npm), the other reference client, pinned in scripts/gamedig: test-deps
# installs it here when node and npm are there; the gamedig comparisons read it.
export GAMEDIG_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/gameserver_exporter-gamedig

.PHONY: all build run cross release release-snapshot docker test test-deps lint vet fuzz bench bench-short e2e examples-check chart-test

all: build

# build: a static binary (runs on the FROM scratch image and any Linux), version stamped.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BINARY) .

# run: PORT=10116 listens there instead of :10115, ARGS are more flags
# (make run PORT=10116 ARGS=--config.file=examples/modules.yml).
run: build
	./$(BINARY) $(if $(PORT),--web.listen-address=:$(PORT)) $(ARGS)

# cross builds every package for each of CROSS_PLATFORMS, and vets the packages with
# files behind build tags (the Windows service, the portable UDP and HTTP paths)
# for the other sides of their tags: windows, darwin, freebsd (direct system calls
# without Linux's shared sockets), and Linux with -tags gse_portable. Code without
# tags is the same on every platform and was vetted by `make test`: vetting it
# seven times found nothing the one vet does not. Each vet
# names the architecture the build above used, so it reads what that build compiled.
# CROSS_PLATFORMS: one architecture per OS of PLATFORMS, and 32-bit ARM: the tree and
# its dependencies' own files differ by OS and by word size, not between amd64 and
# arm64, and `make test` built linux/amd64 already. `make release` builds them all.
CROSS_PLATFORMS ?= linux/arm/v7 windows/amd64 darwin/arm64 freebsd/amd64
TAGGED     = $(shell grep -rl --include='*.go' --exclude-dir=charts '^//go:build' . | xargs -n1 dirname | sort -u)
cross:
	@set -e; for p in $(CROSS_PLATFORMS); do \
		echo "cross: $$p"; \
		os=$${p%%/*}; rest=$${p#*/}; arch=$${rest%%/*}; arm=; \
		[ "$$arch" = arm ] && { arm=$${rest#arm}; arm=$${arm#/v}; arm=$${arm:-7}; }; \
		GOOS=$$os GOARCH=$$arch GOARM=$$arm CGO_ENABLED=0 $(GO) build $(TOOLS_TAGS) ./...; \
	done
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) vet $(TOOLS_TAGS) $(TAGGED)
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) vet $(TOOLS_TAGS) $(TAGGED)
	GOOS=freebsd GOARCH=amd64 CGO_ENABLED=0 $(GO) vet $(TOOLS_TAGS) $(TAGGED)
	GOOS=linux CGO_ENABLED=0 $(GO) vet -tags tools,gse_portable $(TAGGED)

# release writes dist/gameserver_exporter-VERSION.OS-ARCH.tar.gz (.zip for windows)
# for each of PLATFORMS, and dist/sha256sums.txt. VERSION is the VERSION file's, and
# CHANGELOG.md's newest section must be it (not "Unreleased"): CONTRIBUTING.md says
# how a release is cut. release-snapshot builds the same archives of unreleased
# work, named VERSION+unreleased.REVISION.
release:
	scripts/release.sh $(PLATFORMS)

release-snapshot:
	SNAPSHOT=1 scripts/release.sh $(PLATFORMS)

# docker builds the image from source (multi-stage; the golang image must be pullable),
# its binary stamped with the version, revision, branch and date `make build` uses,
# tagged with that version (an image tag cannot hold "+": unreleased work is tagged
# VERSION-unreleased.REV).
docker:
	$(CONTAINER) build $$(VERSION=$(VERSION) scripts/ldflags.sh --build-args) -t $(IMAGE):$(subst +,-,$(VERSION)) .

# test installs what the tests need (when root and missing), then runs every test:
# under the race detector the packages with concurrency of their own and the
# harnesses that drive the whole exporter, the decoders without it
# (scripts/testsets.sh says why), and the race set's tests that only build
# without the detector (the stack-size tests).
# Tests whose tools are missing skip with a message.
# The waiting set (hostile/: hundreds of probes that each wait for a deadline, a
# tenth of its time on a CPU) runs beside the other steps, built first, then split
# into WAITING_SHARDS processes (HOSTILE_SHARD), then the chart's tests (mostly
# waiting for a real Prometheus), their output printed after the other steps.
# Load tests (LOAD_TESTS) skip in the first run and run after it, alone: they take
# both cores for seconds and judge deadlines or peak memory, so they must not share
# the CPUs with other test binaries (nor those with them).
# Every step runs even when an earlier one failed (the target fails at the end), and
# each test step prints go test's lines and the tests that skipped, one line each with
# why, each test once (scripts/gotest).
WAITING_SHARDS ?= 3
LOAD_TESTS ?= ^(TestLoad.*|TestCrowdOfCallers)$$
LOAD_PKGS  ?= ./hostile/ .
GOTEST    ?= GO=$(GO) $(GO) run $(TOOLS_TAGS) ./scripts/gotest
test: test-deps
	@failed=""; \
	{ $(GOFMT_CHECK) && $(GO) vet $(TOOLS_TAGS) ./...; } || failed="$$failed vet"; \
	waiting=$$(mktemp -d); \
	{ $(GO) test -race -count=1 $(TOOLS_TAGS) -run '^$$' $$(scripts/testsets.sh waiting) >/dev/null 2>&1; \
	  for s in $$(seq $(WAITING_SHARDS)); do \
	    { HOSTILE_SHARD=$$s/$(WAITING_SHARDS) $(GOTEST) -race -count=1 $(TOOLS_TAGS) $$(scripts/testsets.sh waiting) >$$waiting/$$s.out 2>&1; echo $$? >$$waiting/$$s.rc; } & \
	  done; wait; \
	  $(MAKE) --no-print-directory chart-test >$$waiting/chart.out 2>&1; echo $$? >$$waiting/chart.rc; } & \
	$(GOTEST) -race -count=1 $(TOOLS_TAGS) $$(scripts/testsets.sh race) || failed="$$failed race"; \
	$(GOTEST) -count=1 $(TOOLS_TAGS) $$(scripts/testsets.sh plain) || failed="$$failed test"; \
	norace=$$(scripts/testsets.sh norace); [ -z "$$norace" ] || $(GOTEST) -count=1 $$norace || failed="$$failed norace"; \
	$(GOTEST) -race -count=1 -tags gse_portable ./protocols/wire/ ./protocols/ ./protocols/auto/ || failed="$$failed gse_portable"; \
	$(GOTEST) -count=1 -tags gse_portable -run '^TestFootprint$$' ./web/ || failed="$$failed gse_portable_footprint"; \
	wait; cat $$waiting/*.out; [ -z "$$(grep -vx 0 $$waiting/[0-9]*.rc)" ] || failed="$$failed waiting"; \
	[ "$$(cat $$waiting/chart.rc)" = 0 ] || failed="$$failed chart"; rm -rf $$waiting; \
	GSE_LOAD_TESTS=1 $(GOTEST) -race -count=1 -p 1 -run '$(LOAD_TESTS)' $(LOAD_PKGS) || failed="$$failed load"; \
	if [ -n "$$failed" ]; then echo "make test: failed:$$failed"; exit 1; fi

# chart-test: the Helm chart (charts/, a module of its own: Helm, the Kubernetes types
# and the prometheus-operator stay out of the exporter's go.mod): helm lint and
# template with each ci/ values file (Helm pinned in charts/go.mod), strict decoding
# of every object, the rendered Deployment started with its kubelet probes, and a
# real Prometheus (Debian package prometheus) scraping it with the configuration the
# prometheus-operator's generator makes of the rendered Probe, ServiceMonitor and
# ScrapeConfig objects.
chart-test:
	cd charts && $(GO) vet ./... && $(GO) test -count=1 ./...

test-deps:
	@scripts/install-test-deps.sh $(TEST_DEBS)
	@scripts/install-gamedig.sh "$(GAMEDIG_DIR)"

# lint runs golangci-lint with .golangci.yml (installed with go install when missing).
GOLANGCI ?= $(shell command -v golangci-lint || echo $$(go env GOPATH)/bin/golangci-lint)
lint:
	@test -x "$(GOLANGCI)" || $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0
	$(GOLANGCI) run --build-tags tools ./...
	$(GOLANGCI) run --build-tags tools,gse_portable ./protocols/wire/

GOFMT_CHECK = { test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; false; }; }
vet:
	@$(GOFMT_CHECK)
	$(GO) vet $(TOOLS_TAGS) ./...

# fuzz runs every fuzz target for FUZZTIME each (the seed corpora also run in `test`);
# FUZZ_SINCE=REV keeps the packages changed since REV, FUZZ_BUDGET=SECONDS starts
# no target past that time, newest change first (CI's run).
FUZZ_SINCE ?=
FUZZ_BUDGET ?=
fuzz:
	@FUZZ_SINCE=$(FUZZ_SINCE) FUZZ_BUDGET=$(FUZZ_BUDGET) scripts/fuzz-all.sh $(FUZZTIME)

# bench runs the Go benchmarks; bench-short is the CI smoke run (no timing checks),
# with the plain test set's tags, so it links the packages that step compiled.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

bench-short:
	$(GO) test $(TOOLS_TAGS) -run '^$$' -bench . -benchtime 100x -benchmem ./...

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
	promtool test rules examples/paging_test.yml
