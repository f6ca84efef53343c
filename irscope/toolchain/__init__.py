"""The tools around Triton: which Triton compiles, and NVIDIA's ptxas / nvdisasm / cuobjdump."""
