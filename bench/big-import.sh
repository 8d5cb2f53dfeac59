#!/usr/bin/env bash
# Cold read commands with a big import: a database holding OFFERS imported
# offers (default 100,000; a synthetic SkyPilot AWS file from bench/genvms,
# whose ~2,200 instance types are all discovered by import) against no
# database. Runs are interleaved (every binary, database and command once
# per round, RUNS rounds) so that the load of a shared machine spreads
# evenly; prints each run, then the mean wall time, CPU time (user +
# system) and peak memory of each binary, database and command.
#
#   bench/big-import.sh [OFFERS] [RUNS]
#
# BEFORE=path/to/gpuscout adds another binary (an older build), with a
# database that binary imports itself.
set -euo pipefail
cd "$(dirname "$0")/.."
offers=${1:-100000}
runs=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -trimpath -o bin/gpuscout ./cmd/gpuscout
go run ./bench/genvms -o "$tmp/vms.csv" -offers "$offers"
bins=("now=bin/gpuscout")
if [ -n "${BEFORE:-}" ]; then
  bins=("before=$BEFORE" "${bins[@]}")
fi
for b in "${bins[@]}"; do
  name=${b%%=*} bin=${b#*=}
  /usr/bin/time -f "$name import: %e s, %M KB" "$bin" --db "$tmp/$name.db" catalog import skypilot --cloud aws --file "$tmp/vms.csv" >/dev/null
done
cmds=("offers --gpu A100 --limit 20" "recommend -f examples/distributed-training.yaml")
for _ in $(seq "$runs"); do
  for b in "${bins[@]}"; do
    name=${b%%=*} bin=${b#*=}
    for db in none "$name"; do
      label=$name/$([ "$db" = none ] && echo "no database" || echo "$offers offers")
      for cmd in "${cmds[@]}"; do
        # shellcheck disable=SC2086 # cmd is split into arguments on purpose
        /usr/bin/time -f "$label | $cmd | %e | %U | %S | %M" "$bin" --db "$tmp/$db.db" $cmd >/dev/null 2>"$tmp/err" || true
        grep -v warning "$tmp/err" | tee -a "$tmp/times" || true
      done
    done
  done
done
echo
echo "mean of $runs runs: wall s, CPU s (user + system), peak MB"
awk -F' [|] ' 'NF == 6 { k = $1 " | " $2; n[k]++; w[k] += $3; c[k] += $4 + $5; m[k] += $6 }
  END { for (k in n) printf "%s | %.3f | %.3f | %.0f\n", k, w[k] / n[k], c[k] / n[k], m[k] / n[k] / 1024 }' "$tmp/times" | sort
