#!/usr/bin/env bash
# Prints every lesson in book order: "path<TAB>section" per line.
# A lesson is a program whose header has a "// Book section: X" line; the
# order is folder, then section number, then file name.
set -eu
cd "$(dirname "$0")/.."
for src in chapter*/*.cpp chapter*/*/*.cpp; do
  [ -f "$src" ] || continue
  section=$(sed -n 's|^// Book section: \([^ ]*\).*|\1|p' "$src" | head -n 1)
  [ -n "$section" ] && printf '%s\t%s\t%s\n' "$(dirname "$src")" "$section" "${src%.cpp}"
done | sort -t "$(printf '\t')" -k1,1 -k2,2V -k3,3 | cut -f3,2 | awk -F'\t' '{print $2 "\t" $1}'
