# Exercise: all
# Attack: gradescope/include_source
# Rule: no gain
# Why: the reference solution, included at compile time from the autograder's source folder by its absolute path.
set -u
echo "#include \"@AUTOGRADER@/source/$2\"" > "$3/$(basename "$2")"
