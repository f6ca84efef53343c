// #ttg.linear layouts of Triton's test/TritonGPU/accelerate-matmul.mlir (triton-lang/triton 63068fcc274c; see README.md):
// its lit modules that name one, cut down by gather_lit_linear.py.

// lit module 17
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 4], threadsPerWarp = [1, 1, 1, 8, 4], warpsPerCTA = [1, 1, 1, 4, 1], order = [4, 3, 2, 1, 0]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 4], threadsPerWarp = [1, 1, 8, 4, 1], warpsPerCTA = [1, 1, 4, 1, 1], order = [4, 3, 2, 1, 0]}>
#blocked5 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 4], threadsPerWarp = [1, 4, 8, 1, 1], warpsPerCTA = [1, 1, 4, 1, 1], order = [4, 1, 2, 3, 0]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[32, 0], [64, 0], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mmav5_scale_desc_tma(
      %a: tensor<128x128xi8, #blocked2>,
      %b: tensor<64x128xi8, #blocked>,
      %scale_a_desc: !tt.tensordesc<1x1x1x32x16xi8>,
      %scale_b_desc: !tt.tensordesc<1x1x1x32x16xi8>,
      %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %c0_i32 = arith.constant 0 : i32
    %scale_a0 = tt.descriptor_load %scale_a_desc[%c0_i32, %c0_i32, %c0_i32, %c0_i32, %c0_i32] : !tt.tensordesc<1x1x1x32x16xi8> -> tensor<1x1x1x32x16xi8, #blocked3>
    %scale_a1 = tt.reshape %scale_a0 : tensor<1x1x1x32x16xi8, #blocked3> -> tensor<1x1x32x4x4xi8, #blocked4>
    %scale_a2 = tt.trans %scale_a1 {order = array<i32: 0, 3, 2, 1, 4>} : tensor<1x1x32x4x4xi8, #blocked4> -> tensor<1x4x32x1x4xi8, #blocked5>
    %scale_a3 = tt.reshape %scale_a2 : tensor<1x4x32x1x4xi8, #blocked5> -> tensor<128x4xi8, #linear>
    %scale_a4 = ttg.convert_layout %scale_a3 : tensor<128x4xi8, #linear> -> tensor<128x4xi8, #blocked1>
    %scale_b0 = tt.descriptor_load %scale_b_desc[%c0_i32, %c0_i32, %c0_i32, %c0_i32, %c0_i32] : !tt.tensordesc<1x1x1x32x16xi8> -> tensor<1x1x1x32x16xi8, #blocked3>
    %scale_b1 = tt.reshape %scale_b0 : tensor<1x1x1x32x16xi8, #blocked3> -> tensor<1x1x32x4x4xi8, #blocked4>
    %scale_b2 = tt.trans %scale_b1 {order = array<i32: 0, 3, 2, 1, 4>} : tensor<1x1x32x4x4xi8, #blocked4> -> tensor<1x4x32x1x4xi8, #blocked5>
    %scale_b3 = tt.reshape %scale_b2 : tensor<1x4x32x1x4xi8, #blocked5> -> tensor<128x4xi8, #linear>
    %scale_b4 = ttg.convert_layout %scale_b3 : tensor<128x4xi8, #linear> -> tensor<128x4xi8, #blocked1>
    %d = tt.dot_scaled %a scale %scale_a4, %b scale %scale_b4, %c lhs = e4m3 rhs = e2m1 {fastMath = false} : tensor<128x128xi8, #blocked2>, tensor<128x4xi8, #blocked1> * tensor<64x128xi8, #blocked>, tensor<128x4xi8, #blocked1> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// lit module 18
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 4], threadsPerWarp = [1, 1, 8, 4, 1], warpsPerCTA = [1, 1, 4, 1, 1], order = [4, 3, 2, 1, 0]}>
#blocked5 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 4], threadsPerWarp = [1, 4, 8, 1, 1], warpsPerCTA = [1, 1, 4, 1, 1], order = [4, 1, 2, 3, 0]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[32, 0], [64, 0], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mmav5_scale_load_2d_tmem_copy(
      %a: tensor<128x128xi8, #blocked2>,
      %b: tensor<64x128xi8, #blocked>,
      %scale_a_ptr: tensor<1x512x!tt.ptr<i8>, #blocked3>,
      %scale_b_ptr: tensor<1x512x!tt.ptr<i8>, #blocked3>,
      %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %scale_a0 = tt.load %scale_a_ptr : tensor<1x512x!tt.ptr<i8>, #blocked3>
    %scale_a1 = tt.reshape %scale_a0 : tensor<1x512xi8, #blocked3> -> tensor<1x1x32x4x4xi8, #blocked4>
    %scale_a2 = tt.trans %scale_a1 {order = array<i32: 0, 3, 2, 1, 4>} : tensor<1x1x32x4x4xi8, #blocked4> -> tensor<1x4x32x1x4xi8, #blocked5>
    %scale_a3 = tt.reshape %scale_a2 : tensor<1x4x32x1x4xi8, #blocked5> -> tensor<128x4xi8, #linear>
    %scale_b0 = tt.load %scale_b_ptr : tensor<1x512x!tt.ptr<i8>, #blocked3>
    %scale_b1 = tt.reshape %scale_b0 : tensor<1x512xi8, #blocked3> -> tensor<1x1x32x4x4xi8, #blocked4>
    %scale_b2 = tt.trans %scale_b1 {order = array<i32: 0, 3, 2, 1, 4>} : tensor<1x1x32x4x4xi8, #blocked4> -> tensor<1x4x32x1x4xi8, #blocked5>
    %scale_b3 = tt.reshape %scale_b2 : tensor<1x4x32x1x4xi8, #blocked5> -> tensor<128x4xi8, #linear>
    %d = tt.dot_scaled %a scale %scale_a3, %b scale %scale_b3, %c lhs = e4m3 rhs = e2m1 {fastMath = false} : tensor<128x128xi8, #blocked2>, tensor<128x4xi8, #linear> * tensor<64x128xi8, #blocked>, tensor<128x4xi8, #linear> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// lit module 27
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 4], threadsPerWarp = [1, 1, 8, 4, 1], warpsPerCTA = [1, 1, 4, 1, 1], order = [4, 3, 2, 1, 0]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 4], threadsPerWarp = [1, 4, 8, 1, 1], warpsPerCTA = [1, 1, 4, 1, 1], order = [4, 1, 2, 3, 0]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[32, 0], [64, 0], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mmav5_block_scaled_5d_scale(%a: tensor<128x128xi8, #blocked2>, %scale_a_ptr: tensor<1x1x32x4x4x!tt.ptr<i8>, #blocked3>, %b: tensor<128x128xi8, #blocked>, %scale_b_ptr: tensor<1x1x32x4x4x!tt.ptr<i8>, #blocked3>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %scale_a_5d = tt.load %scale_a_ptr: tensor<1x1x32x4x4x!tt.ptr<i8>, #blocked3>
    %scale_a_trans = tt.trans %scale_a_5d {order = array<i32: 0, 3, 2, 1, 4>} : tensor<1x1x32x4x4xi8, #blocked3> -> tensor<1x4x32x1x4xi8, #blocked4>
    %scale_a = tt.reshape %scale_a_trans : tensor<1x4x32x1x4xi8, #blocked4> -> tensor<128x4xi8, #linear>
    %scale_b_5d = tt.load %scale_b_ptr: tensor<1x1x32x4x4x!tt.ptr<i8>, #blocked3>
    %scale_b_trans = tt.trans %scale_b_5d {order = array<i32: 0, 3, 2, 1, 4>} : tensor<1x1x32x4x4xi8, #blocked3> -> tensor<1x4x32x1x4xi8, #blocked4>
    %scale_b = tt.reshape %scale_b_trans : tensor<1x4x32x1x4xi8, #blocked4> -> tensor<128x4xi8, #linear>
    %d = tt.dot_scaled %a scale %scale_a, %b scale %scale_b, %cst lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x128xi8, #blocked2>, tensor<128x4xi8, #linear> * tensor<128x128xi8, #blocked>, tensor<128x4xi8, #linear> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
    }
}
