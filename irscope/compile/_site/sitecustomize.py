"""Loaded by every Python process that ``irscope capture`` starts (this folder leads PYTHONPATH).

It installs irscope's recording hooks into Triton, then hands over to any other sitecustomize
that the environment had, so the program runs as it would without irscope.
"""

import importlib
import os
import sys

if os.environ.get("IRSCOPE_CAPTURE"):  # irscope.compile.records.SETTINGS_ENV: the hook's settings
    try:
        from irscope.compile import program_hook
        from irscope.compile.records import RecordRefused

        try:
            program_hook.install()
        except RecordRefused as exc:  # settings another irscope wrote: run the program without recording
            sys.stderr.write(f"irscope capture: hooks not installed in {sys.executable}: {exc}\n")
    except ImportError as exc:  # irscope or Triton not importable in this interpreter: run the program anyway
        sys.stderr.write(f"irscope capture: hooks not installed in {sys.executable}: {exc}\n")

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
        # No other sitecustomize: put this one back, as the import that is loading it expects to find it.
        sys.modules["sitecustomize"] = _this
