#!/usr/bin/env bash
# Runs before the PostgreSQL run of the suite (.ci/run) and the cluster tests: they start a
# throwaway cluster of Debian's PostgreSQL (initdb in a temp dir, as the `postgres` user when we
# are root). Installs the package with apt-get when it is missing and we can; otherwise says so,
# and those tests fail loudly rather than skip.
set -u
if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir 2>/dev/null)/initdb" ]; then exit 0; fi
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's postgresql for the PostgreSQL tests (apt-get)…"
  if (apt-get install -y -qq --no-install-recommends postgresql >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null)); then
    # The package creates and starts a system cluster; the tests start their own on a free port.
    (systemctl disable --now postgresql >/dev/null 2>&1 || service postgresql stop >/dev/null 2>&1) || true
    exit 0
  fi
fi
echo "warning: PostgreSQL is missing (install it: apt-get install -y postgresql); the PostgreSQL run and test/cluster will fail." >&2
exit 0
