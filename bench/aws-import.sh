#!/usr/bin/env bash
# Benchmark: import an EC2 region offer file of SIZE_MB (default 1024) in
# the real layout, side by side with jq and Python's json.load reading the
# same file. Prints throughput (MB/s) and peak memory (max RSS) of each and
# the ratios.
#
#   bench/aws-import.sh [SIZE_MB]
#
# Needs jq, python3 and GNU time (/usr/bin/time): apt-get install jq time.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-1024}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for tool in jq python3 /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required (apt-get install jq time python3)" >&2; exit 1; }
done
go build -trimpath -o bin/gpuscout ./cmd/gpuscout
go run ./bench/genoffer -o "$work/offer.json" -mb "$size"
bytes=$(stat -c %s "$work/offer.json")
mb=$(echo "$bytes/1048576" | bc -l)
cat "$work/offer.json" > /dev/null # warm the page cache for all three

run() { # name, command...
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" > /dev/null 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
  read -r secs kb < "$work/time"
  printf '%-22s %8.1f s %8.1f MB/s %8.0f MB peak\n' "$name" "$secs" "$(echo "$mb/$secs" | bc -l)" "$(echo "$kb/1024" | bc -l)"
  echo "$secs $kb" > "$work/$name"
}
printf 'file: %.0f MB\n' "$mb"
run gpuscout bin/gpuscout catalog import aws --file "$work/offer.json" --db "$work/g.db"
run jq jq -c '[.products[] | select(.attributes.instanceFamily == "GPU instance") | .sku] | length' "$work/offer.json"
run python-json.load python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for p in d["products"].values() if p["attributes"].get("instanceFamily")=="GPU instance"))' "$work/offer.json"
read -r g gk < "$work/gpuscout"; read -r j jk < "$work/jq"; read -r p pk < "$work/python-json.load"
printf 'speed: gpuscout is %.1fx jq and %.1fx python json.load\n' "$(echo "$j/$g" | bc -l)" "$(echo "$p/$g" | bc -l)"
printf 'memory: gpuscout peak %.0f MB vs jq %.0f MB and python %.0f MB\n' "$(echo "$gk/1024" | bc -l)" "$(echo "$jk/1024" | bc -l)" "$(echo "$pk/1024" | bc -l)"
