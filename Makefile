# dmaviz build, serve and test. The two commands a newcomer needs:
#   make serve   build the site into dist/ and serve it on http://127.0.0.1:8080
#   make test    every check CI runs (needs Debian's chromium for the browser tests)

ADDR      ?= 127.0.0.1:8080
GO        ?= go
GOROOT    := $(shell $(GO) env GOROOT)
WASM_EXEC := $(GOROOT)/lib/wasm/go_js_wasm_exec
VUGU_DIR   = $(shell $(GO) list -m -f '{{.Dir}}' github.com/vugu/vugu)
# Packages that must also pass under GOOS=js GOARCH=wasm (run by Node).
JS_PKGS   ?= ./model/... ./render/... ./site/control/... ./urlstate/...
GEN_DIRS  := site

.PHONY: all generate check-generated wasm site serve test fmt-check vet unit benchcheck jstest e2e bench screenshot validate clean

all: site

# Vugu code generation with the pinned generator (go.mod's tool directive).
generate:
	@for d in $(GEN_DIRS); do $(GO) tool vugugen -skip-go-mod -skip-main ./$$d || exit 1; gofmt -w $$d/*_gen.go; done

# Fails when a .vugu file changed but its generated Go was not regenerated.
check-generated:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	for d in $(GEN_DIRS); do \
	  mkdir -p $$tmp/$$d; cp $$d/*.vugu $$d/*.go $$tmp/$$d/; rm -f $$tmp/$$d/*_gen.go; \
	  $(GO) tool vugugen -skip-go-mod -skip-main $$tmp/$$d; gofmt -w $$tmp/$$d/*_gen.go; \
	  for f in $$tmp/$$d/*_gen.go; do \
	    cmp -s $$f $$d/$$(basename $$f) || { echo "generated file $$d/$$(basename $$f) is stale: run make generate"; exit 1; }; \
	  done; \
	  for f in $$d/*_gen.go; do [ -f $$tmp/$$d/$$(basename $$f) ] || { echo "$$f has no .vugu source: delete it"; exit 1; }; done; \
	done; echo "generated Vugu code is current"

# The page's code is built without inlining except the runtime and the model:
# inlining copies code into every caller, which makes main.wasm markedly
# larger to download (docs/PERFORMANCE.md has its size), while the stage's
# frames take the same time either way. The model keeps it because its speed
# is measured against native. Of the model, the scenario packages whose work
# is in the hardware packages they drive (etr, sgsync, smmubypass: their own
# code is setup, recording and results), and the cold ones (catalog,
# platform, sweep, demo, vmapdemo), are built without it too: smaller, and
# their runs as WASM are no slower for it. auxmap keeps it: its burst loop is
# its own code, and slower without.
MODEL     := github.com/dmaviz/dmaviz/model
WASM_GCFLAGS := -gcflags=all=-l -gcflags=runtime= -gcflags=$(MODEL)/...= \
	$(foreach p,etr sgsync smmubypass catalog platform sweep demo vmapdemo,-gcflags=$(MODEL)/$(p)=-l)

wasm: generate
	@mkdir -p dist
	GOOS=js GOARCH=wasm $(GO) build -trimpath $(WASM_GCFLAGS) -ldflags="-s -w" -o dist/main.wasm ./wasm

site: wasm
	$(GO) run ./cmd/sitebuild -out dist -goroot "$(GOROOT)" -vugu "$(VUGU_DIR)"

serve: site
	$(GO) run ./cmd/dmaviz serve -dir dist -addr $(ADDR)

fmt-check:
	@bad=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$bad" ]; then echo "not gofmt-clean:"; echo "$$bad"; exit 1; fi; echo "gofmt clean"

vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...
	$(GO) vet -tags e2e ./e2e/

unit:
	$(GO) test ./...

# Every benchmark once, natively: one that no longer runs (a setting its
# scenario now refuses, a count that drifted) fails here, not in make bench.
benchcheck:
	$(GO) test -run '^$$' -bench . -benchtime 1x ./...

jstest:
	@command -v node >/dev/null || { echo "GOOS=js tests need Node.js (Debian package nodejs)"; exit 1; }
	GOOS=js GOARCH=wasm $(GO) test -exec="$(WASM_EXEC)" $(JS_PKGS)

e2e: site
	@command -v chromium >/dev/null || [ -n "$$DMAVIZ_CHROMIUM" ] || { echo "browser tests need the Debian package chromium: apt-get install chromium"; exit 1; }
	$(GO) test -tags e2e -count=1 -timeout 20m ./e2e/

test: check-generated fmt-check vet unit benchcheck jstest e2e

# Every budget, each figure beside a baseline measured in the same run:
# main.wasm's size, the model's speed natively and as WASM under Node, every
# scenario's worst setting natively (cmd/corners, by CPU time) and in the
# page, the page's start-up. Writes docs/PERFORMANCE.md; fails when a worst
# setting is past its native bound.
bench: site validate
	$(GO) run ./cmd/benchreport -go $(GO) -dist dist -out docs/PERFORMANCE.md

# The README's picture (cmd/screens -list names the other shots it takes).
screenshot: site
	$(GO) run ./cmd/screens -dist dist -out docs -only screenshot

# Every published figure, calibrated or predicted, with the model's value,
# its error and its band over the assumed parameters' ranges, into
# docs/VALIDATION.md. Not part of make test: a prediction may honestly miss
# its figure (dmaviz validate then exits 1; the table is written anyway).
validate:
	@{ echo '# Validation'; echo; echo 'Written by `make validate` (`dmaviz validate --bands`). A calibrated figure is reproduced through the one parameter fitted to it: not a test of the model. A prediction is judged against its tolerance; OUTSIDE marks a published value outside the band the assumed parameters span.'; echo; echo '```'; \
	  $(GO) run ./cmd/dmaviz validate --bands; echo '```'; } > docs/VALIDATION.md.tmp; \
	mv docs/VALIDATION.md.tmp docs/VALIDATION.md; echo "docs/VALIDATION.md written"

clean:
	rm -rf dist
