#!/usr/bin/env bash
# Whole-process start-up benchmark: the three ratios of issue 28, in one run.
#
#   1. instant commands: `gpuscout version` and `gpuscout --help` against a
#      Go hello-world (bench/hello), the floor for any Go program, and
#      bench/initfloor, which links every package gpuscout links and runs
#      only their initialisers: the floor for any gpuscout command;
#      target ≤ 5 ms, about the hello-world.
#   2. a catalog query: `gpuscout offers --gpu A100 --limit 0 -o csv` against
#      the least work possible for the same question — awk picking A100
#      instance types and their offers from the same CSV files, piped to sort
#      on the hourly column (no validation, no currency conversion, no
#      effective-price arithmetic), started through bash -c; target ratio ≤ 1.
#   3. the advisor: `gpuscout recommend --gpu-hours 1000`; target ≤ 40 ms.
#
# Every command runs on the embedded catalog alone: HOME and XDG_DATA_HOME
# point at an empty directory, so no database of the user's is read.
#
#   bench/cli.sh [RUNS]      (default 30 runs each, after 3 warm-up runs)
#
# With hyperfine (apt-get install hyperfine) it prints, per command, the mean
# and median wall time and the mean CPU time (user + system), and the ratios
# of each; on a shared machine the CPU time is the steadier figure. Without
# hyperfine, a plain loop gives the mean wall time only.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
# Both built as `make build` and the container image build gpuscout:
# statically linked, without symbol table and DWARF.
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o bin/gpuscout ./cmd/gpuscout
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o bin/hello ./bench/hello
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o bin/initfloor ./bench/initfloor
data=internal/catalog/curated/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp XDG_DATA_HOME=$tmp/data

hello="bin/hello"
floor="bin/initfloor"
version="bin/gpuscout version"
help="bin/gpuscout --help"
offers="bin/gpuscout offers --gpu A100 --limit 0 -o csv"
recommend="bin/gpuscout recommend --gpu-hours 1000"
# The reference reads the instance files to find A100 instance types, then
# the offers of those types, and sorts by the hourly price.
awk_prog='FNR==1{next} FILENAME ~ /instances/ && $4 ~ /^A100/ {a[$1","$2]=1; next} FILENAME ~ /offers/ && (($1","$2) in a)'
reference="bash -c \"awk -F, '$awk_prog' $data/instances/*.csv $data/offers/*.csv | sort -t, -k5,5g\""

if command -v hyperfine >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
  hyperfine -N --warmup 3 --runs "$runs" --export-json "$tmp/out.json" \
    "$hello" "$floor" "$version" "$help" "$offers" "$reference" "$recommend" >/dev/null 2>&1
  python3 - "$tmp/out.json" <<'PY'
import json, sys
rs = json.load(open(sys.argv[1]))["results"]
names = ["hello-world", "package-init floor", "version", "--help", "offers --gpu A100", "awk + sort reference", "recommend --gpu-hours 1000"]
r = {n: x for n, x in zip(names, rs)}
ms = lambda x: x * 1000
print(f"{'command':28} {'mean wall':>10} {'median':>8} {'CPU (user+sys)':>15}")
for n in names:
    x = r[n]
    print(f"{n:28} {ms(x['mean']):8.1f} ms {ms(x['median']):5.1f} ms {ms(x['user'] + x['system']):12.1f} ms")
cpu = lambda n: r[n]["user"] + r[n]["system"]
med = lambda n: r[n]["median"]
print()
print("1. instant commands (target <= 5 ms, about the hello-world):")
for n in ["version", "--help"]:
    print(f"   {n:10} {ms(med(n)):6.1f} ms median: {med(n) / med('hello-world'):5.2f}x the hello-world (CPU {cpu(n) / cpu('hello-world'):5.2f}x), {med(n) / med('package-init floor'):5.2f}x the package-init floor ({ms(med('package-init floor')):.1f} ms)")
print("2. offers / awk+sort reference (target <= 1):")
print(f"   {med('offers --gpu A100') / med('awk + sort reference'):5.2f} median wall (CPU {cpu('offers --gpu A100') / cpu('awk + sort reference'):5.2f})")
print("3. recommend (target <= 40 ms):")
print(f"   {ms(med('recommend --gpu-hours 1000')):6.1f} ms median wall, {ms(cpu('recommend --gpu-hours 1000')):6.1f} ms CPU")
PY
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
declare -A t
for c in hello floor version help offers reference recommend; do
  t[$c]=$(mean_ms "${!c}" "$runs")
done
for c in hello floor version help offers reference recommend; do
  printf '%-10s %8.1f ms (mean of %d, each started through bash)\n' "$c" "$(echo "${t[$c]}/1000" | bc -l)" "$runs"
done
printf 'version / hello-world : %5.2f\n' "$(echo "${t[version]}/${t[hello]}" | bc -l)"
printf '--help / hello-world  : %5.2f\n' "$(echo "${t[help]}/${t[hello]}" | bc -l)"
printf 'offers / awk+sort     : %5.2f\n' "$(echo "${t[offers]}/${t[reference]}" | bc -l)"
