#!/usr/bin/env bash
# Makes the bad files tests/bad_input.tsv feeds the programs, in folder $2,
# from good files the programs write or ship, so they follow the formats.
set -eu
build=$1 W=$2
RUN=${RUN:-}  # make cross runs the programs under Wine or qemu-aarch64 (tests/cross.sh)
cd "$(dirname "$0")/.."

# Colour-recall parameter files (chapter15/README.md describes the format).
$RUN "$build/chapter15/15_2_Lab5_Training" --init "$W/params.txt" > /dev/null
sed 's/^W_Q 8 4$/W_X 8 4/' "$W/params.txt" > "$W/params_name.txt"
sed 's/^W_Q 8 4$/W_Q 4 8/' "$W/params.txt" > "$W/params_shape.txt"
sed 's/^W_V 8 8$/W_V 8 7/' "$W/params.txt" > "$W/params_shape_V.txt"
head -n 20 "$W/params.txt" > "$W/params_truncated.txt"
sed '3s/^[^ ]*/nan/' "$W/params.txt" > "$W/params_nan.txt"
sed '3s/^[^ ]*/1e999/' "$W/params.txt" > "$W/params_huge.txt"
sed '3s/^[^ ]*/0.5x/' "$W/params.txt" > "$W/params_word.txt"
sed '3s/^[^ ]* //' "$W/params.txt" > "$W/params_short_row.txt"
{ cat "$W/params.txt"; echo "extra 1 1"; } > "$W/params_trailing.txt"
head -c 3000 /dev/urandom > "$W/binary"
printf 'embeddings 17 8\n' > "$W/params_header_only.txt"

# Tiny model checkpoints (chapter_tiny/README.md describes the format):
# 4 bytes TINY, seven uint32 (version V W seats blocks heads F), vocabulary, floats.
good=chapter_tiny/shakespeare.tiny
size=$(wc -c < "$good")
head -c 1000 "$good" > "$W/ckpt_truncated.tiny"
head -c 20 "$good" > "$W/ckpt_header.tiny"
{ printf 'TINZ'; tail -c +5 "$good"; } > "$W/ckpt_magic.tiny"
{ cat "$good"; printf 'xx'; } > "$W/ckpt_long.tiny"
{ head -c 4 "$good"; printf '\002\000\000\000'; tail -c +9 "$good"; } > "$W/ckpt_version.tiny"
{ head -c 12 "$good"; printf '\041\000\000\000'; tail -c +17 "$good"; } > "$W/ckpt_width.tiny"
{ head -c 8 "$good"; printf '\001\000\000\000'; tail -c +13 "$good"; } > "$W/ckpt_vocab1.tiny"
{ head -c $((size - 4)) "$good"; printf '\000\000\300\177'; } > "$W/ckpt_nan.tiny"
{ head -c 32 "$good"; printf 'B'; tail -c +34 "$good"; } > "$W/ckpt_unsorted.tiny"

# Texts for the trainer.
bash tests/tiny_text.sh > "$W/text.txt"
head -c 500 "$W/text.txt" > "$W/text_short.txt"

# A training run stopped after 2 steps, to be resumed with other settings.
$RUN "$build/chapter_tiny/tiny_train" --text "$W/text.txt" --out "$W/halt.tiny" --steps 10 --batch 2 \
  --eval-every 5 --eval-windows 2 --stop-at 2 > /dev/null
