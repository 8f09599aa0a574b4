# make web: every lesson, listing, demo and study as one page that runs it in a
# browser, in $(BUILD)/web/ (the top Makefile's web target runs this file with
# make -f, after building the native programs, whose --help gives each page its
# options). Needs emscripten's em++ (Debian: apt-get install emscripten); make
# test never reads this file.
#
#   $(OBJ)/<folder>/<program>.js       the program, compiled to WebAssembly, all in one file
#   $(WEB)/<folder>/<program>.html     its page: source, options, Run and Stop (tests/web/page.js)
#   $(WEB)/index.html                  every page in book order (tests/web/index.js)
#
# Left out: the exercises (the handout is their place) and tiny_train, which
# needs the training text and threads (chapter_tiny/README.md trains it).
BUILD    ?= build
# ANSWERS=hidden: the pages for a class, in their own folder, with every exercise's solution region
# shown as the handout has it (the programs are the same, compiled from the full source).
ANSWERS  ?= shown
WEB      := $(BUILD)/web$(if $(filter hidden,$(ANSWERS)),-answers-hidden)
export ANSWERS
# (the compiled programs beside it, so that $(WEB) is only what is published)
OBJ      := $(BUILD)/web-obj
EMXX     ?= em++
NODE     ?= node
# Debian's em++ finds its Node.js modules only through NODE_PATH.
export NODE_PATH ?= /usr/share/nodejs

PROGRAMS := $(filter-out chapter_tiny/tiny_train,$(patsubst %.cpp,%,$(sort $(wildcard chapter*/*.cpp chapter*/studies/*.cpp))))
PAGES    := $(patsubst %,$(WEB)/%.html,$(PROGRAMS))

# The programs' own warning flags; -ffp-contract=off as natively, so that no
# multiply-add is fused and the digits are the goldens'. -Oz -flto with the smaller
# malloc (15_4's program 39.3 KB gzipped, 41.1 KB at -Os), but -O2 for the two
# whose speed make bench times (Lab 5, generation). -msimd128: the Lanes vectors
# (chapter_tiny/lanes.hpp) become WebAssembly's 128-bit SIMD, as they become SSE natively:
# the same float operations, none fused, so the same bits (tiny_generate's 1,000 letters
# take 0.34 s of CPU in Node.js instead of 0.86 s; the page checks the browser has SIMD).
# SINGLE_FILE: the WebAssembly inside the JavaScript, so that a page opened from
# file:// needs no other file. FORCE_FILESYSTEM: stdout and stderr reach the page
# as bytes, and the files a program writes (--svg, --html) can be read back.
# EXIT_RUNTIME: stdout is flushed and the exit status reported when main ends.
# Only the fields of Module that tests/web/worker.js sets: the runtime carries no
# code for the others.
INCOMING := -sINCOMING_MODULE_JS_API=[arguments,thisProgram,stdin,stdout,stderr,preRun,onExit,onAbort]
FAST_PAGES := chapter15/15_2_Lab5_Training chapter_tiny/tiny_generate
opt_for   = $(if $(filter $(FAST_PAGES),$(1)),-O2,-Oz -flto -sMALLOC=emmalloc)
EMFLAGS  := -std=c++17 -Wall -Wextra -Wpedantic -Werror -ffp-contract=off -msimd128 -Icommon \
            -sSINGLE_FILE=1 -sFORCE_FILESYSTEM=1 -sEXIT_RUNTIME=1 -sALLOW_MEMORY_GROWTH=1 \
            -sENVIRONMENT=worker $(INCOMING)
# The tiny model's checkpoint, packed in where the program looks for it when run
# from the repository's top folder (the page runs it in /work).
CHECKPOINT := chapter_tiny/shakespeare.tiny
embeds = $(if $(shell grep -l tiny_model_path.hpp $(1) 2> /dev/null),--embed-file $(CHECKPOINT)@/work/$(CHECKPOINT))

.PHONY: all
all: $(WEB)/index.html

$(OBJ)/%.js: %.cpp tests/web/web.mk
	@mkdir -p $(dir $@)
	$(EMXX) $(EMFLAGS) $(call opt_for,$*) -MMD -MP -MF $@.d -I$(dir $<) $< -o $@ $(call embeds,$<)

$(patsubst %,$(OBJ)/%.js,$(filter chapter_tiny/%,$(PROGRAMS))): $(CHECKPOINT)

# A page needs its program, the native build (for --help) and the page's own files.
# A page also shows its chapter README's words for it and make book's rows (tests/fixtures/book_claims.tsv).
$(WEB)/%.html: $(OBJ)/%.js $(BUILD)/% tests/web/page.js tests/web/page.html tests/web/worker.js \
               chapter15/README.md chapter20/README.md chapter_tiny/README.md tests/fixtures/book_claims.tsv
	@mkdir -p $(dir $@)
	$(NODE) tests/web/page.js $* $(OBJ)/$*.js $(BUILD)/$* $@

$(WEB)/index.html: $(PAGES) tests/web/index.js tests/lessons.sh
	$(NODE) tests/web/index.js $(WEB) $(PROGRAMS)

# The compiled programs are kept: make would otherwise delete them as intermediates.
.SECONDARY:

-include $(patsubst %,$(OBJ)/%.js.d,$(PROGRAMS))
