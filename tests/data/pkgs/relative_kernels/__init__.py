"""A kernel package whose kernel reads a constant and a helper through relative imports."""
