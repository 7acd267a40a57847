#!/bin/sh
# Test double: succeeds only when HSA_OVERRIDE_GFX_VERSION=10.3.0 is set
# (the gfx1010 workaround that worked up to ROCm 5.2), fails otherwise.
if [ "${HSA_OVERRIDE_GFX_VERSION-}" = 10.3.0 ]; then
	echo "override ok"
	exit 0
fi
echo "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"
exit 1
