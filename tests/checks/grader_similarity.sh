#!/usr/bin/env bash
# tests/grader/similarity.cpp on a class of our own (tests/grader/class/similarity/:
# five independent solutions of 20.5 and of tiny.2 in different styles, and five
# disguised copies of each, truth.tsv says of what): every copy pair ranks above
# every pair of independent solutions, by 0.05 at least (the margins are
# printed), and the starter handed in as it came matches nobody; the CSV reads
# back with Python's csv module, a name with a comma, a quote and an accent
# quoted as RFC 4180 says; the page marks the top pair's shared code and names
# no URL; a missing file is one line, exit 2 and no output; a copy with its
# temporaries written back, an element read by a helper or a helper declared
# first reads as its original; the same input gives the same bytes. Every file
# of the class compiles against the handout.
# A tool the teacher runs on the machine that grades: make cross has nothing to add.
. "$(dirname "$0")/../grader/checks.sh"
class=tests/grader/class/similarity
exercises="20.5 tiny.2"
# One student's display name has a comma, quotes, an apostrophe and an accent.
odd_file=indep_b
odd_name='Zoë "Zed" O'\''Brien, Jr.'

tool=$work/similarity
g++ -std=c++17 -O2 -Wall -Wextra -Wpedantic -Werror tests/grader/similarity.cpp -o "$tool" 2> "$work/build.log" ||
  { failed "similarity.cpp does not build" "$work/build.log"; exit 1; }

# The handout of each exercise as a student gets it (the starter, and its
# headers with this exercise's regions cut) is the base code; the reference is
# the exercise solved (tiny.2's answer lives in tiny_model.hpp: solved_exercise
# puts it in the file, as a student hands it in).
manifest=$work/manifest.tsv
echo "# exercise	role	name	path" > "$manifest"
for id in $exercises; do
  handout=$work/handout/$id
  similarity_base "$id" "$handout" >> "$manifest" || { failed "the handout of $id"; exit 1; }
  mkdir -p "$handout/below"  # "../tiny_model.hpp" from below/ is the handout's header
  # A student who hands in the starter as it came shares nothing that counts.
  printf '%s\tstudent\tnothing_done\t%s\n' "$id" "$handout/starter.cpp" >> "$manifest"
  for student in "$class/$id"/*.cpp; do
    name=$(basename "$student" .cpp)
    [ "$name" = "$odd_file" ] && [ "$id" = 20.5 ] && name=$odd_name
    printf '%s\tstudent\t%s\t%s\n' "$id" "$name" "$student" >> "$manifest"
    g++ -std=c++17 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$handout/below" -I"$handout" "$student" \
      > "$work/compile.log" 2>&1 || failed "$student does not compile against the handout" "$work/compile.log"
  done
done

"$tool" "$manifest" "$work/out.csv" "$work/out.html" 2> "$work/run.err" || { failed "similarity on the class" "$work/run.err"; exit 1; }

# (1) copies above independent solutions, and (2) the CSV as Python reads it.
python3 - "$work/out.csv" "$class/truth.tsv" "$odd_file" "$odd_name" > "$work/rank.log" 2>&1 <<'PY'
import csv, sys
out, truth_path, odd_file, odd_name = sys.argv[1:]
failed = 0
def fail(message):
    global failed
    failed += 1
    print("FAILED: " + message)
# Each copy scores this much above every independent pair at least: with the
# base code not removed the margins were 0.03, with it 0.57 (20.5) and 0.17 (tiny.2);
# since fingerprints are weighted by their rarity and K is 8 (chosen on the blind
# class, tests/grader/class/blind/), 0.30 and 0.09; with a student's helpers
# inlined, 0.11 and 0.06: weights shrink every score.
MARGIN = 0.05
rows = list(csv.reader(open(out, newline="", encoding="utf-8")))
if rows[0] != ["exercise", "student_a", "student_b", "similarity", "shared_lines", "answers_differ"]:
    fail("the CSV's header is %r" % rows[0])
odd = [r for r in rows if len(r) != 6]
if odd:
    fail("%d rows of the CSV do not read as 6 fields, the first: %r" % (len(odd), odd[0]))
    sys.exit(1)
score = {}
for r in rows[1:]:
    score[(r[0], frozenset((r[1], r[2])))] = float(r[3])
truth = [line.rstrip("\n").split("\t") for line in open(truth_path, encoding="utf-8") if not line.startswith("#")][1:]
def name(exercise, file):
    stem = file[:-len(".cpp")] if file.endswith(".cpp") else file
    return odd_name if (exercise, stem) == ("20.5", odd_file) else stem
REFERENCE = "(reference solution)"
for exercise in sorted({t[0] for t in truth}):
    mine = [t for t in truth if t[0] == exercise]
    copies = [(name(exercise, f), REFERENCE if c == "reference" else name(exercise, c)) for _, f, c in mine if c != "-"]
    independent = [name(exercise, f) for _, f, c in mine if c == "-"]
    # The reference is one more independent solution: none of them copied it.
    alone = [(a, b) for a in independent for b in independent + [REFERENCE] if a < b or b == REFERENCE]
    got = lambda pair: score.get((exercise, frozenset(pair)))
    missing = [p for p in copies + alone if got(p) is None]
    if missing:
        fail("%s: pairs missing from the CSV: %s" % (exercise, missing))
        continue
    low = min(copies, key=got)
    high = max(alone, key=got)
    print("%s: lowest copy %.3f (%s ~ %s), highest independent pair %.3f (%s ~ %s), margin %+.3f"
          % (exercise, got(low), low[0], low[1], got(high), high[0], high[1], got(low) - got(high)))
    if got(low) < got(high) + MARGIN:
        fail("%s: the copy pair %s scores %.3f, not %.2f above the independent pair %s at %.3f"
             % (exercise, low, got(low), MARGIN, high, got(high)))
idle = [r for r in rows[1:] if "nothing_done" in (r[1], r[2])]
# The handout's code counts a tenth (similarity_match.hpp's WHOLE_SHARE): against a short answer, nearly that.
if not idle or max(float(r[3]) for r in idle) > 0.1:
    fail("the starter handed in as it came scores above 0.1: %r" % max(idle, key=lambda r: float(r[3]), default=None))
if not any(odd_name in (r[1], r[2]) for r in rows[1:]):
    fail("no row has the student named %s" % odd_name)
raw = open(out, encoding="utf-8").read()
if '"' + odd_name.replace('"', '""') + '"' not in raw:
    fail("the name %s is not quoted as RFC 4180 says" % odd_name)
sys.exit(1 if failed else 0)
PY
status=$?
sed 's/^/  /' "$work/rank.log"
[ "$status" -eq 0 ] && ok "every copy ranks above every pair of independent solutions, by 0.05 at least; the starter as it came scores 0.1 at most; the CSV reads back, the odd name quoted" ||
  failed "the ranking or the CSV"

# (3) the page: the top pair side by side with a marked region, nothing from the network.
top=$(grep -o '<div class="pair" id="e[0-9]*-p1">.*' "$work/out.html" | head -n 1)
if grep -q '<span class="l c0">' <<< "$top" && grep -q 'reason to look, not a verdict' "$work/out.html" &&
   ! grep -qiE 'https?://' "$work/out.html"; then
  ok "the page shows the top pair with its shared code marked, says it is no verdict, and names no URL"
else failed "the page: no marked region for the top pair, no 'not a verdict', or a URL in it"; fi

# (4) a file the manifest names that is not there: one line, exit 2, no output written.
{ cat "$manifest"; printf '20.5\tstudent\tghost\t%s\n' "$work/no-such-file.cpp"; } > "$work/bad.tsv"
"$tool" "$work/bad.tsv" "$work/bad.csv" "$work/bad.html" > "$work/bad.out" 2> "$work/bad.err"
status=$?
if [ "$status" -eq 2 ] && [ "$(wc -l < "$work/bad.err")" -eq 1 ] && grep -q "cannot read .*no-such-file.cpp" "$work/bad.err" &&
   [ ! -s "$work/bad.out" ] && [ -z "$(ls "$work" | grep '^bad\.\(csv\|html\)')" ]; then
  ok "a missing file: '$(cat "$work/bad.err")', exit 2, no output file"
else failed "a missing file should be one line, exit 2 and no output (got status $status)" "$work/bad.err"; fi
"$tool" --help | grep -q '^usage: similarity MANIFEST OUT_CSV OUT_HTML' && ok "--help prints the usage" || failed "--help"
"$tool" "$manifest" 2> "$work/usage.err"
[ "$?" -eq 2 ] && grep -q '^usage:' "$work/usage.err" && ok "too few arguments: the usage, exit 2" || failed "too few arguments"

# (5) Disguises read as their original: each scores against it as the original handed in twice. indep_b's
# last three statements made one (0.241, not 0.475, before temporaries were read as their values; its own code
# is short, hence no 1.000); indep_c's weights[...] read through a one-line helper (0.548, not 0.600, before
# such a helper called more than once was written out at each call, as a macro is); indep_c of 20.5 with its
# helper declared first (0.878, not 1.000, before a declaration was told from a call).
sed '/Matrix g_queries = /,/return g_WQ;/c\    return matmul(transpose(matmul(g_scores, a.K)), X);' \
  "$class/20.5/indep_b.cpp" > "$work/b_disguised.cpp"
sed -e 's/weights\[(h \* T + t) \* T + s\]/w_at(weights, T, h, t, s)/' -e '/^void attend_backward/i\
static float w_at(const float* w, int T, int h, int t, int s) { return w[(h * T + t) * T + s]; }' \
  "$class/tiny.2/indep_c.cpp" > "$work/c_disguised.cpp"
sed '/^static Grid as_grid/i\
static std::vector<double> query_row_gradient(const Grid&, const Grid&, const Grid&, const Grid&, int);' \
  "$class/20.5/indep_c.cpp" > "$work/d_disguised.cpp"
grep -q 'return matmul(transpose(matmul' "$work/b_disguised.cpp" &&
  [ "$(grep -c 'w_at(' "$work/c_disguised.cpp")" = 4 ] &&
  [ "$(grep -c 'query_row_gradient(' "$work/d_disguised.cpp")" = 3 ] || failed "the seds no longer apply"
{ cat "$manifest"; printf '%s\tstudent\t%s\t%s\n' 20.5 b_disguised "$work/b_disguised.cpp" 20.5 b_twice \
  "$class/20.5/indep_b.cpp" tiny.2 c_disguised "$work/c_disguised.cpp" tiny.2 c_twice "$class/tiny.2/indep_c.cpp" \
  20.5 d_disguised "$work/d_disguised.cpp" 20.5 d_twice "$class/20.5/indep_c.cpp"
} > "$work/disguised.tsv"
"$tool" "$work/disguised.tsv" "$work/disguised.csv" "$work/disguised.html" 2> "$work/run.err"
for pair in "b:$odd_name:temporaries written back" "c:indep_c:a one-line helper for an element" \
  "d:indep_c:a helper declared first"; do
  IFS=: read -r copy original what <<< "$pair"
  scores=$(python3 -c 'import csv, sys
score = {frozenset(r[1:3]): r[3] for r in csv.reader(open(sys.argv[1]))}
print(*[score.get(frozenset((sys.argv[2] + how, sys.argv[3]))) for how in ("_disguised", "_twice")])' \
    "$work/disguised.csv" "$copy" "$original")
  [ "${scores% *}" = "${scores#* }" ] && [ "${scores% *}" != None ] &&
    ok "a copy with $what scores as its original twice: $scores" ||
    failed "a copy with $what, then the original twice, against the original: $scores"
done

# (6) A file written to make the rewrites slow, 20,000 temporaries and 3,000 calls of a one-line helper, takes
# seconds (the temporaries alone took 30 s when each was looked for in a pass of its own).
python3 - > "$work/slow.cpp" <<'PY'
print("float f(float y) {\n" + "".join("  float x%d = y; y += x%d * x%d;\n" % (i, i, i) for i in range(20000)))
print("  return y;\n}\nstatic float g(float x) { return x * 2; }\nfloat h(float y) {\n" + "  y += g(y);\n" * 3000)
print("  return y;\n}")
PY
printf 'x\tstudent\t%s\t%s\n' slow "$work/slow.cpp" other "$class/20.5/indep_a.cpp" > "$work/slow.tsv"
timeout 10 "$tool" "$work/slow.tsv" "$work/slow.csv" "$work/slow.html" &&
  ok "a file written to be slow takes seconds" ||
  failed "a file of 20,000 temporaries and 3,000 calls of a one-line helper takes over 10 s"

# (7) the same input twice, the same bytes.
"$tool" "$manifest" "$work/again.csv" "$work/again.html" 2> "$work/run.err"
cmp -s "$work/out.csv" "$work/again.csv" && cmp -s "$work/out.html" "$work/again.html" &&
  ok "the same input twice gives the same CSV and page, byte for byte" || failed "two runs differ"

# (8) What the code computed (similarity_answers.hpp): three files of 20.5 graded as grade-class grades them.
# A copy returns its original's bits, a right answer in the reference's order the reference's, and indep_c,
# adding up in another order, differs from both; with the answers, indep_a and indep_c lose four fifths of the
# share of their score that differs, the copy keeps its own, and an answers file that is not there changes nothing.
for f in indep_a copy_of_indep_a_renamed indep_c; do
  mkdir -p "$work/keep-$f"
  GRADER_KEEP=$work/keep-$f SEED=1 RESULTS= grade 20.5 "$class/20.5/$f.cpp" "$work/grade-$f.log" &
done
wait
bits() { cut -f"$2" "$work/keep-$1/answers" 2> /dev/null; }
compared() { awk -F'\t' '$4 != "-" { print $3 " " $4 }' "$work/keep-$1/answers" 2> /dev/null; }  # a property test: no "-"
if [ -n "$(bits indep_a 3)" ] && [ "$(bits indep_a 3)" = "$(bits copy_of_indep_a_renamed 3)" ] &&
   [ -n "$(compared indep_a)" ] && [ -z "$(compared indep_a | awk '$1 != $2')" ] &&
   [ "$(bits indep_c 4)" = "$(bits indep_a 4)" ] &&
   [ "$(bits indep_c 3 | grep -cvxF -f <(bits indep_a 3))" -gt 0 ]; then
  ok "answers: a copy gives its original's bits, indep_a the reference's, indep_c $(bits indep_c 3 |
    grep -cvxF -f <(bits indep_a 3)) of $(bits indep_c 3 | wc -l | tr -d ' ') others"
else failed "answers: the copy's bits, the reference's, or indep_c's differences" "$work/grade-indep_c.log"; fi
awk -F'\t' -v OFS='\t' -v w="$work" '$1 == "20.5" && ($3 == "indep_a" || $3 ~ /^copy_of_indep_a/ || $3 == "indep_c") {
  print $0, w "/keep-" $3 "/answers"; next } $3 == "indep_d" { print $0, w "/no-such-answers"; next } { print }' \
  "$manifest" > "$work/answers.tsv"
"$tool" "$work/answers.tsv" "$work/answers.csv" "$work/answers.html" 2> "$work/run.err"
python3 - "$work/out.csv" "$work/answers.csv" > "$work/answers.log" 2>&1 <<'PY' && ok "$(cat "$work/answers.log")" ||
import csv, sys
def table(path):
    return {frozenset(r[1:3]): r for r in csv.reader(open(path, newline="")) if r[0] == "20.5"}
before, after = table(sys.argv[1]), table(sys.argv[2])
def pair(a, b):
    return before[frozenset((a, b))], after[frozenset((a, b))]
b, a = pair("indep_a", "indep_c")
differ = float(a[5])
assert differ > 0 and abs(float(a[3]) - round(float(b[3]) * (1 - 0.8 * differ), 3)) <= 0.001, (b, a)  # ANSWERS_WEIGHT
b2, a2 = pair("indep_a", "copy_of_indep_a_renamed")
assert a2[3] == b2[3] and a2[5] == "0.000", (b2, a2)
b3, a3 = pair("indep_a", "indep_d")  # indep_d's answers file is not there: no evidence
assert a3[3] == b3[3] and a3[5] == "", (b3, a3)
print("answers: indep_a and indep_c %s -> %s (%.0f%% of telling answers differ), the copy %s as before, "
      "a missing answers file as before" % (b[3], a[3], 100 * differ, a2[3]))
PY
  failed "answers in the scores" "$work/answers.log"

# (9) The detector reads the graded rows and never makes them: a change of it alone keeps every grading that
# grade-class and make exercises kept (lib.sh's grader_version), and a change of the checker does not.
mkdir -p "$work/tree/tests" && cp -R tests/grader "$work/tree/tests/" && cp -R common chapter* "$work/tree/"
version() { (cd "$work/tree" && grader_version); }
before=$(version) && echo "// a comment" >> "$work/tree/tests/grader/similarity_match.hpp" && detector=$(version) &&
  echo "// a comment" >> "$work/tree/tests/grader/run.hpp" && checker=$(version)
[ "$before" = "$detector" ] && [ "$before" != "$checker" ] &&
  ok "a change of the detector keeps the kept gradings' key; a change of the checker does not" ||
  failed "grader_version: a change of similarity_match.hpp should keep it, of run.hpp change it"

# The page as a teacher opens it, kept for tests/web/phone.js, which .ci/run opens on a phone's screen.
mkdir -p "${1:-build}/checks" && cp "$work/out.html" "${1:-build}/checks/similarity.html"

echo "similarity checks: $failures failed"
[ "$failures" -eq 0 ]
