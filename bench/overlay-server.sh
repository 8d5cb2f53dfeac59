#!/usr/bin/env bash
# Memory and latency of `gpuscout serve` holding a big --catalog overlay
# (issue 28): generates an overlay of OFFERS synthetic offers with
# bench/genoverlay (unless DIR already holds one), starts the server on a
# free port with an empty HOME, waits for /healthz, lets the explorer's
# warm-up run (WARM seconds), then prints VmRSS and VmHWM from
# /proc/PID/status; times a round of uncached requests (nocache=1: the
# API's first page, a filtered page, a column order, the cheapest-region
# page, the explorer page and the CSV export, each in USD and CNY) and
# prints VmRSS and VmHWM again. Fails if VmHWM is over LIMIT_MB (1024).
#
#   bench/overlay-server.sh              (OFFERS=1000000 WARM=5 LIMIT_MB=1024)
#   DIR=/tmp/ov bench/overlay-server.sh  (reuse a generated overlay)
#
# Needs curl and Go; uses bash, awk and python3 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

offers=${OFFERS:-1000000}
warm=${WARM:-5}
limit_mb=${LIMIT_MB:-1024}
bin=${BIN:-bin/gpuscout}

work=$(mktemp -d "${TMPDIR:-/tmp}/gpuscout-ovserve.XXXXXX")
server_pid=
cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null || true
  [[ -n $server_pid ]] && wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[[ -n ${BIN:-} ]] || go build -o bin/gpuscout ./cmd/gpuscout
dir=${DIR:-}
if [[ -z $dir ]]; then
  dir="$work/overlay"
  go run ./bench/genoverlay -o "$dir" -offers "$offers"
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
mkdir -p "$work/home" "$work/db"
start=$(date +%s.%N)
env -u XDG_DATA_HOME -u XDG_CONFIG_HOME -u XDG_CACHE_HOME HOME="$work/home" \
  "$bin" --catalog "$dir" serve --addr "127.0.0.1:$port" --quiet --db "$work/db/none.db" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1200); do
  curl -fsS -o /dev/null "$base/healthz" 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || { echo "bench/overlay-server.sh: the server exited:" >&2; cat "$work/server.log" >&2; exit 1; }
  sleep 0.1
done
curl -fsS -o /dev/null "$base/healthz"
ready=$(date +%s.%N)
printf 'ready after %.1f s\n' "$(echo "$ready - $start" | bc)"
mem() {
  awk -v what="$1" '/^VmRSS/ {rss=$2} /^VmHWM/ {hwm=$2} END {printf "%s: VmRSS %d MB, VmHWM %d MB\n", what, rss/1024, hwm/1024}' "/proc/$server_pid/status"
}
cpu() { awk '{print ($14 + $15) / 100}' "/proc/$server_pid/stat"; }
sleep "$warm"
mem "after start and warm-up ($warm s)"
printf 'server CPU so far: %s s\n' "$(cpu)"

urls=(
  '/api/v1/offers?limit=50'
  '/api/v1/offers?limit=0'
  '/api/v1/offers?gpu=A100&limit=20'
  '/api/v1/offers?gpu=H100&per=gpu-hour&sort=gpu-price&limit=100&offset=1000'
  '/api/v1/offers?order=provider&limit=100'
  '/api/v1/offers?cheapest_region=1&limit=50'
  '/api/v1/offers?max_price=3&billing=spot&limit=50'
  '/offers?lang=en'
  '/offers?lang=zh'
  '/offers.csv?gpu=L4'
)
for u in "${urls[@]}"; do
  for cur in USD CNY; do
    sep='?'; [[ $u == *'?'* ]] && sep='&'
    t=$(curl -fsS -o "$work/body" -w '%{time_total}' "$base$u${sep}currency=$cur&nocache=1") || {
      echo "bench/overlay-server.sh: $u${sep}currency=$cur failed; the server's log:" >&2
      tail -20 "$work/server.log" >&2
      exit 1
    }
    printf '%7.3f s %9d B  %s\n' "$t" "$(stat -c %s "$work/body")" "$u${sep}currency=$cur"
  done
done
mem "after the requests"
printf 'server CPU: %s s\n' "$(cpu)"
hwm=$(awk '/^VmHWM/ {print int($2/1024)}' "/proc/$server_pid/status")
if (( hwm > limit_mb )); then
  echo "bench/overlay-server.sh: peak RSS $hwm MB is over $limit_mb MB" >&2
  exit 1
fi
