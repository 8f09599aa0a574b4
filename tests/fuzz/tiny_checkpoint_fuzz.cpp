// libFuzzer target: the tiny model's binary checkpoint reader (chapter_tiny/tiny_checkpoint.hpp).
// A checkpoint the reader accepts must write back to the same bytes, and the
// model must run over a few letters without any sanitizer report.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "tiny_checkpoint.hpp"  // parse_model, model_bytes
#include "tiny_model.hpp"       // forward

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string bytes(reinterpret_cast<const char*>(data), size);
    TinyModel model;
    if (!parse_model(bytes, model).empty()) return 0;  // rejected with a message, as it should be
    if (model_bytes(model) != bytes) std::abort();     // round trip must be exact
    int ids[4] = {0, model.V - 1, 1, 0};
    Tape tape(model.V);
    forward(model, ids, 4, tape);
    return 0;
}
