// chapter_tiny/tiny_checkpoint.hpp: the tiny model's checkpoint file (.tiny),
// and the vocabulary it carries: the letters of a text as ids and back.
//
// "TINY", uint32 version, V, W, seats, blocks, heads, F (little-endian),
// V bytes of vocabulary, then every knob as float32 little-endian, in the
// order of knob_views. chapter_tiny/README.md describes it.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cli.hpp"  // formatted, fail, read_file, write_file_atomic
#include "tiny_model.hpp"

// ===========================================================================
// Vocabulary

// The characters of text as ids; a character the model does not know ends the program.
inline std::vector<int> encode(const TinyModel& model, const std::string& text) {
    std::vector<int> ids(text.size());
    for (size_t i = 0; i < text.size(); i++) {
        const size_t id = model.vocabulary.find(text[i]);
        if (id == std::string::npos) {
            const unsigned char c = static_cast<unsigned char>(text[i]);
            fail(formatted(c >= 32 && c < 127
                               ? "character '%c' at position %zu is not in the model's vocabulary"
                               : "character byte 0x%02X at position %zu is not in the model's vocabulary",
                           c, i));
        }
        ids[i] = int(id);
    }
    return ids;
}

inline std::string decode(const TinyModel& model, const std::vector<int>& ids) {
    std::string text;
    for (int id : ids) text += model.vocabulary[id];
    return text;
}

// ===========================================================================
// Checkpoint

constexpr uint32_t CHECKPOINT_VERSION = 1;
constexpr size_t CHECKPOINT_HEADER = 4 + 7 * 4;

inline void put_u32(std::string& bytes, uint32_t v) {
    for (int i = 0; i < 4; i++) bytes += char((v >> (8 * i)) & 0xFF);
}

inline uint32_t get_u32(const std::string& bytes, size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= uint32_t(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    return v;
}

inline std::string model_bytes(const TinyModel& model) {
    std::string bytes = "TINY";
    for (uint32_t v : {CHECKPOINT_VERSION, uint32_t(model.V), uint32_t(WIDTH), uint32_t(SEATS), uint32_t(BLOCKS),
                       uint32_t(HEADS), uint32_t(HIDDEN)})
        put_u32(bytes, v);
    bytes += model.vocabulary;
    for (float x : model.knobs) {
        uint32_t bits;
        std::memcpy(&bits, &x, 4);
        put_u32(bytes, bits);
    }
    return bytes;
}

// Reads a checkpoint held in bytes into model. Returns "" when it is good,
// otherwise what is wrong with it, as words to follow the file's name.
inline std::string parse_model(const std::string& bytes, TinyModel& model) {
    const size_t size = bytes.size();
    if (size < 4 || bytes.compare(0, 4, "TINY") != 0)
        return "is not a tiny model checkpoint (it does not start with the 4 bytes TINY)";
    if (size < CHECKPOINT_HEADER)
        return formatted("is truncated: %zu bytes, shorter than the %zu-byte header", size, CHECKPOINT_HEADER);
    const uint32_t version = get_u32(bytes, 4);
    if (version != CHECKPOINT_VERSION)
        return formatted("has checkpoint version %u, but this program reads version %u", unsigned(version),
                         unsigned(CHECKPOINT_VERSION));
    const uint32_t V = get_u32(bytes, 8);
    const char* names[] = {"width", "seats", "blocks", "heads", "hidden size"};
    const int want[] = {WIDTH, SEATS, BLOCKS, HEADS, HIDDEN};
    for (int i = 0; i < 5; i++) {
        const uint32_t got = get_u32(bytes, 12 + 4 * i);
        if (got != uint32_t(want[i]))
            return formatted("says its %s is %u, but this program's model has %d", names[i], unsigned(got), want[i]);
    }
    if (V < 2 || V > MAX_VOCABULARY)
        return formatted("has vocabulary size %u (it must be from 2 to %d)", unsigned(V), MAX_VOCABULARY);
    const size_t expected = CHECKPOINT_HEADER + V + 4 * knob_count(int(V));
    if (size < expected) return formatted("is truncated: %zu bytes, but its sizes need %zu", size, expected);
    if (size > expected)
        return formatted("has %zu bytes, but its sizes need %zu (%zu bytes too many)", size, expected, size - expected);
    const char* vocabulary = bytes.data() + CHECKPOINT_HEADER;
    for (uint32_t i = 1; i < V; i++)
        if (static_cast<unsigned char>(vocabulary[i - 1]) >= static_cast<unsigned char>(vocabulary[i]))
            return formatted("has a vocabulary that is not sorted and distinct at id %u", unsigned(i));
    std::vector<float> values(knob_count(int(V)));
    for (size_t i = 0; i < values.size(); i++) {
        uint32_t bits = get_u32(bytes, CHECKPOINT_HEADER + V + 4 * i);
        std::memcpy(&values[i], &bits, 4);
        if (!std::isfinite(values[i])) return formatted("has knob %zu that is not a finite number", i);
    }
    model.vocabulary.assign(vocabulary, V);
    model.V = int(V);
    model.knobs = std::move(values);
    return "";
}

inline TinyModel load_model(const std::string& path) {
    TinyModel model;
    std::string problem = parse_model(read_file(path), model);
    if (!problem.empty()) fail(formatted("'%s' %s", path.c_str(), problem.c_str()));
    return model;
}

inline void save_model(const std::string& path, const TinyModel& model) { write_file_atomic(path, model_bytes(model)); }
