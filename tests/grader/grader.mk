# The course's targets: the exercises' handout and their grading
# (tests/grader/README.md). Included by the Makefile.
#   make check-exercise EX=20.3 SRC=student.cpp   grade one file (SEED=N replays, RESULTS=results.json)
#   make handout [OUT=dir] [EX=id]                the starters, statements and headers (default handout/)
#   make exercises DIR=folder                     grade every exercise file in a folder
#   make check-exercises-all                      every exercise's grader checks (.ci/run runs it)
#   make gradescope EX=20.3 [OUT=dir]             the autograder zip to upload to Gradescope
#   make grade-class DIR=export [OUT=grades]      a class's export (folder or .zip) graded: grades.csv, reports, copies
#                    [HANDOUT=handout]            against the handout the class was given (its VERSION)
.PHONY: check-exercise handout exercises check-exercises-all gradescope grade-class

# GNU make exits 2 whenever a recipe fails, so the grader's own status (0 full
# marks, 1 below, 2 a usage mistake) is printed here; scripts run grade.sh itself.
check-exercise:
	@CXX="$(CXX)" CXXFLAGS="$(CXXFLAGS)" HANDOUT="$(HANDOUT)" bash tests/grader/grade.sh "$(EX)" "$(SRC)"; status=$$?; \
	if [ $$status -ne 0 ]; then echo "check-exercise: the grader's status is $$status ($$( [ $$status -eq 1 ] && \
	echo 'below full marks' || echo 'a usage mistake')); make reports its own 2" \
	"(for 0/1/2 run bash tests/grader/grade.sh)" >&2; fi; \
	exit $$status

handout:
	@bash tests/grader/handout.sh "$(or $(OUT),handout)" $(EX)

exercises:
	@CXX="$(CXX)" CXXFLAGS="$(CXXFLAGS)" bash tests/grader/grade.sh --folder "$(DIR)"

check-exercises-all:
	@bash tests/grader/check_all.sh

gradescope:
	@SEED="$(SEED)" bash tests/grader/gradescope.sh "$(EX)" "$(OUT)"

grade-class:
	@CXX="$(CXX)" CXXFLAGS="$(CXXFLAGS)" SEED="$(SEED)" JOBS="$(JOBS)" SANDBOX="$(SANDBOX)" ROSTER="$(ROSTER)" \
	  HANDOUT="$(HANDOUT)" bash tests/grader/grade_class.sh "$(DIR)" "$(or $(OUT),grades)" $(EX)

help::
	@echo "make check-exercise EX=20.3 SRC=student.cpp   grade one exercise file (SEED=N, RESULTS=file)"
	@echo "make handout    the exercises' starters, statements and headers, in OUT=handout/"
	@echo "make exercises DIR=folder   grade every exercise file in a folder, and say which is next"
	@echo "make check-exercises-all    the grader's checks for every exercise (slow; .ci/run runs it)"
	@echo "make gradescope EX=20.3     the autograder zip for Gradescope (OUT=dir)"
	@echo "make grade-class DIR=export a class's Moodle or Canvas export or zip graded into OUT=grades/ (EX=, ROSTER=)"
	@echo "                 HANDOUT=dir   against the handout the class was given (its folder or zip)"
