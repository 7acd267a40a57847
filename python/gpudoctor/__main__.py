"""`python -m gpudoctor ARGS`: runs the gpudoctor program this package
finds (GPUDOCTOR_BIN, the bundled copy, PATH) with ARGS, and exits with
its status: `python -m gpudoctor check --brief` as `gpudoctor check
--brief`. 127 when there is no program."""
import os
import subprocess
import sys
from typing import List, Optional

from ._run import NOT_FOUND, find_binary


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    exe = find_binary()
    if not exe:
        sys.stderr.write("python -m gpudoctor: %s\n" % NOT_FOUND)
        return 127
    if sys.platform != "win32":
        sys.stdout.flush()
        try:
            os.execv(exe, [exe] + args)  # signals and tty as the program's
        except OSError as e:
            sys.stderr.write("python -m gpudoctor: cannot run %s: %s\n"
                             % (exe, e))
            return 126
    try:
        return subprocess.call([exe] + args)
    except OSError as e:
        sys.stderr.write("python -m gpudoctor: cannot run %s: %s\n"
                         % (exe, e))
        return 126
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
