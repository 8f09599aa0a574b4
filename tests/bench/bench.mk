# Timings, never in make test: tests/bench/bench.sh writes them into
# tests/bench/RESULTS.md. Included by the Makefile.
.PHONY: bench compile-times

# AB=path/to/other/tiny_train: that trainer against this one, alternating (tests/bench/bench_tiny.sh).
bench: all $(BUILD)/tests/bench/peak$(EXE)
	@AB="$(AB)" BENCH="$(BENCH)" bash tests/bench/bench.sh $(BUILD)

# CPU seconds to compile each program alone (a lesson should take at most 2 s): REPEAT=3 for the best of 3.
REPEAT ?= 1
compile-times:
	@CXX="$(CXX)" OPT="$(OPT)" TIMED="$(TIMED)" TIMED_OPT="$(TIMED_OPT)" bash tests/bench/compile_times.sh $(REPEAT)

help::
	@echo "make bench      time the programs that train, into tests/bench/RESULTS.md (AB=other/tiny_train: that one against this; BENCH=web,similarity: only those)"
	@echo "make compile-times  CPU seconds to compile each program alone, REPEAT=3 for the best of 3"
