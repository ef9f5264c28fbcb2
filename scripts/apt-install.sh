#!/usr/bin/env bash
# Sourced by the ensure-*.sh scripts: installs a Debian package the tests need, when we can.
# apt_install PACKAGE SERVICE: installs PACKAGE (refreshing the lists only if the first attempt
# fails) and stops and disables SERVICE, the system service the package starts (the tests start
# their own on free ports). Returns non-zero when not root, without apt-get, or when it fails.
apt_install() {
  local package="$1" service="$2"
  [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1 || return 1
  apt-get install -y -qq --no-install-recommends "$package" >/dev/null 2>&1 ||
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package" >/dev/null) || return 1
  (systemctl disable --now "$service" >/dev/null 2>&1 || service "$service" stop >/dev/null 2>&1) || true
}
