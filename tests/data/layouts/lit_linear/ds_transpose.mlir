// #ttg.linear layouts of Triton's test/Conversion/amd/ds_transpose.mlir (triton-lang/triton 63068fcc274c; see README.md):
// its lit modules that name one, cut down by gather_lit_linear.py.

// lit module 1
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
#linear_ds_tr_tile_out = #ttg.linear<{register = [[0, 1], [0, 2], [0, 8], [0, 4]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [32, 0], [16, 0]], warp = [[0, 0], [0, 0]], block = []}>
#linear_ds_tr_tile_invalid = #ttg.linear<{register = [[0, 1], [0, 2], [0, 8], [0, 4]], lane = [[1, 0], [4, 0], [2, 0], [8, 0], [32, 0], [16, 0]], warp = [[0, 0], [0, 0]], block = []}>
#linear_ds_tr_complex_8contig = #ttg.linear<{register = [[0, 64], [16, 0], [0, 1], [32, 0], [0, 2], [0, 4], [64, 0], [0, 8]], lane = [[1, 0], [2, 0], [4, 0], [0, 16], [8, 0], [0, 32]], warp = [[0, 0], [0, 0]], block = []}>
#linear_ds_tr_complex_4contig = #ttg.linear<{register = [[0, 64], [16, 0], [0, 1], [32, 0], [0, 2], [0, 4], [64, 0], [0, 8]], lane = [[1, 0], [2, 0], [0, 16], [4, 0], [8, 0], [0, 32]], warp = [[0, 0], [0, 0]], block = []}>
#linear_ds_tr_complex_novec = #ttg.linear<{register = [[0, 64], [16, 0], [0, 1], [32, 0], [0, 2], [0, 4], [64, 0], [0, 8]], lane = [[2, 0], [1, 0], [4, 0], [0, 16], [8, 0], [0, 32]], warp = [[0, 0], [0, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @ds_transpose_ll(%arg0: !ttg.memdesc<64x16xbf16, #shared, #smem>, %arg1: !tt.ptr<bf16>) {
    %a1 = ttg.local_load %arg0 : !ttg.memdesc<64x16xbf16, #shared, #smem> -> tensor<64x16xbf16, #linear_ds_tr_tile_out>
    %ptr1 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<64x16x!tt.ptr<bf16>, #linear_ds_tr_tile_out>
    tt.store %ptr1, %a1 : tensor<64x16x!tt.ptr<bf16>, #linear_ds_tr_tile_out>
    tt.return
  }
  tt.func @ds_transpose_ll_invalid(%arg0: !ttg.memdesc<64x16xbf16, #shared, #smem>, %arg1: !tt.ptr<bf16>) {
    %a1 = ttg.local_load %arg0 : !ttg.memdesc<64x16xbf16, #shared, #smem> -> tensor<64x16xbf16, #linear_ds_tr_tile_invalid>
    %ptr1 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<64x16x!tt.ptr<bf16>, #linear_ds_tr_tile_invalid>
    tt.store %ptr1, %a1 : tensor<64x16x!tt.ptr<bf16>, #linear_ds_tr_tile_invalid>
    tt.return
  }
  tt.func @ds_transpose_complex_ll_b8(%arg0: !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem, mutable>, %arg1: !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem, mutable>, %arg2: !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem, mutable>, %arg3: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32, tt.pointer_range = 32 : i32}) {
    %1 = ttg.local_load %arg0 : !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem, mutable> -> tensor<128x128xf8E4M3FN, #linear_ds_tr_complex_4contig>
    %2 = ttg.local_load %arg1 : !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem, mutable> -> tensor<128x128xf8E4M3FN, #linear_ds_tr_complex_8contig>
    %3 = ttg.local_load %arg2 : !ttg.memdesc<128x128xf8E4M3FN, #shared, #smem, mutable> -> tensor<128x128xf8E4M3FN, #linear_ds_tr_complex_novec>
    %ptr1 = tt.splat %arg3 : !tt.ptr<f8E4M3FN> -> tensor<128x128x!tt.ptr<f8E4M3FN>, #linear_ds_tr_complex_4contig>
    %ptr2 = tt.splat %arg3 : !tt.ptr<f8E4M3FN> -> tensor<128x128x!tt.ptr<f8E4M3FN>, #linear_ds_tr_complex_8contig>
    %ptr3 = tt.splat %arg3 : !tt.ptr<f8E4M3FN> -> tensor<128x128x!tt.ptr<f8E4M3FN>, #linear_ds_tr_complex_novec>
    tt.store %ptr1, %1 : tensor<128x128x!tt.ptr<f8E4M3FN>, #linear_ds_tr_complex_4contig>
    tt.store %ptr2, %2 : tensor<128x128x!tt.ptr<f8E4M3FN>, #linear_ds_tr_complex_8contig>
    tt.store %ptr3, %3 : tensor<128x128x!tt.ptr<f8E4M3FN>, #linear_ds_tr_complex_novec>
    tt.return
  }
  tt.func @ds_transpose_complex_ll_b16(%arg0: !ttg.memdesc<128x128xf16, #shared, #smem, mutable>, %arg1: !ttg.memdesc<128x128xf16, #shared, #smem, mutable>, %arg2: !ttg.memdesc<128x128xf16, #shared, #smem, mutable>, %arg3: !tt.ptr<f16> {tt.divisibility = 16 : i32, tt.pointer_range = 32 : i32}) {
    %1 = ttg.local_load %arg0 : !ttg.memdesc<128x128xf16, #shared, #smem, mutable> -> tensor<128x128xf16, #linear_ds_tr_complex_4contig>
    %3 = ttg.local_load %arg2 : !ttg.memdesc<128x128xf16, #shared, #smem, mutable> -> tensor<128x128xf16, #linear_ds_tr_complex_novec>
    %2 = ttg.local_load %arg1 : !ttg.memdesc<128x128xf16, #shared, #smem, mutable> -> tensor<128x128xf16, #linear_ds_tr_complex_8contig>
    %ptr1 = tt.splat %arg3 : !tt.ptr<f16> -> tensor<128x128x!tt.ptr<f16>, #linear_ds_tr_complex_4contig>
    %ptr2 = tt.splat %arg3 : !tt.ptr<f16> -> tensor<128x128x!tt.ptr<f16>, #linear_ds_tr_complex_8contig>
    %ptr3 = tt.splat %arg3 : !tt.ptr<f16> -> tensor<128x128x!tt.ptr<f16>, #linear_ds_tr_complex_novec>
    tt.store %ptr1, %1 : tensor<128x128x!tt.ptr<f16>, #linear_ds_tr_complex_4contig>
    tt.store %ptr2, %2 : tensor<128x128x!tt.ptr<f16>, #linear_ds_tr_complex_8contig>
    tt.store %ptr3, %3 : tensor<128x128x!tt.ptr<f16>, #linear_ds_tr_complex_novec>
    tt.return
  }
}
