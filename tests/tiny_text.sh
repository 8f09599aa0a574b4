#!/usr/bin/env bash
# Prints the small training text the tiny-model checks train on: 60 lines of a
# few short sentences, a pattern a few dozen steps can start to learn.
for i in $(seq 1 60); do
  case $((i % 3)) in
    0) echo "to be, or not to be: that is the question." ;;
    1) echo "the cat sat on the mat, and the dog sat on the log." ;;
    2) echo "all the world's a stage, and all the men merely players." ;;
  esac
done
