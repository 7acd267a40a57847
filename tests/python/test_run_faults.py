"""How the Python package runs gpudoctor when gpudoctor misbehaves
(issue #20 E8, E9), with fake_* stand-ins written here (no real gpudoctor
produces these faults on demand):

E8  deeply nested JSON: detect() and dll_directories() never raise
    (json.loads raises RecursionError), check() raises BadOutputError;
E9  a timeout ends gpudoctor AND what it started (its process group),
    TERM first: a program that forks a helper and hangs leaves nothing;
    one that ignores TERM is KILLed after the grace period, so the call
    returns within timeout + grace; a stdout flood is cut at MAX_OUTPUT
    (the process does not grow by gigabytes, the call returns early);
and the exception kinds: program missing, exit status 3 (with exit_code),
garbage output, timeout; each a GpudoctorError.

Usage: test_run_faults.py TMPDIR (the gpudoctor package on PYTHONPATH)."""
import os
import resource
import signal
import sys
import time

import gpudoctor
from gpudoctor import _run

tmp = sys.argv[1]
fails = []


def fake(name, body):
    p = os.path.join(tmp, name)
    with open(p, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(p, 0o755)
    return p


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is gone for our purposes
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def gone(pid, within=5.0):
    """Whether pid exits within `within` seconds: SIGKILL is delivered
    asynchronously, and on a loaded machine a killed helper may run a
    moment longer; one never signalled stays for its 300 s sleep."""
    end = time.monotonic() + within
    while alive(pid):
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fails.append(what)


# E8: 100,000 nested arrays
deep = fake("fake_gpudoctor_deep",
            'exec python3 -c \'print("[" * 100000 + "]" * 100000)\'')
try:
    d = gpudoctor.detect(binary=deep, timeout=20)
    expect(d.error_kind == "BadOutputError" and d.lines == [gpudoctor.CPU_LINE],
           "E8 detect(): deep JSON is a BadOutputError Detection")
except RecursionError:
    expect(False, "E8 detect() raised RecursionError")
try:
    expect(gpudoctor.dll_directories(binary=deep, timeout=20) == [],
           "E8 dll_directories(): deep JSON gives []")
except RecursionError:
    expect(False, "E8 dll_directories() raised RecursionError")
try:
    gpudoctor.check(binary=deep)
    expect(False, "E8 check() should raise")
except gpudoctor.BadOutputError:
    expect(True, "E8 check(): BadOutputError")

# E9: a helper forked by the program (as a GPU runtime's cuInit does)
pidfile = os.path.join(tmp, "helper.pid")
hang = fake("fake_gpudoctor_fork_hang",
            "sleep 300 & echo $! > %s\nexec sleep 300" % pidfile)
t0 = time.monotonic()
try:
    gpudoctor.check(binary=hang, timeout=1)
    expect(False, "E9 hang: should time out")
except gpudoctor.GpudoctorTimeoutError as e:
    expect(isinstance(e, TimeoutError) and isinstance(e, gpudoctor.GpudoctorError),
           "E9 hang: GpudoctorTimeoutError is a TimeoutError and a GpudoctorError")
took = time.monotonic() - t0
# slack for a loaded machine; what fails is waiting for the 300 s sleep
expect(took < 1 + _run.TERM_GRACE + 5, "E9 hang: returned in %.1fs" % took)
helper = int(open(pidfile).read())
expect(gone(helper), "E9 hang: the forked helper was ended")
if alive(helper):
    os.kill(helper, signal.SIGKILL)

# E9: a program that ignores SIGTERM is killed after the grace period
stubborn = fake("fake_gpudoctor_ignore_term",
                "trap '' TERM\nsleep 300 & echo $! > %s\nwait" % pidfile)
t0 = time.monotonic()
try:
    gpudoctor.check(binary=stubborn, timeout=1)
except gpudoctor.GpudoctorTimeoutError:
    pass
took = time.monotonic() - t0
expect(1 + _run.TERM_GRACE - 0.2 < took < 1 + _run.TERM_GRACE + 5,
       "E9 TERM ignored: KILLed after the grace period (%.1fs)" % took)
helper = int(open(pidfile).read())
expect(gone(helper), "E9 TERM ignored: its helper was ended")
if alive(helper):
    os.kill(helper, signal.SIGKILL)

# E9: a flood of standard output is cut at MAX_OUTPUT
flood = fake("fake_gpudoctor_flood", "exec cat /dev/zero")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.monotonic()
try:
    gpudoctor.check(binary=flood, timeout=30)
    expect(False, "E9 flood: should raise")
except gpudoctor.BadOutputError as e:
    expect("more than" in str(e), "E9 flood: BadOutputError (%s)" % e)
took = time.monotonic() - t0
grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
expect(took < 15, "E9 flood: returned in %.1fs, before the 30 s timeout" % took)
expect(grown < 4 * _run.MAX_OUTPUT / 2**20,
       "E9 flood: the process grew by %.0f MiB (cap %d MiB)"
       % (grown, _run.MAX_OUTPUT >> 20))

# the kinds
try:
    gpudoctor.check(binary=os.path.join(tmp, "nonexistent"))
    expect(False, "missing: should raise")
except gpudoctor.ProgramNotFoundError as e:
    expect(isinstance(e, gpudoctor.GpudoctorError), "missing: ProgramNotFoundError")
err = fake("fake_gpudoctor_error", 'echo "gpudoctor: broken" >&2\nexit 3')
try:
    gpudoctor.check(binary=err)
    expect(False, "exit 3: should raise")
except gpudoctor.ExitStatusError as e:
    expect(e.exit_code == 3 and e.message == "gpudoctor: broken",
           "exit 3: ExitStatusError with exit_code 3 and the message")
garbage = fake("fake_gpudoctor_garbage", "echo not json\nexit 1")
try:
    gpudoctor.check(binary=garbage)
    expect(False, "garbage: should raise")
except gpudoctor.BadOutputError:
    expect(True, "garbage: BadOutputError")

# the developer's hint never lands in the user's line
old = os.environ.pop("GPUDOCTOR_BIN", None)
os.environ["PATH"] = tmp  # no gpudoctor there
d = gpudoctor.detect(binary=None)
if old is not None:
    os.environ["GPUDOCTOR_BIN"] = old
if not gpudoctor.find_binary():
    expect(d.lines == [gpudoctor.CPU_LINE] and "GPUDOCTOR_BIN" in (d.error or "")
           and d.error_kind == "ProgramNotFoundError",
           "missing program: the line is the plain CPU line, the hint in .error")
sys.exit(1 if fails else 0)
