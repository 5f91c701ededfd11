# Two commands on a fresh machine: `make run` and `make test`.
PORT ?= 8501
VENV := .venv
PY := $(VENV)/bin/python
# pyproject.toml's SHA-1, as run.py computes it (macOS has shasum, not sha1sum).
STAMP := $(VENV)/.installed-$(shell (sha1sum pyproject.toml 2>/dev/null || shasum -a 1 pyproject.toml) | cut -c1-12)

N ?= 2

# Python's bytecode cache, even where the shell turns it off (PYTHONDONTWRITEBYTECODE): without it
# every server a test starts and every test worker compiled the project again (2.6 s a worker).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test check demo system-test-deps bench cluster clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	@# --no-compile, as run.py: pip compiled every module of every package (40 s of a fresh install
	@# here against 16 s); the modules the tests import are compiled at their first import (about
	@# 6 s of a core, once) and kept, the rest never are.
	$(PY) -m pip install --quiet --no-compile -e ".[test]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

# The same start as everyone's `python run.py` (it finds the venv set up and the stamp in place).
run: $(STAMP)
	$(PY) run.py --port $(PORT)

# Browser tests need Debian's Chromium, the WebKit tests (Safari's engine) WebKitGTK's driver and
# Xvfb (they start their own X display), the PostgreSQL store's tests a PostgreSQL server (they
# start a throwaway one of their own), the cluster's test nginx, the attack tests iproute2 (a network
# namespace whose DNS never answers) and prlimit (a server with 1,024 open files); install what is
# missing (CI runs as root).
system-test-deps:
	@missing=""; command -v chromium >/dev/null 2>&1 || missing="chromium"; \
	  command -v WebKitWebDriver >/dev/null 2>&1 || missing="$$missing webkit2gtk-driver"; \
	  command -v Xvfb >/dev/null 2>&1 || missing="$$missing xvfb"; \
	  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	  command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || missing="$$missing nginx"; \
	  command -v ip >/dev/null 2>&1 || test -x /usr/sbin/ip || missing="$$missing iproute2"; \
	  command -v prlimit >/dev/null 2>&1 || missing="$$missing util-linux"; \
	  if [ -n "$$missing" ]; then echo "Installing Debian packages for the tests:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; fi

# Lint, types and every test: four workers on the two cores (pytest-xdist; browser tests start
# servers of their own on free ports, so several run side by side, and much of a browser test is
# waiting on a server, a page or a fault's timeout. From a fresh clone the main group took 592 and
# 599 s on three workers, 578 and 569 s on four; on six, every test ran 1.7 times as long and the
# group was no faster). `worksteal`: a worker that is done takes tests from another, so no
# long tail runs on one core. Then those marked `alone` (tests/conftest.py), apart from the rest:
# the cluster's on one worker and WebKit's on the other (with one worker, half the machine sat idle
# for their 75 s; with two, 50-58 s).
test: $(STAMP) system-test-deps
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	@# mypy (one core for 19 s on a fresh clone) checks beside the main group instead of before it;
	@# its verdict is printed after the tests' and fails the run all the same.
	@$(PY) -m mypy engine > $(VENV)/mypy.out 2>&1 & types=$$!; \
	  $(PY) -m pytest -q -n 4 --dist worksteal -m "not alone" --durations=20; tests=$$?; \
	  wait $$types; typed=$$?; echo "mypy engine:"; cat $(VENV)/mypy.out; \
	  [ $$tests -eq 0 ] && [ $$typed -eq 0 ]
	$(PY) -m pytest -q -n 2 --dist loadgroup -m alone

# The quick loop (about a minute here): lint, types, and every test that needs no browser and no
# server (no Chromium, WebKit, PostgreSQL, nginx, no fault proxy, and no start command or fresh install).
# The join address kept in PostgreSQL starts a throwaway server too (2-3 s of the minute): make test's.
QUICK := --ignore=tests/browser --ignore=tests/faults --ignore=tests/attacks --ignore=tests/webkit --ignore=tests/shell --ignore=tests/engine/store/test_postgres.py \
  --deselect tests/engine/content/test_address.py::test_the_setting_in_postgresql_too
check: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy engine
	$(PY) -m pytest -q -n 2 $(QUICK)

# Fill the archive with plausible saved games (through the same API the pages use).
demo: $(STAMP)
	$(PY) -m engine.demo

# N server processes behind nginx on one PostgreSQL (SOBREMESA_DATABASE_URL, or a throwaway one):
# README, "Serving many rooms". Needs Debian's nginx and postgresql (`make system-test-deps`).
cluster: $(STAMP)
	$(PY) deploy/cluster.py --processes $(N) --port $(PORT)

bench: $(STAMP) system-test-deps
	$(PY) bench/report.py

clean:
	rm -rf $(VENV) .pytest_cache
