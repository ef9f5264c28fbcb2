#!/usr/bin/env bash
# Runs before `npm test`: the browser tests drive Debian's Chromium (never a downloaded browser).
# Installs it with apt-get when it is missing and we can; otherwise says so, and the browser
# test fails loudly rather than being skipped.
set -u
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests (apt-get)…"
  if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; then exit 0; fi
fi
echo "warning: /usr/bin/chromium is missing (install it: apt-get install -y chromium); test/e2e will fail." >&2
exit 0
