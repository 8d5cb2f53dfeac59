#!/usr/bin/env bash
# Benchmark: peak memory (max RSS) of gpuscout catalog import aws on hostile
# inputs streamed through a pipe (nothing is written to disk): a 1 GiB key,
# a 256 MiB product, 1 GiB of nested brackets, a 1 GiB CSV row, a 1 GiB
# quoted CSV field over many lines, a 256 MiB skipped string, and 300,000
# tiny GPU products. Each must end with a clear error (or a refusal) and a
# small, flat peak.
#
#   bench/aws-hostile.sh
#
# Needs GNU time (/usr/bin/time): apt-get install time.
set -uo pipefail
cd "$(dirname "$0")/.."
command -v /usr/bin/time >/dev/null || { echo "bench: GNU time is required (apt-get install time)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -trimpath -o bin/gpuscout ./cmd/gpuscout || exit 1
GiB=1073741824
fill() { head -c "$1" /dev/zero | tr '\0' "$2"; } # bytes, character
gen() {
  case $1 in
  key-1GiB) printf '{"products":{"'; fill $GiB a; printf '":{}}}' ;;
  product-256MiB) printf '{"products":{"S":{"attributes":{"instanceFamily":"GPU instance","x":"'; fill $((GiB / 4)) a; printf '"}}}}' ;;
  brackets-1GiB) printf '{"products":{"S":'; fill $GiB '[' ;;
  csv-row-1GiB) printf 'SKU,OfferTermCode\n'; fill $GiB a; printf '\n' ;;
  csv-quoted-1GiB) printf 'SKU,OfferTermCode\n"'; head -c $GiB /dev/zero | tr '\0' '\n'; printf '"\n' ;;
  skipped-string-256MiB) printf '{"disclaimer":"'; fill $((GiB / 4)) a; printf '","products":{}}' ;;
  gpu-products-300k) python3 -c '
import sys
w = sys.stdout.write
w("{\"products\":{")
for i in range(300000):
    w(("," if i else "") + "\"S%d\":{\"attributes\":{\"instanceType\":\"p5.x%d\",\"instanceFamily\":\"GPU instance\",\"operatingSystem\":\"Linux\",\"tenancy\":\"Shared\",\"regionCode\":\"us-east-1\"}}" % (i, i))
w("}}")' ;;
  esac
}
printf '%-24s %6s %10s  %s\n' input exit "peak RSS" message
for c in key-1GiB product-256MiB brackets-1GiB csv-row-1GiB csv-quoted-1GiB skipped-string-256MiB gpu-products-300k; do
  gen "$c" 2> /dev/null | /usr/bin/time -f "%M" -o "$work/time" bin/gpuscout catalog import aws --file /dev/stdin --db "$work/g.db" > /dev/null 2> "$work/err"
  code=${PIPESTATUS[1]}
  kb=$(tail -1 "$work/time")
  printf '%-24s %6s %7.0f MB  %s\n' "$c" "$code" "$(echo "$kb/1024" | bc -l)" "$(grep -m1 gpuscout: "$work/err" | cut -c1-110)"
done
