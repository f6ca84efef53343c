"""A package whose kernel module finds its GPU vendor at import time, as FlagGems does."""
