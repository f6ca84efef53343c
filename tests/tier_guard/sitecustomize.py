"""Loaded by the child processes of a test in the quick tier (tests/conftest.py puts this folder on PYTHONPATH).

It installs the tier guard (tier_guard.py), then hands over to any other sitecustomize on the path.
"""

import importlib
import os
import sys

if os.environ.get("IRSCOPE_TEST_NO_COMPILE") or os.environ.get("IRSCOPE_TEST_NO_INTERPRET"):
    import tier_guard

    tier_guard.install()

_here = os.path.dirname(os.path.abspath(__file__))
_saved = list(sys.path)
_this = sys.modules.get(__name__)
try:
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
    sys.modules.pop("sitecustomize", None)
    importlib.import_module("sitecustomize")
except ImportError:
    pass
finally:
    sys.path[:] = _saved
    if "sitecustomize" not in sys.modules and _this is not None:
        sys.modules["sitecustomize"] = _this
