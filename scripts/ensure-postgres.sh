#!/usr/bin/env bash
# Runs before `npm test` and the PostgreSQL run of the suite (.ci/run): they start a throwaway
# cluster of Debian's PostgreSQL (initdb in a temp dir, as the `postgres` user when we are root).
# Installs the package when it is missing and we can; otherwise says so, and those tests fail
# loudly rather than skip.
set -u
source "$(dirname "$0")/apt-install.sh"
if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir 2>/dev/null)/initdb" ]; then exit 0; fi
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then exit 0; fi
echo "Installing Debian's postgresql for the PostgreSQL tests (apt-get)…"
apt_install postgresql postgresql && exit 0
echo "warning: PostgreSQL is missing (install it: apt-get install -y postgresql); the PostgreSQL run and test/cluster will fail." >&2
exit 0
