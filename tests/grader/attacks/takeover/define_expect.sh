# Exercise: all
# Attack: takeover/define_expect
# Rule: no gain
# Why: a macro after the student's functions rewrites every later t.expect and t.expect_shape of a grader that includes the student's text in its own file.
set -u
{
  cat "$STARTER"
  echo
  echo '#define expect(...) expect(true, "%s", "")'
  echo '#define expect_shape(...) expect(true, "%s", "")'
  echo '#define expect_softmax_rows(...) expect(true, "%s", "")'
} > "$3/$(basename "$2")"
