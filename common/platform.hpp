// common/platform.hpp: the few things POSIX systems (Linux, macOS), Windows and
// the browser (emscripten, make web) do differently, each once, so that no
// program needs an #ifdef: is a stream a terminal (and does it draw colour), this
// process's id, is a path a folder, the files in a folder, flushing a file to
// disk and putting it in place of another, and a short wait.
// (The keyboard, one key at a time, is in keys.hpp.)
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include <sys/types.h>
#include <sys/stat.h>  // stat: is a path a folder

#ifdef _WIN32
#include <chrono>
#include <io.h>       // _isatty, _commit, _findfirst
#include <process.h>  // _getpid
#include <thread>     // sleep_for
// Two Win32 calls, declared here rather than by including <windows.h>, whose
// thousands of names (SIZE, min, max, near, ...) would clash with the programs' own.
extern "C" __declspec(dllimport) int __stdcall MoveFileExA(const char* from, const char* to, unsigned long flags);
extern "C" __declspec(dllimport) unsigned long __stdcall GetLastError();
#else
#include <dirent.h>  // opendir, readdir
#include <unistd.h>  // isatty, getpid, fsync, usleep
#endif

// Where a path's folder ends: Windows takes either slash.
#ifdef _WIN32
constexpr const char* PATH_SEPARATORS = "/\\";
#else
constexpr const char* PATH_SEPARATORS = "/";
#endif

// (Emscripten's isatty says yes for stdout even when a web page or Node.js takes
// the output as text: there the programs print as they do into a file, so that a
// page (make web) shows the same bytes as the goldens.)
inline bool is_terminal(std::FILE* stream) {
#if defined(_WIN32)
    return _isatty(_fileno(stream)) != 0;
#elif defined(__EMSCRIPTEN__)
    (void)stream;
    return false;
#else
    return isatty(fileno(stream)) != 0;
#endif
}

#ifdef __EMSCRIPTEN__
// In a web page (make web), stdout goes out line by line, as on a terminal, so that
// a long run's progress lines show as they are printed; natively a file or a pipe
// takes it in blocks. The bytes are the same either way.
inline int stdout_by_lines = std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
#endif

// Colour codes and UTF-8 drawing: a POSIX terminal shows them as they are; a
// Windows console shows them only once asked, which we cannot test here, so
// there the programs print as they do into a file.
inline bool terminal_draws_colour(std::FILE* stream) {
#ifdef _WIN32
    (void)stream;
    return false;
#else
    return is_terminal(stream);
#endif
}

inline long process_id() {
#ifdef _WIN32
    return long(_getpid());
#else
    return long(getpid());
#endif
}

inline bool is_folder(std::string path) {
    while (path.size() > 1 && std::strchr(PATH_SEPARATORS, path.back())) path.pop_back();  // Windows' stat wants none
    struct stat info;
    return stat(path.c_str(), &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR;
}

// The names (not paths) of the files in a folder; none if it cannot be read.
inline std::vector<std::string> files_in(const std::string& folder) {
    std::vector<std::string> names;
#ifdef _WIN32
    bool ends_in_separator = !folder.empty() && std::strchr(PATH_SEPARATORS, folder.back());
    _finddata_t found;
    std::intptr_t search = _findfirst((folder + (ends_in_separator ? "*" : "\\*")).c_str(), &found);
    if (search == -1) return names;
    do names.push_back(found.name);
    while (_findnext(search, &found) == 0);
    _findclose(search);
#else
    DIR* dir = opendir(folder.c_str());
    if (!dir) return names;
    while (dirent* entry = readdir(dir)) names.push_back(entry->d_name);
    closedir(dir);
#endif
    return names;
}

// Everything written to f so far, on the disk: past the C library's buffer and
// the system's cache, so that a power cut after this cannot lose it.
inline bool flush_to_disk(std::FILE* f) {
    if (std::fflush(f) != 0) return false;
#ifdef _WIN32
    return _commit(_fileno(f)) == 0;
#else
    return fsync(fileno(f)) == 0;
#endif
}

// Puts the file `from` in the place of `to` in one step, replacing any file
// already there. Returns "" or why it failed.
inline const char* replace_file(const std::string& from, const std::string& to) {
#ifdef _WIN32
    // rename() on Windows refuses to replace a file that exists; MoveFileExA
    // replaces it, and with WRITE_THROUGH returns once the move is on the disk.
    const unsigned long MOVEFILE_REPLACE_EXISTING = 0x1, MOVEFILE_WRITE_THROUGH = 0x8;
    if (MoveFileExA(from.c_str(), to.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) return "";
    unsigned long code = GetLastError();
    if (code == 3) return "the folder does not exist";
    if (code == 5) return "access denied (a folder of that name, or a read-only file?)";
    if (code == 32) return "the file is open in another program";
    static char why[32];
    std::snprintf(why, sizeof why, "Windows error %lu", code);
    return why;
#else
    if (std::rename(from.c_str(), to.c_str()) == 0) return "";
    return std::strerror(errno);
#endif
}

inline void pause_ms(int ms) {
#ifdef _WIN32
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
#else
    usleep(useconds_t(ms) * 1000);
#endif
}
