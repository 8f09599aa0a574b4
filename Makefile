# Every program is one .cpp in a chapter folder; pattern rules build each into
# build/, mirroring the folders. Adding a lesson needs no line here.
#   make run       build and run every lesson in book order
#   make test      build, run and check everything; ends with "N passed, M failed"
#   make help      every target

CXX      ?= g++
OPT      ?= -O2
SAN      ?=
CXXFLAGS  = -std=c++17 $(OPT) $(SAN) -Wall -Wextra -Wpedantic -Werror -ffp-contract=off -Icommon
LDLIBS    = -pthread
BUILD    ?= build

SOURCES  := $(sort $(wildcard chapter*/*.cpp chapter*/*/*.cpp))
PROGRAMS := $(patsubst %.cpp,$(BUILD)/%,$(SOURCES))
TESTSRC  := $(sort $(wildcard tests/*.cpp))
TESTBINS := $(patsubst %.cpp,$(BUILD)/%,$(TESTSRC))
HEADERS  := $(wildcard common/*.hpp chapter*/*.hpp chapter*/*/*.hpp tests/*.hpp)

.PHONY: all run test golden sanitize matrix bench fuzz data train-tiny seed-study clean help check-exercise handout \
        exercises check-exercises-all gradescope
.DEFAULT_GOAL := all

# tiny_train's fast build: the same source with AVX2 (eight floats per
# instruction) where this machine has it; `make FAST=` leaves it out. The other
# two builds are for tests/check_tiny_fast.sh, which checks that all three write
# the same checkpoint bytes: one at -O0 without FAST, one at -O0 with the plain
# struct Lanes that compilers other than g++ and clang++ get (common/lanes.hpp).
FAST     ?= $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && echo -mavx2)
$(BUILD)/chapter_tiny/tiny_train: CXXFLAGS += $(FAST)
TRAINERS := $(BUILD)/portable/tiny_train $(BUILD)/portable/tiny_train_plain_lanes

all: $(PROGRAMS) $(TESTBINS) $(TRAINERS)

# A program sees common/ and its own folder's headers.
$(BUILD)/%: %.cpp $(HEADERS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -I$(dir $<) $< -o $@ $(LDLIBS)

$(BUILD)/portable/tiny_train: chapter_tiny/tiny_train.cpp $(HEADERS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -O0 -Ichapter_tiny $< -o $@ $(LDLIBS)

$(BUILD)/portable/tiny_train_plain_lanes: chapter_tiny/tiny_train.cpp $(HEADERS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -O0 -DLANES_PLAIN -Ichapter_tiny $< -o $@ $(LDLIBS)

run: all
	@bash tests/run_lessons.sh $(BUILD)

test: all
	@bash tests/run_tests.sh $(BUILD)

# Rewrites every golden from the current programs: for deliberate changes only.
golden: all
	@bash tests/run_tests.sh $(BUILD) --golden

sanitize:
	@$(MAKE) --no-print-directory test BUILD=build/sanitize OPT="-O1 -g" \
	  SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

# The same goldens must pass with both compilers at both optimisation levels.
matrix:
	@set -e; for cxx in g++ clang++; do for opt in -O0 -O2; do \
	  echo "== $$cxx $$opt"; \
	  $(MAKE) --no-print-directory test CXX=$$cxx OPT=$$opt BUILD=build/$$cxx$$opt; \
	done; done

bench: all
	@bash tests/bench.sh $(BUILD)

# libFuzzer on the file loaders, FUZZ_SECONDS each (needs clang++); outside make test.
FUZZ_SECONDS ?= 60
fuzz:
	@bash tests/fuzz/run.sh $(FUZZ_SECONDS)

# Exercises (tests/grader/README.md):
#   make check-exercise EX=20.3 SRC=student.cpp   grade one file (SEED=N replays, RESULTS=results.json)
#   make handout [OUT=dir]                        the starters, statements and headers (default handout/)
#   make exercises DIR=folder                     grade every exercise file in a folder
#   make check-exercises-all                      every exercise's grader checks (.ci/run runs it)
#   make gradescope EX=20.3 [OUT=dir]             the autograder zip to upload to Gradescope
check-exercise:
	@CXX="$(CXX)" CXXFLAGS="$(CXXFLAGS)" bash tests/grader/grade.sh "$(EX)" "$(SRC)"

handout:
	@bash tests/grader/handout.sh "$(or $(OUT),handout)"

exercises:
	@CXX="$(CXX)" CXXFLAGS="$(CXXFLAGS)" bash tests/grader/exercises.sh "$(DIR)"

check-exercises-all:
	@bash tests/grader/check_all.sh

# Gradescope's autograder for one exercise: make gradescope EX=20.3 [OUT=dir] (and dir.zip)
gradescope:
	@bash tests/grader/gradescope.sh "$(EX)" "$(OUT)"

data:
	@mkdir -p data
	curl -fL -o data/tinyshakespeare.txt.part \
	  https://raw.githubusercontent.com/karpathy/char-rnn/master/data/tinyshakespeare/input.txt
	mv data/tinyshakespeare.txt.part data/tinyshakespeare.txt

# The shipped checkpoint, from scratch (a few minutes on 2 cores; see chapter_tiny/README.md).
TINY_RECIPE := --steps 12000 --batch 32 --lr 0.01
TINY_SEED   := 1
train-tiny: $(BUILD)/chapter_tiny/tiny_train
	$(BUILD)/chapter_tiny/tiny_train $(TINY_RECIPE) --seed $(TINY_SEED) --out chapter_tiny/shakespeare.tiny

# The shipped recipe from several seeds, and how each run's heads compare with the chapter's.
SEEDS ?= 1 2 3 4 5 6 7 8
seed-study: $(BUILD)/chapter_tiny/tiny_train $(BUILD)/chapter_tiny/tiny_3_Several_Readers
	@TINY_RECIPE="$(TINY_RECIPE)" bash tests/tiny_seed_study.sh $(BUILD) $(SEEDS)

clean:
	rm -rf build

help:
	@echo "make            build every program into $(BUILD)/"
	@echo "make run        build and run every lesson in book order"
	@echo "make test       build, run every program, diff against tests/golden, run the checks"
	@echo "make golden     rewrite the golden files (deliberate output changes only)"
	@echo "make sanitize   the tests again under AddressSanitizer + UndefinedBehaviorSanitizer"
	@echo "make matrix     the tests with g++ and clang++, each at -O0 and -O2"
	@echo "make bench      time the programs that train"
	@echo "make check-exercise EX=20.3 SRC=student.cpp   grade one exercise file (SEED=N, RESULTS=file)"
	@echo "make handout    the exercises' starters, statements and headers, in OUT=handout/"
	@echo "make exercises DIR=folder   grade every exercise file in a folder, and say which is next"
	@echo "make check-exercises-all    the grader's checks for every exercise (slow; .ci/run runs it)"
	@echo "make gradescope EX=20.3     the autograder zip for Gradescope (OUT=dir)"
	@echo "make fuzz       libFuzzer on the file loaders, FUZZ_SECONDS=60 each"
	@echo "make data       download tiny Shakespeare into data/ (for training only)"
	@echo "make train-tiny train the tiny Shakespeare model into chapter_tiny/shakespeare.tiny"
	@echo "make seed-study train that recipe from SEEDS=\"1 ... 8\" and compare the heads with the chapter's"
	@echo "make clean      remove build/"
	@echo "Variables: CXX=clang++  OPT=-O0  BUILD=dir"
