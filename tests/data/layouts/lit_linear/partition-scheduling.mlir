// #ttg.linear layouts of Triton's test/TritonGPU/partition-scheduling.mlir (triton-lang/triton 63068fcc274c; see README.md):
// its lit modules that name one, cut down by gather_lit_linear.py.

// lit module 3 (Triton's Python parser refuses its ops of no dialect, which the RUN line allows: the result-less ones go, the others are in functions left out)
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 16]], warp = [[16, 0], [32, 0], [0, 32]], block = []}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32, rank = 3}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @if_stmt_yield_outputs(%lb: i32, %ub: i32, %step: i32,
                                 %a0: i32, %b0: i32,
                                 %arg1: !tt.tensordesc<1x128x64xbf16, #shared> {tt.nv_tma_desc = 1 : i32},
                                 %arg2: !tt.tensordesc<1x64x64xf32, #shared1> {tt.nv_tma_desc = 1 : i32}) {
    %false = arith.constant false
    %true = arith.constant true
    %c0_i32 = arith.constant 0 : i32
    %c3_i32 = arith.constant 3 : i32
    %c128_i32 = arith.constant 128 : i32
    %cst = arith.constant dense<448> : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x64xbf16, #blocked>
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #linear>
    scf.for %arg3 = %lb to %ub step %step : i32 {
      %20 = tt.descriptor_load %arg1[%a0, %b0, %c0_i32] : !tt.tensordesc<1x128x64xbf16, #shared> -> tensor<128x64xbf16, #blocked>
      %22 = arith.cmpi sge, %arg3, %c3_i32 : i32
      %23 = scf.if %22 -> (tensor<128x64xbf16, #blocked>) {
        %32 = arith.muli %arg3, %c128_i32 : i32
        %36 = tt.splat %32 : i32 -> tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
        %38 = arith.cmpi slt, %36, %cst : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
        %39 = tt.expand_dims %38 {axis = 1 : i32} : tensor<128xi1, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi1, #blocked>
        %40 = tt.broadcast %39 : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
        %41 = arith.select %40, %20, %cst_1 : tensor<128x64xi1, #blocked>, tensor<128x64xbf16, #blocked>
        scf.yield %41 : tensor<128x64xbf16, #blocked>
      } else {
        scf.yield %20 : tensor<128x64xbf16, #blocked>
      }
    } {tt.warp_specialize = true}
    scf.for %arg3 = %lb to %ub step %step : i32 {
      %20 = tt.descriptor_load %arg1[%a0, %b0, %c0_i32] : !tt.tensordesc<1x128x64xbf16, #shared> -> tensor<128x64xbf16, #blocked>
      %22 = arith.cmpi sge, %arg3, %c3_i32 : i32
      %23 = scf.if %22 -> (tensor<128x64xbf16, #blocked>) {
        %32 = arith.muli %arg3, %c128_i32 {ttg.partition = array<i32: 0>} : i32
        %36 = tt.splat %32 {ttg.partition = array<i32: 0>} : i32 -> tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
        %38 = arith.cmpi slt, %36, %cst {ttg.partition = array<i32: 0>} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
        %39 = tt.expand_dims %38 {axis = 1 : i32, ttg.partition = array<i32: 0>} : tensor<128xi1, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi1, #blocked>
        %40 = tt.broadcast %39 {ttg.partition = array<i32: 0>} : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
        %41 = arith.select %40, %20, %cst_1 : tensor<128x64xi1, #blocked>, tensor<128x64xbf16, #blocked>
        scf.yield %41 : tensor<128x64xbf16, #blocked>
      } else {
        scf.yield %20 : tensor<128x64xbf16, #blocked>
      }
    } {tt.warp_specialize = true}
    scf.for %arg4 = %lb to %ub step %step : i32 {
      %20 = tt.descriptor_load %arg1[%a0, %b0, %c0_i32] : !tt.tensordesc<1x128x64xbf16, #shared> -> tensor<128x64xbf16, #blocked>
      %22 = arith.cmpi sge, %arg4, %c3_i32 : i32
      %23 = scf.if %22 -> (tensor<128x64xbf16, #blocked>) {
        scf.yield %20 : tensor<128x64xbf16, #blocked>
      } else {
        %32 = arith.muli %arg4, %c128_i32 : i32
        %36 = tt.splat %32 : i32 -> tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
        %38 = arith.cmpi slt, %36, %cst : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
        %39 = tt.expand_dims %38 {axis = 1 : i32} : tensor<128xi1, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi1, #blocked>
        %40 = tt.broadcast %39 : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
        %41 = arith.select %40, %20, %cst_1 : tensor<128x64xi1, #blocked>, tensor<128x64xbf16, #blocked>
        scf.yield %41 : tensor<128x64xbf16, #blocked>
      }
    } {tt.warp_specialize = true}
    tt.return
  }
}

// -----

// lit module 6 (Triton's Python parser refuses its ops of no dialect, which the RUN line allows: the result-less ones go, the others are in functions left out)
#blocked = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 1], threadsPerWarp = [1, 1, 1, 32, 1], warpsPerCTA = [1, 2, 2, 1, 1], order = [3, 2, 1, 0, 4]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64], [128, 0]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#shared_T = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
#shared_scale_tma = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8, rank = 5}>
#shared_scale_a = #ttg.shared_linear<{offset = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 0, 0, 0, 4], [0, 0, 0, 0, 8], [0, 0, 0, 0, 16], [0, 0, 0, 0, 32], [0, 0, 0, 0, 64], [0, 0, 0, 0, 128], [0, 0, 0, 1, 0], [0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 1, 0, 0, 0]]}, alignment = 128>
#shared_scale_a_rs = #ttg.shared_linear<{offset = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 0, 0, 1, 0], [0, 0, 0, 2, 0], [0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0], [0, 1, 0, 0, 0], [0, 2, 0, 0, 0], [1, 0, 0, 0, 0]]}, alignment = 128>
#shared_scale_a_tr = #ttg.shared_linear<{offset = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 1, 0, 0, 0], [0, 2, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 2, 0], [1, 0, 0, 0, 0]]}, alignment = 128>
#shared_scale_a_final = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [32, 0], [64, 0], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4], [0, 8], [128, 0]]}, alignment = 128>
#shared_scale_b = #ttg.shared_linear<{offset = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 0, 0, 0, 4], [0, 0, 0, 0, 8], [0, 0, 0, 0, 16], [0, 0, 0, 0, 32], [0, 0, 0, 0, 64], [0, 0, 0, 0, 128], [0, 0, 0, 1, 0], [0, 0, 1, 0, 0], [0, 0, 2, 0, 0]]}, alignment = 128>
#shared_scale_b_rs = #ttg.shared_linear<{offset = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 0, 0, 1, 0], [0, 0, 0, 2, 0], [0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0], [0, 1, 0, 0, 0], [0, 2, 0, 0, 0]]}, alignment = 128>
#shared_scale_b_tr = #ttg.shared_linear<{offset = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 1, 0, 0, 0], [0, 2, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 2, 0]]}, alignment = 128>
#shared_scale_b_final = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [32, 0], [64, 0], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4], [0, 8]]}, alignment = 128>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
tt.func public @scaled_mma_descriptor_scales(
  %A_shared: !ttg.memdesc<256x128xi8, #shared, #smem>,
  %B_shared: !ttg.memdesc<128x128xi8, #shared_T, #smem>,
  %A_scale_desc: !tt.tensordesc<1x2x4x2x256xf8E4M3FN, #shared_scale_tma>,
  %B_scale_desc: !tt.tensordesc<1x1x4x2x256xf8E4M3FN, #shared_scale_tma>,
  %n_tiles: i32
) {
  %true = arith.constant true
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %acc_tmem, %acc_tok = ttng.tmem_alloc : () -> (!ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
  %loop_out = scf.for %i = %c0_i32 to %n_tiles step %c1_i32 iter_args(
    %iter_acc_tok = %acc_tok
  ) -> (!ttg.async.token) : i32 {
    %A_scale = tt.descriptor_load %A_scale_desc[%c0_i32, %c0_i32, %i, %c0_i32, %c0_i32] : !tt.tensordesc<1x2x4x2x256xf8E4M3FN, #shared_scale_tma> -> tensor<1x2x4x2x256xf8E4M3FN, #blocked>
    %B_scale = tt.descriptor_load %B_scale_desc[%c0_i32, %c0_i32, %i, %c0_i32, %c0_i32] : !tt.tensordesc<1x1x4x2x256xf8E4M3FN, #shared_scale_tma> -> tensor<1x1x4x2x256xf8E4M3FN, #blocked>
    %A_scale_shared = ttg.local_alloc %A_scale : (tensor<1x2x4x2x256xf8E4M3FN, #blocked>) -> !ttg.memdesc<1x2x4x2x256xf8E4M3FN, #shared_scale_a, #smem>
    %B_scale_shared = ttg.local_alloc %B_scale : (tensor<1x1x4x2x256xf8E4M3FN, #blocked>) -> !ttg.memdesc<1x1x4x2x256xf8E4M3FN, #shared_scale_b, #smem>
    %A_scale_rs = ttg.memdesc_reshape %A_scale_shared : !ttg.memdesc<1x2x4x2x256xf8E4M3FN, #shared_scale_a, #smem> -> !ttg.memdesc<2x4x32x4x4xf8E4M3FN, #shared_scale_a_rs, #smem>
    %A_scale_tr = ttg.memdesc_trans %A_scale_rs {order = array<i32: 0, 3, 2, 1, 4>} : !ttg.memdesc<2x4x32x4x4xf8E4M3FN, #shared_scale_a_rs, #smem> -> !ttg.memdesc<2x4x32x4x4xf8E4M3FN, #shared_scale_a_tr, #smem>
    %A_scale_final = ttg.memdesc_reshape %A_scale_tr : !ttg.memdesc<2x4x32x4x4xf8E4M3FN, #shared_scale_a_tr, #smem> -> !ttg.memdesc<256x16xf8E4M3FN, #shared_scale_a_final, #smem>
    %B_scale_rs = ttg.memdesc_reshape %B_scale_shared : !ttg.memdesc<1x1x4x2x256xf8E4M3FN, #shared_scale_b, #smem> -> !ttg.memdesc<1x4x32x4x4xf8E4M3FN, #shared_scale_b_rs, #smem>
    %B_scale_tr = ttg.memdesc_trans %B_scale_rs {order = array<i32: 0, 3, 2, 1, 4>} : !ttg.memdesc<1x4x32x4x4xf8E4M3FN, #shared_scale_b_rs, #smem> -> !ttg.memdesc<1x4x32x4x4xf8E4M3FN, #shared_scale_b_tr, #smem>
    %B_scale_final = ttg.memdesc_reshape %B_scale_tr : !ttg.memdesc<1x4x32x4x4xf8E4M3FN, #shared_scale_b_tr, #smem> -> !ttg.memdesc<128x16xf8E4M3FN, #shared_scale_b_final, #smem>
    %mma_tok = ttng.tc_gen5_mma_scaled %A_shared, %B_shared, %acc_tmem[%iter_acc_tok], %A_scale_final, %B_scale_final, %true, %true lhs = e2m1 rhs = e2m1 : !ttg.memdesc<256x128xi8, #shared, #smem>, !ttg.memdesc<128x128xi8, #shared_T, #smem>, !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<256x16xf8E4M3FN, #shared_scale_a_final, #smem>, !ttg.memdesc<128x16xf8E4M3FN, #shared_scale_b_final, #smem>
    %acc, %load_tok = ttng.tmem_load %acc_tmem[%mma_tok] : !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<256x128xf32, #linear>
    scf.yield %load_tok : !ttg.async.token
  } {tt.warp_specialize}
  tt.return
}
}

// -----

// lit module 8 (Triton's Python parser refuses its ops of no dialect, which the RUN line allows: the result-less ones go, the others are in functions left out)
#clc_ps_response = #ttg.linear<{register = [[1]], lane = [[0], [0], [0], [0], [0]], warp = [[0], [0]], block = []}>
#clc_ps_response_shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#clc_ps_oper = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#clc_ps_acc = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#clc_ps_shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#clc_ps_shared_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#clc_ps_smem = #ttg.shared_memory
#clc_ps_tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @clc_while_partitions(
      %a_desc: !tt.tensordesc<128x64xf16, #clc_ps_shared>,
      %b_desc: !tt.tensordesc<128x64xf16, #clc_ps_shared>,
      %out: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %false = arith.constant false
    %pid0 = tt.get_program_id x : i32
    scf.while (%pid = %pid0, %has_work = %true) : (i32, i1) -> (i32, i1) {
      scf.condition(%has_work) %pid, %has_work : i32, i1
    } do {
    ^bb0(%pid: i32, %has_work: i1):
      %response = ttng.clc_try_cancel_sync : tensor<2xi64, #clc_ps_response>
      %response_smem = ttg.local_alloc %response {alignment = 16 : i32} : (tensor<2xi64, #clc_ps_response>) -> !ttg.memdesc<2xi64, #clc_ps_response_shared, #clc_ps_smem, mutable>
      %a = tt.descriptor_load %a_desc[%pid, %c0] : !tt.tensordesc<128x64xf16, #clc_ps_shared> -> tensor<128x64xf16, #clc_ps_oper>
      %b = tt.descriptor_load %b_desc[%pid, %c0] : !tt.tensordesc<128x64xf16, #clc_ps_shared> -> tensor<128x64xf16, #clc_ps_oper>
      %a_s = ttg.local_alloc %a : (tensor<128x64xf16, #clc_ps_oper>) -> !ttg.memdesc<128x64xf16, #clc_ps_shared, #clc_ps_smem>
      %b_s0 = ttg.local_alloc %b : (tensor<128x64xf16, #clc_ps_oper>) -> !ttg.memdesc<128x64xf16, #clc_ps_shared, #clc_ps_smem>
      %b_s = ttg.memdesc_trans %b_s0 {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #clc_ps_shared, #clc_ps_smem> -> !ttg.memdesc<64x128xf16, #clc_ps_shared_t, #clc_ps_smem>
      %acc_mem, %acc_tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #clc_ps_tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %mma = ttng.tc_gen5_mma %a_s, %b_s, %acc_mem[%acc_tok], %false, %true : !ttg.memdesc<128x64xf16, #clc_ps_shared, #clc_ps_smem>, !ttg.memdesc<64x128xf16, #clc_ps_shared_t, #clc_ps_smem>, !ttg.memdesc<128x128xf32, #clc_ps_tmem, #ttng.tensor_memory, mutable>
      %value, %load_tok = ttng.tmem_load %acc_mem[%mma] : !ttg.memdesc<128x128xf32, #clc_ps_tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #clc_ps_acc>
      %out_ptr = tt.addptr %out, %pid : !tt.ptr<i32>, i32
      tt.store %out_ptr, %pid : !tt.ptr<i32>
      %raw = ttng.clc_load_result %response_smem : !ttg.memdesc<2xi64, #clc_ps_response_shared, #clc_ps_smem, mutable> -> i128
      %next_has_work = ttng.clc_is_canceled %raw : i128 -> i1
      %next_pid = scf.if %next_has_work -> i32 {
        %stolen = ttng.clc_get_program_id %raw, x : i128 -> i32
        scf.yield %stolen : i32
      } else {
        scf.yield %pid : i32
      }
      scf.yield %next_pid, %next_has_work : i32, i1
    } attributes {tt.warp_specialize}
    tt.return
  }
}
