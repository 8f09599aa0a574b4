#!/usr/bin/env bash
# The three demos' --html pages in a real browser: headless Chromium, driven by
# tests/browser/check_pages.js with mouse, keyboard and touch events; what each
# page then shows is compared with the program's own --row, --at and --query
# output, and any JavaScript error fails it. Pages and screenshots go in
# BUILD/browser/. Without Chromium or Node.js it skips (exit 77, one SKIP line),
# unless REQUIRE_BROWSER is set (as .ci/run sets it): then that is a failure.
set -u
build=$1
# make cross's programs are for another machine; the same pages are tried here by make test.
if [ -n "${RUN:-}" ]; then echo "not under make cross: make test tries the pages in a browser"; exit 77; fi
chromium=${CHROMIUM:-/usr/bin/chromium}
missing=
[ -x "$chromium" ] || missing="Chromium ($chromium)"
command -v node > /dev/null || missing="${missing:+$missing and }Node.js"
if [ -n "$missing" ]; then
  if [ -n "${REQUIRE_BROWSER:-}" ]; then echo "no $missing here, and REQUIRE_BROWSER is set"; exit 1; fi
  echo "no $missing here, so the demos' pages were not tried in a browser (.ci/run installs it)"
  exit 77
fi
mkdir -p "$build/browser"
exec node "$(dirname "$0")/../browser/check_pages.js" "$build" "$chromium" "$build/browser"
