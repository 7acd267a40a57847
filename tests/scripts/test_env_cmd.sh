#!/usr/bin/env bash
# `env --shell cmd` and what cmd.exe can take (reliability finding E12):
#  - a tab, which the profile format allows (docs/workarounds.md), is kept:
#    cmd's `set "A=a<TAB>b"` sets it literally;
#  - each value cmd.exe would change is refused, and the message names the
#    character that is actually there (not a list of four).
set -u
G=${GPUDOCTOR:?set GPUDOCTOR to the built binary}
SRC=${GD_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
FX="$SRC/tests/fixtures/rx5700xt/root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
umask 077
fail=0
ok() { echo "ok   - $1"; }
bad() { echo "FAIL - $1"; fail=1; }
prof() { printf '# gpudoctor profile t\nset A=%s\n' "$1" >"$tmp/t.profile"; }
envcmd() {
	env -i PATH=/usr/bin:/bin HOME="$tmp" XDG_CONFIG_HOME="$tmp/cfg" \
		"$G" --root "$FX" env --profile "$tmp/t.profile" --shell cmd \
		>"$tmp/out" 2>"$tmp/err"
}

prof $'a\tb'
envcmd
rc=$?
if [ $rc = 0 ] && grep -qxF $'set "A=a\tb"' "$tmp/out"; then
	ok "a tab is kept: set \"A=a<TAB>b\""
else
	bad "tab: rc $rc: $(cat "$tmp/err") $(head -c 300 "$tmp/out")"
fi

# each refused character, and the name the message must give it
for c in '"' '%' '!' '^'; do
	prof "x${c}y"
	envcmd
	rc=$?
	if [ $rc != 0 ] && grep -qF "A holds $c," "$tmp/err" &&
		[ ! -s "$tmp/out" ]; then
		ok "refused, the message names $c: $(head -1 "$tmp/err")"
	else
		bad "$c: rc $rc: $(cat "$tmp/err")"
	fi
done
exit $fail
