#!/usr/bin/env bash
# The probes of `gpuscout serve` under load with a big catalog (issue 38):
# generates a --catalog overlay of OFFERS synthetic offers with
# bench/genoverlay (unless DIR holds one), starts the server on a free port
# with an empty HOME, waits for it, then for each probe (/healthz, /readyz,
# /livez) runs wrk with CONNECTIONS connections for DURATION and, at the
# same time, one connection asking an ordinary API route
# (/api/v1/gpus?gpu=A100), and prints requests/s, average, p50, p99 and
# maximum latency of both, and wrk's timeouts (answers over 2 s, which
# wrk leaves out of the latencies). A Kubernetes probe with a 1 s timeout fails when
# the probe's maximum passes 1 s; "other route" shows what the probe load
# costs everyone else.
#
#   bench/healthz.sh                        (OFFERS=200000 DURATION=10s CONNECTIONS=64)
#   BIN=/tmp/gpuscout-before bench/healthz.sh   (a binary built elsewhere; it may lack /livez and /readyz)
#   DIR=/tmp/ov bench/healthz.sh            (reuse a generated overlay)
#
# Needs wrk, curl and Go (apt-get install wrk curl); bash and awk otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

offers=${OFFERS:-200000}
duration=${DURATION:-10s}
conns=${CONNECTIONS:-64}
threads=${THREADS:-$(nproc)}

for tool in wrk curl; do
  command -v "$tool" >/dev/null 2>&1 || { echo "bench/healthz.sh: missing $tool; apt-get install wrk curl" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/gpuscout-healthz.XXXXXX")
server_pid=
cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null || true
  [[ -n $server_pid ]] && wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

bin=${BIN:-bin/gpuscout}
[[ -n ${BIN:-} ]] || go build -o bin/gpuscout ./cmd/gpuscout
dir=${DIR:-}
if [[ -z $dir ]]; then
  dir="$work/overlay"
  go run ./bench/genoverlay -o "$dir" -offers "$offers" >/dev/null
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
  echo $((20000 + RANDOM % 20000)))
base="http://127.0.0.1:$port"
mkdir -p "$work/home" "$work/db"
env -u XDG_DATA_HOME -u XDG_CONFIG_HOME -u XDG_CACHE_HOME HOME="$work/home" \
  "$bin" --catalog "$dir" serve --addr "127.0.0.1:$port" --quiet --db "$work/db/none.db" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1800); do
  curl -fsS -o /dev/null "$base/api/v1/openapi.json" 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || { echo "bench/healthz.sh: the server exited:" >&2; cat "$work/server.log" >&2; exit 1; }
  sleep 0.1
done
offers_served=$(curl -fsS "$base/healthz" | sed -n 's/.*"offers": *\([0-9]*\).*/\1/p')
sleep 5 # the explorer's warm-up after the load, off the measurements

# stats FILE: "req/s avg p50 p99 max" (ms) from wrk --latency output.
stats() {
  awk '
    function ms(v) {
      if (v ~ /us$/) return v / 1000
      if (v ~ /ms$/) return v + 0
      if (v ~ /m$/) return v * 60000
      if (v ~ /s$/) return v * 1000
      return v + 0
    }
    $1 == "Latency" && avg == "" { avg = ms($2); max = ms($4) }
    $1 == "50%" { p50 = ms($2) }
    $1 == "99%" { p99 = ms($2) }
    /^Requests\/sec:/ { rps = $2 }
    /Non-2xx or 3xx responses:/ { bad = $NF }
    /Socket errors:/ { to = $NF } # wrk counts an answer over 2 s as a timeout, outside the latencies
    END { printf "%10.0f %9.3f %9.3f %9.3f %9.3f %7d %8d\n", rps, avg, p50, p99, max, bad, to }' "$1"
}

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $offers_served offers served"
echo "load:    wrk -t $threads -c $conns -d $duration on the probe, and wrk -t 1 -c 1 on /api/v1/gpus?gpu=A100 at the same time"
echo
printf '%-22s %10s %9s %9s %9s %9s %7s %8s\n' target req/s avg-ms p50-ms p99-ms max-ms non-2xx timeouts
for probe in /healthz /readyz /livez; do
  code=$(curl -s -o /dev/null -w '%{http_code}' "$base$probe")
  if [[ $code != 200 ]]; then
    printf '%-22s (answers %s: not in this build)\n' "$probe" "$code"
    continue
  fi
  wrk -t "$threads" -c "$conns" -d "$duration" --latency "$base$probe" >"$work/probe.wrk" 2>&1 &
  probe_pid=$!
  wrk -t 1 -c 1 -d "$duration" --latency "$base/api/v1/gpus?gpu=A100" >"$work/other.wrk" 2>&1
  wait "$probe_pid"
  printf '%-22s %s\n' "$probe" "$(stats "$work/probe.wrk")"
  printf '%-22s %s\n' "  other route" "$(stats "$work/other.wrk")"
done
