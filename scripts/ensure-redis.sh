#!/usr/bin/env bash
# Runs before `npm test`: the shared rate-limit tests run a real redis-server (Debian's package;
# Valkey, where the distribution has it, speaks the same protocol). Installs it with apt-get when
# it is missing and we can; otherwise says so, and those tests fail loudly rather than skip.
set -u
if command -v redis-server >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's redis-server for the shared rate-limit tests (apt-get)…"
  if (apt-get install -y -qq --no-install-recommends redis-server >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null)); then
    # The package starts a system service; the tests start their own on a free port.
    (systemctl disable --now redis-server >/dev/null 2>&1 || service redis-server stop >/dev/null 2>&1) || true
    exit 0
  fi
fi
echo "warning: redis-server is missing (install it: apt-get install -y redis-server); test/cluster will fail." >&2
exit 0
