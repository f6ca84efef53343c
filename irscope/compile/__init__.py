"""Driving Triton: the only package that imports triton (and only when its functions run)."""
