# Convenience front end over CMake. The two commands of the README:
#   make demo   builds and runs the main job on the best backend present
#   make test   builds and runs every test (GPU tests skip cleanly without a GPU)
# Other targets: configure, build, test-gpu, sanitize, fuzz (FUZZ_SECONDS per target, default
# 30), bench, install (PREFIX=/usr/local), clean.

BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 30
# clang: its UBSan also reports arithmetic on null pointers (NULL + 0), which gcc's does not
SANITIZE_CC ?= clang
PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
CONFIGURE = cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)

.PHONY: all configure build demo test test-gpu sanitize fuzz bench install clean

all: build

# Configures when the build tree has no build system yet (Makefile, or build.ninja with
# CMAKE_FLAGS=-GNinja). A configure that failed half way leaves CMakeCache.txt without one, so
# the cache alone does not count: the next make configures again instead of failing on a
# missing Makefile. Later changes to the CMake files are picked up by the build system itself.
configure:
	@if [ ! -f $(BUILD)/Makefile ] && [ ! -f $(BUILD)/build.ninja ]; then \
		echo "$(CONFIGURE)"; $(CONFIGURE); \
	fi

build: configure
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	sh bench/demo.sh $(BUILD)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-gpu: build
	cd $(BUILD) && ctest --output-on-failure -L gpu

sanitize:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_C_COMPILER=$(SANITIZE_CC) -DCMAKE_BUILD_TYPE=Debug -DBULK_SANITIZE=ON \
	    -DBULK_CUDA=OFF $(CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 BULK_SANITIZED=1 ctest --output-on-failure -j $(JOBS)

# libFuzzer targets (clang), each run FUZZ_SECONDS on its seed corpus; tests/fuzz/run.sh says more.
fuzz:
	BULK_FUZZ_DIR=$(FUZZ_BUILD) BULK_FUZZ_JOBS=$(JOBS) sh tests/fuzz/run.sh $(FUZZ_SECONDS)

bench: build
	BUILD_DIR=$(BUILD) sh bench/run.sh all

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
