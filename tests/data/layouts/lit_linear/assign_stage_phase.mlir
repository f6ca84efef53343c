// #ttg.linear layouts of Triton's test/NVWS/assign_stage_phase.mlir (triton-lang/triton 63068fcc274c; see README.md):
// its lit modules that name one, cut down by gather_lit_linear.py.

// lit module 4 (Triton's Python parser refuses its ops of no dialect, which the RUN line allows: the result-less ones go, the others are in functions left out)
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
}

// -----

// lit module 8 (Triton's Python parser refuses its ops of no dialect, which the RUN line allows: the result-less ones go, the others are in functions left out)
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
}
