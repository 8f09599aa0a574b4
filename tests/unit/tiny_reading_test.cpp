// The demos' reading of the chapter's sentence with the shipped model: the
// properties the chapter states (nothing above the diagonal, every row sums to
// 100%), the positions its statistics count (53 and 29), and the statistics
// recounted here straight from the tape's weights, without the demos' helpers.
#include <cmath>
#include <string>
#include <vector>

#include "../../chapter_tiny/tiny_reading.hpp"
#include "check.hpp"

int main() {
    const TinyModel model = load_model(MODEL_FILE);
    const std::string text = SENTENCE;
    const std::vector<int> ids = letters_of(model, text);
    const int T = int(ids.size());
    check(T == 54, "the chapter's sentence has 54 characters");
    Tape tape(model.V);
    forward(model, ids.data(), T, tape);
    // The tape keeps each head's weights as attend_forward writes them: [head][t][s], how much t reads s.
    auto raw = [&tape, T](int b, int h, int t, int s) { return tape.block[b].weights[(h * T + t) * T + s]; };

    // Every head: 0 above the diagonal, each row sums to 1 within float rounding.
    for (int b = 0; b < BLOCKS; b++)
        for (int h = 0; h < HEADS; h++)
            for (int t = 0; t < T; t++) {
                double total = 0.0;
                for (int s = 0; s < T; s++) {
                    const float w = s > t ? weight(tape, b, h, t, s) : raw(b, h, t, s);
                    if (s > t) check(w == 0.0f, "nothing above the diagonal");
                    check(w >= 0.0f && w == weight(tape, b, h, t, s),
                          "weight() reads the tape's [head][s][t], non-negative");
                    total += w;
                }
                check_near(total, 1.0, 1e-5, "every row sums to 100%");
            }

    // The positions the chapter counts: 53 with a previous character, 29 after a word's first letter.
    const std::vector<int> counted = after_word_start(text);
    check(int(counted.size()) == 29, "29 letters after a word's first letter, in a word with a space before it");
    check(counted.front() == 5 && space_before_word(text, 5) == 3, "the first is 'a' of \"bag\", its space at 3");
    check(counted.back() == 53 && space_before_word(text, 53) == 48, "the last is the final 'l', its space at 48");
    check(space_before_word(text, 4) == -1 && space_before_word(text, 1) == -1,
          "first letters and \"The\" not counted");

    // The statistics, recounted from the raw weights.
    for (int b = 0; b < BLOCKS; b++)
        for (int h = 0; h < HEADS; h++) {
            int previous = 0, space = 0;
            double near = 0.0, back = 0.0;
            for (int t = 1; t < T; t++) {
                int best = 0;
                for (int s = 0; s <= t; s++) {
                    if (raw(b, h, t, s) > raw(b, h, t, best)) best = s;
                    if (s >= t - 2) near += raw(b, h, t, s);
                    back += raw(b, h, t, s) * (t - s);
                }
                previous += best == t - 1;
                int start = t;
                while (start > 0 && text[start - 1] != ' ') start--;
                space += text[t] != ' ' && start < t && start > 0 && best == start - 1;
            }
            check(previous == previous_character_count(tape, b, h), "previous-character count");
            check(space == space_before_word_count(tape, text, b, h), "space-before-the-word count");
            check_near(near_share(tape, b, h), near / (T - 1), 1e-4, "share on the letter and the two before it");
            check_near(look_back(tape, b, h), back / (T - 1), 1e-3, "average look-back");
        }

    // The pictures: as many squares as the triangle has entries, a group per row and per letter.
    const std::string triangle = triangle_svg(tape, text, 0, 0, T - 1, true);
    size_t squares = 0, groups = 0;
    for (size_t at = triangle.find("fill=\"#2166ac\""); at != std::string::npos;
         at = triangle.find("fill=\"#2166ac\"", at + 1))
        squares++;
    for (size_t at = triangle.find("<g id=\"reads"); at != std::string::npos;
         at = triangle.find("<g id=\"reads", at + 1))
        groups++;
    check(squares == size_t(T * (T + 1) / 2), "one square for each s <= t, none above the diagonal");
    check(groups == size_t(T), "one read-out group per row");
    check(triangle.find("<g id=\"reads53\">") != std::string::npos, "only the chosen row's group shown");
    return check_summary("tiny_reading_test");
}
