// #ttg.linear layouts of Triton's test/Conversion/amd/tritongpu_to_llvm.mlir (triton-lang/triton 63068fcc274c; see README.md):
// its lit modules that name one, cut down by gather_lit_linear.py.

// lit module 17
#linear64 = #ttg.linear<{register = [[0, 1]], lane = [[1, 0], [0, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [], block = []}>
#slice64 = #ttg.slice<{dim = 0, parent = #linear64}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @reduce_xor_permlane_swap(%arg0: tensor<32x2xf32, #linear64>) {
    %0 = "tt.reduce"(%arg0) <{axis = 0 : i32}> ({
    ^bb0(%arg1: f32, %arg2: f32):
      %1 = arith.maxnumf %arg1, %arg2 : f32
      tt.reduce.return %1 : f32
    }) : (tensor<32x2xf32, #linear64>) -> tensor<2xf32, #slice64>
    tt.return
  }
}

// -----

// lit module 18
#linear = #ttg.linear<{register = [[0, 1]], lane = [[1, 0], [0, 0], [2, 0], [4, 0], [8, 0]], warp = [], block = []}>
#slice = #ttg.slice<{dim = 0, parent = #linear}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reduce_xor_row_xmask(%arg0: tensor<16x2xf32, #linear>) {
    %0 = "tt.reduce"(%arg0) <{axis = 0 : i32}> ({
    ^bb0(%arg1: f32, %arg2: f32):
      %1 = arith.maxnumf %arg1, %arg2 : f32
      tt.reduce.return %1 : f32
    }) : (tensor<16x2xf32, #linear>) -> tensor<2xf32, #slice>
    tt.return
  }
}

// -----

// lit module 39
#linear = #ttg.linear<{register=[[64]], lane=[[1], [2], [4], [8], [16], [32]], warp=[], block=[]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 64 : i32} {
    tt.func public @clampf_f32(%x : tensor<128xf32, #linear>, %ptr : tensor<128x!tt.ptr<f32>, #linear>) {
        %min = arith.constant dense<-1.00000e+00> : tensor<128xf32, #linear>
        %max = arith.constant dense<1.000000e+00> : tensor<128xf32, #linear>
        %0 = tt.clampf %x, %min, %max, propagateNan = none : tensor<128xf32, #linear>
        tt.store %ptr, %0 : tensor<128x!tt.ptr<f32>, #linear>
        tt.return
    }
    tt.func public @clampf_f16(%x : tensor<128xf16, #linear>, %ptr : tensor<128x!tt.ptr<f16>, #linear>) {
        %min = arith.constant dense<-1.00000e+00> : tensor<128xf16, #linear>
        %max = arith.constant dense<1.000000e+00> : tensor<128xf16, #linear>
        %0 = tt.clampf %x, %min, %max, propagateNan = none : tensor<128xf16, #linear>
        tt.store %ptr, %0 : tensor<128x!tt.ptr<f16>, #linear>
        tt.return
    }
    tt.func public @clampf_f32_propagateNan(%x : tensor<128xf32, #linear>, %ptr : tensor<128x!tt.ptr<f32>, #linear>) {
        %min = arith.constant dense<-1.00000e+00> : tensor<128xf32, #linear>
        %max = arith.constant dense<1.000000e+00> : tensor<128xf32, #linear>
        %0 = tt.clampf %x, %min, %max, propagateNan = all : tensor<128xf32, #linear>
        tt.store %ptr, %0 : tensor<128x!tt.ptr<f32>, #linear>
        tt.return
    }
    tt.func public @clampf_bf16(%x : tensor<128xbf16, #linear>, %ptr : tensor<128x!tt.ptr<bf16>, #linear>) {
        %min = arith.constant dense<-1.00000e+00> : tensor<128xbf16, #linear>
        %max = arith.constant dense<1.000000e+00> : tensor<128xbf16, #linear>
        %0 = tt.clampf %x, %min, %max, propagateNan = none : tensor<128xbf16, #linear>
        tt.store %ptr, %0 : tensor<128x!tt.ptr<bf16>, #linear>
        tt.return
    }
}
