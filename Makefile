# gpudoctor: a thin wrapper around CMake.
#   make          build build/gpudoctor
#   make run      install missing build deps, build, run gpudoctor
#   make test     install missing build+test deps, run the whole suite:
#                 unit + end-to-end tests, an ASan/UBSan build of them,
#                 and a short run of every fuzz target
#   make fuzz-long  every fuzz target to 10 M inputs (FUZZ_RUNS=; hours)
#   make install  PREFIX=/usr/local DESTDIR=
#   make deb      a Debian package (cpack -G DEB) in build-deb/, control shown
#   make static   build-static/gpudoctor with jansson, zstd, zlib linked in
#   make windows  cross-build build-win/gpudoctor.exe with MinGW-w64 (static;
#                 jansson/zstd/zlib/TRE from Debian source packages, see
#                 tools/win-deps.sh and README's Windows section)
#   make wheel    dist/gpudoctor-*-manylinux_2_X_*.whl and -win_amd64.whl:
#                 the Python package with the program inside, written by
#                 tools/make_wheel.py (no build backend needed)
PREFIX ?= /usr/local
DESTDIR ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
FUZZ_SECONDS ?= 15

.PHONY: all run test deps test-deps check-build asan fuzz fuzz-long install clean deb static windows wheel

all: build/gpudoctor

build/Makefile:
	cmake -S . -B build -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)

# make test and CI: warnings are errors (GD_WERROR is off for everyone else)
WERROR = -DGD_WERROR=ON

build/gpudoctor: build/Makefile FORCE
	cmake --build build -j$(JOBS)

FORCE:

deps:
	tools/install-deps.sh build

test-deps:
	tools/install-deps.sh test

# Exit codes 1 (GPU not usable as is) and 2 (no GPU) are verdicts, not
# failures of `make run`; 3 is gpudoctor's own error.
run: deps
	$(MAKE) all
	@./build/gpudoctor; rc=$$?; [ $$rc -le 2 ] || exit $$rc

# The suite: normal build, then sanitizers, then fuzzing. Stops at the
# first failing stage.
test: test-deps
	cmake -S . -B build -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(WERROR) $(CMAKE_FLAGS)
	$(MAKE) all
	$(MAKE) windows
	cd build && ctest --output-on-failure -j$(JOBS)
	cd build-win && ctest --output-on-failure
	$(MAKE) asan
	$(MAKE) fuzz

asan:
	cmake -S . -B build-asan -DGD_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug $(WERROR) $(CMAKE_FLAGS)
	cmake --build build-asan -j$(JOBS)
	cd build-asan && export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 && \
	  ctest --output-on-failure -j$(JOBS) -L unit && \
	  ctest --output-on-failure -j$(JOBS) -R 'script/test_(fixtures|gather|list)$$'

fuzz:
	CC=clang cmake -S . -B build-fuzz -DGD_FUZZ=ON -DGD_FUZZ_SECONDS=$(FUZZ_SECONDS) $(WERROR) $(CMAKE_FLAGS)
	cmake --build build-fuzz -j$(JOBS)
	cd build-fuzz && ctest --output-on-failure -j$(JOBS) -L fuzz

# Every fuzz target to FUZZ_RUNS inputs, one after another (hours; not in
# CI). Per-target figures: tests/README.md.
FUZZ_RUNS ?= 10000000
fuzz-long:
	CC=clang cmake -S . -B build-fuzz -DGD_FUZZ=ON $(CMAKE_FLAGS)
	cmake --build build-fuzz -j$(JOBS)
	set -e; for src in tests/fuzz/fuzz_*.c; do \
	  n=$$(basename $$src .c); \
	  echo "== $$n: $(FUZZ_RUNS) runs"; \
	  bash tests/fuzz/run-fuzzer.sh "$$PWD/build-fuzz/tests/$$n" \
	    "$$PWD/tests/fuzz/corpus/$$n" 0 $(FUZZ_RUNS); \
	done

install: all
	DESTDIR=$(DESTDIR) cmake --install build --prefix $(PREFIX)

# A package installs under /usr: its own build tree, configured for that
# prefix (the program looks for the installed kb file there).
deb:
	cmake -S . -B build-deb -DCMAKE_INSTALL_PREFIX=/usr -DBUILD_TESTING=OFF $(CMAKE_FLAGS)
	cmake --build build-deb -j$(JOBS)
	cd build-deb && cpack -G DEB
	dpkg-deb -I build-deb/gpudoctor_*.deb | grep -E '^ (Package|Version|Architecture|Depends|Recommends):'

static:
	cmake -S . -B build-static -DGD_STATIC_DEPS=ON -DBUILD_TESTING=OFF $(CMAKE_FLAGS)
	cmake --build build-static -j$(JOBS) --target gpudoctor
	@readelf -d build-static/gpudoctor | grep NEEDED

# The knowledge-base generator runs on this machine, so the native build
# comes first.
WIN_DEPS = $(CURDIR)/build-win/deps/prefix
windows: build/gpudoctor
	tools/win-deps.sh build-win/deps
	PKG_CONFIG_LIBDIR=$(WIN_DEPS)/lib/pkgconfig PKG_CONFIG_PATH= \
	  cmake -S . -B build-win -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake \
	  -DGD_WIN_DEPS=$(WIN_DEPS) -DGD_HOST_KBGEN=$(CURDIR)/build/gd_kbgen $(CMAKE_FLAGS)
	PKG_CONFIG_LIBDIR=$(WIN_DEPS)/lib/pkgconfig cmake --build build-win -j$(JOBS)

# Wheels with the program inside (python/README.md): the static Linux
# program (glibc dynamic: the manylinux tag follows its GLIBC_ symbols)
# and the Windows exe.
wheel: static windows
	python3 tools/make_wheel.py --binary build-static/gpudoctor --out dist
	python3 tools/make_wheel.py --binary build-win/gpudoctor.exe --out dist

clean:
	rm -rf build build-asan build-fuzz build-static build-deb build-win dist
