#!/usr/bin/env bash
# Builds the gpuscout image, runs it on a free loopback port and waits for
# /healthz to answer ok; then stops it. Exit 0 on success.
# Usage: deploy/image-test.sh [IMAGE]
set -euo pipefail
cd "$(dirname "$0")/.."
image="${1:-gpuscout:dev}"
docker build -t "$image" .
port=$(( 20000 + RANDOM % 20000 ))
cid=$(docker run -d --rm -p "127.0.0.1:${port}:8080" "$image")
trap 'docker stop "$cid" >/dev/null 2>&1 || true' EXIT
for _ in $(seq 1 60); do
  if out=$(curl -fsS "http://127.0.0.1:${port}/healthz" 2>/dev/null); then
    echo "image $image answers /healthz: $out"
    user=$(docker inspect -f '{{.Config.User}}' "$image")
    [ "$user" = "65532:65532" ] || { echo "image runs as '$user', want 65532:65532" >&2; exit 1; }
    exit 0
  fi
  sleep 1
done
echo "image $image did not answer /healthz within 60 s" >&2
docker logs "$cid" >&2 || true
exit 1
