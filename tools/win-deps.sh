#!/usr/bin/env bash
# Static jansson, zstd, zlib and TRE (POSIX regex) for the Windows build (make windows).
# Debian has no MinGW packages of jansson, zstd and a regex library, so this fetches Debian's
# own SOURCE packages with apt-get (a private source list and state under
# DIR: nothing is installed, no root needed, nothing but Debian's mirror is
# contacted) and cross-builds them with MinGW-w64 into DIR/prefix.
#   tools/win-deps.sh DIR        (default build-win/deps)
# Needs: apt-get, dpkg-source (dpkg-dev), cmake, gcc-mingw-w64-x86-64-win32.
# GD_DEBIAN_MIRROR overrides http://deb.debian.org/debian.
set -eu
dir=$(realpath -m "${1:-build-win/deps}")
prefix=$dir/prefix
[ -f "$prefix/.done" ] && exit 0
mirror=${GD_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-bookworm}")
mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/src"
echo "deb-src $mirror ${suite:-bookworm} main" >"$dir/apt/sources.list"
apt=(apt-get -q -o "Dir::Etc::SourceList=$dir/apt/sources.list"
  -o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=$dir/apt/lists"
  -o "Dir::Cache=$dir/apt/cache" -o Debug::NoLocking=1
  -o APT::Sandbox::User="$(id -un)")
"${apt[@]}" update >/dev/null
(cd "$dir/src" && "${apt[@]}" source jansson libzstd zlib tre >/dev/null 2>&1) ||
  { echo "win-deps: apt-get source jansson libzstd zlib tre failed (see $dir)" >&2; exit 1; }

tc=$(realpath "$(dirname "$0")/../cmake/mingw-w64.cmake")
cm() { # source-dir build-dir options...
  local s=$1 b=$2; shift 2
  cmake -S "$s" -B "$b" -DCMAKE_TOOLCHAIN_FILE="$tc" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_POLICY_DEFAULT_CMP0091=NEW "$@" >/dev/null
  cmake --build "$b" -j"${JOBS:-2}" >/dev/null
  cmake --install "$b" >/dev/null
}
src() { find "$dir/src" -maxdepth 1 -type d -name "$1-*" | head -n1; }
cm "$(src jansson)" "$dir/b-jansson" -DJANSSON_BUILD_DOCS=OFF \
  -DJANSSON_WITHOUT_TESTS=ON -DJANSSON_EXAMPLES=OFF -DJANSSON_BUILD_SHARED_LIBS=OFF
# zstd: only the decoder is used (compressed offload bundles); its lib
# Makefile builds the static library without the C++ the CMake build wants.
zs=$(src libzstd)
make -C "$zs/lib" -j"${JOBS:-2}" libzstd.a CC=x86_64-w64-mingw32-gcc \
  AR=x86_64-w64-mingw32-ar CPPFLAGS=-DZSTD_DISABLE_ASM ZSTD_LIB_COMPRESSION=0 \
  ZSTD_LIB_DICTBUILDER=0 ZSTD_LEGACY_SUPPORT=0 ZSTD_NO_ASM=1 >/dev/null
mkdir -p "$prefix/include" "$prefix/lib/pkgconfig"
cp "$zs/lib/zstd.h" "$zs/lib/zstd_errors.h" "$prefix/include/"
cp "$zs/lib/libzstd.a" "$prefix/lib/"
printf 'prefix=%s\nName: libzstd\nDescription: zstd\nVersion: 1\nCflags: -I${prefix}/include\nLibs: -L${prefix}/lib -lzstd\n' \
  "$prefix" >"$prefix/lib/pkgconfig/libzstd.pc"
# zlib: Debian's dfsg source drops win32/, so its few files are compiled here.
z=$(src zlib)
mkdir -p "$dir/b-zlib"
for f in adler32 compress crc32 deflate gzclose gzlib gzread gzwrite infback \
  inffast inflate inftrees trees uncompr zutil; do
  x86_64-w64-mingw32-gcc -O2 -c "$z/$f.c" -o "$dir/b-zlib/$f.o"
done
rm -f "$prefix/lib/libz.a"
x86_64-w64-mingw32-ar rcs "$prefix/lib/libz.a" "$dir"/b-zlib/*.o
cp "$z/zlib.h" "$z/zconf.h" "$prefix/include/"
# TRE: POSIX regcomp/regexec (MinGW-w64 has none), byte-oriented, as the
# kb's signature patterns and try --expect need; its regex.h maps the POSIX
# names onto tre_*.
t=$(src tre)
mkdir -p "$dir/b-tre"
printf '#define HAVE_SYS_TYPES_H 1\n#define TRE_VERSION "0.8.0"\n' >"$dir/b-tre/tre-config.h"
printf '#include "tre-config.h"\n#define TRE_REGEX_T_FIELD value\n' >"$dir/b-tre/config.h"
for f in regcomp regerror regexec tre-ast tre-compile tre-match-backtrack \
  tre-match-parallel tre-mem tre-parse tre-stack; do
  x86_64-w64-mingw32-gcc -O2 -DHAVE_CONFIG_H -I"$dir/b-tre" -I"$t/lib" \
    -w -c "$t/lib/$f.c" -o "$dir/b-tre/$f.o"
done
rm -f "$prefix/lib/libtre.a"
x86_64-w64-mingw32-ar rcs "$prefix/lib/libtre.a" "$dir"/b-tre/*.o
cp "$t/lib/regex.h" "$t/lib/tre.h" "$dir/b-tre/tre-config.h" "$prefix/include/"
# relocatable: a build-win/ copied or moved elsewhere still finds its deps
sed -i 's|^prefix=.*|prefix=${pcfiledir}/../..|' "$prefix"/lib/pkgconfig/*.pc
touch "$prefix/.done"
echo "win-deps: static jansson, zstd, zlib, TRE in $prefix"
