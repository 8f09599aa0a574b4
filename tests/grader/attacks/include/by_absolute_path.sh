# Exercise: all
# Attack: include/by_absolute_path
# Rule: rejected
# Why: the repository's absolute path is no secret on the grading machine (and is printed in reports).
set -u
echo "#include \"$ROOT/$2\"" > "$3/$(basename "$2")"
