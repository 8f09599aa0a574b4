#!/usr/bin/env bash
# make bench: runs every tests/bench/bench_*.sh in turn, then writes what they
# measured into tests/bench/RESULTS.md and prints the same. Timings live here,
# never in make test.
#
# A bench script prints what it likes; each of its lines of the form
#   name: value unit  (the command that measures it)
# (a value that is a number, two spaces before the parenthesis) is a result.
# RESULTS.md is those lines, in the scripts' order, under the machine (cores,
# CPU model), the compiler and the date; it is written whole to a temporary
# file and renamed, and only when every bench script succeeded.
set -u
build=${1:-build}
cd "$(dirname "$0")/../.."
results=tests/bench/RESULTS.md
log=$(mktemp) || exit 1
trap 'rm -f "$log" "$log.report"' EXIT
status=0
# BENCH=web,similarity (make bench BENCH=...): only those bench scripts; the other figures stay in
# RESULTS.md as their last run measured them, under a line that says so.
only=${BENCH:-}
for bench in tests/bench/bench_*.sh; do
  [ -f "$bench" ] || continue
  name=${bench#tests/bench/bench_}
  [ -z "$only" ] || [[ ",$only," == *",${name%.sh},"* ]] || continue
  echo "== $bench"
  bash "$bench" "$build" | tee -a "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done

cores=$(nproc 2> /dev/null || sysctl -n hw.ncpu 2> /dev/null || echo unknown)
cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2> /dev/null | head -n 1)
[ -n "$cpu" ] || cpu=$(sysctl -n machdep.cpu.brand_string 2> /dev/null || uname -m)
compiler=$(${CXX:-g++} --version 2> /dev/null | head -n 1)
load=$(cut -d ' ' -f 1-3 /proc/loadavg 2> /dev/null || uptime | sed 's/.*load averages*: *//')
report() {
  echo "machine: $cores cores, $cpu  (nproc; model name in /proc/cpuinfo, or sysctl on a Mac)"
  echo "compiler: $compiler  (${CXX:-g++} --version)"
  echo "load before the runs: $load  (/proc/loadavg: 1, 5 and 15 minutes)"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')  (date -u)"
  grep -E '^[A-Za-z][^:]*: [0-9][0-9.]* [^ ]+.*  \(.+\)$' "$log"
}

echo
echo "== results (also in $results)"
report | tee "$log.report"
if [ "$status" -ne 0 ]; then
  echo "a bench script failed: $results is left as it was"
  rm -f "$log.report"
  exit 1
fi
tmp=$(mktemp "$results.XXXXXX") || exit 1
{
  echo "# Measured figures"
  echo
  echo "Every figure \`make bench\` measures, as it printed them on its last run"
  echo "(\`tests/bench/bench.sh\` writes this file; run \`make bench\` to refresh it rather"
  echo "than editing it). Each line: what, the figure, and in parentheses the command"
  echo "that measures it. A share of the peak is of the widest vector width's peak,"
  echo "on the same number of threads; FLOPs per token are counted at the top of"
  echo "\`tests/bench/bench_tiny.sh\`. The machine may be shared with other work, so"
  echo "expect the next run to differ by a tenth or more."
  echo
  echo '```'
  cat "$log.report"
  if [ -n "$only" ] && [ -f "$results" ]; then  # the figures BENCH did not measure, as they were
    # Each kept figure keeps the date of the run that measured it: a figure kept once already is under its
    # own "kept from" line, the others under the last run's date.
    awk -F ': ' -v only="$only" 'NR == FNR { if (/^[A-Za-z]/) measured[$1] = 1; next }
      /^```/ { inside = !inside; next }
      !inside { next }
      /^date: / { run = $2; sub(/  \(.*/, "", run); next }
      /^figures below: / { run = $0; sub(/.*kept from the run of /, "", run); sub(/  \(.*/, "", run); next }
      /^(machine|compiler|load before the runs): / || measured[$1] { next }
      { if (!(run in lines)) order[++runs] = run; lines[run] = lines[run] $0 "\n" }
      END { for (i = 1; i <= runs; i++)
              printf "figures below: not measured by BENCH=%s, kept from the run of %s  (tests/bench/bench.sh)\n%s",
                     only, order[i], lines[order[i]] }' \
      "$log.report" "$results"
  fi
  echo '```'
} > "$tmp" && mv "$tmp" "$results"
rm -f "$log.report"
