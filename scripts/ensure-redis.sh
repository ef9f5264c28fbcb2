#!/usr/bin/env bash
# Runs before `npm test`: the shared rate-limit tests run a real redis-server (Debian's package;
# Valkey, where the distribution has it, speaks the same protocol). Installs it with apt-get when
# it is missing and we can; otherwise says so, and those tests fail loudly rather than skip.
set -u
source "$(dirname "$0")/apt-install.sh"
if command -v redis-server >/dev/null 2>&1; then exit 0; fi
echo "Installing Debian's redis-server for the shared rate-limit tests (apt-get)…"
apt_install redis-server redis-server && exit 0
echo "warning: redis-server is missing (install it: apt-get install -y redis-server); test/cluster will fail." >&2
exit 0
