#!/usr/bin/env bash
# Makes sure a headless Chromium is installed for the tests that render pages in a real browser (/docs,
# the account and candidate pages: test/support/browser.ts), from Debian's `chromium` package. Run by
# `make unit` (so `make test` and CI) before the suite: those tests never skip.
set -euo pipefail
for b in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
  if [ -x "$b" ]; then echo "chromium: $b"; exit 0; fi
done
if [ "$(id -u)" != 0 ]; then
  echo "No Chromium found. Install Debian's package as root: apt-get update && apt-get install -y --no-install-recommends chromium" >&2
  exit 1
fi
echo "chromium: installing Debian's chromium package (apt-get)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
test -x /usr/bin/chromium && echo "chromium: /usr/bin/chromium"
