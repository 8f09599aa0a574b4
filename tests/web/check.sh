#!/usr/bin/env bash
# Every golden case of make web's pages in headless Chromium, opened from file://
# with the golden's arguments in ?args= (tests/web/check.js): #output must hold
# the golden byte for byte, and no page may fail or request anything. Then, with
# no program named: make web ANSWERS=hidden's pages show no line of an answer
# (tests/web/answers.js), and every page, the demos' --html pages and the grader's similarity.html
# (which make test's grader_similarity check leaves in BUILD/checks/) fit a phone's
# screen (tests/web/phone.js; screenshots in BUILD/web-check/phone and desktop).
# Prints ok:/FAILED: per case and a count; exits non-zero on any failure. .ci/run
# runs it after make web and make web ANSWERS=hidden; make test does not (it needs
# emscripten's build).
#   bash tests/web/check.sh [BUILD] [FOLDER/PROGRAM[@CASE]...]
set -u
build=${1:-build}
shift || true
cd "$(dirname "$0")/../.."
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "FAILED: no Chromium at $chromium (apt-get install chromium)"; exit 1; }
command -v node > /dev/null || { echo "FAILED: no Node.js (apt-get install nodejs)"; exit 1; }
[ -f "$build/web/index.html" ] || { echo "FAILED: no $build/web/index.html: run make web first"; exit 1; }
[ $# -gt 0 ] && exec node tests/web/check.js "$build/web" "$chromium" "$build/web-check" "$@"
# The whole run: the goldens, no answer on the class's pages, and every page on a phone.
[ -f "$build/web-answers-hidden/index.html" ] ||
  { echo "FAILED: no $build/web-answers-hidden/index.html: run make web ANSWERS=hidden first"; exit 1; }
status=0
node tests/web/check.js "$build/web" "$chromium" "$build/web-check" || status=1
node tests/web/answers.js "$build/web" "$build/web-answers-hidden" || status=1
node tests/web/phone.js "$build/web" "$chromium" "$build/web-check" "$build" || status=1
exit $status
