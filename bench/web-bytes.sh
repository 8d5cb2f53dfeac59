#!/usr/bin/env bash
# Bytes each web page costs a first-time visitor: HTML, then the script and
# stylesheet, uncompressed and gzipped (what the server sends to a browser).
#   bench/web-bytes.sh
set -euo pipefail
cd "$(dirname "$0")/.."
go build -trimpath -o bin/gpuscout ./cmd/gpuscout
ADDR=127.0.0.1:18765
bin/gpuscout serve --addr $ADDR >/dev/null 2>&1 &
PID=$!
trap 'kill $PID' EXIT
for _ in $(seq 50); do curl -sf "http://$ADDR/healthz" >/dev/null && break; sleep 0.1; done
size() { curl -s -o /dev/null -w '%{size_download}' "$@"; }
printf '| page | HTML | HTML gzip |\n|---|---:|---:|\n'
for p in "/offers?lang=en" "/offers?gpu=A100,H100&min_gpus=8&lang=en" "/offers?lang=zh&cheapest_region=false" \
  "/compare?offer=aws/p5.48xlarge/us-east-1/on-demand&offer=gcp/a3-highgpu-8g/us-central1/committed-3y&onprem=H100" \
  "/advisor?lang=en" "/spot?offer=aws/g4dn.xlarge/us-east-1/spot&work_hours=24" "/providers" "/gpus" "/about" \
  "/instances/aws/p5.48xlarge" "/api/v1/offers?limit=0"; do
  printf '| `%s` | %s | %s |\n' "$p" "$(size "http://$ADDR$p")" "$(size -H 'Accept-Encoding: gzip' "http://$ADDR$p")"
done
for a in app.js app.css; do
  printf '| `/static/%s` | %s | %s |\n' "$a" "$(size "http://$ADDR/static/$a")" "$(size -H 'Accept-Encoding: gzip' "http://$ADDR/static/$a")"
done
