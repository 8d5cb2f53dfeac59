#!/usr/bin/env bash
# Whole-process benchmark: a cold `gpuscout offers --gpu A100` against a
# reference that does the least work possible for the same question — awk
# filtering the same CSV files for A100 rows and sort ordering them by the
# hourly column. Prints the mean wall time of each and the ratio.
#
#   bench/cli.sh [RUNS]      (default 30 runs each)
#
# Uses hyperfine when installed (apt-get install hyperfine); otherwise a
# plain timing loop.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
go build -trimpath -o bin/gpuscout ./cmd/gpuscout
data=internal/catalog/curated/data

gpuscout_cmd="bin/gpuscout offers --gpu A100 --limit 0 -o csv"
# The reference reads the instance files to find A100 instance types, then
# the offers of those types, and sorts by the hourly price. It does no
# validation, no currency conversion and no effective-price arithmetic.
reference_cmd="awk -F, 'FNR==1{next} FILENAME ~ /instances/ && \$4 ~ /^A100/ {a[\$1\",\"\$2]=1; next} FILENAME ~ /offers/ && ((\$1\",\"\$2) in a)' $data/instances/*.csv $data/offers/*.csv | sort -t, -k5,5g"

if command -v hyperfine >/dev/null 2>&1; then
  hyperfine -N --warmup 3 --runs "$runs" --export-markdown bench/out.md "$gpuscout_cmd" "bash -c \"$reference_cmd\"" 2>/dev/null || \
  hyperfine --warmup 3 --runs "$runs" "$gpuscout_cmd" "$reference_cmd"
  exit 0
fi

mean_ms() { # command, runs -> mean milliseconds
  local cmd=$1 n=$2 start end
  for _ in 1 2 3; do bash -c "$cmd" >/dev/null; done
  start=$(date +%s%N)
  for _ in $(seq "$n"); do bash -c "$cmd" >/dev/null; done
  end=$(date +%s%N)
  echo $(( (end - start) / n / 1000 ))
}
g=$(mean_ms "$gpuscout_cmd" "$runs")
r=$(mean_ms "$reference_cmd" "$runs")
printf 'gpuscout offers --gpu A100 : %6.1f ms (mean of %d, including bash start-up)\n' "$(echo "$g/1000" | bc -l)" "$runs"
printf 'awk + sort reference       : %6.1f ms\n' "$(echo "$r/1000" | bc -l)"
printf 'ratio gpuscout / reference : %6.2f\n' "$(echo "$g/$r" | bc -l)"
