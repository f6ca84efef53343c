"""A package whose public module re-exports a kernel defined in another module, for ``pkg.ops:twice``."""
