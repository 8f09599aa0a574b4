# Every program is one .cpp in a chapter folder; pattern rules build each into
# build/, mirroring the folders. Adding a lesson needs no line here.
#   make run       build and run every lesson in book order
#   make test      build, run and check everything; ends with "N passed, M failed"
#   make help      every target, with those of the included files

CXX      ?= g++
# OPT: the lessons, the exercises and the tests. -Og is the optimisation GCC
# meant for the edit-compile-debug loop: a lesson compiles in about half the
# time -O2 takes, and a debugger still shows every variable. The digits do not
# depend on it (make matrix checks -O0 and -O2 too).
OPT      ?= -Og
# TIMED_OPT: the programs whose speed matters, built at -O2 (see TIMED below).
TIMED_OPT ?= -O2
SAN      ?=
# WERROR: warnings stop the build in CI (CI=true) and make matrix, not in a
# learner's make: a newer compiler's new warning should not stop a lesson that is fine.
WERROR   ?= $(if $(CI),-Werror)
# The flags of a compile at optimisation level $(1).
flags_at  = -std=c++17 $(1) $(SAN) -Wall -Wextra -Wpedantic $(WERROR) -ffp-contract=off -Icommon
CXXFLAGS  = $(call flags_at,$(OPT))
LDFLAGS  ?=
LDLIBS    = -pthread
BUILD    ?= build
# One compile per core at once, unless the command line says -j.
ifeq ($(filter -j% j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2> /dev/null || sysctl -n hw.ncpu 2> /dev/null || echo 2)
endif
EXE      ?=
# RUN: what runs a program built for another machine (make cross sets it: Wine, qemu).
RUN      ?=

# EXERCISES: the chapters whose exercises (chapter*/exercises/) make builds and
# make test checks: all by default; EXERCISES=none for the lessons alone, or a
# list such as EXERCISES=chapter20. The grader's own checks run only with all.
# The studies (chapter*/studies/: how a lesson's constant was chosen) are built
# and checked in every mode.
EXERCISES ?= all
ifeq ($(EXERCISES),all)
SOURCES  := $(sort $(wildcard chapter*/*.cpp chapter*/*/*.cpp))
else
SOURCES  := $(sort $(wildcard chapter*/*.cpp chapter*/studies/*.cpp) $(wildcard $(addsuffix /exercises/*.cpp,$(filter-out none,$(EXERCISES)))))
endif
PROGRAMS := $(patsubst %.cpp,$(BUILD)/%$(EXE),$(SOURCES))
TESTSRC  := $(sort $(wildcard tests/unit/*.cpp))
TESTBINS := $(patsubst %.cpp,$(BUILD)/%$(EXE),$(TESTSRC))

.PHONY: FORCE all run test golden clean help
.DEFAULT_GOAL := all

# tiny_train's fast build: the same source with AVX2 (eight floats per
# instruction) where this machine has it; `make FAST=` leaves it out. The
# portable build is for tests/checks/chapter_tiny_tiny_train_fast.sh, which checks that the two
# write the same checkpoint bytes: at -O0, without FAST, and with the plain
# struct Lanes that compilers other than g++ and clang++ get (chapter_tiny/lanes.hpp),
# so it is as far from the fast build as a build can be. (make matrix builds the
# vector Lanes at -O0 too.) FAST is only for a compiler that also builds for
# x86-64: not for make cross's ARM build.
FAST     ?= $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && $(CXX) -dumpmachine 2>/dev/null | grep -q x86_64 && echo -mavx2)
FAST_BINS := $(BUILD)/chapter_tiny/tiny_train$(EXE) $(BUILD)/tests/bench/peak$(EXE)

# TIMED: the programs make bench times (the trainers, the generator, the peak
# kernel) and lanes_test's sweep through 8 million floats, at TIMED_OPT. An OPT
# given on the command line (make matrix, make sanitize) builds them at OPT too.
# The precompiled headers are OPT's, so these compile without them.
TIMED    := chapter_tiny/tiny_train chapter_tiny/tiny_generate chapter15/studies/lab5_runs tests/bench/peak tests/unit/lanes_test
TIMED_BINS := $(patsubst %,$(BUILD)/%$(EXE),$(TIMED))
TIMED_AT := $(if $(filter command line,$(origin OPT)),$(OPT),$(TIMED_OPT))
TRAINERS := $(if $(wildcard chapter_tiny/tiny_train.cpp),$(BUILD)/portable/tiny_train$(EXE))

# The slowest compiles first, so that the last to finish is not a long one.
all: $(TRAINERS) $(TESTBINS) $(PROGRAMS)

# PCH: the standard headers nearly every program includes, compiled once per
# build folder (g++ only; `make PCH=` leaves it out). Each compile then reads
# them ready-made instead of parsing them again, about 0.4 s less each. No
# program depends on it: each still includes what it uses and builds alone
# with one command. A compile whose flags differ (tiny_train's -mavx2, -O0)
# finds it unusable, and g++ then reads the headers as usual.
PCH_HEADERS := algorithm cmath cstdint cstdio cstdlib cstring limits stdexcept string vector
PCH ?= $(shell $(CXX) --version 2> /dev/null | grep -q 'Free Software Foundation' && echo $(BUILD)/pch/std.hpp)

$(BUILD)/pch/std.hpp: Makefile
	@mkdir -p $(dir $@)
	@printf '#include <%s>\n' $(PCH_HEADERS) > $@

# (With the programs' own flags, -pthread included: it defines a macro, and a
# header compiled under other macros is not used.)
$(BUILD)/pch/std.hpp.gch: $(BUILD)/pch/std.hpp
	$(CXX) $(CXXFLAGS) -x c++-header $< -o $@ $(LDLIBS)

# SOURCE_ROOT: this folder, so that a program run from another one still finds
# what ships beside the sources, such as the tiny model's checkpoint
# (chapter_tiny/tiny_model_path.hpp). The precompiled headers, built without it,
# stay usable: it appears in none of them.
ROOT_FLAG = -DSOURCE_ROOT='"$(CURDIR)"'

# A program sees common/ and its own folder's headers. -MMD -MP: the compiler
# lists the headers it read in $@.d, so touching a header rebuilds only the
# programs that include it.
# (EXE is .exe for a Windows compiler, which adds it to the name anyway.)
DEPFLAGS  = -MMD -MP -MF $@.d
$(BUILD)/%$(EXE): %.cpp $(if $(PCH),$(PCH).gch)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(ROOT_FLAG) $(DEPFLAGS) $(if $(PCH),-include $(PCH)) -I$(dir $<) $< -o $@ $(LDFLAGS) $(LDLIBS)

$(TIMED_BINS): $(BUILD)/%$(EXE): %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(call flags_at,$(TIMED_AT)) $(if $(filter $@,$(FAST_BINS)),$(FAST)) $(ROOT_FLAG) $(DEPFLAGS) -I$(dir $<) $< -o $@ $(LDFLAGS) $(LDLIBS)

$(BUILD)/portable/tiny_train$(EXE): chapter_tiny/tiny_train.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -O0 -DLANES_PLAIN $(ROOT_FLAG) $(DEPFLAGS) -Ichapter_tiny $< -o $@ $(LDLIBS)

-include $(addsuffix .d,$(PROGRAMS) $(TESTBINS) $(TRAINERS))

run: all
	@EXERCISES="$(EXERCISES)" bash tests/run_lessons.sh $(BUILD)

# make test starts each check, and each golden's run, as soon as the programs
# it runs are built, while the rest still compile, so that both cores stay busy
# to the end; then tests/run_tests.sh reports, reading their logs.
# CHECKS: the checks and goldens run_tests.sh wants (it alone decides, from EXERCISES).
ifneq ($(filter test,$(MAKECMDGOALS)),)
CHECKS   := $(shell EXERCISES="$(EXERCISES)" bash tests/run_tests.sh $(BUILD) --list-checks)
endif
CHECKED  := $(patsubst %,$(BUILD)/checks/%.log.status,$(CHECKS))
$(CHECKED): $(BUILD)/checks/%.log.status: % FORCE
	@RUN="$(RUN)" EXERCISES="$(EXERCISES)" bash tests/run_tests.sh $(BUILD) --check $<
FORCE:

# What each check runs; a check not named here waits for everything.
TINY     := $(TRAINERS) $(BUILD)/chapter_tiny/tiny_train$(EXE) $(filter-out %/exercises/%,$(filter $(BUILD)/chapter_tiny/%,$(PROGRAMS)))
CH15     := $(filter-out %/exercises/%,$(filter $(BUILD)/chapter15/%,$(PROGRAMS)))
TINY_CHECKS := $(filter $(BUILD)/checks/tests/checks/chapter_tiny_%,$(CHECKED))
CH15_CHECKS := $(filter $(BUILD)/checks/tests/checks/chapter15_%,$(CHECKED))
EX4_CHECKS  := $(filter %/chapter20_ex4_Parameter_Count.sh.log.status,$(CHECKED))
BAD_CHECKS  := $(filter %/all_bad_input.sh.log.status,$(CHECKED))
TEST_CHECKS := $(filter %.cpp.log.status,$(CHECKED))
$(TINY_CHECKS): $(TINY)
$(CH15_CHECKS): $(CH15)
$(EX4_CHECKS): $(filter %/ex4_Parameter_Count$(EXE),$(PROGRAMS))
# The bad-input cases run the programs tests/fixtures/bad_input.tsv names (first column).
BAD_INPUT_PROGRAMS := $(filter $(patsubst %,$(BUILD)/%$(EXE),$(shell cut -f1 tests/fixtures/bad_input.tsv 2> /dev/null)),$(PROGRAMS))
$(BAD_CHECKS): $(BAD_INPUT_PROGRAMS)
$(TEST_CHECKS): $(BUILD)/checks/%.cpp.log.status: $(BUILD)/%$(EXE)
# A golden's run needs its program: tests/golden/chapter15/studies/lab5_runs@seeds.txt, chapter15/studies/lab5_runs.
GOLDEN_CHECKS := $(filter $(BUILD)/checks/tests/golden/%,$(CHECKED))
program_of = $(BUILD)/$(firstword $(subst @, ,$(patsubst $(BUILD)/checks/tests/golden/%.txt.log.status,%,$(1))))$(EXE)
$(foreach golden,$(GOLDEN_CHECKS),$(eval $(golden): $(call program_of,$(golden))))
TINY_GOLDENS := $(foreach golden,$(GOLDEN_CHECKS),$(if $(findstring /golden/chapter_tiny/,$(golden)),$(golden)))
$(filter-out $(TINY_CHECKS) $(CH15_CHECKS) $(EX4_CHECKS) $(BAD_CHECKS) $(TEST_CHECKS) $(GOLDEN_CHECKS),$(CHECKED)): $(TRAINERS) $(TESTBINS) $(PROGRAMS)

# In this order: make starts the jobs of its first pass in the order listed,
# waiting for a free core before each; a check whose programs are still
# compiling when make reaches it has to wait for the next pass, after the
# last compile has started. So each group of checks comes a few compiles
# after the programs it runs, and the checks and the compiles share the cores.
# (The bad-input check runs chapter 15's and chapter_tiny's programs and one
# exercise: that one is built early, and the check comes after chapter 20's lessons.)
CH20     := $(filter-out %/exercises/%,$(filter $(BUILD)/chapter20/%,$(PROGRAMS)))
test: $(TINY) $(filter-out $(TINY) $(CH15),$(BAD_INPUT_PROGRAMS)) $(TESTBINS) $(TINY_CHECKS) $(TINY_GOLDENS) \
      $(BUILD)/chapter15/studies/lab5_runs$(EXE) $(CH15) $(TEST_CHECKS) $(CH15_CHECKS) $(CH20) $(BAD_CHECKS) \
      $(GOLDEN_CHECKS) all $(CHECKED)
	@CHECKS_RUN=1 RUN="$(RUN)" EXERCISES="$(EXERCISES)" bash tests/run_tests.sh $(BUILD)

# Rewrites every golden from the current programs: for deliberate changes only.
golden: all
	@bash tests/run_tests.sh $(BUILD) --golden

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
