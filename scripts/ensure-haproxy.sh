#!/usr/bin/env bash
# Runs before `npm test`: the cluster test puts three instances behind a real HAProxy (Debian's
# package). Installs it when it is missing and we can; otherwise says so, and that test fails
# loudly rather than skip.
set -u
source "$(dirname "$0")/apt-install.sh"
if command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]; then exit 0; fi
echo "Installing Debian's haproxy for the cluster test (apt-get)…"
apt_install haproxy haproxy && exit 0
echo "warning: haproxy is missing (install it: apt-get install -y haproxy); test/cluster/haproxy-cluster will fail." >&2
exit 0
