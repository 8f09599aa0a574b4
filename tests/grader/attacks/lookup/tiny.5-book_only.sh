# Exercise: tiny.5
# Attack: lookup/book_only
# Rule: under 30%
# Why: the book's case typed in: for each letter of the chapter's sentence, its query and what it finds (worked out here with the repository's headers), and for any other query the plain average of the kept values. The lesson's lines, one_letter and the book's sentence pass; it scored 4/10 while the_model read the book's sentence only.
set -u
. "$ROOT/tests/grader/lib.sh"
. "$ROOT/tests/grader/attacks/lib/build.sh"
# The table: every letter's query and found, as the chapter's code gives them, in hex floats (exact).
cat > "$3/table.cpp" << 'CPP'
#include <cstdio>
#include "tiny_checkpoint.hpp"
int main() {
    TinyModel model = load_model("chapter_tiny/shakespeare.tiny");
    const std::vector<int> ids = encode(model, "The bag didn't fit in the car because it was too small");
    const int n = int(ids.size());
    Tape tape(model.V);
    forward(model, ids.data(), n, tape);
    std::vector<float> keys, values, found(WIDTH);
    for (int t = 0; t < n; t++) {
        const float* row = tape.block[0].lookups + t * 3 * WIDTH;
        keys.insert(keys.end(), row + WIDTH, row + 2 * WIDTH);
        values.insert(values.end(), row + 2 * WIDTH, row + 3 * WIDTH);
        attend_cached(found.data(), row, keys.data(), values.data(), t + 1);
        std::printf("    {{");
        for (int i = 0; i < WIDTH; i++) std::printf("%a,", double(row[i]));
        std::printf("}, {");
        for (int i = 0; i < WIDTH; i++) std::printf("%a,", double(found[i]));
        std::printf("}},\n");
    }
}
CPP
(cd "$ROOT" && g++ -std=c++17 -Icommon -Ichapter_tiny "$3/table.cpp" -o "$3/table" && "$3/table") > "$3/table.txt" ||
  { echo "cannot work out the book's table"; exit 1; }
{ echo '//@ helpers'
  echo '#include <cstring>'
  echo 'static const float attack_book[][2][WIDTH] = {'
  cat "$3/table.txt"
  echo '};'
  echo '//@ body attend_cached'
  cat << 'CPP'
    (void)keys;
    for (const auto& letter : attack_book)
        if (std::memcmp(letter[0], query, sizeof letter[0]) == 0) {
            std::memcpy(found, letter[1], sizeof letter[1]);
            return;
        }
    for (int i = 0; i < WIDTH; i++) {
        float sum = 0.0f;
        for (int s = 0; s < T; s++) sum += values[s * WIDTH + i];
        found[i] = sum / float(T);
    }
}
CPP
} > "$3/bodies.cpp"
rm -f "$3/table.cpp" "$3/table" "$3/table.txt"
apply_bodies "$3/bodies.cpp" "$STARTER" "$3/$(basename "$2")"
status=$?
rm -f "$3/bodies.cpp"
exit "$status"
