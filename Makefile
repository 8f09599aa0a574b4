# Every program is one .cpp in a chapter folder, built into build/ by the one
# rule below, so adding a lesson needs no line here.
#   make           build every program
#   make run       build, then run every lesson in book order
#   make test      build, run every program against its golden, run the checks;
#                  ends with "N passed, M failed"
#   make help      every target, with those of the included files at the end

CXX      ?= g++
# -Og: GCC's level for the edit-compile-debug loop, about half -O2's compile
# time. The digits do not depend on the level (make matrix checks -O0 and -O2).
OPT      ?= -Og
# Warnings stop the build in CI (CI=true) and make matrix, not in a learner's
# make: a newer compiler's new warning should not stop a lesson that is fine.
WERROR   ?= $(if $(CI),-Werror)
CXXFLAGS  = -std=c++17 $(OPT) -Wall -Wextra -Wpedantic $(WERROR) -ffp-contract=off -Icommon
LDLIBS    = -pthread
BUILD    ?= build
# EXE: .exe for a Windows compiler. RUN: what runs a program built for another
# machine, such as Wine or qemu (make cross sets both).
EXE      ?=
RUN      ?=
# One job per core, unless the command line says -j.
ifeq ($(filter -j% j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2> /dev/null || sysctl -n hw.ncpu 2> /dev/null || echo 2)
endif

# EXERCISES: whose exercises (chapter*/exercises/) are built and tested: all,
# none, or a list of chapter folders such as EXERCISES=chapter20. What it selects,
# the programs and the checks, is tests/run_tests.sh --list (tests/wanted.sh decides).
EXERCISES ?= all
# GRADER_CHECKS=no leaves out the grader's checks (make matrix and make sanitize, tests/checks.mk).
GRADER_CHECKS ?= yes
export GRADER_CHECKS
LISTED   := $(shell GRADER_CHECKS=$(GRADER_CHECKS) EXERCISES="$(EXERCISES)" bash tests/run_tests.sh $(BUILD) --list)
SOURCES  := $(filter chapter%,$(LISTED))
PROGRAMS := $(patsubst %.cpp,$(BUILD)/%$(EXE),$(SOURCES))
UNITS    := $(patsubst %.cpp,$(BUILD)/%$(EXE),$(wildcard tests/unit/*.cpp))
PORTABLE := $(BUILD)/portable/tiny_train$(EXE)

.PHONY: all run test golden clean help FORCE
all: $(PROGRAMS) $(UNITS) $(PORTABLE)

# -MMD -MP: the compiler lists the headers it read in $@.d, so touching a header
# rebuilds only the programs that include it. SOURCE_ROOT: this folder, where a
# program run from elsewhere finds the shipped checkpoint (tiny_model_path.hpp).
$(BUILD)/%$(EXE): %.cpp
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -DSOURCE_ROOT='"$(CURDIR)"' -MMD -MP -MF $@.d $< -o $@ $(LDFLAGS) $(LDLIBS)

# The programs make bench times, at -O2; the trainer and the peak kernel also
# with AVX2 (eight floats an instruction) where this x86-64 machine has it.
# An OPT on the command line (make matrix, make sanitize) wins here too.
TIMED_OPT ?= -O2
TIMED    := chapter_tiny/tiny_train chapter_tiny/tiny_generate chapter15/studies/lab5_runs tests/bench/peak tests/unit/lanes_test
FAST     ?= $(shell grep -qw avx2 /proc/cpuinfo 2> /dev/null && $(CXX) -dumpmachine 2> /dev/null | grep -q x86_64 && echo -mavx2)
$(patsubst %,$(BUILD)/%$(EXE),$(TIMED)): OPT = $(TIMED_OPT)
$(BUILD)/chapter_tiny/tiny_train$(EXE) $(BUILD)/tests/bench/peak$(EXE): CXXFLAGS += $(FAST)

# The trainer again, as far from the fast one as a build goes: -O0, no AVX2, and
# lanes.hpp's plain struct. tests/checks/chapter_tiny_tiny_train_fast.sh checks
# that both write the same checkpoint bytes.
$(PORTABLE): chapter_tiny/tiny_train.cpp
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -O0 -DLANES_PLAIN -DSOURCE_ROOT='"$(CURDIR)"' -MMD -MP -MF $@.d $< -o $@ $(LDFLAGS) $(LDLIBS)

-include $(addsuffix .d,$(PROGRAMS) $(UNITS) $(PORTABLE))

run: all
	@EXERCISES="$(EXERCISES)" bash tests/run_lessons.sh $(BUILD)

# make test: each test is a target that writes its log into $(BUILD)/checks/
# and waits for what it runs: a program's goldens for that program, a unit test
# for itself, a check script for everything but the grader's (grader_*), which
# build what they grade and come first, beside the compiles. make -j runs them
# side by side; then tests/run_tests.sh reads the logs and prints the report.
CHECKS   := $(patsubst %,$(BUILD)/checks/%.log,$(filter tests/%,$(LISTED)))
GOLDENS  := $(patsubst %.cpp,$(BUILD)/checks/%.goldens,$(SOURCES))
GRADER   := $(filter $(BUILD)/checks/tests/checks/grader_%,$(CHECKS))
test: $(GRADER) $(GOLDENS) $(CHECKS)
	@EXERCISES="$(EXERCISES)" bash tests/run_tests.sh $(BUILD)

# FORCE: a test runs every time.
$(BUILD)/checks/%.goldens: $(BUILD)/%$(EXE) FORCE
	@bash tests/run_tests.sh $(BUILD) --run $*.cpp
$(BUILD)/checks/tests/unit/%.cpp.log: $(BUILD)/tests/unit/%$(EXE) FORCE
	@bash tests/run_tests.sh $(BUILD) --run tests/unit/$*.cpp
$(BUILD)/checks/tests/checks/grader_%.sh.log: FORCE
	@bash tests/run_tests.sh $(BUILD) --run tests/checks/grader_$*.sh
$(BUILD)/checks/tests/checks/%.sh.log: all FORCE
	@bash tests/run_tests.sh $(BUILD) --run tests/checks/$*.sh
FORCE:

# Rewrites every golden from the programs' output: for deliberate changes only.
golden: $(GOLDENS)
	@EXERCISES="$(EXERCISES)" bash tests/run_tests.sh $(BUILD) --golden

clean:
	rm -rf $(BUILD)

# Each included file adds its own lines to make help (help:: runs them in order).
help::
	@echo "make            build every program into $(BUILD)/"
	@echo "make run        build and run every lesson in book order"
	@echo "make test       build, run every program, diff against tests/golden, run the checks"
	@echo "                EXERCISES=none: the lessons alone; EXERCISES=chapter20: one chapter's exercises"
	@echo "make golden     rewrite the golden files (deliberate output changes only)"
	@echo "make clean      remove $(BUILD)/"

# The wider checks, the course's targets, the timings and the tiny model's training.
include tests/checks.mk tests/grader/grader.mk tests/bench/bench.mk tests/studies/studies.mk
help::
	@echo "Variables: CXX=clang++  OPT=-O0 (default -Og; TIMED_OPT=-O2 for the timed programs)  BUILD=dir"
