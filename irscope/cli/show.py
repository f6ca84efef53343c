"""``irscope show``: print one stage of a kernel's compilation."""

from __future__ import annotations

import json
import sys
import time

import click

from irscope.cli.options import json_option
from irscope.cli.output import theme_option, write
from irscope.cli.requests import Asked, kernel_request
from irscope.request.captures import Request, stage_text


def emit(text: str, lexer: str, color: bool | None, pager: bool | None, locs: bool | None = True) -> None:
    """Write stage text: highlighted and paged on a terminal, plain when piped; MLIR locations hidden
    when ``locs`` is False (None: hidden on a terminal, kept when piped)."""
    hide = sys.stdout.isatty() if locs is None else not locs
    if hide and lexer == "mlir":
        from irscope.analysis.diff import hide_locations

        text = hide_locations(text)
    write(text, color=color, pager=pager, lexer=lexer)


@click.command("show")
@kernel_request(stage="ttgir")
@json_option
@click.option("--recapture", is_flag=True, help="compile again even when the store has this capture")
@click.option("--locs/--no-locs", default=None,
              help="show or hide MLIR locations (loc(...) and #loc lines; default: hidden on a terminal, kept piped)")
@click.option("--color/--no-color", default=None,
              help="force or disable syntax colours (default: on a terminal, unless NO_COLOR is set)")
@theme_option
@click.option("--pager/--no-pager", default=None, help="page on a terminal (default: output taller than the screen)")
def show(asked: Asked, request: Request, stage: str, as_json: bool, recapture: bool, locs: bool | None,
         color: bool | None, pager: bool | None) -> None:
    """Print one stage (source, ttir, ttgir, llir, ptx, sass, amdgcn) of KERNEL's compilation.

    KERNEL is a bundled kernel (vector_add, softmax, matmul, matmul_tma), a kernel-module path, FILE.py:FUNCTION
    or package.module:FUNCTION (with --signature or --args), or a kernel recorded by 'irscope
    capture'. The first request compiles offline with the JIT's specialization and stores the
    capture; later ones read the store without importing Triton. On a terminal the TTIR/TTGIR's
    locations are hidden (--locs shows them); piped, the text is exactly the stored file.

    Example:

        irscope show matmul --stage ttgir --target sm90

        irscope show my_kernels.py:add_kernel --args "x=fp32[4096], y=fp32[4096], out=fp32[4096],
        n=4096" --constexpr BLOCK=1024   # needs your kernel file
    """
    start = time.perf_counter()
    capture = asked.capture(request, recapture=recapture)
    st, text = stage_text(capture, stage)
    from irscope.store.programs import capture_provenance
    from irscope.views.provenance_text import provenance_json, provenance_lines

    prov = capture_provenance(capture)  # an Inductor kernel's: where it came from in the model
    if as_json:
        m = capture.manifest
        click.echo(json.dumps({
            "kernel": m.kernel, "target": m.target, "config": m.config_index, "stage": st.name,
            "capture": m.key, "triton_version": m.triton_version,
            **({"path": str(capture.stage_path(st))} if st.name in m.files else  # SASS made from the cubin
               {"path": None, "made_from": str(capture.path / m.files["cubin"])}),
            "config_values": m.config, "signature": m.signature, "constexprs": m.constexprs, "attrs": m.attrs,
            "options": m.options, "elapsed_seconds": round(time.perf_counter() - start, 4), "text": text,
            **({"provenance": provenance_json(prov)} if prov is not None else {}),
        }, indent=2))
        return
    if prov is not None:  # on stderr: the stage's text on stdout stays exactly the stored file
        click.echo("\n".join(provenance_lines(prov)), err=True)
    emit(text, st.lexer, color, pager, locs)
