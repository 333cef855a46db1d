# tabletop-referee — `make run` serves everything, `make test` tests everything.
# Both create .venv and install what they need on first use.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
SERVICES := $(sort $(dir $(wildcard services/*/pyproject.toml)))
PROJECTS := shared gateway client $(SERVICES)
STAMP  := $(VENV)/.installed
# pytest-xdist processes for `make test`: whole test files go to each (--dist loadfile keeps a
# file's live stack and browser in one process). Most of the time is spent waiting on browsers,
# gunicorn and Redis, so three keep two cores busy: 33 min instead of 80+ (one process). Files
# go out in collection order, the longest first (conftest.py's STARTED_FIRST).
TEST_WORKERS ?= 3

.PHONY: run test bench openapi deploy-files golden pictures lock install clean help

help:
	@echo "make run    serve the referee on 127.0.0.1:$${PORT:-8000} (embedded Redis unless REDIS_URL)"
	@echo "make test   run every test"
	@echo "make bench  print the benchmark ratios (not part of make test)"
	@echo "make openapi  rewrite docs/openapi.json from the code"
	@echo "make deploy-files  rewrite the Dockerfile, docker-compose.yml and k8s/ from tools/render_deploy.py"
	@echo "make golden re-record tests/golden/ (only when a rule change is meant to change play)"
	@echo "make pictures  re-record tests/golden/pictures/ (look first: tools/record_pictures.py --png DIR)"
	@echo "make lock   re-pin requirements.lock (the images' dependencies, with hashes)"
	@echo "make clean  remove the virtual environment and local data"

$(STAMP): $(addsuffix pyproject.toml,$(addsuffix /,$(PROJECTS:/=))) requirements-dev.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@echo "installing into $(VENV) (first run takes a minute)…"
	$(PY) -m pip install --quiet --disable-pip-version-check \
		-e 'shared[embedded]' -e gateway -e client $(addprefix -e ,$(SERVICES)) -r requirements-dev.txt
	@touch $@

install: $(STAMP)

run: $(STAMP)
	$(PY) -m referee.stack

test: $(STAMP)
	@sh tools/ensure_promtool.sh; sh tools/ensure_chromium.sh; sh tools/ensure_node.sh; \
		sh tools/ensure_redis7.sh; \
		VENV=$(VENV) sh tools/ensure_kubectl.sh; VENV=$(VENV) sh tools/ensure_checkov.sh; \
		$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=25

bench: $(STAMP)
	$(PY) bench/run.py

openapi: $(STAMP)
	$(PY) tools/write_openapi.py

deploy-files: $(STAMP)
	$(PY) tools/render_deploy.py

golden: $(STAMP)
	$(PY) tools/record_playthroughs.py

pictures: $(STAMP)
	$(PY) tools/record_pictures.py

lock: $(STAMP)
	$(PY) -m pip install --quiet pip-tools
	cd shared && ../$(VENV)/bin/pip-compile --quiet --generate-hashes --strip-extras \
		--no-emit-index-url --no-emit-find-links --output-file ../requirements.lock pyproject.toml

clean:
	rm -rf $(VENV) var
