#!/usr/bin/env bash
# Runs a Windows program of the build under Wine, in a prefix of its own
# (BUILDDIR/wineprefix, created once by a time-bounded `wineboot -i`).
#   tools/wine-run.sh BUILDDIR PROGRAM.exe [ARGS...]
# Exit 77 (skipped) when Wine is not installed.
set -u
bdir=$1; shift
# wine64 itself before the wine wrapper: Debian's wrapper says "wine32 is
# missing" on every call when only wine64 is installed.
wine=$(command -v wine64 || true)
if [ -z "$wine" ]; then
  for w in /usr/lib/wine/wine64 "$(command -v wine || true)" /usr/lib/wine/wine; do
    [ -n "$w" ] && [ -x "$w" ] && wine=$w && break
  done
fi
[ -n "$wine" ] || { echo "skipped: wine not installed (Debian: wine64)"; exit 77; }
export WINEPREFIX=$(realpath -m "$bdir/wineprefix") WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml="   # no Mono/Gecko install dialogs
# Wine's own machine only: no X or Wayland display, so no GPU of the host
# shows up as a Wine display adapter ("no GPU" is the expected answer).
unset DISPLAY WAYLAND_DISPLAY
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  mkdir -p "$WINEPREFIX"
  boot=$(command -v wineboot || echo "$(dirname "$wine")/wineboot")
  WINE=$wine timeout 180 "$boot" -i >/dev/null 2>&1 ||
    timeout 180 "$wine" wineboot -i >/dev/null 2>&1 || true
  # the registry files are written when the wineserver exits, after wineboot
  srv=$(command -v wineserver || echo "$(dirname "$wine")/wineserver")
  [ -x "$srv" ] || srv=/usr/lib/wine/wineserver
  timeout 60 "$srv" -w >/dev/null 2>&1 || true
  [ -f "$WINEPREFIX/system.reg" ] || { echo "wine-run: wineboot -i failed in $WINEPREFIX" >&2; exit 1; }
fi
# Once per prefix (also one made before these settings existed):
if [ ! -f "$WINEPREFIX/.gd-crash-settings" ]; then
  # a crashing test child must end, not wait in a crash dialog
  timeout 60 "$wine" reg add 'HKCU\Software\Wine\WineDbg' /v ShowCrashDialog \
    /t REG_DWORD /d 0 /f >/dev/null 2>&1 || true
  # ...and no winedbg either: it would write its report into the crashed
  # child's output, which the supervisor tests read
  timeout 60 "$wine" reg add 'HKLM\Software\Microsoft\Windows NT\CurrentVersion\AeDebug' \
    /v Debugger /t REG_SZ /d 'cmd /c exit 0' /f >/dev/null 2>&1 || true
  touch "$WINEPREFIX/.gd-crash-settings"
fi
# A wineserver that stays 20 s after its last client: without one every
# call starts a fresh session, whose desktop (explorer) waits ~10 s for a
# display there is none of; with it, a call costs about a second.
srv=$(command -v wineserver || echo "$(dirname "$wine")/wineserver")
[ -x "$srv" ] || srv=/usr/lib/wine/wineserver
"$srv" -p20 >/dev/null 2>&1 || true
exec timeout 240 "$wine" "$@"
