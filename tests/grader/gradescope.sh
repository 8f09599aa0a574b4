#!/usr/bin/env bash
# The autograder to upload to Gradescope for one exercise (tests/grader/README.md, "Gradescope"):
#
#   make gradescope EX=20.3 [OUT=gradescope-20.3] [SEED=N]
#
# Writes OUT/ (setup.sh, run_autograder, EXERCISE, SEED and the grader's sources) and OUT.zip.
# SEED is the assignment's: every submission, and every resubmission, gets the same hidden inputs.
set -u
ex=${1:-}
out=${2:-}
[ -n "$out" ] && [ "${out#/}" = "$out" ] && out="$PWD/$out"
cd "$(dirname "$0")/../.." || exit 2
. tests/grader/lib.sh
fail() { echo "gradescope: $1" >&2; exit 2; }
[ -n "$ex" ] || fail "EX is missing: which exercise? (the exercises: $(exercise_ids))"
reference=$(exercise_file "$ex")
[ -n "$reference" ] || fail "there is no exercise '$ex'; the exercises: $(exercise_ids)"
id=$(exercise_id_of "$reference")
out=${out:-$PWD/gradescope-$id}
[ -e "$out" ] && [ ! -f "$out/EXERCISE" ] && fail "'$out' exists and is not an autograder folder; choose another OUT"
tmp=$(mktemp -d "$(dirname "$out")/.gradescope.XXXXXX") || fail "cannot write beside '$out'"
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/tests"
cp -R common "$tmp/"
cp -R tests/grader "$tmp/tests/grader"
for chapter in chapter*/; do cp -R "${chapter%/}" "$tmp/"; done
rm -rf "$tmp"/chapter*/build
cp tests/run_autograder "$tmp/run_autograder"
echo "$id" > "$tmp/EXERCISE"
seed=${SEED:-$(random_seed)}
case "$seed" in *[!0-9]*) fail "SEED must be a whole number, got '$seed'" ;; esac
echo "$seed" > "$tmp/SEED"
cat > "$tmp/setup.sh" <<'SETUP'
#!/usr/bin/env bash
# Gradescope runs this once, as root, on "Ubuntu 22.04": g++-12 (the checks' GCC), bubblewrap, the
# checker built by grading the starter, every source closed to all but root.
set -e
cd "$(dirname "$0")"
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y g++-12 bubblewrap
. tests/grader/lib.sh
id=$(cat EXERCISE)
starter=$(mktemp -d)/$(basename "$(exercise_file "$id")")
cut_solutions "$(exercise_file "$id")" > "$starter"
mkdir -p .grader-cache
GRADER_CACHE=$PWD/.grader-cache CXX=g++-12 bash tests/grader/grade.sh "$id" "$starter" || true
[ -x ".grader-cache/checker-$id" ] || { echo "setup.sh: the checker of exercise $id did not build"; exit 1; }
rm -rf "$(dirname "$starter")"
chmod -R go-rwx "$PWD"
SETUP
chmod +x "$tmp/setup.sh" "$tmp/run_autograder"

rm -rf "$out" && mv "$tmp" "$out" || fail "cannot move the autograder into '$out'"
trap - EXIT
if command -v zip > /dev/null; then
  rm -f "$out.zip"
  (cd "$out" && zip -qr "$out.zip" .) || fail "zip failed"
  echo "gradescope: exercise $id, seed $seed: upload $out.zip (the folder is $out)"
else
  echo "gradescope: exercise $id, seed $seed: $out is written; zip its contents (not the folder) and upload the zip"
fi
