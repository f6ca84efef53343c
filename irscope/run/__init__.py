"""Running kernels: correctness against torch references (GPU or Triton's interpreter)."""
