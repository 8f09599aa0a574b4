# Exercise: tiny.1 tiny.2 tiny.3 tiny.4
# Attack: include/fast_header
# Rule: rejected
# Why: the fast header holds the chapter's functions in full (attend_forward_lanes and the rest); included by its repository path it brings them with no regions cut.
set -u
fast=chapter_tiny/tiny_model_fast.hpp
[ -f "$ROOT/$fast" ] || { echo "pending: there is no $fast in this tree"; exit 3; }
sed "s|#include \"\.\./tiny_model\.hpp\"|#include \"../$fast\"|" "$SOLVED" > "$3/$(basename "$2")"
