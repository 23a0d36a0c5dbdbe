# minitorch-kernel — thin front door over tools/setup.sh, CMake, ctest and the Python suites.
# `make lab` to try the kernel in JupyterLab (it installs only what that needs), `make test` to
# run every test suite (it adds the test tools: tools/debian-test.txt, tools/requirements-test.in).
# GNU make. Extra CMake options: make build CMAKE_ARGS="-DMT_CUDA=OFF".

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
CTEST_ARGS ?=
LAB_ARGS   ?=
# JupyterLab refuses to start as root (containers, CI) unless told so.
LAB_ROOT   := $(if $(filter 0,$(shell id -u)),--allow-root)
VENV       := $(CURDIR)/.venv
PY         := $(VENV)/bin/python
BENCH_VENV := $(CURDIR)/.venv-bench
KERNEL     := build/minitorch-kernel
# the student's build (make lab): the kernel alone, profile-guided, CUDA only with a GPU driver
LAB_KERNEL := build-lab/minitorch-kernel
KERNEL_ASAN := build-asan/minitorch-kernel
CLANG      ?= clang
C_SOURCES   = $(shell find engine kernel tests bench -type f \
                \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) 2>/dev/null | sort)

ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
            UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: help fresh setup setup-test build build-lab install build-asan build-tsan build-clang build-fuzz fuzz fuzz-jit install-kernelspec lab notebook notebooks assignments autograde soak valgrind test bench bench-kernel bench-engine bench-train bench-jit bench-cudasim bench-course bench-instructions bench-networks bench-ab \
        format format-check lock clean distclean

help: ## list the targets
	@echo "minitorch-kernel — a Jupyter kernel in C"
	@echo
	@echo "  make lab      set up, build, install the kernelspec into .venv, start JupyterLab"
	@echo "                (make install-kernelspec: all of that but starting JupyterLab)"
	@echo "  make test     add the test tools, build (release, ASan/UBSan, clang, TSan), run every suite"
	@echo
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
	    awk -F':.*## ' '{ printf "  %-20s %s\n", $$1, $$2 }'

setup: ## install what building and running the kernel needs: Debian packages, .venv with JupyterLab and Notebook
	tools/setup.sh lab

setup-test: ## setup plus the test and benchmark tools (clang, Chromium, valgrind, pytest, ...)
	tools/setup.sh test

# `make test` runs setup-test and the builds below as sub-makes, each timed: NO_SETUP=1 keeps
# each build from running tools/setup.sh again.
SETUP      = $(if $(NO_SETUP),,setup)
SETUP_TEST = $(if $(NO_SETUP),,setup-test)

build: $(SETUP) ## release build of everything in build/ (kernel, libraries, C tests, CUDA with nvcc), profile-guided (tools/build-release.sh; PGO=0: plain)
	JOBS=$(JOBS) tools/build-release.sh $(CMAKE_ARGS)

build-lab: $(SETUP) ## the student's release build in build-lab/: the kernel alone, profile-guided, CUDA only with a GPU driver
	JOBS=$(JOBS) tools/build-release.sh --lab $(CMAKE_ARGS)

build-asan: $(SETUP) ## debug build with AddressSanitizer + UBSan in build-asan/
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DMT_SANITIZE=ON $(CMAKE_ARGS)
	cmake --build build-asan -j$(JOBS)

build-tsan: $(SETUP_TEST) ## ThreadSanitizer build with clang, no OpenMP, in build-tsan/ (for the threaded parts of the kernel)
	CC=$(CLANG) cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMT_TSAN=ON -DMT_OPENMP=OFF $(CMAKE_ARGS)
	cmake --build build-tsan -j$(JOBS) --target minitorch-kernel

build-clang: $(SETUP_TEST) ## release build with clang in build-clang/ (-Werror must hold there too)
	CC=$(CLANG) cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)
	cmake --build build-clang -j$(JOBS)

install-kernelspec: build-lab ## install the "minitorch" kernelspec into .venv (the student's build)
	$(LAB_KERNEL) install --prefix $(VENV)

# A system-wide install (a shared machine, a JupyterHub's image): tools/install.sh says what goes
# where. KERNELSPEC_PREFIX: another Jupyter data prefix for the kernelspec (a hub's environment).
PREFIX ?= /usr/local
KERNELSPEC_PREFIX ?= $(PREFIX)

install: build-lab ## install for every user: the kernel, its kernelspec, the notebooks and minitorch-course (PREFIX=/usr/local)
	tools/install.sh build-lab $(PREFIX) $(KERNELSPEC_PREFIX)

# The lab serves the student's copies of the course notebooks (tools/workcopy.py), which git
# ignores: a Run All and JupyterLab's autosave change them, never the tracked notebooks/.
WORK_COPY := my-notebooks

lab: install-kernelspec ## start JupyterLab on 127.0.0.1 with your copies of the notebooks (my-notebooks/)
	@$(PY) tools/workcopy.py --dest $(WORK_COPY)
	@echo
	@echo "Starting JupyterLab; open the http://127.0.0.1:... URL with the token printed below."
	@echo "Pick the MiniTorch kernel: hello.ipynb, then the course notebooks: m0_fundamentals, m1_autodiff, m2_tensors (Modules 0-2), 01-06 (Module 3), m4_networks (Module 4). Ctrl-C to stop."
	@echo
	$(VENV)/bin/jupyter lab --ip=127.0.0.1 --no-browser --notebook-dir=$(WORK_COPY) $(LAB_ROOT) $(LAB_ARGS)

notebook: install-kernelspec ## start classic Notebook 7 instead of JupyterLab (same set-up and copies)
	@$(PY) tools/workcopy.py --dest $(WORK_COPY)
	@echo
	@echo "Starting Jupyter Notebook; open the http://127.0.0.1:... URL with the token printed below. Ctrl-C to stop."
	@echo
	$(VENV)/bin/jupyter notebook --ip=127.0.0.1 --no-browser --notebook-dir=$(WORK_COPY) $(LAB_ROOT) $(LAB_ARGS)

fresh: ## a fresh copy of one course notebook in my-notebooks/, yours kept beside it: NB=name (say 01_tour)
	@test -n "$(NB)" || { echo "usage: make fresh NB=name (a notebook of notebooks/, say 01_tour)"; exit 2; }
	@$(PY) tools/workcopy.py fresh "$(NB)" --dest $(WORK_COPY)

# The set-up and the builds run first, timed, and stop the run when one fails (the suites need
# them all); then every suite runs even when an earlier one fails, and the table at the end
# gives the seconds of each step and suite, and of the whole run.
#
# What keeps the run short without leaving anything out:
# - ctest runs JOBS tests at once: the tests make their own temporary files and share only
#   njit's compile cache, which concurrent kernels use safely (tests/README.md);
# - valgrind checks JOBS scripts at once (each is one process, checked alone);
# - the protocol suites of build and build-tsan run beside those of build-asan: most of their
#   time is spent waiting (kernels starting and shutting down, replies, time limits), not
#   computing (build's: about a quarter of one core); each starts its kernels from a temporary
#   folder of its own, on ports found free, and checks the same as when run alone; the output
#   of the ones beside comes whole after the other's;
# - the fuzz smoke fuzzes each target for FUZZ_SMOKE_SECONDS after it has run its whole seed
#   corpus (the inputs of past findings), however long that takes, JOBS targets at once (each
#   is one process); `make fuzz` fuzzes longer.
test: ## run all suites: ctest (gcc, clang, sanitized), format, layers, numpy, protocol (also under ASan and TSan), notebooks, nbgrader assignments, browser, JupyterHub, valgrind, fuzz smoke
	@results=(); besides=(); status=0; started=$$SECONDS; \
	step() { \
	    local name=$$1 t0=$$SECONDS; shift; \
	    echo; echo "==== $$name"; \
	    if "$$@"; then results+=("$$name|done $$((SECONDS - t0)) s"); \
	    else echo "make test: $$name failed after $$((SECONDS - t0)) s; no suite ran"; exit 1; fi; \
	}; \
	suite() { \
	    local name=$$1 t0=$$SECONDS; shift; \
	    echo; echo "==== $$name"; \
	    if "$$@"; then results+=("$$name|PASS $$((SECONDS - t0)) s"); \
	    else results+=("$$name|FAIL $$((SECONDS - t0)) s"); status=1; fi; \
	}; \
	beside() { \
	    local name=$$1 out; shift; out=$$(mktemp -d); \
	    ( t0=$$SECONDS; if "$$@" >"$$out/log" 2>&1; then r=PASS; else r=FAIL; fi; \
	      echo "$$r $$((SECONDS - t0)) s" >"$$out/result" ) & \
	    besides+=("$$name|$$out|$$!"); \
	}; \
	collect() { \
	    local b name out pid r; \
	    for b in "$${besides[@]}"; do \
	        IFS='|' read -r name out pid <<< "$$b"; wait "$$pid" || true; \
	        echo; echo "==== $$name (ran beside the suite above)"; cat "$$out/log"; \
	        r=$$(cat "$$out/result" 2>/dev/null || echo "FAIL (no result)"); \
	        results+=("$$name|$$r, beside"); [[ $$r == PASS* ]] || status=1; rm -rf "$$out"; \
	    done; besides=(); \
	}; \
	for b in setup-test build build-asan build-clang build-tsan; do \
	    step "$$b" $(MAKE) --no-print-directory $$b NO_SETUP=1; \
	done; \
	suite "ctest build" ctest --test-dir build -j$(JOBS) --output-on-failure --no-tests=error $(CTEST_ARGS); \
	suite "ctest build-asan" env $(ASAN_ENV) \
	    ctest --test-dir build-asan -j$(JOBS) --output-on-failure --no-tests=error $(CTEST_ARGS); \
	suite "ctest build-clang" ctest --test-dir build-clang -j$(JOBS) --output-on-failure --no-tests=error $(CTEST_ARGS); \
	suite "clang-format" $(MAKE) --no-print-directory format-check; \
	suite "layers (include arrows)" tools/check-layers.py; \
	suite "set-up lists (lab has no test tool)" $(PY) -m pytest -p no:cacheprovider -q tests/setup; \
	suite "differential vs numpy" tests/differential/run.sh build; \
	suite "differential, cuda stand-in" env MT_CUDA_PLUGIN=$(CURDIR)/build/libmt_cuda_standin.so \
	    tests/differential/run.sh build -k cuda; \
	suite "notebooks (nbval)" tools/run-notebook-tests.sh $(KERNEL); \
	suite "assignments (nbgrader)" tools/run-assignment-tests.sh $(KERNEL); \
	suite "browser (Chromium)" tools/run-browser-tests.sh $(KERNEL); \
	suite "JupyterHub (10 students)" tools/run-hub-tests.sh $(KERNEL); \
	suite "valgrind memcheck" env VALGRIND_JOBS=$(JOBS) tools/run-valgrind.sh $(KERNEL); \
	beside "protocol build-tsan" tools/run-protocol-tests.sh build-tsan/minitorch-kernel --sanitized; \
	beside "protocol build" tools/run-protocol-tests.sh $(KERNEL); \
	suite "protocol build-asan" tools/run-protocol-tests.sh $(KERNEL_ASAN) --sanitized; \
	collect; \
	suite "build-fuzz (clang, libFuzzer)" $(MAKE) --no-print-directory build-fuzz NO_SETUP=1; \
	suite "fuzz smoke" $(MAKE) --no-print-directory fuzz NO_SETUP=1 FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS); \
	echo; echo "==== summary (wall time of each step and suite)"; \
	for r in "$${results[@]}"; do printf '  %-36s %s\n' "$${r%|*}" "$${r#*|}"; done; \
	echo "  the whole run (set-up, builds, suites): $$((SECONDS - started)) s"; \
	exit $$status

valgrind: setup-test build ## valgrind memcheck over the language scripts run as sessions (no memory error, no leak)
	VALGRIND_JOBS=$(JOBS) tools/run-valgrind.sh $(KERNEL)

SOAK_ARGS ?=
soak: setup-test build ## soak test: 10,000 mixed execute requests (RSS growth < 2 MB) and 100 start/interrupt/shutdown cycles
	MT_KERNEL_BIN=$(CURDIR)/$(KERNEL) $(PY) tests/soak/soak.py $(SOAK_ARGS)

# make assignments and make autograde set up, build and install the kernel quietly: what they
# print is nbgrader's work. The set-up's and build's log goes to build/kernel-setup.log, and its
# end is printed when they fail.
KERNEL_QUIETLY = @mkdir -p build && { $(MAKE) --no-print-directory install-kernelspec \
	    > build/kernel-setup.log 2>&1 || { tail -n 40 build/kernel-setup.log; \
	    echo "make: setting up or building the kernel failed (whole log: build/kernel-setup.log)"; \
	    exit 1; }; } && echo "kernel: $(LAB_KERNEL), built and installed (log: build/kernel-setup.log)"

assignments: ## release the nbgrader assignments, module0 to module2 (m0_* to m2_*) and module3 (02-06): student versions in course/release/ASSIGNMENT/
	$(KERNEL_QUIETLY)
	@$(PY) tools/assignments.py release

autograde: ## grade a submission with nbgrader: SUBMISSION=dir (a student's notebooks, or a directory per student) [STUDENT=id] [ASSIGNMENT=moduleN]
	@test -n "$(SUBMISSION)" || { echo "usage: make autograde SUBMISSION=dir [STUDENT=id] [ASSIGNMENT=moduleN]"; exit 2; }
	$(KERNEL_QUIETLY)
	@$(PY) tools/assignments.py autograde "$(SUBMISSION)" $(if $(STUDENT),--student "$(STUDENT)") $(if $(ASSIGNMENT),--assignment "$(ASSIGNMENT)")

notebooks: build ## re-run the course notebooks from notebooks/src/*.mt into notebooks/*.ipynb (NB="01_tour ..." for some)
	MT_KERNEL_BIN=$(CURDIR)/$(KERNEL) $(PY) tools/notebooks.py build $(NB)

colab-repo: setup ## point the Colab set-up cells and README badges at github.com/REPO (REPO=owner/name)
	@test -n "$(REPO)" || { echo "usage: make colab-repo REPO=owner/name"; exit 2; }
	$(PY) tools/notebooks.py set-repo $(REPO)

FUZZ_SECONDS ?= 30
FUZZ_SMOKE_SECONDS ?= 10 # per target inside `make test`, after its seed corpus
build-fuzz: $(SETUP_TEST) ## the libFuzzer targets (clang, ASan + UBSan) in build-fuzz/
	CC=$(CLANG) cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMT_BUILD_FUZZ=ON \
	    -DMT_BUILD_TESTS=OFF $(CMAKE_ARGS)
	cmake --build build-fuzz -j$(JOBS)

fuzz: build-fuzz ## build the libFuzzer targets and run each for FUZZ_SECONDS (default 30), with tests/fuzz/NAME.dict, JOBS at once
	tools/run-fuzz.sh $(FUZZ_SECONDS) $(JOBS)

# The fuzzer of compiled code (tests/fuzz/jit_fuzz.py): random njit functions and cuda.jit kernels
# run with many argument values beside the interpreter; tests/differential/test_jit_fuzz.py runs a
# smoke of it. Findings (scripts that reproduce them) go to build/jit-fuzz-findings.
JIT_FUZZ_ARGS ?= --programs 1300 --runs 10000 --cuda-runs 2000 --jobs 2
fuzz-jit: build ## fuzz njit and cuda.jit against the interpreter (JIT_FUZZ_ARGS: 1300 programs, about 10^7 runs)
	$(PY) tests/fuzz/jit_fuzz.py --kernel $(KERNEL) --out build/jit-fuzz-findings $(JIT_FUZZ_ARGS)

bench-kernel: setup-test build ## kernel start-up / round-trip benchmark vs. peer kernels
	$(PY) bench/kernel_bench.py --kernel $(KERNEL)

bench-engine: setup-test build ## engine benchmarks vs numpy and the machine's peaks (ops, matmul, per-op cost)
	cmake --build build -j$(JOBS) --target mt_ops_bench mt_gemm_bench mt_lang_bench
	build/mt_ops_bench --numpy $(PY)
	build/mt_gemm_bench --numpy $(PY)
	build/mt_lang_bench --python $(PY)

bench-train: setup-test build ## MiniTorch Task 3.5 training: fused step vs autodiff ops vs numpy (and PyTorch if installed)
	cmake --build build -j$(JOBS) --target mt_train_bench
	build/mt_train_bench --python $(PY)

bench-jit: build ## students' njit kernels (textbook Task 3.1/3.2) vs the same code under Numba, in .venv-bench
	test -x $(BENCH_VENV)/bin/python || python3 -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/pip install -q -r tools/requirements-bench.txt
	bench/jit/run.sh $(KERNEL) $(BENCH_VENV)/bin/python

bench-cudasim: build ## students' cuda.jit kernels (textbook Task 3.3/3.4) in the kernel's simulator vs Numba's, in .venv-bench
	test -x $(BENCH_VENV)/bin/python || python3 -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/pip install -q -r tools/requirements-bench.txt
	bench/cudasim/run.sh $(KERNEL) $(BENCH_VENV)/bin/python

BEFORE ?=
AB_ARGS ?=
bench-ab: build ## this build against another version's, runs alternating: make bench-ab BEFORE=<its build folder>
	@test -n "$(BEFORE)" || { echo "make bench-ab BEFORE=<the build folder of the version to compare with>"; exit 1; }
	cmake --build build -j$(JOBS) --target mt_ops_bench mt_lang_bench mt_train_bench
	cmake --build $(BEFORE) -j$(JOBS) --target mt_ops_bench mt_lang_bench mt_train_bench
	python3 bench/ab.py $(BEFORE) build $(AB_ARGS)

bench-course: setup-test build ## Tasks 1.5 and 2.5 on a student's own files: the kernel vs the same code under CPython
	$(PY) bench/course/run.py --kernel $(KERNEL) --python $(PY)

bench-instructions: setup-test build ## instructions (callgrind) of Tasks 1.5/2.5's training loops and of single Python operations: the kernel vs CPython
	$(PY) bench/course/instructions.py --kernel $(KERNEL) --python $(PY)

bench-networks: setup-test build ## Module 4: convolutions forward+backward and a digit-classifier epoch, the kernel vs PyTorch (Debian's python3-torch) on the CPU
	bench/networks/run.sh $(KERNEL)

bench: bench-engine bench-train bench-kernel bench-jit bench-cudasim bench-course bench-networks ## all benchmarks

format: ## clang-format the C sources in place
	@command -v clang-format >/dev/null || { echo "clang-format not found (make setup-test installs it)"; exit 1; }
	clang-format -i $(C_SOURCES)

format-check: ## fail if any C source is not clang-formatted
	@command -v clang-format >/dev/null || { echo "clang-format not found (make setup-test installs it)"; exit 1; }
	clang-format --dry-run -Werror $(C_SOURCES)

lock: ## regenerate tools/requirements-{lab,test}.txt from tools/requirements-{lab,test}.in (LOCK_UPGRADE=1: newest versions)
	tools/lock.sh

clean: ## remove build directories
	rm -rf build build-pgo build-lab build-lab-pgo build-asan build-clang build-tsan build-fuzz

distclean: clean ## also remove the Python venv
	rm -rf .venv
