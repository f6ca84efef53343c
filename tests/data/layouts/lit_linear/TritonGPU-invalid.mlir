// #ttg.linear layouts of Triton's test/TritonGPU/invalid.mlir (triton-lang/triton 63068fcc274c; see README.md):
// its lit modules that name one, cut down by gather_lit_linear.py.

// lit module 10 (Triton refuses it: LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases)
#linear_bad_perm = #ttg.linear<{register = [[1], [3]], lane = [], warp = [], block = []}>
module {
  tt.func public @invalid_linear_layout(%arg0: tensor<4xi32, #linear_bad_perm>) {
    tt.return
  }
}

// -----

// lit module 11 (Triton refuses it: LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases)
#linear_bad_after_flatten = #ttg.linear<{register = [[1, 1], [1, 0]], lane = [], warp = [], block = []}>
module {
  tt.func public @invalid_linear_layout_after_flatten(%arg0: tensor<2x2xi32, #linear_bad_after_flatten>) {
    tt.return
  }
}
