"""A package whose ``__init__`` loads a compiled extension that is not built (as mamba-ssm's sdist does)."""

import unbuilt_kernels_cuda_extension  # noqa: F401  (never built: programs load the Triton modules by path)
