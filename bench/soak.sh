#!/usr/bin/env bash
# Soak test of `gpuscout serve` on the embedded catalog: ordinary load plus
# the hostile requests of issue 25 at the same time, for DURATION (60 s by
# default); prints the server's peak RSS and the error count (5xx answers
# and transport errors; a 4xx is the right answer to a hostile request) and
# fails if the peak is over LIMIT_MB (300) or any request failed.
#
#   bench/soak.sh                    (DURATION=60s CONNECTIONS=16 HOSTILE=8)
#
# Ordinary load: wrk on the API query below when wrk is installed
# (apt-get install wrk), else bench/soakload on the API, page and export
# URLs. Hostile load (always bench/soakload, HOSTILE workers): bad page
# numbers on /offers and /offers.csv, 10,000 repeats of one value, 200
# values of one parameter, 300 distinct URLs of every offer (limit=0,
# every region) to fill the response cache, an 8 KB unknown parameter on
# the explorer, every-region CSV exports, 60,000-byte and 250-byte unknown
# offer IDs, and a 90,000-key YAML job posted to the advisor API.
#
# Peak RSS is the kernel's high-water mark (VmHWM in /proc/PID/status).
# Needs curl and Go; uses bash, awk and python3 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${DURATION:-60s}
conns=${CONNECTIONS:-16}
hostile=${HOSTILE:-8}
limit_mb=${LIMIT_MB:-300}

work=$(mktemp -d "${TMPDIR:-/tmp}/gpuscout-soak.XXXXXX")
server_pid=
cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null || true
  [[ -n $server_pid ]] && wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

go build -o bin/gpuscout ./cmd/gpuscout
go build -o bin/soakload ./bench/soakload

# A free port: ask the kernel for one.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
mkdir -p "$work/home" "$work/db"
env -u XDG_DATA_HOME -u XDG_CONFIG_HOME -u XDG_CACHE_HOME HOME="$work/home" \
  bin/gpuscout serve --addr "127.0.0.1:$port" --quiet --db "$work/db/none.db" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 300); do
  curl -fsS -o /dev/null "$base/healthz" 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || { echo "bench/soak.sh: the server exited:" >&2; cat "$work/server.log" >&2; exit 1; }
  sleep 0.1
done
curl -fsS -o /dev/null "$base/healthz"
start_kb=$(awk '/^VmRSS/ {print $2}' "/proc/$server_pid/status")

api_path='/api/v1/offers?gpu=A100,H100&min_gpus=8&per=gpu-hour&sort=gpu-price&limit=50'
cat >"$work/ordinary.txt" <<EOF2
GET $api_path
GET /offers?gpu=A100,H100&min_gpus=8&lang=en
GET /api/v1/gpus
GET /offers?lang=zh
GET /compare?offer=aws/p5.48xlarge/us-east-1/on-demand&offer=gcp/a3-highgpu-8g/us-central1/on-demand&onprem=H100
EOF2

python3 - "$work" <<'EOF2'
import sys
work = sys.argv[1]
with open(work + "/job-90k.yaml", "w") as f:
    f.write("".join("k%d: 1\n" % i for i in range(90000)))
lines = []
for path in ("/offers", "/offers.csv"):
    for v in ("0", "-1", "1.5", "abc", "1048577", "99999999999999999999"):
        lines.append("GET %s?page=%s" % (path, v))
lines.append("GET /api/v1/gpus?gpu=A" + "&gpu=A" * 10000)
lines.append("GET /api/v1/gpus?gpu=A" + ",A" * 199)
lines.append("GET /offers?cheapest_region=false&zz=" + "J" * 8000)
lines.append("GET /offers.csv?cheapest_region=false&lang=zh")
lines.append("GET /compare?offer=" + "x" * 60000)
lines.append("GET /api/v1/offers/" + "aws/" + "p" * 230 + "/us-east-1/on-demand")
lines.append("GET /spot?offer=aws/" + "p" * 230 + "/us-east-1/spot")
lines.append("POST /api/v1/recommend @" + work + "/job-90k.yaml")
for i in range(300):  # distinct URLs of every offer: the response cache must stay bounded
    lines.append("GET /api/v1/offers?limit=0&cheapest_region=false&n=%d" % i)
    if i % 10 == 0:
        lines.append("GET /offers?cheapest_region=false&n=%d" % i)
open(work + "/hostile.txt", "w").write("\n".join(lines) + "\n")
EOF2

# Sample RSS once a second for the log; the peak is VmHWM at the end.
(
  while kill -0 "$server_pid" 2>/dev/null; do
    awk '/^VmRSS/ {print $2}' "/proc/$server_pid/status" 2>/dev/null || true
    sleep 1
  done
) >"$work/rss.txt" &
sampler=$!

echo "soak: $duration, ordinary load ($conns connections) + hostile requests ($hostile workers) on $base"
ordinary_errors=0
if command -v wrk >/dev/null 2>&1; then
  wrk -t2 -c"$conns" -d"$duration" "$base$api_path" >"$work/wrk.txt" 2>&1 &
  load_pid=$!
  load=wrk
else
  bin/soakload -base "$base" -list "$work/ordinary.txt" -c "$conns" -d "$duration" >"$work/ordinary.out" 2>&1 &
  load_pid=$!
  load=soakload
fi
hostile_rc=0
bin/soakload -base "$base" -list "$work/hostile.txt" -c "$hostile" -d "$duration" >"$work/hostile.out" 2>&1 || hostile_rc=$?
load_rc=0
wait "$load_pid" || load_rc=$?
if [[ $load == wrk ]]; then
  grep -E 'requests in|Requests/sec|Non-2xx|Socket errors' "$work/wrk.txt" | sed 's/^/  wrk: /'
  non2xx=$(awk '/Non-2xx/ {print $NF}' "$work/wrk.txt")
  sock=$(awk -F'[ ,]+' '/Socket errors/ {print $4+$6+$8+$10}' "$work/wrk.txt")
  ordinary_errors=$(( ${non2xx:-0} + ${sock:-0} ))
  echo "  ordinary (wrk $api_path): errors $ordinary_errors"
else
  echo "  ordinary (soakload, $(wc -l <"$work/ordinary.txt") URLs): $(head -1 "$work/ordinary.out")"
  ordinary_errors=$(awk '/^errors/ {print $2}' "$work/ordinary.out")
  [[ -n $ordinary_errors ]] || { cat "$work/ordinary.out" >&2; ordinary_errors=1; }
fi
echo "  hostile ($(wc -l <"$work/hostile.txt") requests in turn): $(head -1 "$work/hostile.out")"
hostile_errors=$(awk '/^errors/ {print $2}' "$work/hostile.out")
[[ -n $hostile_errors ]] || { cat "$work/hostile.out" >&2; hostile_errors=1; }
peak_kb=$(awk '/^VmHWM/ {print $2}' "/proc/$server_pid/status")
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
last_kb=$(tail -1 "$work/rss.txt")
errors=$((ordinary_errors + hostile_errors))
printf 'peak RSS %d MB (start %d MB, end %d MB; limit %d MB)\nerrors %d\n' \
  $((peak_kb / 1024)) $((start_kb / 1024)) $((${last_kb:-0} / 1024)) "$limit_mb" "$errors"
if grep -q -i 'panic' "$work/server.log"; then
  echo "bench/soak.sh: the server log has a panic:" >&2
  grep -m3 -i panic "$work/server.log" >&2
  exit 1
fi
((peak_kb / 1024 <= limit_mb && errors == 0))
