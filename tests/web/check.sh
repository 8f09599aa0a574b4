#!/usr/bin/env bash
# Every golden case of make web's pages in headless Chromium, opened from file://
# with the golden's arguments in ?args= (tests/web/check.js): #output must hold
# the golden byte for byte, and no page may fail or request anything. Prints
# ok:/FAILED: per case and a count; exits non-zero on any failure. One
# screenshot goes to BUILD/web-check/page.png. .ci/run runs it after make web;
# make test does not (it needs emscripten's build).
#   bash tests/web/check.sh [BUILD] [FOLDER/PROGRAM[@CASE]...]
set -u
build=${1:-build}
shift || true
cd "$(dirname "$0")/../.."
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "FAILED: no Chromium at $chromium (apt-get install chromium)"; exit 1; }
command -v node > /dev/null || { echo "FAILED: no Node.js (apt-get install nodejs)"; exit 1; }
[ -f "$build/web/index.html" ] || { echo "FAILED: no $build/web/index.html: run make web first"; exit 1; }
exec node tests/web/check.js "$build/web" "$chromium" "$build/web-check" "$@"
