#!/usr/bin/env bash
# Installs the Debian packages the tests need (docs/stack.md §2): Chromium for the browser tests,
# PostgreSQL, Redis and nginx for the store and scale-out tests (private instances are started by the tests).
# Idempotent and quick when everything is there; needs root (CI and the dev machines run as root).
set -euo pipefail

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v redis-server >/dev/null || need+=(redis-server)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need+=(nginx)

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then
  echo "missing system packages: ${need[*]} (install them with apt-get as root)" >&2
  exit 1
fi
echo "installing system packages: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
