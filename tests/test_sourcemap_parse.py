"""Location parsers on hand-written snippets: aliases, names, callsites, fused, inlined_at, odd text."""

from __future__ import annotations

from irscope.analysis.sourcemap import map_listing, map_mlir
from irscope.parse.lineinfo import parse_amdgcn, parse_llir, parse_ptx, parse_sass_lines
from irscope.parse.mlir_locs import innermost_in, parse_location_table, trailing_location
from irscope.parse.mlir_ops import parse_module
from irscope.parse.ttgir_ops import SourceLoc

K = "/work/k.py"
LIB = "/site-packages/triton/language/standard.py"

MLIR = f"""#blocked = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>
#loc = loc("{K}":10:1)
module attributes {{"ttg.num-warps" = 4 : i32}} {{
  tt.func public @k(%x_ptr: !tt.ptr<f32> {{tt.divisibility = 16 : i32}} loc("x_ptr"(#loc)), %n: i32 loc("n"(#loc))) \
attributes {{noinline = false}} {{
    %c = arith.constant 1 : i32 loc(#loc1)
    %q = arith.addi %n, %c : i32 loc(#loc7)
    %r = arith.divsi %q, %c : i32 loc(#loc8)
    %s:2 = scf.for %i = %c to %r step %c iter_args(%a = %q, %b = %r) -> (i32, i32)  : i32 {{
      %t = arith.muli %a, %b : i32 loc(#loc9)
      scf.yield %t, %b : i32, i32 loc(#loc4)
    }} {{tt.num_stages = 2 : i32}} loc(#loc4)
    %u = arith.addi %s#0, %s#1 : i32 loc("{K}":20:3)
    %v = arith.addi %u, %u : i32 loc(#loc10)
    %w = arith.addi %v, %v : i32 loc(#loc11)
    tt.return loc(#loc)
  }} loc(#loc)
}} loc(#loc)
#loc1 = loc(unknown)
#loc2 = loc("{K}":12:17)
#loc3 = loc("{LIB}":43:13)
#loc4 = loc("{K}":14:5)
#loc5 = loc("{K}":30:12)
#loc6 = loc("{K}":15:9)
#loc7 = loc("q"(#loc12))
#loc8 = loc(callsite(#loc3 at #loc2))
#loc9 = loc(callsite(callsite(#loc3 at #loc5) at #loc6))
#loc10 = loc(fused[#loc1, "v"(#loc6)])
#loc11 = loc(#loc99)
#loc12 = loc(callsite(#loc3 at "q_call"(#loc2)))
#loc13 = loc(#loc14)
#loc14 = loc(#loc13)
"""


def test_aliases_names_and_nested_callsites_resolve_innermost_first():
    table = parse_location_table(MLIR)
    assert table.aliases["loc1"].frames == ()
    assert table.aliases["loc8"].frames == (SourceLoc(LIB, 43, 13), SourceLoc(K, 12, 17))
    assert table.aliases["loc7"].names[0] == "q" and table.aliases["loc7"].frames[-1] == SourceLoc(K, 12, 17)
    nested = table.aliases["loc9"].frames
    assert [f.line for f in nested] == [43, 30, 15]
    assert innermost_in(nested, K) == SourceLoc(K, 30, 12)
    assert innermost_in(nested, "/elsewhere/k.py") == SourceLoc(K, 30, 12)  # same base name, moved file
    assert innermost_in((SourceLoc(LIB, 1, 1),), K) is None
    fused = table.aliases["loc10"]
    assert fused.frames == (SourceLoc(K, 15, 9),) and fused.names == ("v",)
    # Undefined and cyclic aliases become unknown and are reported, never raised.
    assert table.aliases["loc11"].frames == () and table.aliases["loc13"].frames == ()
    assert any("#loc99" in p for p in table.problems) and any("itself" in p for p in table.problems)


def test_ops_regions_and_loop_bindings():
    module = parse_module(MLIR)
    names = [op.name for op in module.ops]
    assert names[:3] == ["module", "tt.func", "arith.constant"]
    loop = next(op for op in module.ops if op.name == "scf.for")
    assert loop.results == ("%s",) and loop.defines == ("%i", "%a", "%b")
    assert loop.bindings == (("%i", "%c"), ("%a", "%q"), ("%b", "%r"))
    assert "tt.num_stages = 2" in loop.text  # attributes printed at the closing brace
    assert loop.location.frames == (SourceLoc(K, 14, 5),)  # the loop's location sits on its closing line
    assert [op.name for op in module.inside(loop.index)] == ["arith.muli", "scf.yield"]
    use = next(op for op in module.ops if op.results == ("%u",))
    assert use.operands == ("%s",)  # %s#0 and %s#1 are uses of %s
    assert use.location.frames == (SourceLoc(K, 20, 3),)  # an inline loc(...)
    func = module.ops[1]
    assert func.defines == ("%x_ptr", "%n") and func.end_line > func.line
    assert module.problems == ("#loc99 is used but never defined", "#loc13 is defined in terms of itself")


def test_odd_mlir_text_is_reported_not_raised():
    module = parse_module("  }\n  %x = \n%y = arith.addi %a, %b : i32 loc(#nowhere)\n  scf.if %c {\n")
    assert any("closing brace" in p for p in module.problems)
    assert any("never closed" in p for p in module.problems)
    assert trailing_location('%x = "tt.foo"() {s = "loc(1)"} : () -> i32 loc("k.py":1:2)') == (
        '%x = "tt.foo"() {s = "loc(1)"} : () -> i32', '"k.py":1:2')
    assert trailing_location("%x = arith.addi %a, %b : i32") is None


def test_mlir_stage_map_counts_each_op_once_on_its_kernel_line():
    smap = map_mlir("ttgir", MLIR, K)
    counts = smap.counts()
    assert counts[12] == 2  # %q (a name over a callsite) and %r (tl.cdiv-like callsite)
    assert counts[30] == 1 and counts[15] == 1  # the helper's op counts on 30; line 15 has only %v
    muli = next(m for m in smap.lines if m.opcode == "arith.muli")
    assert muli.via == (15,) and muli.inlined_from == "standard.py:43"
    assert [m.opcode for m in smap.for_line(15)] == ["arith.muli", "arith.addi"]


PTX = f"""//
.visible .entry k(
)
{{
	.loc	1 10 0                          // k.py:10:0
	ld.param.b32 	%r1, [k_param_0];
	.loc	2 43 13, function_name $L__info_string0, inlined_at 1 12 17 // standard.py:43:13
	add.s32 	%r2, %r1, 127;
$L__BB0_2:                              // =>This Inner Loop Header: Depth=1
	.loc	1 14 5                          // k.py:14:5
	cp.async.cg.shared.global [ %r29 + 0 ], [ %rd26 + 0 ], 0x10, %r31;
	.loc	1 0 5                           // k.py:0:5
	wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {{%r1}}, %rd1, %rd2, p, 1, 1, 0, 1;
	@%p23 bra 	$L__BB0_2;
	ret;
}}
	.file	1 "{K}"
	.file	2 "{LIB}"
	.section	.debug_str
	{{
$L__info_string0:
.b8 99
	}}
"""


def test_ptx_loc_with_inlined_at_line_zero_and_loops():
    listing = parse_ptx(PTX)
    ops = [i.opcode for i in listing.instructions]
    assert ops == ["ld.param.b32", "add.s32", "cp.async.cg.shared.global",
                   "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", "bra", "ret"]
    add = listing.instructions[1]
    assert add.frames == (SourceLoc(LIB, 43, 13), SourceLoc(K, 12, 17))
    assert add.text == "add.s32 %r2, %r1, 127"
    assert listing.instructions[3].frames == ()  # `.loc 1 0 5`: no source line
    assert [(loop.label, loop.depth) for loop in listing.loops] == [("$L__BB0_2", 1)]
    assert listing.loops[0].contains(listing.instructions[2].number)
    mapped = map_listing(listing, K, "test")
    assert mapped.counts() == {10: 1, 12: 1, 14: 1}



def test_ptx_without_inlined_at_reads_the_chain_from_the_comment():
    """Triton 3.6's LLVM leaves ``inlined_at`` off the directive and names the chain only in the comment (an
    Inductor kernel calling triton_helpers.online_softmax_combine on its line 42): without the chain the loop's
    helper instructions had no kernel line, and the loop matched no TTGIR loop."""
    text = PTX.replace("inlined_at 1 12 17 // standard.py:43:13",
                       "// standard.py:43:13 @[ helpers.py:199:31 @[ k.py:12:17 ] ]")
    text = text.replace(", function_name $L__info_string0, //", " //")
    helpers = "/site-packages/torch/_inductor/runtime/helpers.py"
    text += f'\t.file\t3 "{helpers}"\n'
    add = parse_ptx(text).instructions[1]
    assert add.frames == (SourceLoc(LIB, 43, 13), SourceLoc(helpers, 199, 31), SourceLoc(K, 12, 17))
    # with both, the directive's chain is the one read (the comment repeats it)
    both = PTX.replace("// standard.py:43:13", "// standard.py:43:13 @[ k.py:99:1 ]")
    assert parse_ptx(both).instructions[1].frames == (SourceLoc(LIB, 43, 13), SourceLoc(K, 12, 17))

# Two loads as Triton 3.9 prints them for `x = tl.load(...)` on line 22 (sm90): LLVM numbers the lines of
# each inline-asm string as if they were source lines, so the `.loc`s inside advance to 26.
PTX_INLINE_ASM = """	.file	1 "/work/k.py"
	.loc	1 22 17                         // k.py:22:17
	add.s64 	%rd1, %rd15, %rd19;
	.loc	1 22 9                          // k.py:22:9
	// begin inline asm
	.loc	1 22 9                          // k.py:22:9
	mov.u32 %r1, 0x0;
	.loc	1 23 9                          // k.py:23:9
	mov.u32 %r2, 0x0;
	.loc	1 24 9                          // k.py:24:9
	ld.global.v2.b32 { %r1, %r2 }, [ %rd1 + 0 ];

	// end inline asm
	// begin inline asm
	.loc	1 22 9                          // k.py:22:9
	mov.u32 %r3, 0x0;
	.loc	1 23 9                          // k.py:23:9
	ld.global.b32 { %r3 }, [ %rd2 + 0 ];

	// end inline asm
	.loc	1 23 5                          // k.py:23:5
	st.global.v4.b32 [ %rd5 + 0 ], { %r17, %r18, %r19, %r20 };
"""


def test_an_inline_asm_block_keeps_the_position_it_starts_with():
    listing = parse_ptx(PTX_INLINE_ASM)
    lines = [(i.opcode, i.frames[0].line, i.frames[0].col) for i in listing.instructions]
    assert lines == [("add.s64", 22, 17), ("mov.u32", 22, 9), ("mov.u32", 22, 9), ("ld.global.v2.b32", 22, 9),
                     ("mov.u32", 22, 9), ("ld.global.b32", 22, 9), ("st.global.v4.b32", 23, 5)]


AMDGCN = """	.text
	.type	k,@function
k:                                      ; @k
	.file	1 "/work" "k.py"
	.loc	1 10 0 prologue_end             ; k.py:10:0
	s_load_dwordx2 s[0:1], s[0:1], 0x0
	.file	2 "/site-packages/triton/language" "standard.py"
	.loc	2 43 13                         ; standard.py:43:13 @[ k.py:12:17 ]
	v_add_u32_e32 v1, 0x7f, v0
.LBB0_3:                                ; =>This Inner Loop Header: Depth=1
	.loc	1 14 5 is_stmt 0                ; k.py:14:5
	v_mfma_f32_32x32x8_f16 v[0:15], v[16:17], v[18:19], v[0:15]
	s_cbranch_scc1 .LBB0_3
	s_endpgm
.Lfunc_end0:
	.size	k, .Lfunc_end0-k
amdhsa.kernels:
  - .vgpr_count:     206
"""


def test_amdgcn_file_directories_and_the_inlined_at_comment():
    listing = parse_amdgcn(AMDGCN)
    assert [i.opcode for i in listing.instructions] == ["s_load_dwordx2", "v_add_u32_e32",
                                                         "v_mfma_f32_32x32x8_f16", "s_cbranch_scc1", "s_endpgm"]
    assert listing.instructions[1].frames == (SourceLoc(LIB, 43, 13), SourceLoc(K, 12, 17))
    assert listing.instructions[2].frames == (SourceLoc(K, 14, 5),)
    assert [loop.label for loop in listing.loops] == [".LBB0_3"]


SASS = f"""	.section	.text.k,"ax",@progbits
k:
.text.k:
	//## File "{K}", line 10
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "{LIB}", line 43 inlined at "{K}", line 12
	//## File "{K}", line 12
        /*0010*/                   VIADD R0, R2, 0x7f ;
.L_x_1:
	//## File "{K}", line 14
        /*0020*/                   HGMMA.64x256x16.F32 R24, gdesc[UR8].tnspB, R24, gsb0 ;
        /*0030*/                   DEPBAR.LE SB0, 0x2 ;
        /*0040*/               @P1 BRA `(.L_x_1) ;
        /*0050*/                   EXIT ;
.L_x_2:
        /*0060*/                   BRA `(.L_x_2);
"""


def test_sass_line_comments_keep_the_inlined_chain_and_find_real_loops():
    listing = parse_sass_lines(SASS)
    assert [i.address for i in listing.instructions] == [0, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60]
    assert listing.instructions[1].frames == (SourceLoc(LIB, 43, 0), SourceLoc(K, 12, 0))
    assert listing.instructions[3].frames == (SourceLoc(K, 14, 0),)  # a comment holds until the next one
    assert [loop.label for loop in listing.loops] == [".L_x_1"]  # the trailing `BRA .L_x_2` trap is no loop
    assert listing.instructions[2].opcode == "HGMMA.64x256x16.F32"


def test_sass_instructions_predicated_on_not_pt_never_execute_and_are_not_counted():
    """Issue 28 item 7: ptxas pads with `@!PT LDS RZ, [RZ]`; `map` counted four of them as `LDS x4`."""
    padded = SASS.replace("        /*0030*/                   DEPBAR.LE SB0, 0x2 ;\n",
                          "        /*0030*/                   DEPBAR.LE SB0, 0x2 ;\n"
                          "        /*0034*/               @!PT LDS RZ, [RZ] ;\n"
                          "        /*0038*/               @!PT BRA `(.L_x_2) ;\n"
                          "        /*003c*/               @!P2 LDS R4, [R2] ;\n")
    listing = parse_sass_lines(padded)
    assert [i.text for i in listing.never_executed] == ["@!PT LDS RZ, [RZ]", "@!PT BRA `(.L_x_2)"]
    assert [i.address for i in listing.instructions] == [0, 0x10, 0x20, 0x30, 0x3C, 0x40, 0x50, 0x60]
    assert [loop.label for loop in listing.loops] == [".L_x_1"]
    smap = map_listing(listing, K, "nvdisasm")
    assert [m.opcode for m in smap.for_line(14)].count("LDS") == 1 and smap.counts()[14] == 6
    assert [m.text for m in smap.never_executed_for(14)] == ["@!PT LDS RZ, [RZ]", "@!PT BRA `(.L_x_2)"]


LLIR = """define ptx_kernel void @k(ptr addrspace(1) %0) local_unnamed_addr !dbg !6 {
  %2 = add i32 %1, 127, !dbg !15
  %3 = sdiv i32 %2, 128, !dbg !14
  %4 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\\0A\\09@$2 ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l,b"(ptr \
addrspace(1) %0, i1 true), !dbg !14
  tail call void @llvm.nvvm.barrier0(), !dbg !14
  ret void, !dbg !99
}
!1 = !DIFile(filename: "k.py", directory: "/work")
!6 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 10, unit: !0)
!14 = !DILocation(line: 12, column: 17, scope: !6)
!15 = !DILocation(line: 43, column: 13, scope: !16, inlinedAt: !14)
!16 = distinct !DILexicalBlockFile(scope: !6, file: !17, discriminator: 0)
!17 = !DIFile(filename: "standard.py", directory: "/site-packages/triton/language")
"""


def test_llvm_dilocations_follow_inlined_at_and_scope_files():
    listing = parse_llir(LLIR)
    assert [i.opcode for i in listing.instructions] == ["add", "sdiv", "ld.global.b32", "llvm.nvvm.barrier0", "ret"]
    assert listing.instructions[0].frames == (SourceLoc(LIB, 43, 13), SourceLoc(K, 12, 17))
    assert listing.instructions[1].frames == (SourceLoc(K, 12, 17),)
    assert listing.instructions[4].frames == () and any("!99" in p for p in listing.problems)
    assert set(listing.files) == {K, LIB}


ROTATED_PTX = """.visible .entry k()
{
	bra.uni 	$L__BB0_4;
$L__BB0_6:                              //   in Loop: Header=BB0_4 Depth=1
	{
	.reg .pred complete;
	waitLoop:
	mbarrier.try_wait.parity.shared::cta.b64 complete, [%r1], %r2;
	@!complete bra.uni waitLoop;
	}
	tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r3, p;
$L__BB0_4:                              // =>This Inner Loop Header: Depth=1
	cp.async.wait_group 	2;
	@%p1 bra 	$L__BB0_6;
// %bb.5:                               //   in Loop: Header=BB0_4 Depth=1
	add.s32 	%r1, %r1, 1;
	bra.uni 	$L__BB0_4;
$L__BB0_7:                              // %._crit_edge
	ret;
}
"""


def test_a_loop_placed_partly_before_its_header_is_one_loop():
    listing = parse_ptx(ROTATED_PTX)
    (loop,) = listing.loops
    assert (loop.label, loop.depth, loop.start) == ("$L__BB0_4", 1, 4)
    inside = [i.opcode for i in listing.inside(loop)]
    assert inside == ["mbarrier.try_wait.parity.shared::cta.b64", "bra.uni", "tcgen05.mma.cta_group::1.kind::f16",
                      "cp.async.wait_group", "bra", "add.s32", "bra.uni"]
    assert not loop.contains(3) and not loop.contains(19)  # the entry jump and the exit block


NESTED_AMDGCN = """	.type	k,@function
k:                                      ; @k
	s_mov_b32 s0, 0
.LBB0_14:                               ; %.preheader
                                        ; =>This Loop Header: Depth=1
                                        ;     Child Loop BB0_15 Depth 2
	s_mov_b32 s1, s0
.LBB0_15:                               ;   Parent Loop BB0_14 Depth=1
                                        ; =>  This Inner Loop Header: Depth=2
	global_load_ushort v1, v[2:3], off
	s_cbranch_scc1 .LBB0_15
; %bb.16:                               ;   in Loop: Header=BB0_14 Depth=1
	s_add_i32 s0, s0, 32
	s_cbranch_scc1 .LBB0_14
.LBB0_18:                               ; %._crit_edge
	s_endpgm
.Lfunc_end0:
"""


def test_nested_loops_from_llvm_block_comments():
    listing = parse_amdgcn(NESTED_AMDGCN)
    outer, inner = listing.loops
    assert (outer.label, outer.depth, inner.label, inner.depth) == (".LBB0_14", 1, ".LBB0_15", 2)
    assert outer.start < inner.start and inner.end < outer.end
    assert [i.opcode for i in listing.inside(inner)] == ["global_load_ushort", "s_cbranch_scc1"]
    assert [i.opcode for i in listing.inside(outer)] == ["s_mov_b32", "global_load_ushort", "s_cbranch_scc1",
                                                         "s_add_i32", "s_cbranch_scc1"]
