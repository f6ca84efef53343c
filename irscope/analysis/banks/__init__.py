"""Shared-memory bank conflicts: addresses per lane, the bank model, SASS evidence."""
