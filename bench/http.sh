#!/usr/bin/env bash
# HTTP load benchmark of `gpuscout serve` against a static-file ceiling.
#
# Builds the binary, starts `gpuscout serve` on a free loopback port with an
# empty HOME and a database path that does not exist (embedded catalog only,
# no user data), fetches the JSON of the API query below once and serves that
# same file with nginx: the ceiling, what a server that does no work per
# request achieves for the same bytes. Then runs wrk (64 connections, one
# thread per CPU, --latency) against
#   nginx   the static copy of the API JSON
#   nethttp the same file from bench/nethttp, a Go net/http server that does
#           nothing else: the ceiling of any server built on net/http
#   api     /api/v1/offers?gpu=A100,H100&min_gpus=8&per=gpu-hour&sort=gpu-price&limit=50
#   page    /offers?gpu=A100,H100&min_gpus=8&lang=en (the explorer page, HTML)
#   gpus    /api/v1/gpus
#   api-nc  the api URL with a unique extra parameter on every request
#   page-nc the page URL likewise
# and prints requests/s, p50, p99, non-2xx responses and socket errors for
# each, and the ratio API req/s / nginx req/s. The server replays repeated
# GETs from a response cache, so api, page and gpus measure cache hits after
# the first request; the -nc ("no cache") targets defeat the cache with a
# parameter the server ignores (a small wrk Lua script) and measure the work
# of computing and rendering each answer. The cache hit and miss counts from
# /metrics are printed at the end.
#
#   bench/http.sh                 (DURATION=10s by default)
#   DURATION=30s CONNECTIONS=64 THREADS=2 bench/http.sh   (THREADS: nproc by default)
#   BIN=/tmp/gpuscout-before bench/http.sh   (a binary built elsewhere, e.g. an earlier commit)
#   TARGETS="nginx nethttp api" bench/http.sh (only these targets)
#
# wrk, nginx and the server share the machine's CPUs. On a small machine wrk
# takes a large share of them while it drives nginx, which holds the ceiling
# down. So the script also prints each server's CPU time per request (from
# /proc, before and after each run), which does not depend on that sharing.
#
# Needs wrk, nginx and curl: apt-get install wrk nginx curl. Uses bash, curl
# and awk only otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${DURATION:-10s}
conns=${CONNECTIONS:-64}
threads=${THREADS:-$(nproc)}

missing=()
for tool in wrk nginx curl; do
  command -v "$tool" >/dev/null 2>&1 || [[ $tool == nginx && -x /usr/sbin/nginx ]] || missing+=("$tool")
done
if ((${#missing[@]})); then
  echo "bench/http.sh: missing ${missing[*]}; install with: apt-get install wrk nginx curl" >&2
  exit 1
fi
nginx_bin=$(command -v nginx 2>/dev/null || echo /usr/sbin/nginx)

work=$(mktemp -d "${TMPDIR:-/tmp}/gpuscout-http-bench.XXXXXX")
server_pid=
nginx_pid=
nethttp_pid=
cleanup() {
  local pid
  for pid in "$server_pid" "$nginx_pid" "$nethttp_pid"; do
    [[ -n $pid ]] && kill "$pid" 2>/dev/null || true
  done
  for pid in "$server_pid" "$nginx_pid" "$nethttp_pid"; do
    [[ -n $pid ]] && wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# free_port prints a loopback TCP port no socket uses, outside the kernel's
# ephemeral range so that no client connection (wrk's, say) can take it.
free_port() {
  local lo hi p
  read -r lo hi </proc/sys/net/ipv4/ip_local_port_range
  for _ in $(seq 200); do
    if ((lo > 12000)); then
      p=$((10000 + RANDOM % (lo - 10000)))
    elif ((hi < 64000)); then
      p=$((hi + 1 + RANDOM % (65535 - hi)))
    else
      p=$((1024 + RANDOM % 30000))
    fi
    # /proc/net/tcp* list every socket's local address as HEXADDR:HEXPORT.
    if ! awk -v h="$(printf ':%04X$' "$p")" 'FNR > 1 && $2 ~ h { found = 1 } END { exit !found }' \
      /proc/net/tcp /proc/net/tcp6 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  echo "bench/http.sh: no free port found" >&2
  return 1
}

# wait_up URL PID NAME LOG: waits until URL answers 2xx, for at most 15 s.
wait_up() {
  local url=$1 pid=$2 name=$3 log=$4
  for _ in $(seq 150); do
    curl -fsS -o /dev/null "$url" 2>/dev/null && return 0
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "bench/http.sh: $name exited before answering $url:" >&2
      cat "$log" >&2
      exit 1
    fi
    sleep 0.1
  done
  echo "bench/http.sh: $name did not answer $url within 15 s:" >&2
  cat "$log" >&2
  exit 1
}

bin=${BIN:-bin/gpuscout}
[[ -n ${BIN:-} ]] || go build -o bin/gpuscout ./cmd/gpuscout

# gpuscout, with nothing of the user's: empty HOME, a database that does not exist.
mkdir -p "$work/home" "$work/db"
gport=$(free_port)
base="http://127.0.0.1:$gport"
env -u XDG_DATA_HOME -u XDG_CONFIG_HOME -u XDG_CACHE_HOME HOME="$work/home" \
  "$bin" serve --addr "127.0.0.1:$gport" --quiet --db "$work/db/none.db" \
  >"$work/server.log" 2>&1 &
server_pid=$!
wait_up "$base/healthz" "$server_pid" "gpuscout serve" "$work/server.log"

api_path='/api/v1/offers?gpu=A100,H100&min_gpus=8&per=gpu-hour&sort=gpu-price&limit=50'
page_path='/offers?gpu=A100,H100&min_gpus=8&lang=en'
gpus_path='/api/v1/gpus'

# The ceiling: the same JSON bytes as a static file served by nginx, run as
# the current user with its own configuration, logs and temp paths in $work.
mkdir -p "$work/www" "$work/nginx"
curl -fsS -o "$work/www/offers.json" "$base$api_path"
nport=$(free_port)
user_line=
if [[ $(id -u) == 0 ]]; then # as root nginx would switch its workers to nobody
  user_line="user $(id -un) $(id -gn);"
fi
cat >"$work/nginx/nginx.conf" <<EOF
$user_line
worker_processes auto;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
daemon off;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  default_type application/json;
  client_body_temp_path $work/nginx/client_body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  server {
    listen 127.0.0.1:$nport;
    root $work/www;
  }
}
EOF
"$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" \
  >"$work/nginx.log" 2>&1 &
nginx_pid=$!
nginx_url="http://127.0.0.1:$nport/offers.json"
wait_up "$nginx_url" "$nginx_pid" "nginx" "$work/nginx.log"

# net/http's own ceiling: the same bytes from a Go server that does nothing
# but write them (bench/nethttp), to tell what net/http costs per request
# from what gpuscout adds.
go build -o "$work/nethttp" ./bench/nethttp
hport=$(free_port)
"$work/nethttp" -addr "127.0.0.1:$hport" -file "$work/www/offers.json" >"$work/nethttp.log" 2>&1 &
nethttp_pid=$!
nethttp_url="http://127.0.0.1:$hport/offers.json"
wait_up "$nethttp_url" "$nethttp_pid" "nethttp" "$work/nethttp.log"

# A wrk script that makes every request's URL unique with an extra query
# parameter the server ignores, so that no response comes from its cache.
cat >"$work/nocache.lua" <<'EOF'
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local n = 0
function request()
  n = n + 1
  return wrk.format(nil, wrk.path .. "&nocache=" .. tid .. "-" .. n)
end
EOF

# Sanity: every target answers 200, and nginx serves the API's bytes.
names=(nginx nethttp api page gpus api-nc page-nc)
urls=("$nginx_url" "$nethttp_url" "$base$api_path" "$base$page_path" "$base$gpus_path" "$base$api_path" "$base$page_path")
scripts=("" "" "" "" "" "$work/nocache.lua" "$work/nocache.lua")
pids=("$nginx_pid" "$nethttp_pid" "$server_pid" "$server_pid" "$server_pid" "$server_pid" "$server_pid")
if [[ -n ${TARGETS:-} ]]; then # keep only the targets named (in this order)
  keep_names=() keep_urls=() keep_scripts=() keep_pids=()
  for i in "${!names[@]}"; do
    if [[ " $TARGETS " == *" ${names[$i]} "* ]]; then
      keep_names+=("${names[$i]}") keep_urls+=("${urls[$i]}") keep_scripts+=("${scripts[$i]}") keep_pids+=("${pids[$i]}")
    fi
  done
  names=("${keep_names[@]}") urls=("${keep_urls[@]}") scripts=("${keep_scripts[@]}") pids=("${keep_pids[@]}")
fi
declare -A size
for i in "${!names[@]}"; do
  read -r code bytes < <(curl -sS -o /dev/null -w '%{http_code} %{size_download}\n' "${urls[$i]}${scripts[$i]:+&nocache=check}")
  if [[ $code != 200 ]]; then
    echo "bench/http.sh: ${names[$i]} (${urls[$i]}) answered HTTP $code" >&2
    exit 1
  fi
  size[${names[$i]}]=$bytes
done
if ! curl -fsS "$base$api_path" | cmp -s - "$work/www/offers.json"; then
  echo "bench/http.sh: warning: the API's JSON changed since it was copied for nginx" >&2
fi

# cpu_ticks PID: CPU time (user + system, in clock ticks) of PID and its
# children processes (nginx's workers), from /proc/*/stat. The command name
# in parentheses may hold spaces, so fields are counted after the last ")":
# then $2 is the parent PID, $12 utime and $13 stime.
cpu_ticks() {
  awk -v p="$1" '
    FNR == 1 { pid = FILENAME; sub(/^\/proc\//, "", pid); sub(/\/stat$/, "", pid); sub(/^.*\) /, "")
               if (pid == p || $2 == p) t += $12 + $13 }
    END { print t + 0 }' /proc/[0-9]*/stat 2>/dev/null || true
}
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)

# run_wrk NAME URL PID [LUA]: runs wrk and writes
# "rps p50_ms p99_ms non2xx sockerr requests cpu_ms" to $work/res.NAME, where
# cpu_ms is the CPU time the server process PID (and its children) used.
run_wrk() {
  local name=$1 url=$2 pid=$3 lua=${4:-} t0 t1
  t0=$(cpu_ticks "$pid")
  wrk -t "$threads" -c "$conns" -d "$duration" --latency ${lua:+-s "$lua"} "$url" >"$work/$name.wrk" 2>&1 || {
    cat "$work/$name.wrk" >&2
    exit 1
  }
  t1=$(cpu_ticks "$pid")
  awk '
    function ms(v) { # wrk prints latencies as 123.45us, 1.23ms, 1.02s, 2.00m or 1.00h
      if (v ~ /us$/) return v / 1000
      if (v ~ /ms$/) return v + 0
      if (v ~ /h$/) return v * 3600000
      if (v ~ /m$/) return v * 60000
      if (v ~ /s$/) return v * 1000
      return v + 0
    }
    $1 == "50%" { p50 = ms($2) }
    $1 == "99%" { p99 = ms($2) }
    /^Requests\/sec:/ { rps = $2 }
    / requests in / { requests = $1 }
    /Non-2xx or 3xx responses:/ { non2xx = $NF }
    /Socket errors:/ { # Socket errors: connect 0, read 0, write 0, timeout 0
      for (i = 3; i <= NF; i += 2) { v = $(i + 1); sub(/,/, "", v); sockerr += v }
    }
    END { printf "%s %s %s %d %d %d %.0f\n", rps, p50, p99, non2xx, sockerr, requests, (t1 - t0) * 1000 / hz }
  ' t0="$t0" t1="$t1" hz="$hz" "$work/$name.wrk" >"$work/res.$name"
}

cpu_model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
wrk_version=$({ wrk -v 2>&1 || true; } | awk 'NR == 1 { print $1, $2 }') # wrk -v exits 1
nginx_version=$({ "$nginx_bin" -v 2>&1 || true; } | awk 'NR == 1 { print $NF }')
go_version=$(go env GOVERSION)
echo "machine: $(nproc) CPUs, ${cpu_model:-unknown CPU}, $(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
echo "tools:   $wrk_version, $nginx_version, $go_version"
echo "load:    wrk -t $threads -c $conns -d $duration --latency (wrk, nginx and gpuscout share the CPUs)"
echo

for i in "${!names[@]}"; do
  run_wrk "${names[$i]}" "${urls[$i]}" "${pids[$i]}" "${scripts[$i]}"
done

for i in "${!names[@]}"; do
  printf '%-7s %s%s\n' "${names[$i]}" "${urls[$i]}" "${scripts[$i]:+&nocache=<unique>}"
done
echo
# cpu/req: server CPU time per request (nginx: master and workers), which
# does not depend on how much of the CPUs wrk or anything else took.
printf '%-7s %9s %11s %10s %10s %8s %9s %10s\n' target body req/s p50 p99 non-2xx sock-err cpu/req
for i in "${!names[@]}"; do
  read -r rps p50 p99 non2xx sockerr requests cpu_ms <"$work/res.${names[$i]}"
  printf '%-7s %8.1fK %11.0f %8.2fms %8.2fms %8d %9d %8.3fms\n' "${names[$i]}" \
    "$(awk -v b="${size[${names[$i]}]}" 'BEGIN { print b / 1024 }')" "$rps" "$p50" "$p99" "$non2xx" "$sockerr" \
    "$(awk -v c="$cpu_ms" -v n="$requests" 'BEGIN { print (n > 0 ? c / n : 0) }')"
done
for name in "${names[@]}"; do # which socket errors: wrk counts a request over 2 s as a timeout
  awk -v n="$name" '/Socket errors:/ { sub(/^ +/, ""); print n ": " $0 }' "$work/$name.wrk"
done
nginx_rps=0 nginx_req=0 nginx_cpu=0 api_rps=0 api_req=0 api_cpu=0 apinc_rps=0 nethttp_rps=0
[[ -f $work/res.nginx ]] && read -r nginx_rps _ _ _ _ nginx_req nginx_cpu <"$work/res.nginx"
[[ -f $work/res.nethttp ]] && read -r nethttp_rps _ <"$work/res.nethttp"
[[ -f $work/res.api ]] && read -r api_rps _ _ _ _ api_req api_cpu <"$work/res.api"
[[ -f $work/res.api-nc ]] && read -r apinc_rps _ <"$work/res.api-nc"
echo
awk -v a="$api_rps" -v n="$nginx_rps" 'BEGIN { printf "ratio api / nginx req/s: %.2f\n", (n > 0 ? a / n : 0) }'
awk -v a="$apinc_rps" -v n="$nginx_rps" 'BEGIN { printf "ratio api-nc (uncached) / nginx req/s: %.3f\n", (n > 0 ? a / n : 0) }'
if [[ $nethttp_rps != 0 ]]; then
  awk -v h="$nethttp_rps" -v n="$nginx_rps" -v a="$api_rps" 'BEGIN {
    if (n > 0) printf "ratio nethttp (net/http alone) / nginx req/s: %.2f\n", h / n
    if (a > 0) printf "ratio api / nethttp req/s: %.2f\n", a / h }'
fi
awk -v ac="$api_cpu" -v an="$api_req" -v nc="$nginx_cpu" -v nn="$nginx_req" 'BEGIN {
  if (an > 0 && nn > 0 && nc > 0) printf "server CPU per request, api / nginx: %.0fx\n", (ac / an) / (nc / nn)
}'
curl -fsS "$base/metrics" 2>/dev/null | awk '
  /^gpuscout_response_cache_total\{result="hit"\}/ { hit = $2; seen = 1 }
  /^gpuscout_response_cache_total\{result="miss"\}/ { miss = $2 }
  END { if (seen) printf "server response cache: %d hits, %d misses\n", hit, miss; else print "server response cache: none reported in /metrics" }'
