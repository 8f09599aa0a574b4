#!/usr/bin/env bash
# The chapter 15 lookup lessons take no options: --help prints a usage and exits 0;
# anything else is one line on stderr naming it, nothing on stdout, and exit status 2.
set -u
build=$1
RUN=${RUN:-}  # make cross runs the programs under Wine or qemu-aarch64 (tests/cross.sh)
status=0
for lesson in chapter15/15_1_Soft_Lookup chapter15/15_1_Kernel_Smoothing chapter15/15_5_Causal_Mask; do
  help=$($RUN "$build/$lesson" --help); code=$?
  if [ "$code" -ne 0 ] || [[ "$help" != usage:* ]]; then
    echo "$lesson --help: exit $code, output '${help:0:60}'"; status=1
  fi
  out=$($RUN "$build/$lesson" --bogus 2> "$build/lookup_cli.err"); code=$?
  if [ "$code" -ne 2 ] || [ -n "$out" ] || [ "$(wc -l < "$build/lookup_cli.err")" -ne 1 ] ||
     ! grep -q -- "--bogus" "$build/lookup_cli.err"; then
    echo "$lesson --bogus: exit $code, stderr '$(head -c 200 "$build/lookup_cli.err")'"; status=1
  fi
done
rm -f "$build/lookup_cli.err"
exit $status
