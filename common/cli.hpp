// common/cli.hpp: the command line, errors and files, the same in every program.
//
// Bad input ends the program with one line on stderr that names the problem,
// and exit status 2. Files are written whole or not at all.
#pragma once

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "platform.hpp"  // is_terminal, terminal_draws_colour, process_id, is_folder, files_in, flush_to_disk,
                         // replace_file

inline std::string& program_name() {
    static std::string name = "program";
    return name;
}

// printf onto the end of `out`, for a function that takes printf's arguments
// (formatted below, plot.hpp's append_formatted).
inline void append_formatted_list(std::string& out, const char* format, std::va_list args) {
    std::va_list again;
    va_copy(again, args);
    const int length = std::vsnprintf(nullptr, 0, format, args);
    if (length > 0) {
        const size_t end = out.size();
        out.resize(end + size_t(length));
        std::vsnprintf(&out[end], size_t(length) + 1, format, again);
    }
    va_end(again);
}

// Like printf, into a string.
// (MinGW-w64's C library is the ANSI one here, so its formats are GNU's: %zu.)
#if defined(__MINGW32__)
[[gnu::format(gnu_printf, 1, 2)]]
#else
[[gnu::format(printf, 1, 2)]]
#endif
inline std::string
formatted(const char* format, ...) {
    std::string text;
    std::va_list args;
    va_start(args, format);
    append_formatted_list(text, format, args);
    va_end(args);
    return text;
}

// A fuzzer or a test that calls a loader directly builds with
// -DFAIL_THROWS, so that bad input becomes an exception it can catch.
struct Failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

[[noreturn]] inline void fail(const std::string& message) {
#ifdef FAIL_THROWS
    throw Failure(message);
#endif
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %s\n", program_name().c_str(), message.c_str());
    std::exit(2);
}

// Text from a file, fit to quote in a one-line error: at most `most` bytes,
// anything unprintable (a newline, an escape, a binary byte) shown as \xNN.
inline std::string shown(const std::string& text, size_t most = 40) {
    std::string out;
    for (size_t i = 0; i < text.size() && i < most; i++) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02X", c);
        out += (c >= 32 && c < 127) ? std::string(1, char(c)) : std::string(hex);
    }
    return text.size() > most ? out + "..." : out;
}

// Colour and Unicode drawing only on a terminal, and never when NO_COLOR is set
// (https://no-color.org); the plain form is what the golden tests check.
inline bool fancy_output() {
    const char* no_color = std::getenv("NO_COLOR");
    return terminal_draws_colour(stdout) && !(no_color && no_color[0]);
}

// A progress line on stderr, rewritten in place, only when a person watches it.
inline bool stderr_is_terminal() { return is_terminal(stderr); }

// program_name() from argv[0], as the usage spells it: without a folder or Windows' .exe.
inline void name_program(const char* path) {
    const char* name = path;
    for (const char* c = path; *c; c++)
        if (std::strchr(PATH_SEPARATORS, *c)) name = c + 1;
    size_t length = std::strlen(name);
    if (length > 4 && std::strcmp(name + length - 4, ".exe") == 0) length -= 4;
    program_name().assign(name, length);
}

// ---------------------------------------------------------------------------
// Options: --name, --name VALUE or --name=VALUE. Ask for each option you take,
// then call done(), which rejects anything left over.
class Options {
public:
    Options(int argc, char** argv, const char* usage) : path_(argv[0]), args_(argv + 1), count_(argc - 1) {
        name_program(argv[0]);
        used_.assign(size_t(count_), false);
        if (flag("help") || flag("h", "-h")) {
            std::fputs(usage, stdout);
            std::exit(0);
        }
    }

    bool flag(const char* name, const char* spelled = nullptr) {
        for (int i = 0; i < count_; i++) {
            const char* rest = spelled ? (std::strcmp(args_[i], spelled) == 0 ? "" : nullptr) : after(i, name);
            if (rest && *rest == '\0') {
                used_[i] = true;
                return true;
            }
        }
        return false;
    }

    bool given(const char* name) {
        for (int i = 0; i < count_; i++) {
            const char* rest = after(i, name);
            if (rest && (*rest == '\0' || *rest == '=')) return true;
        }
        return false;
    }

    std::string text(const char* name, const std::string& fallback) {
        for (int i = 0; i < count_; i++) {
            const char* rest = after(i, name);
            if (rest && *rest == '=') {
                used_[i] = true;
                return rest + 1;
            }
            if (rest && *rest == '\0') {
                if (i + 1 >= count_) fail(formatted("--%s needs a value; see --help", name));
                used_[i] = used_[i + 1] = true;
                return args_[i + 1];
            }
        }
        return fallback;
    }

    long integer(const char* name, long fallback, long lowest, long highest) {
        std::string s = text(name, "");
        if (s.empty() && !given(name)) return fallback;
        char* end = nullptr;
        errno = 0;
        long v = std::strtol(s.c_str(), &end, 10);
        if (s.empty() || *end != '\0') fail(formatted("--%s expects a whole number, got '%s'", name, s.c_str()));
        if (errno == ERANGE || v < lowest || v > highest)
            fail(formatted("--%s must be from %ld to %ld, got %s", name, lowest, highest, s.c_str()));
        return v;
    }

    double number(const char* name, double fallback, double lowest, double highest) {
        std::string s = text(name, "");
        if (s.empty() && !given(name)) return fallback;
        char* end = nullptr;
        double v = std::strtod(s.c_str(), &end);
        if (s.empty() || *end != '\0' || !(v == v) || v - v != 0)
            fail(formatted("--%s expects a number, got '%s'", name, s.c_str()));
        if (v < lowest || v > highest)
            fail(formatted("--%s must be from %g to %g, got %s", name, lowest, highest, s.c_str()));
        return v;
    }

    // Anything not asked for is an unknown option (or a stray word).
    void done() {
        for (int i = 0; i < count_; i++)
            if (!used_[i]) fail(formatted("unknown option '%s'; see --help", args_[i]));
    }

    // The program's path as it was started (argv[0]), to find what ships beside it.
    const char* path() const { return path_; }

private:
    // What follows "--name" in argument i ("", "=VALUE" or more), or nullptr if it does not start so.
    const char* after(int i, const char* name) const {
        const char* arg = args_[i];
        const size_t length = std::strlen(name);
        return arg[0] == '-' && arg[1] == '-' && std::strncmp(arg + 2, name, length) == 0 ? arg + 2 + length : nullptr;
    }
    const char* path_;
    char** args_;  // the command line's words after the program's name
    int count_;
    std::vector<char> used_;  // not vector<bool>: 0.04 s more CPU per compile (106 at -O0: 0.59 s, not 0.55)
};

// For a program that takes no options, as the book's listings: --help says
// so, and any word given is an error rather than silently ignored.
inline void takes_no_options(int argc, char** argv) {
    name_program(argv[0]);
    const std::string usage =
        formatted("usage: %s [--help]\n\nThis listing prints what the book prints; it takes no options.\n",
                  program_name().c_str());
    Options options(argc, argv, usage.c_str());
    if (argc > 1) fail(formatted("this listing takes no options, got '%s'", argv[1]));
}

// ---------------------------------------------------------------------------
// Files

inline std::string read_file(const std::string& path) {
    if (is_folder(path)) fail(formatted("cannot read '%s': it is a folder, not a file", path.c_str()));
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) fail(formatted("cannot read '%s': %s", path.c_str(), std::strerror(errno)));
    std::string bytes;
    char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) bytes.append(buf, n);
    bool bad = std::ferror(f);
    std::fclose(f);
    if (bad) fail(formatted("error while reading '%s'", path.c_str()));
    return bytes;
}

// The folder a file is in, with its separator ("." for a bare name), and its name without the folder.
inline std::string folder_of(const std::string& file) {
    size_t end = file.find_last_of(PATH_SEPARATORS);
    return end == std::string::npos ? "." : file.substr(0, end + 1);
}
inline std::string name_of(const std::string& file) { return file.substr(file.find_last_of(PATH_SEPARATORS) + 1); }

// What an earlier write of this file left when it was killed: FILE.tmp<pid>.
// (Two programs writing one file at the same moment is not supported: one of
// them then fails with "cannot write", and neither leaves half a file.)
inline void remove_leftover_temporaries(const std::string& path) {
    const std::string name = name_of(path), prefix = formatted("%s.tmp", name.c_str());
    const std::string folder = path.substr(0, path.size() - name.size());  // "" for a bare name
    for (const std::string& other : files_in(folder.empty() ? "." : folder)) {
        const bool starts_so = other.size() > prefix.size() && other.compare(0, prefix.size(), prefix) == 0;
        if (starts_so && other.find_first_not_of("0123456789", prefix.size()) == std::string::npos)  // then a pid
            std::remove((folder + other).c_str());
    }
}

// Write to a temporary file beside the target, flush it to disk, then put it in
// the target's place in one step, so a crash or Ctrl-C leaves either the old
// file or the new one, never half.
inline void write_file_atomic(const std::string& path, const std::string& bytes) {
    remove_leftover_temporaries(path);
    const std::string temporary = formatted("%s.tmp%ld", path.c_str(), process_id());
    std::FILE* f = std::fopen(temporary.c_str(), "wb");
    if (!f) fail(formatted("cannot write '%s': %s", path.c_str(), std::strerror(errno)));
    bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    ok = flush_to_disk(f) && ok;
    ok = (std::fclose(f) == 0) && ok;
    const char* why = ok ? "" : std::strerror(errno);
    // The interrupted-training test sets SLOW_WRITE_MS to kill a program mid-write.
    if (const char* ms = std::getenv("SLOW_WRITE_MS"); ok && ms) pause_ms(std::atoi(ms));
    if (ok) why = replace_file(temporary, path);
    if (*why) {
        std::remove(temporary.c_str());
        fail(formatted("cannot write '%s': %s", path.c_str(), why));
    }
}

// For an option naming a folder (--svg DIR): it must exist, checked before any
// work, so a wrong name is reported at once and nothing is half done.
inline void require_folder(const char* option, const std::string& folder) {
    if (!is_folder(folder))
        fail(formatted("%s: the folder '%s' does not exist; create it first", option, folder.c_str()));
}

// For an option naming a file to write (--out FILE): the folder it goes in must exist.
inline void require_folder_of(const char* option, const std::string& file) {
    if (name_of(file).empty()) fail(formatted("%s needs a file name, got '%s'", option, file.c_str()));
    require_folder(option, folder_of(file));
}
