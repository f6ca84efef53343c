"""What irscope talks about, as plain data: kernels and kernel references, targets, stages, GPUs, launches."""
