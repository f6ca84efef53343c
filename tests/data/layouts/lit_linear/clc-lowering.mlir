// #ttg.linear layouts of Triton's test/TritonNvidiaGPU/clc-lowering.mlir (triton-lang/triton 63068fcc274c; see README.md):
// its lit modules that name one, cut down by gather_lit_linear.py.

// lit module 1 (Triton's Python parser refuses its ops of no dialect, which the RUN line allows: the result-less ones go, the others are in functions left out)
#regs = #ttg.linear<{register = [[1]], lane = [[0], [0], [0], [0], [0]], warp = [[0], [0]], block = []}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @lower_1cta(%pid_x0: i32, %pid_y0: i32, %pid_z0: i32, %work0: i1) {
    scf.while (%pid_x = %pid_x0, %pid_y = %pid_y0, %pid_z = %pid_z0, %work = %work0) : (i32, i32, i32, i1) -> (i32, i32, i32) {
      scf.condition(%work) %pid_x, %pid_y, %pid_z : i32, i32, i32
    } do {
    ^bb0(%pid_x: i32, %pid_y: i32, %pid_z: i32):
      %response = ttng.clc_try_cancel_sync : tensor<2xi64, #regs>
      %marker = ttg.local_alloc %response {alignment = 16 : i32} : (tensor<2xi64, #regs>) -> !ttg.memdesc<2xi64, #shared, #smem, mutable>
      %raw = ttng.clc_load_result %marker : !ttg.memdesc<2xi64, #shared, #smem, mutable> -> i128
      %next_work = ttng.clc_is_canceled %raw : i128 -> i1
      %next_x = scf.if %next_work -> i32 {
        %stolen = ttng.clc_get_program_id %raw, x : i128 -> i32
        scf.yield %stolen : i32
      } else {
        scf.yield %pid_x : i32
      }
      %next_y = scf.if %next_work -> i32 {
        %stolen = ttng.clc_get_program_id %raw, y : i128 -> i32
        scf.yield %stolen : i32
      } else {
        scf.yield %pid_y : i32
      }
      %next_z = scf.if %next_work -> i32 {
        %stolen = ttng.clc_get_program_id %raw, z : i128 -> i32
        scf.yield %stolen : i32
      } else {
        scf.yield %pid_z : i32
      }
      scf.yield %next_x, %next_y, %next_z, %next_work : i32, i32, i32, i1
    }
    tt.return
  }
}
