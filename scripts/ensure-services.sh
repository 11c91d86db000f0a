#!/usr/bin/env bash
# Makes a fresh machine ready for the test tiers: Debian's Chromium for Playwright and a running
# local PostgreSQL. Installs or starts only what is missing.
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
