# Every command a contributor or CI runs. `make help` lists the targets.
SWIFT ?= swift
# The kit that resolves the traits' packages offline, with OpenCombine as Combine on Linux (its README): CI and
# this machine have ../shared beside the clone. Where it is absent (GitHub), SwiftPM resolves them from the
# network instead; OpenFeature then builds only on Apple platforms (open-feature/swift-sdk imports Combine), so
# on Linux its steps say they are skipped.
OFKIT ?= ../shared/openfeature-kit
HAVE_OFKIT := $(wildcard $(OFKIT)/setup.sh)
OPENFEATURE_BUILDS := $(or $(HAVE_OFKIT),$(filter Darwin,$(shell uname)))
# $(call kit_setup,PACKAGE_DIRS): the kit's mirrors in each package's .swiftpm/, or a line saying there is no kit.
kit_setup = $(if $(HAVE_OFKIT),bash $(OFKIT)/setup.sh $(1),@echo "no kit at $(OFKIT): SwiftPM resolves the traits' packages from the network")
OPENFEATURE_SKIPPED = @echo "$@: skipped: no kit at $(OFKIT), and open-feature/swift-sdk needs Combine, which Linux has only through the kit (the GitHub macOS job tests the provider)"
LINT_PATHS := Package.swift Packages Sources Tests Tools Scripts
# Packages/TestSupport holds the test helpers and no tests: every other package builds it with its tests.
PACKAGES := $(filter-out TestSupport,$(notdir $(wildcard Packages/*)))
# The suites that run the client against the emulator or a loopback peer and wait on real-time deadlines of
# a few seconds: they run after the rest, so that the CPU-bound suites (fuzzing, stress) never starve them
# on a machine of 2 cores.
LOOPBACK_SUITES := EndToEndTests|DocumentedExamplesTests|ConfigEmulatorTests|ConfigDemoTests
DOC_TARGETS := ConfigDirector ConfigModel ConfigTransport ConfigStore ConfigClient ConfigTesting ConfigOpenFeature ConfigInspector

.PHONY: help build demo test test-packages test-openfeature test-traits bench-tracing check-manifests check-privacy check-time-limits check-docs check-apple check-openssl check-imports check-api check-api-traits api build-api-traits test-consumer test-browser test-proxy test-tsan lint format docs bench build-bench-release check-allocations build-bench clean

help: ## List the targets.
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

build: ## Build every module of the root manifest.
	$(SWIFT) build

demo: ## Play the SDK's story against the in-process emulator, no account nor network (DEMO_ARGS=--help).
	$(SWIFT) run config-demo $(DEMO_ARGS)

test: ## Run the root suite: every module's tests and the cross-package tests, the loopback suites last.
	$(SWIFT) test --skip '$(LOOPBACK_SUITES)'
	$(SWIFT) test --filter '$(LOOPBACK_SUITES)'

test-packages: ## Build and test each Packages/<Name> alone, with its own manifest.
	@set -e; for package in $(PACKAGES); do \
		echo "== $$package alone"; \
		$(SWIFT) test --package-path Packages/$$package; \
	done

test-openfeature: ## Test the OpenFeature provider with the trait on: ConfigOpenFeature alone, then the root's provider tests.
	@# The kit writes its mirrors into each package's .swiftpm/ (ignored by git); the trait builds use
	@# their own scratch folders (.build-openfeature, ignored too), so that the default builds never see them.
ifneq ($(OPENFEATURE_BUILDS),)
	$(call kit_setup,. Packages/ConfigOpenFeature)
	$(SWIFT) test --package-path Packages/ConfigOpenFeature --traits OpenFeature \
		--scratch-path Packages/ConfigOpenFeature/.build-openfeature
	$(SWIFT) test --traits OpenFeature --scratch-path .build-openfeature \
		--filter 'ConfigOpenFeatureTests|OpenFeatureProviderTests'
else
	$(OPENFEATURE_SKIPPED)
endif

test-traits: ## Test the traits Logging and Tracing on: ConfigClient alone, then the root's logger, hook and example tests.
	@# As test-openfeature: the kit's mirrors in each package's .swiftpm/, the trait builds in their own scratch
	@# folders (.build-traits, ignored by git), so that the default builds never see them.
	$(call kit_setup,. Packages/ConfigClient)
	$(SWIFT) test --package-path Packages/ConfigClient --traits Logging,Tracing \
		--scratch-path Packages/ConfigClient/.build-traits
	$(SWIFT) test --traits Logging,Tracing --scratch-path .build-traits \
		--filter 'SwiftLogLoggerTests|TracingHookTests|SwiftLogExamples|TracingExamples'

check-manifests: ## Fail when a nested manifest drifts from the root (targets, dependencies, settings).
	python3 Scripts/check-manifests.py

check-privacy: ## Fail when a module's PrivacyInfo.xcprivacy and its uses of Apple's required-reason APIs disagree.
	python3 Scripts/check-privacy.py

check-time-limits: ## Fail when a @Suite or @Test has no .timeLimit trait, directly or from an enclosing suite.
	python3 Scripts/check-time-limits.py

check-docs: ## Fail when a relative link, a file path or a Swift symbol (Type.member) in backticks in the Markdown docs names nothing that exists.
	python3 Scripts/check-docs.py

check-apple: ## Compile every module, the traits and the app modules for iOS and macOS against Apple SDKs (skipped, saying so, where they are not prepared).
	Scripts/check-apple.sh

check-openssl: ## Fail when OpenSSLLibrary.swift's hand-declared signatures or constants differ from <openssl/ssl.h> (installs libssl-dev if missing).
	Scripts/check-openssl.sh

check-imports: ## Build everything with explicit import checking and warnings as errors.
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check error -Xswiftc -warnings-as-errors

check-api: build ## Fail when a public declaration or conformance differs from Scripts/public-api.txt (symbol graphs of the debug build).
	python3 Scripts/public-api.py .build/debug/Modules Scripts/public-api.txt

check-api-traits: build-api-traits ## Fail when what the traits add to the public API differs from Scripts/public-api-traits.txt.
ifneq ($(OPENFEATURE_BUILDS),)
	python3 Scripts/public-api.py .build-api-traits/debug/Modules Scripts/public-api-traits.txt $(TRAIT_API_ARGUMENTS)
else
	$(OPENFEATURE_SKIPPED)
endif

api: build build-api-traits ## Rewrite Scripts/public-api.txt and Scripts/public-api-traits.txt after a deliberate change of the public API.
	python3 Scripts/public-api.py .build/debug/Modules Scripts/public-api.txt --write
	python3 Scripts/public-api.py .build-api-traits/debug/Modules Scripts/public-api-traits.txt $(TRAIT_API_ARGUMENTS) --write

# The modules whose API a trait extends, listed beyond the default build's listing.
TRAIT_API_ARGUMENTS := --modules ConfigClient,ConfigOpenFeature --beyond Scripts/public-api.txt

build-api-traits: ## Build ConfigOpenFeature (and so ConfigClient) with every trait on, through the kit, into .build-api-traits.
ifneq ($(OPENFEATURE_BUILDS),)
	$(call kit_setup,.)
	$(SWIFT) build --traits OpenFeature,Logging,Tracing --scratch-path .build-api-traits --target ConfigOpenFeature
else
	$(OPENFEATURE_SKIPPED)
endif

test-consumer: ## Build a throwaway app that depends on a tagged clone by URL (ConfigModel alone, then ConfigDirector).
	Scripts/test-consumer.sh

test-browser: ## Drive the emulator's dashboard in headless Chromium with a real SDK client (installs chromium, selenium if missing).
	Tests/Browser/run.sh

test-proxy: ## Run the socket client's suite through Debian's tinyproxy (installs tinyproxy if missing).
	Tests/Proxy/setup.sh
	$(SWIFT) test --package-path Packages/ConfigTransport --filter TinyProxyTests

test-tsan: ## Run the root suite under the thread sanitizer, in parallel: the unit suites, then the loopback suites.
	@# As in `make test`, the loopback suites run after the rest, in parallel among themselves.
	$(SWIFT) test --sanitize=thread --skip '$(LOOPBACK_SUITES)'
	$(SWIFT) test --sanitize=thread --filter '$(LOOPBACK_SUITES)'

lint: ## Check formatting against .swift-format.
	$(SWIFT) format lint --strict --recursive --parallel $(LINT_PATHS)

format: ## Format the sources in place with .swift-format.
	$(SWIFT) format format --in-place --recursive --parallel $(LINT_PATHS)

docs: ## Build the DocC documentation of the public products into .build/docs.
	Scripts/build-docs.sh $(DOC_TARGETS)

bench: build-bench-release ## Build Tools/Benchmarks in release mode and run every benchmark (QUICK=1 for the quick mode).
	QUICK=$(QUICK) Tools/Benchmarks/.build/release/Benchmarks

build-bench-release: ## Build Tools/Benchmarks in release mode, as bench and check-allocations run it.
	@# SwiftPM keeps the build plan of a path dependency across source files added to it; planning anew is cheap.
	rm -f Tools/Benchmarks/.build/release.yaml
	$(SWIFT) build -c release --package-path Tools/Benchmarks

bench-tracing: ## Build Tools/Benchmarks in release mode with the trait Tracing and run benchmark 17 (the tracing hook).
	$(call kit_setup,Tools/Benchmarks)
	$(SWIFT) build -c release --package-path Tools/Benchmarks --traits Tracing --scratch-path Tools/Benchmarks/.build-tracing
	BENCH=17 QUICK=$(QUICK) Tools/Benchmarks/.build-tracing/release/Benchmarks

check-allocations: build-bench-release ## Fail when a read of benchmarks 1, 9 or 12 allocates (release build; only the allocation targets gate).
	GATE=allocations BENCH=1,9,12 QUICK=1 Tools/Benchmarks/.build/release/Benchmarks

build-bench: ## Build Tools/Benchmarks (debug): a quicker check than check-allocations that every benchmark compiles.
	$(SWIFT) build --package-path Tools/Benchmarks

clean: ## Remove build products.
	rm -rf .build .build-openfeature .build-traits .build-api-traits Packages/*/.build Packages/*/.build-openfeature \
		Packages/*/.build-traits Tools/Benchmarks/.build Tools/Benchmarks/.build-tracing
