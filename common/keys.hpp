// common/keys.hpp: the keyboard one key at a time, unechoed, for a program that
// redraws as keys are pressed (tiny_1_Soft_Lookup --interactive), on a POSIX
// terminal (termios); on Windows one line says so. The terminal's settings and
// the cursor are put back on every way out: exit(), the end of input, Ctrl-C.
#pragma once

#include <csignal>
#include <cstdlib>

#include "cli.hpp"  // fail, is_terminal

#ifndef _WIN32
#include <termios.h>
#endif

// read_key() gives a character, one of these, or KEY_END at the end of input.
constexpr int KEY_END = 0, KEY_UP = 1001, KEY_DOWN = 1002, KEY_LEFT = 1003, KEY_RIGHT = 1004, KEY_OTHER = 1005;

#ifdef _WIN32
// ---------------------------------------------------------------------------
// Windows: not done. The console API could do it, but we cannot test it here
// (Wine's console is not Windows'), so start_keys says so in one line instead.
inline bool save_keys() { return false; }
inline bool set_raw_keys() { return false; }
inline void restore_keys() {}
inline int read_key() { return KEY_END; }
constexpr bool KEYS_WORK = false;

#else
// ---------------------------------------------------------------------------
// POSIX: the terminal out of line mode; arrows arrive as ESC [ A and the like.
inline termios saved_terminal;
constexpr bool KEYS_WORK = true;

inline void restore_keys() {  // only async-signal-safe calls: it runs on Ctrl-C too
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_terminal);
    const char show_cursor[] = "\x1b[?25h\n";
    if (write(STDOUT_FILENO, show_cursor, sizeof show_cursor - 1) < 0) return;
}

inline bool save_keys() { return tcgetattr(STDIN_FILENO, &saved_terminal) == 0; }

inline bool set_raw_keys() {
    termios raw = saved_terminal;
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO);  // keys arrive one at a time, unechoed; Ctrl-C still interrupts
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    return tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0;
}

inline int read_key() {
    char c;
    if (read(STDIN_FILENO, &c, 1) != 1) return KEY_END;
    if (c != '\x1b') return static_cast<unsigned char>(c);
    char seq[2];
    if (read(STDIN_FILENO, &seq[0], 1) != 1 || read(STDIN_FILENO, &seq[1], 1) != 1) return KEY_OTHER;
    if (seq[0] == '[' || seq[0] == 'O') switch (seq[1]) {
            case 'A': return KEY_UP;
            case 'B': return KEY_DOWN;
            case 'C': return KEY_RIGHT;
            case 'D': return KEY_LEFT;
        }
    return KEY_OTHER;
}
#endif

// ---------------------------------------------------------------------------
inline void on_interrupt(int) {
    restore_keys();
    std::_Exit(130);  // as a shell reports Ctrl-C
}

// Keys one at a time from here on; `option` names what asked, for the error.
inline void start_keys(const std::string& option) {
    if (!KEYS_WORK)
        fail(option + " needs a terminal of Linux, macOS or WSL, not a Windows console; --html draws a page");
    if (!is_terminal(stdin) || !is_terminal(stdout)) fail(option + " needs a terminal for input and output");
    if (!save_keys()) fail(option + ": cannot read the terminal's settings");
    std::atexit(restore_keys);
    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
    if (!set_raw_keys()) fail(option + ": cannot set the terminal to read single keys");
}
