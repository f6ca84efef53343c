"""From what a command names to a capture: resolve, read the store, or hand a job to compile/."""
