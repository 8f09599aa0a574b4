# Exercise: all
# Attack: include/by_relative_path
# Rule: rejected
# Why: "../chapterN/exercises/FILE" resolves through -Icommon to the repository's reference.
set -u
echo "#include \"../$2\"" > "$3/$(basename "$2")"
