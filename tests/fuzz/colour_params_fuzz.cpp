// libFuzzer target: the colour-recall text parameter loader (chapter15/colour_recall.hpp).
// Built by make fuzz with -DFAIL_THROWS, so a rejected file is an exception, not an exit.
// Any file the loader accepts must survive a save and a second load unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "colour_recall.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    try {
        Params p = parse_params(text, "input");
        std::string saved = format_params(p);
        if (format_params(parse_params(saved, "saved")) != saved) std::abort();  // round trip must hold
    } catch (const Failure&) {
        // Rejected with a message: what the loader should do with bad input.
    }
    return 0;
}
