#!/usr/bin/env bash
# make cross: make test again for two other machines, each built with its own
# compiler into its own folder and run by tests/run_tests.sh through a runner:
#   Windows  x86_64-w64-mingw32-g++-posix -static, run under Wine (tests/run_wine.sh),
#            compared without the CR that Windows puts before each newline
#   aarch64  aarch64-linux-gnu-g++ -static (a Raspberry Pi's 64-bit ARM), run under qemu-aarch64
# Ends with each target's "N passed, M failed"; exits non-zero if either failed.
# A target whose compiler or runner is missing fails and says what to install.
set -u
cd "$(dirname "$0")/.."
MINGW=${MINGW:-x86_64-w64-mingw32-g++-posix}
AARCH64=${AARCH64:-aarch64-linux-gnu-g++}
jobs=${JOBS:-2}
summary=() status=0

# target NAME LOG_NAME MAKE_VARIABLES...: builds and tests one target, keeping its last line.
target() {
  local name=$1 log=build/cross-$2.log
  shift 2
  mkdir -p build
  echo "== $name"
  { make --no-print-directory -j"$jobs" all "$@" && make --no-print-directory -j"$jobs" test "$@"; } 2>&1 | tee "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  local result
  result=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$log" | tail -n 1)
  summary+=("$name: ${result:-did not build or run; see $log}")
}

need() {  # need COMMAND PACKAGE: is COMMAND there?
  command -v "$1" > /dev/null && return 0
  echo "$1 is missing: apt-get install $2"
  return 1
}

# --- Windows: one Wine prefix under build/, booted once, and one wineserver
# kept running for the whole run (Wine's start-up is the slow part).
if need "$MINGW" g++-mingw-w64-x86-64-posix && need wine wine64; then
  export WINEPREFIX=$PWD/build/wine WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="  # no .NET or Gecko prompts
  # wineboot returns before the new prefix is finished; wineserver -w waits for
  # that, or the first tests meet a wineserver that restarts under them.
  [ -f "$WINEPREFIX/system.reg" ] || { echo "making the Wine prefix $WINEPREFIX"; wineboot --init > /dev/null 2>&1; wineserver -w; }
  wineserver --persistent
  target "Windows (MinGW-w64, under Wine)" windows CXX="$MINGW" EXE=.exe LDFLAGS=-static BUILD=build/windows \
    RUN="bash $PWD/tests/run_wine.sh" TEXT_CRLF=1
  wineserver --kill
else
  summary+=("Windows: not run (missing tools)") status=1
fi

# --- aarch64: static, so qemu needs no ARM libraries.
if need "$AARCH64" g++-aarch64-linux-gnu && need qemu-aarch64 qemu-user; then
  target "aarch64 (static, under qemu-aarch64)" aarch64 CXX="$AARCH64" LDFLAGS=-static BUILD=build/aarch64 \
    RUN=qemu-aarch64
else
  summary+=("aarch64: not run (missing tools)") status=1
fi

echo
echo "make cross:"
printf '  %s\n' "${summary[@]}"
exit $status
