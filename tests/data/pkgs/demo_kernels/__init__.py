"""A tiny installable-style package of Triton kernels, for tests of ``package.module:function``."""
