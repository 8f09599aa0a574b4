# The wider checks, outside make test: other compilers, levels and machines,
# the sanitizers, the web pages, the book's claims. Included by the Makefile.
.PHONY: sanitize matrix cross web book exhaustive fuzz format format-check

# make test again under AddressSanitizer and UndefinedBehaviorSanitizer (but the
# grader's checks, which build with the grader's own flags: see make matrix).
sanitize:
	@$(MAKE) --no-print-directory test BUILD=build/sanitize GRADER_CHECKS=no \
	  OPT="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

# The same goldens with both compilers at -O0 and -O2 (make test's are -Og), and
# with clang++ on LLVM's own standard library, libc++, as on a Mac. The grader's
# checks grade with the grader's own flags whatever OPT says: they run once more,
# with clang++ and libc++ at -O2, as a Mac teacher's grader would.
matrix:
	@set -e; for cxx in g++ clang++ "clang++ -stdlib=libc++"; do for opt in -O0 -O2; do \
	  echo "== $$cxx $$opt"; \
	  grader=no; [ "$$cxx" = "clang++ -stdlib=libc++" ] && [ $$opt = -O2 ] && grader=yes; \
	  $(MAKE) --no-print-directory test WERROR=-Werror CXX="$$cxx" OPT=$$opt GRADER_CHECKS=$$grader \
	    BUILD="build/$$(echo $$cxx | tr -d ' =')$$opt"; \
	done; done

# make test built for Windows with MinGW-w64 and run under Wine, and built for
# 64-bit ARM (a Raspberry Pi) and run under qemu-aarch64 (.ci/run installs them).
cross:
	@bash tests/cross.sh

# Every lesson, listing, demo and study as a page that runs it in the browser,
# compiled by emscripten (tests/web/web.mk). The native programs come first:
# each page's options are read from their --help.
web: $(filter-out $(BUILD)/chapter_tiny/tiny_train$(EXE) %/exercises/%,$(PROGRAMS))
	@command -v $(or $(EMXX),em++) > /dev/null || { echo "make web needs emscripten's em++ (Debian: apt-get install emscripten)"; exit 1; }
	@$(MAKE) --no-print-directory -f tests/web/web.mk BUILD=$(BUILD)

# What the book says about each program's output beside what it prints.
book: all
	@bash tests/book.sh $(BUILD)

# Every float through exp_lanes, as the programs have it and as tiny_train's
# AVX2 build does (FAST), at -O2: about a minute each (make test tries 1 in 509).
exhaustive: OPT = $(TIMED_OPT)
exhaustive:
	@mkdir -p $(BUILD)/exhaustive
	$(CXX) $(CXXFLAGS) tests/unit/lanes_test.cpp -o $(BUILD)/exhaustive/lanes_test$(EXE) $(LDLIBS)
	$(RUN) $(BUILD)/exhaustive/lanes_test$(EXE) --exhaustive
	$(if $(FAST),$(CXX) $(CXXFLAGS) $(FAST) tests/unit/lanes_test.cpp -o $(BUILD)/exhaustive/lanes_test_fast$(EXE) $(LDLIBS))
	$(if $(FAST),$(RUN) $(BUILD)/exhaustive/lanes_test_fast$(EXE) --exhaustive)

# libFuzzer on the file loaders, FUZZ_SECONDS each (needs clang++).
FUZZ_SECONDS ?= 60
fuzz:
	@bash tests/fuzz/run.sh $(FUZZ_SECONDS)

# The C++ sources in the project's style (.clang-format), with Debian's clang-format 14: make format
# rewrites them, make format-check (run by .ci/run) fails on any that differ. Left out: the files
# graded as students hand them in (tests/grader/class, attacks, solutions), whose text is what they test.
CLANG_FORMAT ?= clang-format
FORMATTED = $(shell git ls-files 'chapter*/*.[ch]pp' 'common/*.[ch]pp' 'tests/*.[ch]pp' ':(exclude)tests/grader/class' \
  ':(exclude)tests/grader/attacks' ':(exclude)tests/grader/solutions')
format:
	$(CLANG_FORMAT) -i $(FORMATTED)
format-check:
	$(CLANG_FORMAT) --dry-run -Werror $(FORMATTED)

help::
	@echo "make sanitize   the tests again under AddressSanitizer + UndefinedBehaviorSanitizer"
	@echo "make matrix     the tests with g++, clang++ and clang++ with libc++, each at -O0 and -O2"
	@echo "make cross      the tests for Windows (MinGW-w64, under Wine) and ARM (aarch64, under qemu)"
	@echo "make web        every lesson, listing, demo and study as a web page in $(BUILD)/web/ (needs em++)"
	@echo "make book       what the book says about each program's output, beside what ours prints"
	@echo "make exhaustive every float through the vector exp, both builds (a minute each; .ci/run runs it)"
	@echo "make fuzz       libFuzzer on the file loaders, FUZZ_SECONDS=60 each"
	@echo "make format     every C++ source in the style of .clang-format (clang-format 14); format-check checks"
