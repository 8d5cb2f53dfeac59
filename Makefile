# gpuscout — two commands on a fresh machine:
#   make run    the main job on the embedded catalog
#   make test   every test
GO      ?= go
BIN     := bin/gpuscout
PKGS    := ./...
# The release build, as the container image builds it: statically linked
# (no cgo: no dynamic loader and C library to start, some 90 page faults and
# 2 ms less per command) and without the symbol table and DWARF (panics still
# name functions, files and lines; `make build LDFLAGS=` keeps them for perf
# and debuggers).
CGO     ?= 0
LDFLAGS ?= -s -w

.PHONY: run demo test build vet fmt fuzz bench bench-cli golden clean assets assets-check serve catalog image image-test deploy-check

build:
	CGO_ENABLED=$(CGO) $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/gpuscout

## run: bundle the web assets (when npm is present) and serve the UI and API on the embedded catalog
run:
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory assets || echo "could not rebuild the web bundle; serving the committed one"; \
	 else echo "npm not found: serving the web bundle committed in internal/web/static"; fi
	@$(MAKE) --no-print-directory build
	$(BIN) serve --addr $(ADDR)

ADDR ?= 127.0.0.1:8080

## demo: a tour of the CLI — advisor, offers, catalog summary, TCO, estimate
demo: build
	@echo "== The advisor: 13B pretraining in two weeks on NVSwitch nodes with RDMA (examples/distributed-training.yaml) =="
	@$(BIN) recommend -f examples/distributed-training.yaml --limit 3
	@echo
	@echo "== Cheapest 8-GPU A100/H100 on-demand offer of each cloud (USD per instance-hour) =="
	@$(BIN) offers --gpu A100,H100 --min-gpus 8 --billing on-demand --per-provider 1
	@echo
	@echo "== The same GPUs under every billing model: the two cheapest per GPU-hour of each cloud =="
	@$(BIN) offers --gpu A100,H100 --min-gpus 8 --per gpu-hour --sort gpu-price --cheapest-region --per-provider 2
	@echo
	@echo "== A100 in mainland China (CNY) =="
	@$(BIN) offers --gpu A100 --residency cn-mainland --currency CNY --per-provider 3
	@echo
	@$(BIN) catalog stats
	@echo
	@echo "== Three years of 8×H100: on-demand vs a 3-year commitment vs buying a server =="
	@$(BIN) tco --months 36 --offer aws/p5.48xlarge/us-east-1/on-demand --offer gcp/a3-highgpu-8g/us-central1/committed-3y --onprem H100
	@echo
	@echo "== Time and cost to train a 7B model on 1T tokens on 8 p5.48xlarge =="
	@$(BIN) estimate --workload transformer-train --params 7e9 --tokens 1e12 --offer aws/p5.48xlarge/us-east-1/on-demand --instances 8

## test: vet, formatting check and every test (offline, race detector off for speed on 2 cores). No test
## asserts a time (GPUSCOUT_PERF_BUDGET=1 holds the explorer's paint times to 100 ms on a quiet machine);
## -timeout 30m is a cap only a hang reaches on a busy machine.
test: vet
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(GO) test -count=1 -timeout 30m $(PKGS)
	@$(MAKE) --no-print-directory deploy-check

## deploy-check: the kustomizations under deploy/ built with kustomize and decoded strictly against the Kubernetes API types (offline); the Dockerfile's Go against go.mod
deploy-check:
	cd deploy/validate && $(GO) test -count=1 ./...

IMAGE ?= gpuscout:dev

## image: the container image (multi-stage, static binary, distroless, non-root)
image:
	docker build -t $(IMAGE) .

## image-test: build the image, run it and wait for /healthz (needs a docker daemon and the base images)
image-test:
	./deploy/image-test.sh $(IMAGE)

vet:
	$(GO) vet $(PKGS)

fmt:
	gofmt -w $$(git ls-files '*.go')

## fuzz: run each fuzz target for a while (FUZZTIME=30s by default)
FUZZTIME ?= 30s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzLoadOffers$$' -fuzztime $(FUZZTIME) ./internal/catalog/curated
	$(GO) test -run '^$$' -fuzz '^FuzzLoadCatalogFile$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x ./internal/catalog/curated
	$(GO) test -run '^$$' -fuzz '^FuzzRecommendBody$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x ./internal/server
	$(GO) test -run '^$$' -fuzz '^FuzzRoutes$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x ./internal/server
	$(GO) test -run '^$$' -fuzz '^FuzzReadJob$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x ./internal/recommend/jobfile
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x ./internal/recommend/jobfile
	$(GO) test -run '^$$' -fuzz '^FuzzReadUsage$$' -fuzztime $(FUZZTIME) ./internal/pricing/planfile
	$(GO) test -run '^$$' -fuzz '^FuzzParseBenchmarks$$' -fuzztime $(FUZZTIME) ./internal/perf
	$(GO) test -run '^$$' -fuzz '^FuzzNVSMI$$' -fuzztime $(FUZZTIME) ./internal/rightsize
	$(GO) test -run '^$$' -fuzz '^FuzzDCGM$$' -fuzztime $(FUZZTIME) ./internal/rightsize
	$(GO) test -run '^$$' -fuzz '^FuzzDetect$$' -fuzztime $(FUZZTIME) ./internal/rightsize
	$(GO) test -run '^$$' -fuzz '^FuzzOffers$$' -fuzztime $(FUZZTIME) ./internal/importer/aws
	$(GO) test -run '^$$' -fuzz '^FuzzSpot$$' -fuzztime $(FUZZTIME) ./internal/importer/aws
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/importer/azure
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/importer/gcp
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/importer/alibaba
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/importer/tencent
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/importer/huawei
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/importer/baidu
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/importer/skypilot
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/importer/vast
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/importer/lambda
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/importer/runpod
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/importer/digitalocean
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/importer/oci
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/importer/hyperstack
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/importer/verda
	$(GO) test -run '^$$' -fuzz '^FuzzCyclenerdPricing$$' -fuzztime $(FUZZTIME) ./internal/lineage
	$(GO) test -run '^$$' -fuzz '^FuzzCheckField$$' -fuzztime $(FUZZTIME) ./internal/catalog/curated
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeCompiled$$' -fuzztime $(FUZZTIME) ./internal/catalog/curated
	$(GO) test -run '^$$' -fuzz '^FuzzReadsAsEncodingCSV$$' -fuzztime $(FUZZTIME) ./internal/csvtext
	$(GO) test -run '^$$' -fuzz '^FuzzCmpDec$$' -fuzztime $(FUZZTIME) ./internal/catalog
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/importer/priceserver
	$(GO) test -run '^$$' -fuzz '^FuzzParseSilybenchPrices$$' -fuzztime $(FUZZTIME) ./internal/lineage
	$(GO) test -run '^$$' -fuzz '^FuzzSortOffers$$' -fuzztime $(FUZZTIME) ./internal/catalog
	$(GO) test -run '^$$' -fuzz '^FuzzReadParts$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x ./internal/sqlite
	$(GO) test -run '^$$' -fuzz '^FuzzPackVarints$$' -fuzztime $(FUZZTIME) ./internal/sqlite
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeOverlayGroup$$' -fuzztime $(FUZZTIME) ./internal/sqlite
	$(GO) test -run '^$$' -fuzz '^FuzzOverlayCacheAnswersAsFullRead$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x ./internal/cli
	$(GO) test -run '^$$' -fuzz '^FuzzParseMFU$$' -fuzztime $(FUZZTIME) ./internal/perf
	$(GO) test -run '^$$' -fuzz '^FuzzParseCapacityBlocks$$' -fuzztime $(FUZZTIME) ./internal/lineage
	$(GO) test -run '^$$' -fuzz '^FuzzParseKarpenterPrices$$' -fuzztime $(FUZZTIME) ./internal/lineage
	$(GO) test -run '^$$' -fuzz '^FuzzParseVantageJS$$' -fuzztime $(FUZZTIME) ./internal/lineage
	$(GO) test -run '^$$' -fuzz '^FuzzParseKarpenterAzure$$' -fuzztime $(FUZZTIME) ./internal/lineage
	$(GO) test -run '^$$' -fuzz '^FuzzCheckDuplicateKeys$$' -fuzztime $(FUZZTIME) ./internal/importer
	$(GO) test -run '^$$' -fuzz '^FuzzPrefillTime$$' -fuzztime $(FUZZTIME) ./internal/perf
	$(GO) test -run '^$$' -fuzz '^FuzzTPOverPCIe$$' -fuzztime $(FUZZTIME) ./internal/perf
	$(GO) test -run '^$$' -fuzz '^FuzzMoEBytesPerStep$$' -fuzztime $(FUZZTIME) ./internal/perf
	$(GO) test -run '^$$' -fuzz '^FuzzInterpolatedMonotone$$' -fuzztime $(FUZZTIME) ./internal/perf
	$(GO) test -run '^$$' -fuzz '^FuzzMoreTokensNeverLessTime$$' -fuzztime $(FUZZTIME) ./internal/perf
	$(GO) test -run '^$$' -fuzz '^FuzzServingContext$$' -fuzztime $(FUZZTIME) ./internal/recommend
	$(GO) test -run '^$$' -fuzz '^FuzzPlanInvariants$$' -fuzztime $(FUZZTIME) ./internal/cli
	$(GO) test -run '^$$' -fuzz '^FuzzFacesAgree$$' -fuzztime $(FUZZTIME) ./internal/server

## bench: in-process benchmarks, then whole-process timings (bench/)
bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)
	./bench/cli.sh

## catalog: regenerate the offer files derived from machine-readable sources (internal/lineage),
## then the compiled catalog the binary embeds (internal/catalog/curated/compiled.bin) from every CSV file
catalog:
	$(GO) run ./cmd/catalog-gen
	$(GO) run ./internal/catalog/curated/cmd/compile

## golden: rewrite golden files after an intended output change (review the diff!)
golden:
	$(GO) test ./internal/cli -update
	GPUSCOUT_UPDATE_GOLDEN=1 $(GO) test ./internal/importer/...

## assets: rebuild the web UI's script and stylesheet (internal/web/static) from web/
assets:
	cd web && npm ci --no-audit --no-fund && npm run build

## assets-check: fail if the committed bundle differs from a fresh build
assets-check: assets
	@git diff --exit-code --stat -- internal/web/static || { echo "internal/web/static is stale: run make assets and commit"; exit 1; }

## serve: the web UI and API on http://127.0.0.1:8080
serve: build
	$(BIN) serve

clean:
	rm -rf bin
