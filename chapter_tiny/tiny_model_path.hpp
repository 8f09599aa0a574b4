// chapter_tiny/tiny_model_path.hpp: where the programs find the shipped
// checkpoint, from whatever folder they are run in.
//
// MODEL_FILE is its path from the repository's top folder, where make run and
// make test run the programs. From another folder that path leads nowhere, so
// the programs look beside the sources: the Makefile passes the repository's
// folder as SOURCE_ROOT. Built with one command, without it, they look where
// this header was compiled from: __FILE__ is its path as the compiler was
// given it, from the folder it ran in, which is where `-o` put the program.
// --model FILE always wins.
#pragma once

#include <cstdio>
#include <cstring>
#include <string>

#include "cli.hpp"  // Options, fail, folder_of, name_of, is_folder

#ifndef SOURCE_ROOT
#define SOURCE_ROOT ""
#endif

const char* const MODEL_FILE = "chapter_tiny/shakespeare.tiny";

// Is there a file (or a folder) at `path`?
inline bool something_at(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f) std::fclose(f);
    return f || is_folder(path);
}

// The folder of `file` with its separator, "" for a bare name.
inline std::string folder_with_separator(const std::string& file) {
    const std::string folder = folder_of(file);
    return folder == "." ? "" : folder;
}

// MODEL_FILE from this folder, else beside the sources (SOURCE_ROOT), else
// beside this header: as __FILE__ names it if that is absolute, or from the
// program's own folder if it is relative. Failing all, a hint how to run it.
inline std::string shipped_model(const Options& options) {
    const std::string here = __FILE__, folder = folder_with_separator(here);
    const bool absolute =
        !here.empty() && (std::strchr(PATH_SEPARATORS, here[0]) || (here.size() > 1 && here[1] == ':'));
    const std::string places[] = {
        MODEL_FILE,
        std::string(SOURCE_ROOT).empty() ? MODEL_FILE : std::string(SOURCE_ROOT) + "/" + MODEL_FILE,
        (absolute ? "" : folder_with_separator(options.path())) + folder + name_of(MODEL_FILE),
    };
    for (const std::string& place : places)
        if (something_at(place)) return place;
    fail(
        formatted("cannot read '%s' from this folder: run the program from the repository's top folder, "
                  "or pass --model FILE",
                  MODEL_FILE));
}

// --model FILE, or the shipped checkpoint.
inline std::string model_option(Options& options) {
    return options.given("model") ? options.text("model", "") : shipped_model(options);
}
