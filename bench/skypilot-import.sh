#!/usr/bin/env bash
# Benchmark: import a synthetic SkyPilot vms.csv of OFFERS offers (default
# 1,000,000; bench/genvms, deterministic: AWS column order, 23 regions, an
# on-demand and a spot price per instance type and region) into a new
# database, RUNS times (default 3), with GNU time. Prints each run's wall
# time, CPU time (user + system), peak memory (max RSS) and read rate, then
# the medians, against the issue's targets (10 s, 200 MB for 10^6 offers).
#
#   bench/skypilot-import.sh [OFFERS] [RUNS]
#
# BEFORE=path/to/gpuscout adds an older binary, run alternately with this
# one. Needs GNU time (/usr/bin/time): apt-get install time.
set -euo pipefail
cd "$(dirname "$0")/.."
offers=${1:-1000000}
runs=${2:-3}
command -v /usr/bin/time >/dev/null || { echo "bench: /usr/bin/time is required (apt-get install time)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -trimpath -o bin/gpuscout ./cmd/gpuscout
go run ./bench/genvms -o "$tmp/vms.csv" -offers "$offers"
bytes=$(stat -c %s "$tmp/vms.csv")
printf 'file: %d offers requested, %.1f MB, %d rows\n' "$offers" "$(echo "$bytes/1048576" | bc -l)" "$(($(wc -l < "$tmp/vms.csv") - 1))"
cat "$tmp/vms.csv" > /dev/null # warm the page cache
bins=("now=bin/gpuscout")
if [ -n "${BEFORE:-}" ]; then
  bins=("before=$BEFORE" "${bins[@]}")
fi
for r in $(seq "$runs"); do
  for b in "${bins[@]}"; do
    name=${b%%=*} bin=${b#*=}
    rm -f "$tmp/g.db" "$tmp/g.db-wal" "$tmp/g.db-shm"
    /usr/bin/time -v -o "$tmp/time" "$bin" --db "$tmp/g.db" catalog import skypilot --cloud aws --file "$tmp/vms.csv" > "$tmp/out" 2> "$tmp/err" ||
      { cat "$tmp/err" >&2; exit 1; }
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$tmp/time")
    cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { print u + s }' "$tmp/time")
    kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time")
    stored=$(grep -o '[0-9]* offers,' "$tmp/out" | head -1)
    printf '%-7s run %d: %6.2f s wall, %6.2f s CPU, %5.0f MB peak, %6.1f MB/s (%s stored)\n' "$name" "$r" "$wall" "$cpu" "$(echo "$kb/1024" | bc -l)" \
      "$(echo "$bytes/1048576/$wall" | bc -l)" "${stored% offers,}"
    echo "$name $wall $cpu $kb" >> "$tmp/runs"
  done
done
echo
echo "median of $runs runs (targets for 10^6 offers: 10 s wall, 200 MB):"
for b in "${bins[@]}"; do
  name=${b%%=*}
  for col in 2 3 4; do
    awk -v n="$name" -v c="$col" '$1 == n { print $c }' "$tmp/runs" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
  done | { read -r w; read -r c; read -r k; printf '%-7s %6.2f s wall, %6.2f s CPU, %5.0f MB peak\n' "$name" "$w" "$c" "$(echo "$k/1024" | bc -l)"; }
done
