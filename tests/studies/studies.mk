# The tiny model's training: the text, the shipped checkpoint from scratch, and
# the same recipe from several seeds (chapter_tiny/README.md). Included by the Makefile.
.PHONY: data train-tiny seed-study

data:
	@mkdir -p data
	curl -fL -o data/tinyshakespeare.txt.part \
	  https://raw.githubusercontent.com/karpathy/char-rnn/master/data/tinyshakespeare/input.txt
	mv data/tinyshakespeare.txt.part data/tinyshakespeare.txt

# The shipped checkpoint, from scratch (a few minutes on 2 cores).
TINY_RECIPE := --steps 12000 --batch 32 --lr 0.01
TINY_SEED   := 1
train-tiny: $(BUILD)/chapter_tiny/tiny_train$(EXE)
	$(BUILD)/chapter_tiny/tiny_train$(EXE) $(TINY_RECIPE) --seed $(TINY_SEED) --out chapter_tiny/shakespeare.tiny

# The shipped recipe from several seeds, and how each run's heads compare with the chapter's.
SEEDS ?= 1 2 3 4 5 6 7 8
seed-study: $(BUILD)/chapter_tiny/tiny_train$(EXE) $(BUILD)/chapter_tiny/tiny_3_Several_Readers$(EXE)
	@TINY_RECIPE="$(TINY_RECIPE)" bash tests/studies/tiny_seed_study.sh $(BUILD) $(SEEDS)

help::
	@echo "make data       download tiny Shakespeare into data/ (for training only)"
	@echo "make train-tiny train the tiny Shakespeare model into chapter_tiny/shakespeare.tiny"
	@echo "make seed-study train that recipe from SEEDS=\"1 ... 8\" and compare the heads with the chapter's"
