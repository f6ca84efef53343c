"""Pygments lexers for text Pygments has no lexer for: Triton's MLIR (TTIR/TTGIR) and SASS."""

from __future__ import annotations

from typing import Any, ClassVar

from pygments.lexer import RegexLexer, bygroups
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)


class TritonMLIRLexer(RegexLexer):
    """Triton's MLIR dialects as printed in .ttir / .ttgir files and pass dumps."""

    name = "Triton MLIR"
    aliases: ClassVar[list[str]] = ["ttir", "ttgir", "glir", "mlir"]
    filenames: ClassVar[list[str]] = ["*.ttir", "*.ttgir", "*.mlir"]

    tokens: ClassVar[dict[str, list[Any]]] = {
        "root": [
            (r"\s+", Whitespace),
            # Example: // -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) //----- //
            (r"//.*?$", Comment.Single),
            # Example: loc(#loc12)  /  loc("k.py":12:5) -- locations are noise for most readers
            (r"\bloc\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)", Comment.Special),
            # Example: #loc3 = loc("k.py":12:5)
            (r"^#loc\w*\s*=.*$", Comment.Special),
            # Example: #ttg.nvidia_mma<{  /  #triton_gpu.blocked<{
            (r"#(?:ttg|ttng|triton_gpu|triton_nvidia_gpu|amdgpu|tt)\.\w+", Keyword.Pseudo),
            # Example: #blocked1  /  #mma  /  #shared
            (r"#[\w$.-]+", Name.Label),
            # Example: ^bb0(%arg0: i32):
            (r"\^[\w$.-]+", Name.Label),
            # Example: %accumulator_77:9  /  %arg3  /  %c0_i32
            (r"%[\w$.-]+(?::\d+)?", Name.Variable),
            # Example: @matmul_kernel
            (r"@[\w$.-]+", Name.Function),
            # Example: !tt.ptr<f16>  /  !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
            (r"![\w.]+", Keyword.Type),
            # Example: tensor<128x64xf16, #blocked1>
            (r"\b(?:tensor|memref|vector|tuple)(?=<)", Keyword.Type),
            (r"\b(?:[su]?i\d+|f8E\w+|bf16|f16|f32|f64|tf32|index|none)\b", Keyword.Type),
            # Example: ttg.async_copy_global_to_local  /  arith.addi  /  scf.for
            (r"\b[a-z_]\w*\.[a-z_][\w.]*\b", Name.Builtin),
            (r"\b(?:module|attributes|func|return|iter_args|to|step|in|ins|outs|true|false|"
             r"unit|dense|array|private|public|mutable)\b", Keyword),
            (r'"(?:\\.|[^"\\])*"', String.Double),
            (r"0x[0-9a-fA-F]+", Number.Hex),
            (r"-?\d+\.\d*(?:[eE][+-]?\d+)?", Number.Float),
            (r"-?\d+", Number.Integer),
            (r"[=:,<>\[\]{}()*+-]|->", Punctuation),
            (r"\w+", Text),
            (r".", Text),
        ],
    }


class SASSLexer(RegexLexer):
    """NVIDIA SASS as printed by nvdisasm / cuobjdump (with or without control codes)."""

    name = "SASS"
    aliases: ClassVar[list[str]] = ["sass"]
    filenames: ClassVar[list[str]] = ["*.sass"]

    tokens: ClassVar[dict[str, list[Any]]] = {
        "root": [
            (r"\s+", Whitespace),
            # Example: //## File "/work/kernels/matmul.py", line 73
            (r"//.*?$", Comment.Single),
            # Example: /*0040*/   and   /* 0x000fe20000000f00 */
            (r"/\*.*?\*/", Comment.Multiline),
            # Example: Function:matmul_kernel
            (r"^(Function)(\s*:\s*)(\S+)", bygroups(Keyword, Punctuation, Name.Function)),
            # Example: --:-:1:-:1  (wait mask : read barrier : write barrier : yield : stall)
            (r"^[0-9a-fA-F-]{2}:[0-9-]:[0-9-]:[Y-]:\d+", Comment.Preproc),
            # Example: .L_x_12:
            (r"^\s*\.?[\w.]+:\s*$", Name.Label),
            # Example: @!P0  (predicate guard)
            (r"@!?U?P[T\d]", Operator),
            # Example: HGMMA.64x256x16.F32  /  LDGSTS.E.BYPASS.LTC128B.128
            (r"(?<![\w.\[])[A-Z][A-Z0-9_]*(?:\.[A-Z0-9_x]+)*(?=\s|;)", Name.Builtin),
            # Example: R12  UR4  P0  RZ  SR_CTAID.X
            (r"\b(?:U?R\d+|U?RZ|U?P[T\d]|SR_[\w.]+|c\[0x[0-9a-f]+\])(?:\.[\w]+)*", Name.Variable),
            (r"0x[0-9a-fA-F]+", Number.Hex),
            (r"-?\d+(?:\.\d+)?", Number),
            (r"[;,\[\]{}|+-]", Punctuation),
            (r"\S", Text),
        ],
    }
