#!/usr/bin/env bash
# Large-log benchmark for `gpuscout rightsize`: generate an nvidia-smi CSV
# of about SIZE_MB megabytes (8 GPUs sampled every second, the
# `--query-gpu=timestamp,index,utilization.gpu,utilization.memory,memory.used,memory.total
# --format=csv` layout), then time
#
#   gpuscout rightsize --metrics FILE --offer aws/p5.48xlarge/us-east-1/on-demand
#
# (full analysis: per-GPU percentiles, duty cycle, hour-of-day profile,
# recommendations) against a reference that does the least work possible —
# awk adding up the utilisation column for its mean — and report wall time,
# throughput and peak resident memory (/usr/bin/time -v) of each, and the
# ratio. With COMPRESS=1 the log is also gzip-compressed and timed again
# (reference: zcat | awk).
#
#   bench/rightsize.sh [SIZE_MB]      (default 1024)
#
# Environment: RUNS (default 3; the best run counts), BENCH_DIR (where the
# log goes; default a temporary directory, removed afterwards unless set),
# AWK (default awk; e.g. AWK=gawk).
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-1024}
runs=${RUNS:-3}
awk_bin=${AWK:-awk}
if [ ! -x /usr/bin/time ]; then
  echo "bench/rightsize.sh needs GNU time: apt-get install -y time" >&2
  exit 1
fi
dir=${BENCH_DIR:-}
if [ -z "$dir" ]; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir" bin

go build -trimpath -o bin/gpuscout ./cmd/gpuscout
go build -trimpath -o bin/gensynth ./internal/rightsize/synth/gensynth

csv=$dir/nvidia-smi.csv
rows=$(( size_mb * 1024 * 1024 / 60 )) # a row is about 60 bytes
if [ ! -s "$csv" ] || [ "$(( $(stat -c %s "$csv") / 1048576 ))" -lt $(( size_mb * 9 / 10 )) ]; then
  echo "generating $csv ($rows rows) ..." >&2
  bin/gensynth -format nvidia-smi -gpus 8 -rows "$rows" > "$csv"
fi
bytes=$(stat -c %s "$csv")
lines=$(wc -l < "$csv")
cat "$csv" > /dev/null # warm the page cache: both sides read from memory

offer=aws/p5.48xlarge/us-east-1/on-demand
gpuscout_args=(rightsize --metrics "$csv" --offer "$offer" --db "$dir/none.db")
reference_prog='NR > 1 { s += $3; n++ } END { printf "mean utilisation %.2f%% over %d rows\n", s / n, n }'

# measure CMD... -> sets best_s (wall seconds, best of $runs) and rss_mb (peak RSS of that run)
measure() {
  best_s=""
  rss_mb=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -v "$@" > "$dir/out.txt" 2> "$dir/time.txt"
    local wall rss s
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.txt")
    s=$(echo "$wall" | awk -F: '{ t = 0; for (i = 1; i <= NF; i++) t = t * 60 + $i; print t }')
    if [ -z "$best_s" ] || awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then
      best_s=$s
      rss_mb=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')
    fi
  done
}

report() { # label, seconds, rss, bytes
  awk -v l="$1" -v s="$2" -v r="$3" -v b="$4" 'BEGIN { printf "%-34s %8.2f s  %8.1f MB/s  peak RSS %7.1f MB\n", l, s, b / 1048576 / s, r }'
}

echo "log: $csv — $(awk -v b="$bytes" 'BEGIN { printf "%.0f MB", b / 1048576 }'), $lines lines; best of $runs runs"
measure bin/gpuscout "${gpuscout_args[@]}"
g_s=$best_s g_rss=$rss_mb
grep -m1 '^Metrics:' "$dir/out.txt" || true
measure "$awk_bin" -F', ' "$reference_prog" "$csv"
r_s=$best_s r_rss=$rss_mb
cat "$dir/out.txt"
report "gpuscout rightsize" "$g_s" "$g_rss" "$bytes"
report "reference ($awk_bin mean)" "$r_s" "$r_rss" "$bytes"
awk -v g="$g_s" -v r="$r_s" 'BEGIN { printf "ratio gpuscout / reference: %.2f\n", g / r }'

if [ "${COMPRESS:-0}" = 1 ]; then
  gz=$csv.gz
  [ -s "$gz" ] || gzip -1 -c "$csv" > "$gz"
  cat "$gz" > /dev/null
  gpuscout_args[2]=$gz
  measure bin/gpuscout "${gpuscout_args[@]}"
  gz_s=$best_s gz_rss=$rss_mb
  measure bash -c "zcat '$gz' | $awk_bin -F', ' '$reference_prog'"
  report "gpuscout rightsize (gzip)" "$gz_s" "$gz_rss" "$bytes"
  report "reference (zcat | $awk_bin)" "$best_s" "$rss_mb" "$bytes"
  awk -v g="$gz_s" -v r="$best_s" 'BEGIN { printf "ratio gpuscout / reference (gzip): %.2f\n", g / r }'
fi
