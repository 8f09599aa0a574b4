#!/usr/bin/env bash
# make fuzz: builds each tests/fuzz/*_fuzz.cpp with libFuzzer, ASan and UBSan
# (clang++), seeds it with real files, runs it for a bounded time, and reports
# executions and findings. A crashing input is left in build/fuzz/<target>/;
# copy it to tests/fuzz/regressions/<target>/ once fixed, where make test
# replays it (tests/check_fuzz_regressions.sh).
set -u
seconds=${1:-60}
cd "$(dirname "$0")/../.."
make -s build/chapter15/15_2_Lab5_Training || exit 1
[ -f chapter_tiny/shakespeare.tiny ] || { echo "chapter_tiny/shakespeare.tiny is missing"; exit 1; }
status=0
for source in tests/fuzz/*_fuzz.cpp; do
  target=$(basename "$source" _fuzz.cpp)
  dir=build/fuzz/$target
  mkdir -p "$dir/corpus"
  clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -DFAIL_THROWS \
    -Icommon -Ichapter15 -Ichapter_tiny "$source" -o "$dir/fuzzer" || { status=1; continue; }
  # Seeds: real files the programs write or ship, and every kept regression input.
  case "$target" in
    colour_params)
      build/chapter15/15_2_Lab5_Training --init "$dir/corpus/init.txt" > /dev/null
      build/chapter15/15_2_Lab5_Training --updates 20 --lr 0.03 --save "$dir/corpus/trained.txt" > /dev/null ;;
    tiny_checkpoint)
      cp chapter_tiny/shakespeare.tiny "$dir/corpus/" ;;
  esac
  [ -d "tests/fuzz/regressions/$target" ] && cp tests/fuzz/regressions/"$target"/* "$dir/corpus/" 2>/dev/null
  echo "== $target: fuzzing for $seconds s"
  "$dir/fuzzer" -max_total_time="$seconds" -artifact_prefix="$dir/" -print_final_stats=1 \
    "$dir/corpus" > "$dir/log" 2>&1
  result=$?
  grep -E '^stat::number_of_executed_units|^Done' "$dir/log" | sed 's/^/   /'
  if [ $result -ne 0 ]; then
    status=1
    echo "   FOUND a problem; input kept in $dir/ (crash-*), log in $dir/log:"
    grep -m 5 -E 'ERROR|runtime error' "$dir/log" | sed 's/^/   /'
  else
    echo "   no findings"
  fi
done
exit $status
