#!/usr/bin/env bash
# The autograder to upload to Gradescope for one exercise:
#
#   make gradescope EX=20.3 [OUT=gradescope-20.3]
#
# Writes OUT/ (setup.sh, run_autograder and EXERCISE at its root, with the
# sources the grader needs) and OUT.zip of its contents when zip is installed.
# Upload the zip as the assignment's autograder ("Zip file upload").
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
cp tests/run_autograder "$tmp/tests/run_autograder"
echo "$id" > "$tmp/EXERCISE"
cat > "$tmp/setup.sh" <<'SETUP'
#!/usr/bin/env bash
# Gradescope runs this once, as root, on its Ubuntu image: a C++17 compiler.
set -e
command -v g++ > /dev/null || { apt-get update; apt-get install -y g++; }
SETUP
chmod +x "$tmp/setup.sh" "$tmp/run_autograder"

rm -rf "$out" && mv "$tmp" "$out" || fail "cannot move the autograder into '$out'"
trap - EXIT
if command -v zip > /dev/null; then
  rm -f "$out.zip"
  (cd "$out" && zip -qr "$out.zip" .) || fail "zip failed"
  echo "gradescope: exercise $id: upload $out.zip (the folder is $out)"
else
  echo "gradescope: exercise $id: $out is written; zip its contents (not the folder) and upload the zip"
fi
