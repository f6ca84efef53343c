"""``irscope report``: the kernels of a program capture, their predicted times, reasons and verdicts."""
