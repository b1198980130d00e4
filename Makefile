# Two commands on a fresh machine: `make demo` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# The versions of what produces text digests (see the file itself).
CONSTRAINTS := constraints.txt
BASE := $(VENV)/.installed-base
STAMP := $(VENV)/.installed
WORKERS := $(shell n=$$(nproc 2>/dev/null || echo 2); w=$$(( n + 1 )); echo $$(( w < 3 ? 3 : w > 8 ? 8 : w )))

.PHONY: demo test lint bench clean

# The package alone: all the demo needs.
$(BASE): pyproject.toml $(CONSTRAINTS)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c $(CONSTRAINTS) -e .
	touch $(BASE)

# Everything the tests need: the extras, pywb and ReplayWeb.page for replaying exports.
$(STAMP): $(BASE)
	$(PY) -m pip install --quiet -c $(CONSTRAINTS) -e '.[dev,browser,mcp,team]'
	# pywb (replays exported WACZ in tests) in its own venv: its brotlipy shadows brotli.
	$(PYTHON) -m venv $(VENV)/pywb
	$(VENV)/pywb/bin/pip install --quiet 'pywb==2.10.0'
	# ReplayWeb.page's bundle, to open exported WACZ in the browser tests (skipped without npm).
	if command -v npm >/dev/null; then cd $(VENV) && rm -rf replaywebpage package && \
	  npm pack --silent replaywebpage@2.5.3 >/dev/null && tar xzf replaywebpage-2.5.3.tgz && \
	  mv package replaywebpage && rm replaywebpage-2.5.3.tgz; fi
	touch $(STAMP)

demo: $(BASE)
	$(VENV)/bin/readreceipt demo

test: $(STAMP)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/mypy
	# One process more than the cores, three to eight: most tests wait on servers and
	# subprocesses, not the CPU (three on this two-core machine; each worker starts its own
	# PostgreSQL and S3 server for the team tests, hence the cap).
	$(PY) -m pytest -q -n $(WORKERS)

bench: $(STAMP)
	for b in capture batch memory guard verdicts heldout heldout2 extraction nesting quotes claims hook_latency export s3_clients team; do $(PY) bench/$$b.py || exit 1; done
	$(PY) bench/capture.py --floor
	$(PY) bench/capture.py --peer

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
