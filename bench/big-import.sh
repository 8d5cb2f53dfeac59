#!/usr/bin/env bash
# Cold read commands with a big import: a database holding OFFERS imported
# offers (default 100,000; a synthetic SkyPilot AWS file from bench/genvms,
# whose ~2,200 instance types are all discovered by import) against no
# database. Runs are interleaved (every binary, database and command once
# per round, RUNS rounds) so that the load of a shared machine spreads
# evenly; prints each run, then the mean wall time, CPU time (user +
# system) and peak memory of each binary, database and command, and the
# ratio of each command's time with the import to its time with none.
# Times are in milliseconds; a run of `offers` takes a few, so use many
# RUNS (30 or more) and read the means.
#
#   bench/big-import.sh [OFFERS] [RUNS]
#
# BEFORE=path/to/gpuscout adds another binary (an older build), with a
# database that binary imports itself.
set -euo pipefail
cd "$(dirname "$0")/.."
TIMEFORMAT='%3R | %3U | %3S'
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
        # Wall and CPU time in milliseconds from bash's time (GNU time's
        # %e, %U and %S count hundredths), peak memory from GNU time;
        # both count GNU time's own start, alike in every run.
        t=$( { time /usr/bin/time -o "$tmp/rss" -f "%M" "$bin" --db "$tmp/$db.db" $cmd >/dev/null 2>"$tmp/err"; } 2>&1 ) || true
        echo "$label | $cmd | $t | $(tail -1 "$tmp/rss")" | tee -a "$tmp/times"
      done
    done
  done
done
echo
echo "mean of $runs runs: wall s, CPU s (user + system), peak MB"
awk -F' [|] ' 'NF == 6 { k = $1 " | " $2; n[k]++; w[k] += $3; c[k] += $4 + $5; m[k] += $6 }
  END { for (k in n) printf "%s | %.4f | %.3f | %.0f\n", k, w[k] / n[k], c[k] / n[k], m[k] / n[k] / 1024 }' "$tmp/times" | sort
# The ratio the issue asks about: each command with the import against
# the same binary with no database (the embedded catalog alone).
echo
echo "with $offers imported offers / no database: wall, CPU"
awk -F' [|] ' 'NF == 6 { split($1, b, "/"); db = (b[2] == "no database") ? "none" : "big"; k = b[1] " | " $2
    n[k, db]++; w[k, db] += $3; c[k, db] += $4 + $5; keys[k] = 1 }
  END { for (k in keys) if (n[k, "none"] && n[k, "big"] && w[k, "none"] > 0 && c[k, "none"] > 0)
    printf "%s | %.1fx | %.1fx\n", k, (w[k, "big"] / n[k, "big"]) / (w[k, "none"] / n[k, "none"]), (c[k, "big"] / n[k, "big"]) / (c[k, "none"] / n[k, "none"]) }' "$tmp/times" | sort
