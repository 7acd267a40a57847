#!/usr/bin/env bash
# Release builds: (1) GD_STATIC_DEPS links jansson, zstd and zlib into the
# binary (glibc stays dynamic: the probes dlopen the GPU runtimes), and the
# result still works; (2) `cpack -G DEB` makes a package whose control file
# names it and its dependencies, for the normal build and the static one.
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}" "${GD_BINDIR:?}"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL: $*"; fail=1; }
fix="$GD_SRCDIR/tests/fixtures"
command -v dpkg-deb >/dev/null || { echo "SKIP: no dpkg-deb"; exit 77; }

# the static build: its own tree, kept between runs so a rerun is quick
st="$GD_BINDIR/test-static"
if ! { cmake -S "$GD_SRCDIR" -B "$st" -DGD_STATIC_DEPS=ON -DBUILD_TESTING=OFF \
         -DCMAKE_INSTALL_PREFIX=/usr > "$tmp/cfg" 2>&1 &&
       cmake --build "$st" -j"$(nproc)" --target gpudoctor > "$tmp/build" 2>&1; }; then
  bad "static build failed"; tail -20 "$tmp/cfg" "$tmp/build"; exit 1
fi
needed=$(readelf -d "$st/gpudoctor" | awk '/NEEDED/ { gsub(/[][]/, "", $NF); print $NF }')
echo "static build NEEDED: $(echo $needed)"
grep -Eq 'libjansson|libzstd|libz\.' <<< "$needed" && bad "static build still needs: $needed"
grep -q 'libc\.so' <<< "$needed" || bad "static build does not link glibc dynamically: $needed"
ldd "$st/gpudoctor" | grep -Eq 'libjansson|libzstd|libz\.so' && bad "ldd shows a dynamic jansson/zstd/zlib"
# ... and the dynamic build does need them (the check above means something)
readelf -d "$GPUDOCTOR" | grep -q 'libjansson' || bad "the normal build has no libjansson in NEEDED"
"$st/gpudoctor" --root "$fix/rx5700xt/root" list --json > "$tmp/list.json" 2>/dev/null
jq -e '.gpus[0].gfx == "gfx1010"' "$tmp/list.json" >/dev/null || bad "static build: list on rx5700xt"
"$st/gpudoctor" --version | grep -q '(knowledge base [0-9-]*)' || bad "static build: --version"

# packages: the normal build and the static one
deb_check() { # build dir, label, "dependency that must be there", "must not"
  local dir=$1 what=$2 want=$3 not=$4 deb info
  rm -rf "$tmp/deb" && mkdir -p "$tmp/deb"
  (cd "$dir" && cpack -G DEB -B "$tmp/deb" > "$tmp/cpack" 2>&1) || { bad "$what: cpack -G DEB failed"; tail -20 "$tmp/cpack"; return; }
  deb=$(ls "$tmp/deb"/gpudoctor_*.deb 2>/dev/null | head -1)
  [ -n "$deb" ] || { bad "$what: no gpudoctor_*.deb"; return; }
  info=$(dpkg-deb -I "$deb")
  grep -q '^ Package: gpudoctor$' <<< "$info" || bad "$what: control has no 'Package: gpudoctor'"
  grep -q '^ Version: [0-9]' <<< "$info" || bad "$what: no Version"
  grep -q "^ Depends:.*$want" <<< "$info" || bad "$what: Depends lacks $want: $(grep Depends <<< "$info")"
  [ -z "$not" ] || ! grep -q "^ Depends:.*$not" <<< "$info" || bad "$what: Depends has $not"
  dpkg-deb -c "$deb" > "$tmp/files"
  for f in bin/gpudoctor share/man/man1/gpudoctor.1 share/gpudoctor/gpudoctor-kb.json \
           share/bash-completion/completions/gpudoctor share/zsh/site-functions/_gpudoctor \
           share/fish/vendor_completions.d/gpudoctor.fish share/doc/gpudoctor/LICENSE; do
    grep -q "/$f\$" "$tmp/files" || bad "$what: the package lacks $f"
  done
  echo "$what: $(basename "$deb"): $(grep '^ Depends' <<< "$info")"
}
deb_check "$GD_BINDIR" "normal build" "libjansson4" ""
deb_check "$st" "static build" "libc6" "libjansson"
echo "package: $([ $fail = 0 ] && echo ok || echo failed)"
[ "$fail" = 0 ]
