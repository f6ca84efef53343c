"""``irscope layouts``: what every layout of a kernel's TTGIR means, and a map of any one of them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from irscope.cli.crash import short_path
from irscope.cli.options import json_option, not_empty, output_file, stage_option
from irscope.cli.output import render_rich, wants_colour, write, write_rich
from irscope.cli.requests import dump_notice, kernel_request
from irscope.errors import UsageError, unknown

if TYPE_CHECKING:
    from irscope.analysis.layouts.explain import LayoutReport
    from irscope.analysis.layouts.linear import LinearLayout
    from irscope.parse.ttgir_ops import ModuleInfo
    from irscope.request.captures import Request
    from irscope.store.store import Capture

VIEWS = ("tensor", "hardware")


# Elements a map draws at most unless --max-elements says more: a 1024x1024 tensor.
MAX_ELEMENTS = 1 << 20


def copies_notes(label: str, linear: LinearLayout, module: ModuleInfo) -> list[str]:
    """Where a layout names fewer warps or lanes than the module runs (Triton accepts that on function arguments
    and on ops it does not verify), which ones hold copies: Triton reads only the low bits of the warp and lane
    ids a layout names, so the rest repeat them, as zero bases would."""
    notes = []
    for dim, runs, noun in (("warp", module.num_warps, "warps"), ("lane", module.threads_per_warp, "lanes")):
        named = linear.in_size(dim)
        if runs is not None and named < runs:
            copies = f"{noun} {named}-{runs - 1} hold copies of {noun} 0-{named - 1}" if named > 1 else \
                f"{noun} 1-{runs - 1} hold copies of {dim} 0"
            notes.append(f"the module runs {runs} {noun}; {label} names {named}, so {copies} (zero {dim} bases)")
    return notes


def _parse_shape(text: str) -> tuple[int, ...]:
    """`128x64` -> (128, 64); every dim a power of two."""
    if len(text) > 200:
        raise UsageError(f"--shape {text[:40]!r}... ({len(text)} characters) is not like 128x64")
    try:
        shape = tuple(int(part) for part in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--shape {text!r} is not like 128x64") from None
    if not shape or any(s < 1 or s & (s - 1) for s in shape):
        raise UsageError(f"--shape {text!r}: every dim must be a power of two")
    return shape


def _check_size(label: str, dims: tuple[int, ...], max_elements: int) -> None:
    """Refuse to draw a tensor of more than ``max_elements`` elements (its map would not end)."""
    total = 1
    for d in dims:
        total *= d
    if total > max_elements:
        raise UsageError(f"{label} with shape {'x'.join(map(str, dims))} has {total} elements; maps draw at most "
                         f"{max_elements} (give a smaller --shape, or raise --max-elements)")


def _read_ttgir(file: str) -> str:
    """A TTGIR file's text, or one line saying why it cannot be read."""
    path = Path(file)
    try:
        if not path.is_file():
            raise UsageError(f"TTGIR file {short_path(file)} does not exist" if not path.exists()
                             else f"TTGIR file {short_path(file)} is not a file")
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"TTGIR file {short_path(file)} is not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise UsageError(f"TTGIR file {short_path(file)} cannot be read: {exc.strerror}") from None


def _check(*, kernel: str | None, file: str | None, pass_name: str | None, stage: str, image: str | None,
           **_: object) -> None:
    """What layouts refuses before it resolves the kernel: an image that is not SVG, no TTGIR or two, another stage."""
    if image and not image.lower().endswith(".svg"):
        raise UsageError("--image writes SVG only; give a name ending in .svg")
    if file is not None:
        if kernel is not None:
            raise UsageError("give either KERNEL or --file, not both")
        return
    if kernel is None:
        raise UsageError("give a KERNEL (see irscope list) or --file some.ttgir")
    if pass_name is None and stage != "ttgir":
        raise UsageError(f"layouts live in the ttgir stage, not {stage!r}")


def _ttgir_text(request: Request | None, capture: Capture | None, file: str | None, pass_name: str | None
                ) -> tuple[str, str, Capture | None]:
    """(TTGIR text, what it is, the capture when it is a capture's final TTGIR) from a kernel or a file."""
    if request is None or capture is None:
        assert file is not None  # _check refused neither KERNEL nor --file
        return _read_ttgir(file), file, None
    if pass_name is not None:
        return (*_pass_text(request, capture, pass_name), None)
    from irscope.request.captures import stage_text

    return stage_text(capture, "ttgir")[1], f"{request.kernel.name} on {request.target.name}", capture


def _pass_text(request: Request, capture: Capture, pass_name: str) -> tuple[str, str]:
    """The IR a pass produced (from the per-pass dump), so layouts can be read as they appear."""
    from irscope.request.compare import pass_point
    from irscope.request.passdump import get_pass_dump

    point = pass_point(get_pass_dump(request, capture, on_compile=dump_notice), pass_name, "after")
    if point.ir != "mlir":
        raise UsageError(f"{point.label} is {point.ir} IR; layouts live in the TritonGPU (MLIR) passes")
    return point.text, f"{request.kernel.name} on {request.target.name}, {point.label}"


def _with_machine_code(text: str, capture: Capture) -> LayoutReport:
    """The report of a capture's TTGIR, checked against its machine code (irscope.analysis.layouts.capture)."""
    from irscope.analysis.layouts.capture import layout_report_with_machine_code

    return layout_report_with_machine_code(text, capture)


@click.command("layouts")
@stage_option("ttgir")
@kernel_request(optional=True, check=_check)
@json_option
@click.option("--file", "-f", "file", metavar="PATH", callback=not_empty,
              help="read any TTGIR file instead of a kernel's capture "
              "(lit-test files with several `// -----` modules too)")
@click.option("--module", "module_index", type=click.IntRange(min=1), default=1, show_default=True, metavar="N",
              help="which module of a multi-module --file to map")
@click.option("--pass", "pass_name", metavar="PASS", callback=not_empty,
              help="read the IR a pass produced (name, prefix or index, as in 'irscope passes') "
                   "instead of the ttgir stage")
@click.option("--map", "map_alias", metavar="ALIAS", callback=not_empty,
              help="draw one layout, e.g. --map blocked1 or --map '#mma'")
@click.option("--shape", metavar="DIMS", help="tensor shape for --map, like 128x64 (default: its most common use)")
@click.option("--view", type=click.Choice(VIEWS), default="tensor", show_default=True,
              help="tensor: who holds each element; hardware: what each lane and register holds")
@click.option("--warp", type=click.IntRange(min=0), default=0, show_default=True, metavar="N",
              help="warp drawn by --view hardware")
@click.option("--max-elements", type=click.IntRange(min=1), default=MAX_ELEMENTS, show_default=True, metavar="N",
              help="refuse to --map a tensor (or a layout's registers x lanes x warps) larger than this")
@click.option("--image", metavar="FILE.svg", callback=output_file, help="also write the map as an SVG image")
def layouts(request: Request | None, capture: Capture | None, stage: str, as_json: bool, pass_name: str | None,
            file: str | None, module_index: int, map_alias: str | None, shape: str | None, view: str, warp: int,
            max_elements: int, image: str | None) -> None:
    """Explain every layout in KERNEL's TTGIR: what it means, which ops use it, what it costs in
    registers, and every convert_layout between layouts. With --map, draw one layout.

    Example:

        irscope layouts matmul --target sm90 --map blocked1 --shape 128x64

        irscope layouts matmul --pass tritongpu-accelerate-matmul
    """
    from irscope.analysis.layouts.explain import analyze_layout_file
    from irscope.parse.layouts import OpaqueLayout

    text, source, final = _ttgir_text(request, capture, file, pass_name)
    reports = analyze_layout_file(text) if final is None else [_with_machine_code(text, final)]
    if map_alias is None:
        if as_json:
            from irscope.views.layout_report import layout_report_data

            data = [layout_report_data(r) for r in reports]
            click.echo(json.dumps({"source": source, "modules": data}, indent=2))
            return
        from rich.text import Text

        from irscope.views.layout_report import render_layout_report

        parts = []  # the report wraps its own paragraphs
        for i, report in enumerate(reports, start=1):
            if len(reports) > 1:
                parts.append(render_rich(Text(f"== module {i} of {len(reports)} ==", style="bold"), width=100,
                                         soft_wrap=True))
            parts.append(render_rich(render_layout_report(report), width=100, soft_wrap=True, end=""))
        write("".join(parts), newline=False)
        return
    if not 1 <= module_index <= len(reports):
        raise UsageError(f"--module {module_index}: the file has {len(reports)} module(s)")
    report = reports[module_index - 1]
    label = map_alias if map_alias.startswith("#") else f"#{map_alias}"
    info = report.get(label)
    if info is None:
        raise unknown("layout", label,
                      [i.label for i in report.layouts if i.label.startswith("#") and "<" not in i.label])
    if isinstance(info.layout, OpaqueLayout):
        raise UsageError(f"{label} cannot be mapped: {info.layout.reason}")
    if not info.layout.distributed:
        raise UsageError(f"{label} is a {info.layout.kind} layout (memory, not registers); only register layouts map")
    dims = _parse_shape(shape) if shape is not None else (info.shapes[0] if info.shapes else None)
    if dims is None:
        raise UsageError(f"{label} is not used by any op; give --shape")
    _check_size(label, dims, max_elements)
    from irscope.analysis.layouts.to_linear import UnsupportedLayout, to_linear_layout
    from irscope.analysis.layouts.views import check_slots
    from irscope.views.layout_map import render_layout_map, render_layout_svg
    from irscope.views.layout_text import format_hardware_view, format_tensor_view

    try:
        linear = to_linear_layout(info.layout, dims)
        check_slots(linear, max_elements)
        warps = linear.in_size("warp")
        if warp >= warps:
            raise UsageError(f"--warp {warp}: {label} with shape {'x'.join(map(str, dims))} has {warps} warp(s), "
                             f"0..{warps - 1}")
        if as_json:
            dump = format_tensor_view if view == "tensor" else format_hardware_view
            click.echo(json.dumps({"label": label, "shape": list(dims), "view": view, "explanation": info.explanation,
                                   "text": dump(linear, dims)}, indent=2))
        else:
            plain = not wants_colour(None)  # piped or NO_COLOR: no colour tells the warps apart, so cells name them
            write_rich(render_layout_map(linear, dims, view, warp=warp, label=label, plain=plain), width=100, end="")
            for note in copies_notes(label, linear, report.module):
                click.echo(note)
        if image:
            Path(image).write_text(render_layout_svg(linear, dims, view, warp=warp, label=label))
            click.echo(f"wrote {image}", err=True)
    except UnsupportedLayout as exc:
        raise UsageError(f"{label} with shape {'x'.join(map(str, dims))}: {exc}") from None
