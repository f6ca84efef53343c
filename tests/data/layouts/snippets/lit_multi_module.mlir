// RUN: triton-opt %s -split-input-file -tritongpu-remove-layout-conversions | FileCheck %s
// Hand-written in the style of Triton's test/TritonGPU/*.mlir lit tests: several modules, the same
// alias names defined again in each.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @transpose_like
  tt.func @transpose_like(%arg0: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked1> {
    %0 = ttg.convert_layout %arg0 : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    tt.return %0 : tensor<32x32xf32, #blocked1>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @second
  tt.func @second(%arg0: tensor<512xf32, #blocked>, %arg1: tensor<64x64xf16, #mma>) {
    tt.return
  }
}
