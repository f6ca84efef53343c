"""A kernel package whose import runs set-up code, as real ones do (device checks, config files).

Each import appends a line to ``$IRSCOPE_TEST_MARKER``; with ``SETUP_KERNELS_BROKEN`` set the import
fails, as a package does on a machine that lacks what it sets up.
"""

import os

if os.environ.get("IRSCOPE_TEST_MARKER"):
    with open(os.environ["IRSCOPE_TEST_MARKER"], "a", encoding="utf-8") as _f:
        _f.write("imported\n")
if os.environ.get("SETUP_KERNELS_BROKEN"):
    raise RuntimeError("setup_kernels: the device set-up this package needs is missing")
