// #ttg.linear layouts of Triton's test/TritonGPU/amd/amd-scaled-upcast-gfx1250.mlir (triton-lang/triton 63068fcc274c; see README.md):
// its lit modules that name one, cut down by gather_lit_linear.py.

// lit module 6
#packed = #ttg.linear<{register = [[0, 1], [0, 2], [0, 8], [0, 4]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [], block = []}>
#unpacked = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 16], [0, 8]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [], block = []}>
#scale = #ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx1250", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cvt_scale_pk8_bf16_fp4_interleaved(%output: tensor<32x32x!tt.ptr<bf16>, #unpacked>, %x: tensor<32x16xi8, #packed>, %scale: tensor<32x2xi8, #scale>) {
    %up = amdg.scaled_upcast_fp4 %x scale %scale {axis = 1 : i32} : tensor<32x16xi8, #packed>, tensor<32x2xi8, #scale> -> tensor<32x32xbf16, #unpacked>
    tt.store %output, %up : tensor<32x32x!tt.ptr<bf16>, #unpacked>
    tt.return
  }
}
