# ptsbench — SSD benchmark and characterization suite (SNIA PTS style)
#
#   make            build build/ptsbench
#   make test       unit + integration tests (cmocka); skips what the machine lacks, loudly
#   make demo       run the main job on the built-in default target
#   make bench      engine speed vs fio (prints ratios; needs root for zram); the results
#                   history at 10,000 runs (import per run, trend and gate queries)
#                   and time to steady state three ways (BENCH_STEADY=--full: the database
#                   mix and the RevoDrive too; 24-hour WSATs cached in build/bench-cache)
#   make sanitize   ASan+UBSan build, then the tests against it
#   make vmtest     the device lab: scenarios in a QEMU guest with real drivers (tests/vmlab/)
#   make equivtest  fio's 107 examples run in full on the simulated drive, then eight of them
#                   against fio in the block layer (scripts/blockeq.py; root, fio)
#   make fuzz       libFuzzer harnesses of every parser (clang), each run FUZZ_SECONDS (60)
#   make install    PREFIX=/usr/local (binary, profiles, pts definitions, traces, docs)

VERSION   := 0.1.0
PREFIX    ?= /usr/local
DESTDIR   ?=
BUILD     ?= build
CC        ?= gcc
SANITIZE  ?= 0
V         ?= 0
ifeq ($(V),0)
Q         := @
else
Q         :=
endif

# Recursively expanded on purpose: pkg-config runs only after the deps stamp exists.
PKG_CFLAGS = $(shell pkg-config --cflags liburing json-c blkid 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs liburing json-c blkid 2>/dev/null)
LIBURING_VERSION = $(shell pkg-config --modversion liburing 2>/dev/null)

WARN      := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wno-format-nonliteral -Wno-format-truncation
OPT       := -O2 -g
ifeq ($(SANITIZE),1)
OPT       := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
SAN_LD    := -fsanitize=address,undefined
endif

CPPFLAGS  += -D_GNU_SOURCE -Isrc \
             -DPTSBENCH_VERSION='"$(VERSION)"' \
             -DPTSBENCH_DATADIR='"$(PREFIX)/share/ptsbench"' \
             -DPTSBENCH_LIBURING_VERSION='"$(LIBURING_VERSION)"'
CFLAGS    += -std=c11 $(OPT) $(WARN) -pthread -MMD -MP $(PKG_CFLAGS)
LDLIBS    += $(PKG_LIBS) -laio -lz -llz4 -lsqlite3 -lnettle -lpthread -lm
LDFLAGS   += $(SAN_LD) -pthread

SRC       := $(wildcard src/*/*.c)
OBJ       := $(SRC:%.c=$(BUILD)/%.o)
LIB_OBJ   := $(filter-out $(BUILD)/src/cli/main.o,$(OBJ))
# The test and bench programs link the library objects from an archive: the linker takes only
# the members a program needs (a unit test a few, not all of them), which made each of the
# ~130 links of `make test` faster (linking them all: 56.5 CPU-seconds with every object, 20.5
# with the archive, on this 2-core machine). No object
# registers itself (no constructors): an archive drops nothing a program uses.
LIB_A     := $(BUILD)/libptsbench.a

UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/unit/%)
INTEG_SRC := $(wildcard tests/integration/test_*.c)
INTEG_BIN := $(INTEG_SRC:tests/integration/%.c=$(BUILD)/tests/integration/%)
TEST_HELPER_OBJ := $(BUILD)/tests/helpers.o $(BUILD)/tests/sim_loop.o

DEPS_STAMP := $(BUILD)/.deps-ok

.SECONDARY:
.PHONY: all test unit integration demo bench sanitize clean install deps fuzz vmtest equivtest
all: $(BUILD)/ptsbench

deps: $(DEPS_STAMP)
$(DEPS_STAMP): scripts/install-deps.sh
	@mkdir -p $(@D)
	@scripts/install-deps.sh
	@touch $@

$(BUILD)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/ptsbench: $(OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(LIB_A): $(LIB_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/tests/unit/%: $(BUILD)/tests/unit/%.o $(TEST_HELPER_OBJ) $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

# forkpty(3): in libutil before glibc 2.34 (an empty stub after it)
$(BUILD)/tests/integration/test_terminal: LDLIBS += -lutil
$(BUILD)/tests/integration/%: $(BUILD)/tests/integration/%.o $(TEST_HELPER_OBJ) $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

$(BUILD)/tests/%.o: tests/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) -Itests $(CFLAGS) -c $< -o $@

# The test programs are built on every core first (about 120 links of the whole library; linked one
# after another, make test took 11m40s in a clean clone on this 2-core machine, 10m46s so), then
# run (tests/run-tests.sh).
test:
	@$(MAKE) --no-print-directory -j$(shell nproc) $(BUILD)/ptsbench $(UNIT_BIN) $(INTEG_BIN)
	@BUILD=$(BUILD) tests/run-tests.sh $(UNIT_BIN) $(INTEG_BIN)

unit: $(BUILD)/ptsbench $(UNIT_BIN)
	@BUILD=$(BUILD) tests/run-tests.sh $(UNIT_BIN)

integration: $(BUILD)/ptsbench $(INTEG_BIN)
	@BUILD=$(BUILD) tests/run-tests.sh $(INTEG_BIN)

# The build uses every core (make demo is the first command on a fresh machine); then the demo.
demo:
	@$(MAKE) --no-print-directory -j$(shell nproc) $(BUILD)/ptsbench
	@scripts/demo.sh $(BUILD)/ptsbench

bench: $(BUILD)/ptsbench $(BUILD)/tests/bench/bench_engines $(BUILD)/tests/bench/bench_sim \
       $(BUILD)/tests/bench/bench_parse $(BUILD)/tests/bench/bench_db \
       $(BUILD)/tests/bench/bench_harness $(BUILD)/tests/bench/bench_fastpc \
       $(BUILD)/tests/bench/bench_steady
	@PTSBENCH=$(BUILD)/ptsbench $(BUILD)/tests/bench/bench_engines
	@PTSBENCH=$(BUILD)/ptsbench PTSBENCH_DATADIR=$(CURDIR) $(BUILD)/tests/bench/bench_sim
	@PTSBENCH=$(BUILD)/ptsbench PTSBENCH_DATADIR=$(CURDIR) $(BUILD)/tests/bench/bench_parse
	@PTSBENCH_DATADIR=$(CURDIR) $(BUILD)/tests/bench/bench_db
	@PTSBENCH=$(BUILD)/ptsbench PTSBENCH_DATADIR=$(CURDIR) $(BUILD)/tests/bench/bench_harness
	@PTSBENCH_DATADIR=$(CURDIR) $(BUILD)/tests/bench/bench_fastpc
	@PTSBENCH=$(BUILD)/ptsbench PTSBENCH_DATADIR=$(CURDIR) BENCH_CACHE=$(BUILD)/bench-cache \
	    $(BUILD)/tests/bench/bench_steady $(BENCH_STEADY)

$(BUILD)/tests/bench/%: $(BUILD)/tests/bench/%.o $(TEST_HELPER_OBJ) $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

sanitize:
	@$(MAKE) --no-print-directory BUILD=build/sanitize SANITIZE=1 test

# fio's examples (issue 47, docs/workloads.md "fio's examples"): every one run with 2-second
# rounds on the simulated drive (the table in $(BUILD)/fio-examples.md; a crash, a timeout or an
# exit other than 0 or 2 fails), then the block-layer equivalence of eight of them with fio (its
# group split checked first on made-up traces: blockeq.py --self-test).
equivtest: $(BUILD)/ptsbench
	@python3 scripts/blockeq.py --self-test
	@PTSBENCH_DATADIR=$(CURDIR) python3 scripts/fio-examples.py --strict \
	    --ptsbench $(BUILD)/ptsbench > $(BUILD)/fio-examples.md
	@PTSBENCH_DATADIR=$(CURDIR) python3 scripts/blockeq.py --aa --ptsbench $(BUILD)/ptsbench

# The device lab (tests/vmlab/README.md): VMLAB_SCENARIOS names scenarios, default all of them.
VMLAB_SCENARIOS ?= $(filter-out lib,$(basename $(notdir $(wildcard tests/vmlab/*.sh))))
vmtest: $(BUILD)/ptsbench
	@scripts/vmlab/run.sh $(VMLAB_SCENARIOS)

# The saved fuzzing regressions are replayed through the harnesses' own entry functions.
$(BUILD)/tests/unit/test_fuzz_regressions: $(BUILD)/tests/unit/test_fuzz_regressions.o \
                                           $(BUILD)/tests/fuzz/fuzz_entry.o $(TEST_HELPER_OBJ) $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

# ---- make fuzz: one libFuzzer harness per parser (tests/fuzz/README.md) ----
# Built by clang with the main build's -D flags and includes, -O1, ASan+UBSan; each harness runs
# FUZZ_SECONDS (FUZZ_JOBS at a time) from the kept corpus (tests/fuzz/corpus/NAME), the saved
# regressions and the fixtures; crashing inputs land in $(FUZZ_BUILD)/crashes/NAME/.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= $(shell nproc 2>/dev/null || echo 1)
FUZZ_BUILD   := $(BUILD)/fuzz
FUZZ_NAMES   := workload profile pts preset sheet fio show measure report plot gate trace
FUZZ_CFLAGS  := -std=c11 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
                -fno-sanitize-recover=undefined $(WARN) -Wno-unknown-warning-option -pthread -MMD -MP
FUZZ_LIB_OBJ := $(LIB_OBJ:$(BUILD)/%.o=$(FUZZ_BUILD)/%.o) $(FUZZ_BUILD)/tests/fuzz/fuzz_entry.o
FUZZ_BIN     := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz_%)

$(FUZZ_BUILD)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CLANG   $<")
	$(Q)$(FUZZ_CC) $(CPPFLAGS) -Itests $(FUZZ_CFLAGS) $(PKG_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/harness-%.o: tests/fuzz/harness.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CLANG   $< ($*)")
	$(Q)$(FUZZ_CC) $(CPPFLAGS) -Itests/fuzz -DFUZZ_TARGET=$* $(FUZZ_CFLAGS) $(PKG_CFLAGS) -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/harness-%.o $(FUZZ_LIB_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -pthread -o $@ $^ $(LDLIBS)

$(FUZZ_BUILD)/%.d: ;

fuzz: $(FUZZ_BIN)
	@FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) \
	    tests/fuzz/run-fuzz.sh $(FUZZ_NAMES)

install: $(BUILD)/ptsbench
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/ptsbench \
	           $(DESTDIR)$(PREFIX)/share/doc/ptsbench
	install -m 0755 $(BUILD)/ptsbench $(DESTDIR)$(PREFIX)/bin/ptsbench
	for d in profiles pts specs reports traces; do if [ -d $$d ]; then cp -r $$d $(DESTDIR)$(PREFIX)/share/ptsbench/; fi; done
	install -m 0644 README.md reports/results-schema.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/ptsbench/

clean:
	rm -rf build

-include $(OBJ:.o=.d) $(UNIT_BIN:=.d) $(INTEG_BIN:=.d) $(BUILD)/tests/fuzz/fuzz_entry.d
-include $(wildcard $(FUZZ_BUILD)/*.d $(FUZZ_BUILD)/*/*.d $(FUZZ_BUILD)/*/*/*.d)
