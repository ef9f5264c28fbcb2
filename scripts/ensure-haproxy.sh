#!/usr/bin/env bash
# Runs before `npm test`: the cluster test puts three instances behind a real HAProxy (Debian's
# package). Installs it with apt-get when it is missing and we can; otherwise says so, and that
# test fails loudly rather than skip.
set -u
if command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's haproxy for the cluster test (apt-get)…"
  if (apt-get install -y -qq --no-install-recommends haproxy >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends haproxy >/dev/null)); then
    # The package starts a system service; the test starts its own on free ports.
    (systemctl disable --now haproxy >/dev/null 2>&1 || service haproxy stop >/dev/null 2>&1) || true
    exit 0
  fi
fi
echo "warning: haproxy is missing (install it: apt-get install -y haproxy); test/cluster/haproxy-cluster will fail." >&2
exit 0
