#!/usr/bin/env bash
# By hand, after the default start or the training's arithmetic changes (a few
# minutes of Python, so make test does not run it): every line that
# tests/reference/colour_recall_reference.py --lines computes, in the goldens' own
# format, must be in the chapter 15 golden it belongs to. The reference is in
# double precision and the programs in float, so a line can differ in its last
# digit; each missing line is printed for a look by eye.
#   bash tests/manual/colour_recall_against_reference.sh
set -u
cd "$(dirname "$0")/../.."
golden=${GOLDEN:-tests/golden/chapter15}  # or a folder of new outputs, named as the goldens
goldens="$golden/15_2_Lab4_Model.txt $golden/15_2_Lab5_Training.txt $golden/15_3_Learned_Weights.txt
  $golden/15_4_Every_Position.txt $golden/15_7_One_Layer_Limits.txt $golden/studies/lab5_runs@seeds.txt"
scale=$(sed -n 's/^constexpr float INIT_SCALE = \([0-9.]*\)f;/\1/p' chapter15/colour_recall.hpp)
found=0 missing=0
while IFS= read -r line; do
  # shellcheck disable=SC2086
  if cat $goldens | grep -qF -- "$line"; then found=$((found + 1))
  else missing=$((missing + 1)); echo "not in the goldens: $line"; fi
done < <(python3 tests/reference/colour_recall_reference.py --lines --slow --sweep "$scale" 40 | sed '1,/^--- golden lines ---$/d')
echo "$found reference lines found in the goldens, $missing not"
[ "$missing" -eq 0 ]
