#!/usr/bin/env bash
# Makes a fresh machine ready for the test tiers: Debian's Chromium for Playwright, a running local
# PostgreSQL and Redis (the shared rate-limit store is tested against it). Installs or starts only
# what is missing.
set -euo pipefail

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else "$@"; fi; }

if [ ! -x /usr/bin/chromium ]; then
  echo "[setup] installing Debian chromium for the browser tests"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium >/dev/null
fi

pg_ready() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
if ! pg_ready; then
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    echo "[setup] starting the local PostgreSQL"
    version=$(ls /etc/postgresql | sort -V | tail -1)
    as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  fi
  for _ in $(seq 1 30); do pg_ready && break; sleep 1; done
fi
if ! pg_ready; then
  echo "[setup] PostgreSQL is not reachable on 127.0.0.1:5432; the server tests need it" >&2
  exit 1
fi

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  if ! command -v redis-server >/dev/null; then
    echo "[setup] installing Debian redis-server"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq redis-server >/dev/null
  fi
  echo "[setup] starting a local Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  for _ in $(seq 1 20); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.5; done
fi
