#!/usr/bin/env bash
# Completion as each shell meets it: the bash and fish wrappers in
# completion/ ask `gpudoctor __complete`, which answers from the option
# tables the parser uses. Also: every value the tables offer is accepted,
# and every option of the tables is in the man page (they cannot drift).
# zsh: tests/scripts/test_completion_zsh.sh (skipped without zsh).
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}" "${GD_BINDIR:?}"
gd=$GPUDOCTOR
fail=0 n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok()  { n=$((n + 1)); }
bad() { n=$((n + 1)); fail=$((fail + 1)); echo "FAIL: $*"; }
# the wrappers run `gpudoctor` as the user typed it: put ours first on PATH
mkdir -p "$tmp/bin" && ln -s "$gd" "$tmp/bin/gpudoctor"
export PATH="$tmp/bin:$PATH"
comp="$GD_SRCDIR/completion"
fix="$GD_SRCDIR/tests/fixtures"
commands=$(gpudoctor __complete "" | cut -f1)
backends=$(gpudoctor __complete probe --backend "" | sort | tr '\n' ' ')
[ "$backends" = "all cuda hip levelzero opencl vulkan " ] && ok || bad "backends from the probe table: '$backends'"
for c in check list probe scan run try env explain report gather kb; do
  grep -qx "$c" <<< "$commands" && ok || bad "__complete does not offer $c"
done
grep -q '^__' <<< "$commands" && bad "__complete offers a hidden command" || ok
gpudoctor --help | grep -q __complete && bad "--help lists __complete" || ok

# bash: the function is registered, and answers through COMP_WORDS
bcomp() { # COMP_CWORD, words...
  local cw=$1; shift
  bash -c 'source "$1"; shift; cw=$1; shift; COMP_WORDS=("$@"); COMP_CWORD=$cw; _gpudoctor; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$comp/gpudoctor.bash" "$cw" "$@" | sort | tr '\n' ' '
}
out=$(bash -c "source '$comp/gpudoctor.bash'; complete -p gpudoctor")
[ "$out" = "complete -F _gpudoctor gpudoctor" ] && ok || bad "bash complete -p: '$out'"
out=$(bcomp 1 gpudoctor "")
for c in check list probe scan run try env explain report gather kb; do
  [[ " $out" == *" $c "* ]] && ok || bad "bash: '' does not offer $c: $out"
done
[ "$(bcomp 1 gpudoctor pro)" = "probe " ] && ok || bad "bash: 'pro': $(bcomp 1 gpudoctor pro)"
[ "$(bcomp 3 gpudoctor probe --backend "")" = "$backends" ] && ok || bad "bash: 'probe --backend ': $(bcomp 3 gpudoctor probe --backend "")"
[ "$(bcomp 3 gpudoctor env --shell fi)" = "fish " ] && ok || bad "bash: 'env --shell fi'"
# bash splits --color=al at '='; the word after it is what gets replaced
[ "$(bcomp 3 gpudoctor --color = al)" = "always " ] && ok || bad "bash: '--color=al': $(bcomp 3 gpudoctor --color = al)"
[ "$(bcomp 2 gpudoctor run --qu)" = "--quiet " ] && ok || bad "bash: 'run --qu'"
# after run's command, options are the user's command's: files, not ours
out=$(cd "$GD_SRCDIR" && bcomp 3 gpudoctor run python3 completion/gpudoctor.b)
[ "$out" = "completion/gpudoctor.bash " ] && ok || bad "bash: files after run's command: '$out'"
out=$(bcomp 3 gpudoctor --root /nonexistent li)
[ "$out" = "list " ] && ok || bad "bash: a global option before the command: '$out'"

# fish: complete -C, as fish runs it on Tab
if command -v fish >/dev/null; then
  fcomp() { fish -c "source '$comp/gpudoctor.fish'; complete -C '$1'" | cut -f1 | sort | tr '\n' ' '; }
  [ "$(fcomp "gpudoctor pro")" = "probe " ] && ok || bad "fish: 'gpudoctor pro': $(fcomp "gpudoctor pro")"
  [ "$(fcomp "gpudoctor probe --backend ")" = "$backends" ] && ok || bad "fish: 'probe --backend ': $(fcomp "gpudoctor probe --backend ")"
  [ "$(fcomp "gpudoctor --color=n")" = "--color=never " ] && ok || bad "fish: '--color=n'"
  [ "$(fcomp "gpudoctor list --verb")" = "--verbose " ] && ok || bad "fish: 'list --verb'"
else
  echo "SKIP: fish not installed (tools/install-deps.sh test installs it)"
fi

# every value offered is one the command takes
for s in $(gpudoctor __complete env --shell ""); do
  "$gd" --root "$fix/rx5700xt/root" env --shell "$s" >/dev/null 2>"$tmp/err" && ok || bad "env --shell $s (offered) refused: $(cat "$tmp/err")"
done
for w in $(gpudoctor __complete --color= | cut -d= -f2); do
  "$gd" --root "$fix/rx5700xt/root" --color="$w" list >/dev/null 2>"$tmp/err"
  [ $? -le 2 ] && ok || bad "--color=$w (offered) refused: $(cat "$tmp/err")"
done
# a backend offered passes --backend's check (the bad --total-timeout after
# it then stops the run before any probe starts)
for b in $backends; do
  "$gd" probe --backend "$b" --total-timeout x >/dev/null 2>"$tmp/err"
  grep -q "bad number of seconds 'x'" "$tmp/err" && ok || bad "probe --backend $b (offered) refused: $(cat "$tmp/err")"
done
"$gd" --color=sometimes list >/dev/null 2>"$tmp/err"
[ $? = 3 ] && grep -qx "gpudoctor: --color takes always, never or auto, not 'sometimes'" "$tmp/err" && ok || bad "--color=sometimes: $(cat "$tmp/err")"

# the man page names every option of every table
man="$GD_BINDIR/gpudoctor.1"
sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\&//g' "$man" > "$tmp/man.txt"
for c in "" $commands; do
  for o in $(gpudoctor __complete $c -- | cut -f1); do
    grep -qE -- "$o([^a-z-]|\$)" "$tmp/man.txt" && ok || bad "man page lacks $o (${c:-gpudoctor})"
  done
done
grep -q '^\.TH GPUDOCTOR 1 "[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]" "gpudoctor [0-9]' "$man" && ok || bad "man .TH line: $(head -1 "$man")"
echo "completion: $n checks, $fail failed"
[ "$fail" = 0 ]
