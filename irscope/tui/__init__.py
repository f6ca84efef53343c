"""The terminal UI (``irscope tui``): browse kernels, stages and passes with diffs, source and layouts.

Importing this package imports Textual; it never imports Triton or torch (compiles run in a child process).
"""

from __future__ import annotations
