// chapter_tiny/tiny_model_path.hpp: where the programs find the shipped
// checkpoint, from whatever folder they are run in.
//
// MODEL_FILE is its path from the repository's top folder, where make run and
// make test run the programs. From another folder (build/chapter_tiny, or one
// outside the repository) that path leads nowhere, so the programs look beside
// the sources instead: the Makefile passes the repository's folder as
// SOURCE_ROOT. Built with one command from the top folder, without SOURCE_ROOT,
// a program finds the checkpoint from that folder only. --model FILE always wins.
#pragma once

#include <cstdio>
#include <string>

#include "cli.hpp"  // Options, is_folder

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

// MODEL_FILE from this folder if it is there, else the one beside the sources
// if that is; else MODEL_FILE, so that the error names the usual path.
inline std::string shipped_model() {
    const std::string root = SOURCE_ROOT, beside_sources = root + "/" + MODEL_FILE;
    if (root.empty() || something_at(MODEL_FILE) || !something_at(beside_sources)) return MODEL_FILE;
    return beside_sources;
}

// --model FILE, or the shipped checkpoint.
inline std::string model_option(Options& options) {
    return options.given("model") ? options.text("model", "") : shipped_model();
}
