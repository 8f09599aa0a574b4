#!/usr/bin/env bash
# Listings 106-109 take no options: --help says so and exits 0 with nothing on
# stderr, and their output with no arguments stays the book's (the goldens).
# An argument given is one line and exit status 2: tests/fixtures/bad_input.tsv.
set -u
build=$1
RUN=${RUN:-}  # make cross runs the programs under Wine or qemu-aarch64 (tests/cross.sh)
status=0
for listing in 106_Projections 107_Qkv_Sequence 108_Why_Qkv 109_Attention_Fn; do
  help=$($RUN "$build/chapter20/$listing" --help 2> "$build/listing_help.err"); code=$?
  if [ "$code" -ne 0 ] || [[ "$help" != "usage: $listing [--help]"* ]] || [[ "$help" != *"takes no options"* ]] ||
     [ -s "$build/listing_help.err" ]; then
    echo "FAILED: $listing --help: exit $code, output '${help:0:80}', stderr '$(head -c 200 "$build/listing_help.err")'"
    status=1
  fi
done
rm -f "$build/listing_help.err"
[ "$status" -eq 0 ] && echo "listings 106-109: --help says they take no options"
exit $status
