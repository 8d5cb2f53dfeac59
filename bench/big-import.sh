#!/usr/bin/env bash
# Cold read commands with a big import: a database holding OFFERS imported
# offers (default 100,000; a synthetic SkyPilot AWS file from bench/genvms,
# whose ~2,200 instance types are all discovered by import) against no
# database. Prints wall time and peak memory of each run.
#
#   bench/big-import.sh [OFFERS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
offers=${1:-100000}
runs=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -trimpath -o bin/gpuscout ./cmd/gpuscout
go run ./bench/genvms -o "$tmp/vms.csv" -offers "$offers"
/usr/bin/time -f "import: %e s, %M KB" bin/gpuscout --db "$tmp/big.db" catalog import skypilot --cloud aws --file "$tmp/vms.csv" >/dev/null
for db in "$tmp/none.db" "$tmp/big.db"; do
  for cmd in "offers --gpu A100 --limit 20" "recommend -f examples/distributed-training.yaml"; do
    for _ in $(seq "$runs"); do
      /usr/bin/time -f "$(basename "$db") $cmd: %e s (CPU %U s user + %S s system), %M KB" bin/gpuscout --db "$db" $cmd >/dev/null 2>"$tmp/err" || true
      grep -v warning "$tmp/err" || true
    done
  done
done
