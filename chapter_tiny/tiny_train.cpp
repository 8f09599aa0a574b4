// tiny_train.cpp: "part 4's trainer": trains the tiny Shakespeare transformer of
// "Paying attention" and writes its checkpoint (chapter_tiny/shakespeare.tiny).
//
// Random 64-letter windows of the first 90% of the text, cross-entropy at every
// position, AdamW with warm-up and cosine decay, gradient clipping; the loss on
// fixed windows of the last 10% every so often. The batch is shared among
// threads; each row's gradient is made in its thread's own buffer and added in
// row order, so the result depends on the seed alone, not on the thread count.
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <deque>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "maths.hpp"  // cos_turns
#include "team.hpp"
#include "tiny_checkpoint.hpp"  // model_bytes, parse_model, save_model
#include "tiny_model_fast.hpp"  // forward_fast, backward_fast: the chapter's passes, faster

// ===========================================================================
// Settings. Those that change the knobs are kept in the training state, so a
// resumed run uses them again.

struct Settings {
    long steps, batch, warmup, seed;
    double lr, weight_decay, clip;
};

constexpr double FINAL_LR_FRACTION = 0.1;  // the cosine ends at 10% of the peak

// Warm up linearly, then follow a cosine down to FINAL_LR_FRACTION of the peak.
static float learning_rate(const Settings& s, long step) {
    if (step < s.warmup) return float(s.lr * double(step + 1) / double(s.warmup));
    double progress = double(step - s.warmup) / double(std::max(1L, s.steps - s.warmup));
    double cosine = 0.5 * (1.0 + cos_turns(0.5 * progress));
    return float(s.lr * (FINAL_LR_FRACTION + (1.0 - FINAL_LR_FRACTION) * cosine));
}

// ===========================================================================
// The text: ids, and where training ends and validation begins.

struct Text {
    std::string vocabulary;  // sorted distinct characters
    std::vector<int> ids;
    size_t train_end;  // ids[0, train_end) train, ids[train_end, end) validate
    uint64_t hash;     // FNV-1a of the text, so --resume can tell it is the same
};

static Text read_text(const std::string& path) {
    std::string bytes = read_file(path);
    if (bytes.size() < 20 * (SEATS + 1))
        fail("'" + path + "' has " + std::to_string(bytes.size()) + " characters; training needs at least " +
             std::to_string(20 * (SEATS + 1)));
    Text text;
    bool seen[256] = {};
    for (char c : bytes) seen[static_cast<unsigned char>(c)] = true;
    for (int c = 0; c < 256; c++)
        if (seen[c]) text.vocabulary += char(c);
    if (text.vocabulary.size() < 2) fail("'" + path + "' has fewer than 2 distinct characters");
    int id_of[256] = {};
    for (size_t i = 0; i < text.vocabulary.size(); i++) id_of[static_cast<unsigned char>(text.vocabulary[i])] = int(i);
    text.hash = 1469598103934665603ull;
    for (char c : bytes) {
        text.ids.push_back(id_of[static_cast<unsigned char>(c)]);
        text.hash = (text.hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    }
    text.train_end = bytes.size() * 9 / 10;
    return text;
}

// Each row of each step has its own generator, made from (seed, step, row), so
// the windows a step reads do not depend on what ran before it: a resumed run
// reads the same windows as one never stopped.
static size_t window_start(const Settings& s, long step, long row, size_t train_end) {
    uint64_t h = Rng(uint64_t(s.seed)).next();
    h = Rng(h ^ uint64_t(step)).next();
    Rng rng(h ^ uint64_t(row));
    return size_t(rng.next() % uint64_t(train_end - SEATS));  // needs SEATS + 1 letters: inputs and targets
}

// ===========================================================================
// One step's gradient, the batch shared among a team of threads.

struct Worker {  // what one thread of the team works in
    Tape tape;
    Scratch scratch;
    std::vector<float> grads;  // the first thread's row in hand
    Worker(int V, size_t P) : tape(V), scratch(V), grads(P) {}
};

// The batch's rows, handed out one at a time as the threads ask for them, so
// that a thread held up by other work on the machine makes fewer: the first
// thread takes them from the front (0, 1, 2, ...), the others from the back
// (batch-1, batch-2, ...), but never one below `floor` (only rows from floor on
// need a buffer of their own).
class RowsLeft {
public:
    RowsLeft(long rows, long floor) : rows_(rows), floor_(floor) {}
    long take(bool front) {  // the row to make next, or -1 when there is none
        uint64_t taken = taken_.load();
        for (;;) {
            const long f = long(taken & 0xffffffffu), b = long(taken >> 32);
            const long row = front ? f : rows_ - 1 - b;
            if (f + b >= rows_ || (!front && row < floor_)) return -1;
            if (taken_.compare_exchange_weak(taken, taken + (front ? 1 : uint64_t(1) << 32))) return row;
        }
    }
    long front_taken() const { return long(taken_.load() & 0xffffffffu); }

private:
    const long rows_, floor_;
    std::atomic<uint64_t> taken_{0};  // rows taken from the front (low 32 bits) and from the back (high)
};

// Where batch_gradient lets the threads after the first start: they may take
// rows down to half of an even share, so the first thread can be up to three
// times slower than the others (with two threads) before it has to wait.
static long back_floor(long batch, long threads) { return threads > 1 ? batch / (2 * threads) : batch; }

// grads = the gradient of the mean loss over the step's batch; returns that loss.
// The first thread adds each of its rows' gradients into grads as soon as it is
// made, in row order from 0; the others keep theirs, one buffer per row, and once
// all are made they are added in row order after the first thread's rows (each
// thread adding up one part of the knobs). So every knob's gradient is the same
// sum in the same order, ((0 + row 0) + row 1) + ..., whichever thread made which row.
static float batch_gradient(const TinyModel& model, const Text& text, const Settings& s, long step, Team& team,
                            std::deque<Worker>& workers, std::vector<float>& row_grads, std::vector<float>& grads) {
    const size_t P = model.knobs.size();
    const long shares = team.size(), floor = back_floor(s.batch, shares);
    std::vector<float> row_loss(s.batch);
    const float scale = 1.0f / float(s.batch * SEATS);
    const std::vector<float> transposed = transposed_knobs(model);  // once for the whole batch
    std::fill(grads.begin(), grads.end(), 0.0f);
    RowsLeft rows(s.batch, floor);
    team.run(shares, [&](int member, long) {
        Worker& w = workers[member];
        const bool first = member == 0;
        for (long r; (r = rows.take(first)) >= 0;) {
            const int* window = text.ids.data() + window_start(s, step, r, text.train_end);
            float* g = first ? w.grads.data() : row_grads.data() + size_t(r - floor) * P;
            std::fill(g, g + P, 0.0f);
            forward_fast(model, window, SEATS, w.tape);
            row_loss[r] = loss_sum(w.tape, window + 1);
            backward_fast(model, w.tape, window, window + 1, scale, g, w.scratch, transposed.data());
            if (first) add_lanes(grads.data(), g, P);
        }
    });
    const long first_rows = rows.front_taken();  // rows 0 .. first_rows-1 are in grads already
    team.run(shares, [&](int, long part) {
        const size_t begin = P * part / shares, end = P * (part + 1) / shares;
        for (long r = first_rows; r < s.batch; r++)
            add_lanes(&grads[begin], &row_grads[size_t(r - floor) * P + begin], end - begin);
    });
    float loss = 0.0f;
    for (long r = 0; r < s.batch; r++) loss += row_loss[r];
    return loss * scale;
}

// The mean loss per letter over `count` fixed, evenly spread windows of the last 10%
// (0 = all of them); windows do not overlap, and each starts a fresh context.
static float validation_loss(const TinyModel& model, const Text& text, long count, Team& team,
                             std::deque<Worker>& workers) {
    const long all = long((text.ids.size() - text.train_end - 1) / SEATS);
    if (count <= 0 || count > all) count = all;
    std::vector<float> losses(count);
    team.run(count, [&](int member, long i) {
        Worker& w = workers[member];
        const int* window = text.ids.data() + text.train_end + size_t(i * all / count) * SEATS;
        forward_fast(model, window, SEATS, w.tape);
        losses[i] = loss_sum(w.tape, window + 1);
    });
    float total = 0.0f;
    for (float x : losses) total += x;
    return total / float(count * SEATS);
}

// ===========================================================================
// One update: the gradient clipped, then tiny_model.hpp's adamw_step.

// Each knob's update depends on that knob alone, so the team shares them out in
// contiguous parts; the gradient's norm is one sum, in order, before that.
static void adamw_update(TinyModel& model, const std::vector<float>& grads, AdamW& adam, const Settings& s, long step,
                         Team& team) {
    double norm2 = 0.0;
    for (float g : grads) norm2 += double(g) * g;
    const double norm = std::sqrt(norm2);
    const float clip = norm > s.clip ? float(s.clip / norm) : 1.0f;
    const float lr = learning_rate(s, step), decay = float(s.weight_decay);
    const size_t P = model.knobs.size();
    const long parts = team.size();
    team.run(parts, [&](int, long part) {
        adamw_step(model, grads, clip, adam, lr, decay, step, P * part / parts, P * (part + 1) / parts);
    });
}

// ===========================================================================
// The training state beside the checkpoint: everything a resumed run needs to
// continue exactly as if it had never stopped. Binary, little-endian:
// "TSTA", uint32 version 1, uint64 next step, the settings that change the
// knobs, the text's length and hash, the progress line's running loss, the
// checkpoint's length and bytes, then AdamW's m and v as float32.

constexpr uint32_t STATE_VERSION = 1;

static void put_u64(std::string& b, uint64_t v) {
    put_u32(b, uint32_t(v));
    put_u32(b, uint32_t(v >> 32));
}
static void put_f64(std::string& b, double x) {
    uint64_t bits;
    std::memcpy(&bits, &x, 8);
    put_u64(b, bits);
}

static void save_state(const std::string& path, const TinyModel& model, const AdamW& adam, const Settings& s,
                       const Text& text, long next_step, float loss_sum_since_print, long steps_since_print) {
    std::string b = "TSTA";
    put_u32(b, STATE_VERSION);
    put_u64(b, uint64_t(next_step));
    for (long v : {s.steps, s.batch, s.warmup, s.seed}) put_u64(b, uint64_t(v));
    for (double x : {s.lr, s.weight_decay, s.clip}) put_f64(b, x);
    put_u64(b, text.ids.size());
    put_u64(b, text.hash);
    put_f64(b, double(loss_sum_since_print));
    put_u64(b, uint64_t(steps_since_print));
    std::string checkpoint = model_bytes(model);
    put_u64(b, checkpoint.size());
    b += checkpoint;
    for (const std::vector<float>* moments : {&adam.m, &adam.v})
        for (float x : *moments) {
            uint32_t bits;
            std::memcpy(&bits, &x, 4);
            put_u32(b, bits);
        }
    write_file_atomic(path, b);
}

struct Reader {  // reads a state file front to back, failing cleanly if it ends early
    const std::string& bytes;
    const std::string& path;
    size_t at = 0;
    void need(size_t n) {
        if (bytes.size() - at < n) fail("'" + path + "' is truncated");
    }
    uint64_t u64() {
        need(8);
        uint64_t v = get_u32(bytes, at) | uint64_t(get_u32(bytes, at + 4)) << 32;
        at += 8;
        return v;
    }
    double f64() {
        uint64_t bits = u64();
        double x;
        std::memcpy(&x, &bits, 8);
        return x;
    }
};

static long load_state(const std::string& path, TinyModel& model, AdamW& adam, Settings& s, const Text& text,
                       float& loss_sum_since_print, long& steps_since_print) {
    std::string bytes = read_file(path);
    if (bytes.size() < 8 || bytes.compare(0, 4, "TSTA") != 0) fail("'" + path + "' is not a tiny_train state file");
    if (get_u32(bytes, 4) != STATE_VERSION) fail("'" + path + "' has an unknown state version");
    Reader r{bytes, path, 8};
    long next_step = long(r.u64());
    for (long* v : {&s.steps, &s.batch, &s.warmup, &s.seed}) *v = long(r.u64());
    for (double* x : {&s.lr, &s.weight_decay, &s.clip}) *x = r.f64();
    if (r.u64() != text.ids.size() || r.u64() != text.hash)
        fail("'" + path + "' belongs to a run on another text; give the same --text");
    loss_sum_since_print = float(r.f64());
    steps_since_print = long(r.u64());
    size_t length = size_t(r.u64());
    r.need(length);
    std::string problem = parse_model(bytes.substr(r.at, length), model);
    if (!problem.empty()) fail("'" + path + "' holds a checkpoint that " + problem);
    r.at += length;
    if (model.vocabulary != text.vocabulary) fail("'" + path + "' has another vocabulary than the text");
    const size_t P = model.knobs.size();
    if (bytes.size() - r.at != 8 * P) fail("'" + path + "' has the wrong length for its optimizer state");
    for (std::vector<float>* moments : {&adam.m, &adam.v}) {
        moments->resize(P);
        for (float& x : *moments) {
            uint32_t bits = get_u32(bytes, r.at);
            std::memcpy(&x, &bits, 4);
            r.at += 4;
        }
    }
    const bool sane = s.steps >= 1 && s.steps <= 100000000 && next_step >= 0 && next_step <= s.steps && s.batch >= 1 &&
                      s.batch <= 4096 && s.warmup >= 0 && s.warmup <= 100000000 && s.seed >= 0 && s.lr >= 1e-7 &&
                      s.lr <= 1.0 && s.weight_decay >= 0.0 && s.weight_decay <= 1.0 && s.clip >= 1e-6 &&
                      s.clip <= 1e6 && steps_since_print >= 0;
    if (!sane) fail("'" + path + "' has settings out of range; it is corrupt");
    return next_step;
}

// ===========================================================================

static bool exists(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    const bool found = f != nullptr;
    if (found) std::fclose(f);
    return found;
}

static std::string duration(double seconds) {
    long s = long(seconds + 0.5);
    char buf[32];
    if (s >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
    return buf;
}

static const char* USAGE =
    "usage: tiny_train [options]\n"
    "Trains the tiny Shakespeare transformer and writes its checkpoint.\n"
    "\n"
    "  --text FILE         training text (default ../shared/data/tinyshakespeare.txt if it\n"
    "                      exists, else data/tinyshakespeare.txt; `make data` downloads it)\n"
    "  --out FILE          checkpoint to write (default chapter_tiny/shakespeare.tiny); the\n"
    "                      training state goes beside it in FILE.state\n"
    "  --steps N           training steps (default 12000)\n"
    "  --batch N           windows of 64 letters per step (default 32)\n"
    "  --lr X              peak learning rate (default 0.01)\n"
    "  --warmup N          steps of linear warm-up (default 200)\n"
    "  --weight-decay X    AdamW weight decay (default 0.01)\n"
    "  --clip X            largest gradient norm (default 1)\n"
    "  --seed N            seed of the initial knobs and of the windows (default 1)\n"
    "  --threads N         threads that share each batch (default 2); does not change results\n"
    "  --eval-every N      steps between progress lines with the validation loss (default 500)\n"
    "  --save-every N      steps between checkpoints (default 1000)\n"
    "  --eval-windows N    validation windows used for progress lines (default 200; the last\n"
    "                      line always uses all of the last 10%)\n"
    "  --stop-at N         stop after step N, saving the checkpoint and state, as if the\n"
    "                      run were interrupted there (0 = run to the end)\n"
    "  --resume            continue the run whose state is in FILE.state (same text, same\n"
    "                      settings); the result is the same as a run never stopped\n";

int main(int argc, char** argv) {
    Options options(argc, argv, USAGE);
    const char* shared = "../shared/data/tinyshakespeare.txt";
    const char* downloaded = "data/tinyshakespeare.txt";
    const std::string text_path = options.text("text", exists(shared) ? shared : downloaded);
    const std::string out = options.text("out", "chapter_tiny/shakespeare.tiny");
    Settings s;
    s.steps = options.integer("steps", 12000, 1, 100000000);
    s.batch = options.integer("batch", 32, 1, 4096);
    s.lr = options.number("lr", 0.01, 1e-7, 1.0);
    s.warmup = options.integer("warmup", 200, 0, 100000000);
    s.weight_decay = options.number("weight-decay", 0.01, 0.0, 1.0);
    s.clip = options.number("clip", 1.0, 1e-6, 1e6);
    s.seed = options.integer("seed", 1, 0, 2147483647);
    const long threads = options.integer("threads", 2, 1, 64);
    const long eval_every = options.integer("eval-every", 500, 1, 100000000);
    const long save_every = options.integer("save-every", 1000, 1, 100000000);
    const long eval_windows = options.integer("eval-windows", 200, 1, 100000000);
    const long stop_at = options.integer("stop-at", 0, 0, 100000000);
    const bool resume = options.flag("resume");
    options.done();  // every option is checked before the text is looked for
    require_folder_of("--out", out);
    if (!options.given("text") && !exists(text_path))
        fail(std::string("no training text: neither ") + shared + " nor " + downloaded +
             " exists; run `make data` or give --text FILE");

    Text text = read_text(text_path);
    const std::string state_path = out + ".state";
    TinyModel model;
    AdamW adam;
    long step = 0, steps_since_print = 0;
    float loss_since_print = 0.0f;
    if (resume) {
        Settings given = s;
        step = load_state(state_path, model, adam, s, text, loss_since_print, steps_since_print);
        // A setting given again must agree with the run being resumed.
        auto same = [&](const char* name, double want, double got) {
            if (options.given(name) && want != got)
                fail(std::string("--") + name + " differs from the run being resumed; leave it out");
        };
        same("steps", double(given.steps), double(s.steps));
        same("batch", double(given.batch), double(s.batch));
        same("lr", given.lr, s.lr);
        same("warmup", double(given.warmup), double(s.warmup));
        same("weight-decay", given.weight_decay, s.weight_decay);
        same("clip", given.clip, s.clip);
        same("seed", double(given.seed), double(s.seed));
    } else {
        Rng rng(uint64_t(s.seed));
        model = new_model(text.vocabulary, rng);
        adam.m.assign(model.knobs.size(), 0.0f);
        adam.v.assign(model.knobs.size(), 0.0f);
    }

    std::printf("text: %s, %zu characters, %d distinct; training on the first %zu, validating on the last %zu\n",
                text_path.c_str(), text.ids.size(), model.V, text.train_end, text.ids.size() - text.train_end);
    std::printf("model: %zu knobs; %ld steps of %ld x %d letters; lr %g, %ld warm-up steps; %ld threads\n",
                model.knobs.size(), s.steps, s.batch, SEATS, s.lr, s.warmup, threads);
    if (resume) std::printf("resuming from %s at step %ld\n", state_path.c_str(), step);
    std::fflush(stdout);

    Team team(static_cast<int>(threads));
    std::deque<Worker> workers;
    for (long w = 0; w < threads; w++) workers.emplace_back(model.V, w == 0 ? model.knobs.size() : 0);
    // The gradients of the rows the threads after the first may make (batch_gradient).
    std::vector<float> grads(model.knobs.size()),
        row_grads(model.knobs.size() * size_t(s.batch - back_floor(s.batch, threads)));
    auto started = std::chrono::steady_clock::now();
    const long first_step = step;
    auto seconds_since_start = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    auto save = [&](long next_step) {
        save_state(state_path, model, adam, s, text, next_step, loss_since_print, steps_since_print);
        save_model(out, model);
    };

    for (; step < s.steps; step++) {
        loss_since_print += batch_gradient(model, text, s, step, team, workers, row_grads, grads);
        steps_since_print++;
        adamw_update(model, grads, adam, s, step, team);
        const long done = step + 1;
        if (done % eval_every == 0 || done == s.steps) {
            const float val = validation_loss(model, text, eval_windows, team, workers);
            const double seconds = seconds_since_start();
            const double rate = double(done - first_step) * double(s.batch * SEATS) / seconds;
            std::printf("step %6ld/%ld  train %.4f  val %.4f  lr %.2e  %7.0f tok/s  ETA %s\n", done, s.steps,
                        loss_since_print / float(steps_since_print), val, learning_rate(s, step), rate,
                        duration(double(s.steps - done) * double(s.batch * SEATS) / rate).c_str());
            std::fflush(stdout);
            loss_since_print = 0.0f;
            steps_since_print = 0;
        }
        if (done % save_every == 0 || done == s.steps || done == stop_at) save(done);
        if (done == stop_at) {
            std::printf("stopped after step %ld; --resume continues\n", done);
            return 0;
        }
    }
    // Resumed after the last step (killed between writing the state and the
    // checkpoint): the checkpoint on disk may still be the step before.
    if (first_step == s.steps) save_model(out, model);
    const float final_val = validation_loss(model, text, 0, team, workers);
    std::printf(
        "done: %ld steps in %s; validation loss %.4f nats per character over all of the last 10%%; "
        "wrote %s\n",
        s.steps, duration(seconds_since_start()).c_str(), final_val, out.c_str());
    return 0;
}
