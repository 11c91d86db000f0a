#!/usr/bin/env bash
# Makes a fresh machine ready for the test tiers: Debian's Chromium for Playwright, a running local
# PostgreSQL and Redis (the shared rate-limit store is tested against it). Installs or starts only
# what is missing, and says what it installs before it does, so running it again changes nothing.
set -euo pipefail

# Root runs the command itself (a container has no sudo, and sudo as root is pointless); anyone
# else goes through sudo, or is told what to run as root when there is none.
if [ "$(id -u)" -eq 0 ]; then
  as_root() { "$@"; }
  root_by="as root"
elif command -v sudo >/dev/null; then
  as_root() { sudo "$@"; }
  root_by="with sudo"
else
  as_root() {
    echo "[setup] this needs root and there is no sudo; run as root: $*" >&2
    return 1
  }
  root_by="as root"
fi

# apt_install <why> <package>...: Debian packages, announced with the commands that install them.
apt_install() {
  local why=$1
  shift
  echo "[setup] installing Debian package(s) $* ($why), $root_by: apt-get update; apt-get install -y $*"
  as_root apt-get update -qq
  # Through env: sudo resets the environment, so a variable set before it would not reach apt-get.
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if [ ! -x /usr/bin/chromium ]; then
  apt_install "the browser of the Playwright journeys" chromium
fi

pg_ready() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
if ! pg_ready; then
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    version=$(ls /etc/postgresql | sort -V | tail -1)
    echo "[setup] starting the local PostgreSQL (cluster $version/main), $root_by"
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
    apt_install "the shared rate-limit store of the server tests" redis-server
  fi
  echo "[setup] starting a local Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  for _ in $(seq 1 20); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.5; done
fi
