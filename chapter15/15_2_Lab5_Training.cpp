// 15_2_Lab5_Training.cpp: Lab 5 trains Lab 4's model to recall the team colour.
// Book section: 15.2.3 (and Lab 5, section 15.6)
//
// Full batch: each update takes the mean cross-entropy over the nine training
// prefixes, its gradient by hand (colour_recall.hpp; trained with the same bits
// by colour_recall_fast.hpp's train_step_fast), and one Adam step. The
// table follows the book's; the pictures are the ones Lab 5 draws. Then the
// second run of Lab 5: the same start at a tenth of the learning rate.
#include <cstdio>
#include <string>
#include <vector>

#include "colour_pictures.hpp"     // show, chart_over_updates, show_wear_row, show_heatmap
#include "colour_recall_fast.hpp"  // train_step_fast: train_step, faster
#include "plot.hpp"

// The updates the book's table shows; the second run adds 500 and 1000.
const int TABLE_UPDATES[] = {0, 10, 30, 50, 200, 500, 1000};

// ---------------------------------------------------------------------------
// The table

static void print_table_header() {
    std::printf("          weight on       largest                     training  validation  validation\n");
    std::printf("  update  position 5  other weight  p_red  predicted      loss        loss     correct\n");
}

// One row after `update` updates; `label`, if given, in place of the number.
static void print_row(int update, const Measurement& m, const char* label = nullptr) {
    char number[16];
    std::snprintf(number, sizeof number, "%d", update);
    std::printf("  %6s  %10.3f  %12.3f  %5.3f  %-9s  %8.3f  %10.3f      %d of 3\n", label ? label : number,
                m.weight_on_colour, m.largest_other, m.p_colour[0], WORDS[m.predicted], m.training_loss,
                m.validation_loss, m.validation_correct);
}

// One training run, measured before the first update and after every update.
struct Run {
    Params trained;
    std::vector<Measurement> history;  // history[u]: after u updates
};

static Run train_and_measure(const Params& start, float lr, int updates, const std::vector<Example>& train,
                             const std::vector<Example>& valid) {
    Run run{start, {}};
    Adam adam(lr);
    run.history.push_back(measure(run.trained, train, valid));
    for (int u = 1; u <= updates; u++) {
        train_step_fast(run.trained, adam, train);
        run.history.push_back(measure(run.trained, train, valid));
    }
    return run;
}

static void print_table(const Run& run) {
    print_table_header();
    const int updates = int(run.history.size()) - 1;
    for (int u : TABLE_UPDATES)
        if (u < updates) print_row(u, run.history[u]);
    print_row(updates, run.history[updates]);
}

// The first update after which position 5 has 1.000 of the weight to three decimals.
static int first_full_weight(const Run& run) {
    for (size_t u = 0; u < run.history.size(); u++)
        if (run.history[u].weight_on_colour >= 0.9995f) return int(u);
    return -1;
}

// Two numbers to 9 significant digits that depend on every parameter: a saved
// and reloaded model must give them exactly.
static void print_exact(const Params& p, const Measurement& m, const Example& red) {
    Forward f = forward(p, red.tokens);
    std::printf("To 9 digits: training loss %.9g, red prefix's score (logit) for red %.9g\n\n", double(m.training_loss),
                double(f.logits(0, token_id("red"))));
}

// What the trained model does with the black prefix and the validation prefixes.
static void print_trained_rows(const Params& trained, const Params* start, const Example& black,
                               const std::vector<Example>& valid) {
    Forward f = forward(trained, black.tokens);
    std::printf("The black prefix, \"%s\":\n  attention row at wear:", black.text.c_str());
    for (int j = 0; j < f.weights.cols; j++) std::printf(" %.3f", f.weights(0, j));
    std::printf("\n  weight on position 5 = %.3f, p(black) = %.3f\n\n", f.weights(0, COLOUR_POS),
                f.probs(0, black.target));
    std::printf("Validation prefixes (wear at position 21), predicted %s:\n",
                start ? "before training -> after" : "by these parameters");
    for (const Example& e : valid) {
        std::printf("  %-8s", COLOURS[e.target == token_id("red") ? 0 : e.target == token_id("blue") ? 1 : 2]);
        if (start) std::printf(" %s ->", WORDS[argmax(forward(*start, e.tokens).probs)]);
        Forward v = forward(trained, e.tokens);
        std::printf(" %s  (weight on position 5: %.3f)\n", WORDS[argmax(v.probs)], v.weights(0, COLOUR_POS));
    }
    std::printf("\n");
}

// ---------------------------------------------------------------------------
// The pictures Lab 5 draws

// The loss, the wear row and the colour probabilities over the updates.
static void draw_training(const Run& run, const Example& red, const std::string& svg_dir) {
    const bool fancy = fancy_output();
    const int updates = int(run.history.size()) - 1;
    LineChart loss = chart_over_updates("Loss on the training and validation prefixes", "mean loss", updates, 2);
    LineChart probs = chart_over_updates("Colour probabilities at wear, red prefix", "probability", updates, 3);
    loss.series[0].name = "training loss", loss.series[1].name = "validation loss";
    const char* const colour_of[3] = {"#d62728", "#1f77b4", "#222222"};  // red, blue, black
    for (int c = 0; c < 3; c++)
        probs.series[c].name = formatted("p(%s)", COLOURS[c]), probs.series[c].colour = colour_of[c];
    for (const Measurement& m : run.history) {
        loss.series[0].y.push_back(m.training_loss);
        loss.series[1].y.push_back(m.validation_loss);
        for (int c = 0; c < 3; c++) probs.series[c].y.push_back(m.p_colour[c]);
    }
    loss.y_min = 0.0f;
    probs.y_min = 0.0f, probs.y_max = 1.0f;

    show(text_line_chart(loss, fancy));
    show_wear_row(run.history, red, fancy, svg_dir);
    show(text_line_chart(probs, fancy));
    if (!svg_dir.empty()) {
        write_svg(svg_dir, "loss.svg", svg_line_chart(loss));
        write_svg(svg_dir, "colour_probabilities.svg", svg_line_chart(probs));
    }
}

// One trained matrix as a heatmap, with its range, and with --svg its SVG file.
static void draw_matrix(const char* title, const Matrix& values, const std::vector<std::string>& row_labels,
                        const std::vector<std::string>& col_labels, const char* x_label, const char* y_label,
                        const char* file, const std::string& svg_dir) {
    Heatmap map{title, values, row_labels, col_labels};
    map.x_label = x_label, map.y_label = y_label;
    show_heatmap(map, file, svg_dir);
}

// The trained matrices as heatmaps (15.2.3): readable only through what they do.
static void draw_matrices(const Params& p, const std::string& svg_dir) {
    std::vector<std::string> numbers;  // "1" to "8": the components
    for (int i = 1; i <= D; i++) numbers.push_back(formatted("%d", i));
    const std::vector<std::string> four(numbers.begin(), numbers.begin() + D_K);
    std::printf("The matrices as heatmaps:\n\n");
    draw_matrix("embeddings (17 x 8): one row per token", p.embeddings, vocabulary(), numbers, "embedding component",
                "token", "embeddings.svg", svg_dir);
    draw_matrix("W_Q (8 x 4)", p.W_Q, numbers, four, "query component", "embedding component", "W_Q.svg", svg_dir);
    draw_matrix("W_K (8 x 4)", p.W_K, numbers, four, "key component", "embedding component", "W_K.svg", svg_dir);
    draw_matrix("W_V (8 x 8)", p.W_V, numbers, numbers, "value component", "embedding component", "W_V.svg", svg_dir);
    draw_matrix("W_out (8 x 17), transposed: one row per output token", transpose(p.W_out), vocabulary(), numbers,
                "context component", "output token", "W_out.svg", svg_dir);
}

// ---------------------------------------------------------------------------

// The help text; %llu is DEFAULT_SEED and %g INIT_SCALE.
const char* const USAGE =
    "usage: 15_2_Lab5_Training [options]\n"
    "Trains Lab 4's colour-recall model with Adam (book sections 15.2.3 and 15.6) and prints\n"
    "the book's table, the pictures Lab 5 draws, and Lab 5's second run at lr 0.003.\n"
    "  --seed N      starting values from seed N (default %llu, the start nearest the book's run)\n"
    "  --scale X     standard deviation of the starting values (default %g)\n"
    "  --lr X        learning rate of one run only, instead of the two runs of Lab 5\n"
    "  --updates N   number of updates of that run (default 200)\n"
    "  --svg DIR     also write each picture as a standalone SVG file into DIR (must exist)\n"
    "  --init FILE   write the starting parameters to FILE\n"
    "  --save FILE   write the trained parameters to FILE\n"
    "  --load FILE   read parameters from FILE (as --save writes them) instead of training\n"
    "The parameter file format is described in chapter15/README.md. Lab 5 trained many times\n"
    "over (how often it gets stuck, the start nearest the book's, its speed) is\n"
    "chapter15/studies/lab5_runs.cpp: lab5_runs --seeds N, --search N, --time N.\n";

int main(int argc, char** argv) {
    Options options(argc, argv, formatted(USAGE, (unsigned long long)DEFAULT_SEED, double(INIT_SCALE)).c_str());
    const uint64_t seed = uint64_t(options.integer("seed", long(DEFAULT_SEED), 0, 1000000000));
    const float scale = float(options.number("scale", INIT_SCALE, 0.001, 10));
    const bool one_run = options.given("lr") || options.given("updates");
    const float lr = float(options.number("lr", 0.03, 1e-6, 10));
    const int updates = int(options.integer("updates", 200, 1, 100000));
    const std::string svg_dir = options.text("svg", ""), init_file = options.text("init", ""),
                      save_file = options.text("save", ""), load_file = options.text("load", "");
    options.done();
    if (options.given("svg") && svg_dir.empty()) fail("--svg needs a folder; see --help");
    if (!svg_dir.empty()) require_folder("--svg", svg_dir);
    const bool writes = !init_file.empty() || !save_file.empty();
    if (!load_file.empty() && (writes || one_run))
        fail("--load reads a trained model instead of training; it does not take --init, --save, --lr or --updates");

    const std::vector<Example> train = training_examples(), valid = validation_examples();
    const Example &red = train[0], &black = train[6];  // "The team colour is red . So the players wear", black

    if (!load_file.empty()) {
        Params loaded = load_params(load_file);
        std::printf("Parameters read from %s.\n\n", load_file.c_str());
        print_table_header();
        const Measurement m = measure(loaded, train, valid);
        print_row(0, m, "loaded");
        std::printf("\n");
        print_exact(loaded, m, red);
        print_trained_rows(loaded, nullptr, black, valid);
        draw_matrices(loaded, svg_dir);
        return 0;
    }

    const Params start = random_start(seed, VOCAB, scale);
    if (!init_file.empty()) save_params(init_file, start);

    std::printf(
        "Lab 5: Adam at lr %g for %d updates from seed %llu (starting scale %.2g), full batch:\n"
        "each update uses the mean loss over the 9 training prefixes. The first two columns\n"
        "describe the attention row at wear (position 10) in \"%s\".\n\n",
        double(lr), updates, (unsigned long long)seed, double(scale), red.text.c_str());
    Run run = train_and_measure(start, lr, updates, train, valid);
    print_table(run);
    std::printf("\n");
    print_exact(run.trained, run.history.back(), red);
    if (!save_file.empty()) save_params(save_file, run.trained);
    print_trained_rows(run.trained, &start, black, valid);

    std::printf("Lab 5's pictures:\n\n");
    draw_training(run, red, svg_dir);
    draw_matrices(run.trained, svg_dir);

    if (!one_run) {
        const float slow_lr = 0.003f;
        const int slow_updates = 1000;
        std::printf("Lab 5's second run: the same start and data at lr %g for %d updates.\n\n", double(slow_lr),
                    slow_updates);
        Run slow = train_and_measure(start, slow_lr, slow_updates, train, valid);
        print_table(slow);
        if (first_full_weight(run) >= 0 && first_full_weight(slow) >= 0)
            std::printf(
                "\nPosition 5 first has 1.000 of the weight after %d updates at lr %g, and after %d at lr %g.\n",
                first_full_weight(run), double(lr), first_full_weight(slow), double(slow_lr));
        else std::printf("\nPosition 5 does not reach 1.000 of the weight in both runs from this start.\n");
    }
    if (!svg_dir.empty()) std::printf("\nSVG pictures written to %s/.\n", svg_dir.c_str());
    return 0;
}
