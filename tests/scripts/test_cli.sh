#!/usr/bin/env bash
# The command line as a user meets it: help on every command, errors and
# exit codes, colour rules, the man page, bash completion, `make install`.
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}" "${GD_BINDIR:?}"
gd=$GPUDOCTOR
fail=0 n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok()   { n=$((n + 1)); }
bad()  { n=$((n + 1)); fail=$((fail + 1)); echo "FAIL: $*"; }
expect_rc() { # want, description, command...
  local want=$1 what=$2; shift 2
  "$@" > "$tmp/out" 2> "$tmp/err"; local rc=$?
  if [ "$rc" = "$want" ]; then ok; else bad "$what: exit $rc, want $want"; head -3 "$tmp/err"; fi
}

for c in check list probe scan run try env explain report gather kb; do
  expect_rc 0 "$c --help" "$gd" "$c" --help
  grep -q "Usage: gpudoctor" "$tmp/out" && ok || bad "$c --help has no Usage line"
  expect_rc 0 "help $c" "$gd" help "$c"
done
expect_rc 0 "--help" "$gd" --help
for c in check list probe scan run try env explain report gather kb; do
  grep -q "^  $c " "$tmp/out" && ok || bad "--help does not list $c"
done
expect_rc 0 "--version" "$gd" --version
grep -q '^gpudoctor [0-9]' "$tmp/out" && ok || bad "--version output"

expect_rc 3 "unknown command" "$gd" frobnicate
grep -q "unknown command 'frobnicate'" "$tmp/err" && ok || bad "unknown command message"
expect_rc 3 "unknown option" "$gd" list --frobnicate
expect_rc 3 "--root without value" "$gd" list --root
expect_rc 3 "--root to a missing dir" "$gd" --root /nonexistent/dir list
grep -q "cannot use root '/nonexistent/dir'" "$tmp/err" && ok || bad "missing root message: $(cat "$tmp/err")"
[ "$(wc -l < "$tmp/err")" = 1 ] && ok || bad "missing root: not a one-line error"

fix="$GD_SRCDIR/tests/fixtures"
# colour: never when not a terminal, always on request, never with NO_COLOR
"$gd" --root "$fix/rx5700xt/root" check --no-probe > "$tmp/plain" 2>/dev/null
grep -q $'\033\[' "$tmp/plain" && bad "colour escapes when stdout is not a terminal" || ok
"$gd" --root "$fix/rx5700xt/root" --color=always check --no-probe > "$tmp/col" 2>/dev/null
grep -q $'\033\[' "$tmp/col" && ok || bad "--color=always gave no colour"
if command -v script >/dev/null; then
  NO_COLOR=1 script -qec "$gd --root $fix/rx5700xt/root check --no-probe" /dev/null > "$tmp/tty" 2>&1
  grep -q $'\033\[' "$tmp/tty" && bad "NO_COLOR ignored on a terminal" || ok
  script -qec "$gd --root $fix/rx5700xt/root check --no-probe" /dev/null > "$tmp/tty2" 2>&1
  grep -q $'\033\[' "$tmp/tty2" && ok || bad "no colour on a terminal"
fi
# global options after the command, and GPUDOCTOR_ROOT
"$gd" list --root "$fix/rx5700xt/root" --json | jq -e '.gpus[0].gfx == "gfx1010"' >/dev/null && ok || bad "--root after the command"
GPUDOCTOR_ROOT="$fix/rx5700xt/root" "$gd" --json list | jq -e '.gpus[0].gfx == "gfx1010"' >/dev/null && ok || bad "GPUDOCTOR_ROOT"

# exit codes of check: works / not usable / no GPU
expect_rc 2 "check on a machine with no GPU" "$gd" --root "$fix/no-gpu/root" check --no-probe
expect_rc 1 "check on an unsupported GPU" "$gd" --root "$fix/rx5700xt/root" check --no-probe
expect_rc 0 "check on a working NVIDIA GPU" "$gd" --root "$fix/nvidia-h200/root" check --no-probe

# report is Markdown; report --json is the check document
"$gd" --root "$fix/rx5700xt/root" report --no-probe > "$tmp/r.md" 2>/dev/null
grep -q '^# gpudoctor report' "$tmp/r.md" && grep -q '^### AMD Radeon RX 5700' "$tmp/r.md" && ok || bad "report Markdown"
"$gd" --root "$fix/rx5700xt/root" --json report --no-probe | jq -e '.command == "check" and .gpus[0].verdict.status == "workaround"' >/dev/null && ok || bad "report --json"

# man page renders without warnings
if command -v groff >/dev/null; then
  groff -man -ww -z "$GD_BINDIR/gpudoctor.1" 2> "$tmp/groff" && [ ! -s "$tmp/groff" ] && ok || { bad "man page warnings"; cat "$tmp/groff"; }
fi
# bash completion completes commands and options; it asks the program
# (gpudoctor __complete), so ours goes first on PATH
mkdir -p "$tmp/bin" && ln -s "$gd" "$tmp/bin/gpudoctor" && export PATH="$tmp/bin:$PATH"
out=$(bash -c "source '$GD_SRCDIR/completion/gpudoctor.bash'; COMP_WORDS=(gpudoctor li); COMP_CWORD=1; _gpudoctor; echo \${COMPREPLY[*]}")
[ "$out" = "list" ] && ok || bad "completion of 'li': '$out'"
out=$(bash -c "source '$GD_SRCDIR/completion/gpudoctor.bash'; COMP_WORDS=(gpudoctor probe --ba); COMP_CWORD=2; _gpudoctor; echo \${COMPREPLY[*]}")
[ "$out" = "--backend" ] && ok || bad "completion of 'probe --ba': '$out'"

# make install's files (cmake --install, as `make install` runs it)
if DESTDIR="$tmp/dest" cmake --install "$GD_BINDIR" --prefix /usr/local > "$tmp/inst" 2>&1; then
  for f in bin/gpudoctor share/man/man1/gpudoctor.1 share/gpudoctor/gpudoctor-kb.json \
           share/bash-completion/completions/gpudoctor; do
    [ -f "$tmp/dest/usr/local/$f" ] && ok || bad "install: no $f"
  done
  # the tracer is a library: lib/gpudoctor/, nothing but the program in bin/
  [ -f "$tmp/dest/usr/local/lib/gpudoctor/libgpudoctor-trace.so" ] && ok || bad "install: no lib/gpudoctor/libgpudoctor-trace.so"
  [ "$(ls "$tmp/dest/usr/local/bin")" = gpudoctor ] && ok || bad "install: bin/ holds $(ls "$tmp/dest/usr/local/bin")"
  # every docs/X.md the man page names is installed, and the page says where
  for d in $(grep -o 'docs/[a-z-]*\.md' "$tmp/dest/usr/local/share/man/man1/gpudoctor.1" | sort -u); do
    [ -f "$tmp/dest/usr/local/share/doc/gpudoctor/$d" ] && ok || bad "install: man page names $d, not installed"
  done
  grep -q '/usr/local/share/doc/gpudoctor/docs/' "$tmp/dest/usr/local/share/man/man1/gpudoctor.1" && ok ||
    bad "install: the man page does not say where docs/ is"
  "$tmp/dest/usr/local/bin/gpudoctor" --kb "$tmp/dest/usr/local/share/gpudoctor/gpudoctor-kb.json" kb gfx1010 >/dev/null 2>"$tmp/err" && ok || bad "installed kb file does not load"
  [ -s "$tmp/err" ] && bad "installed kb warned: $(cat "$tmp/err")" || ok
else
  bad "cmake --install failed"; cat "$tmp/inst"
fi
echo "cli: $n checks, $fail failed"
[ "$fail" = 0 ]
