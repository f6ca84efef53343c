"""What one ``irscope capture`` of a program recorded as a whole: its torch.compile graphs, the kernels and the
non-Triton calls each graph launches per run, how often the program ran each graph, and where each kernel came
from in the model's source (Inductor's provenance).

Plain data: the capture side (``compile/``) writes it, ``store/programs.py`` keeps it under
``<store>/programs/<id>/program.json``, and ``irscope report`` reads it. Every field is checked where it is read
(``ProgramRecord.from_json`` raises ``ValueError`` naming the field), so a damaged record is refused in one line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

PROGRAM_FORMAT = 1
PROVENANCE_FILE = "provenance.json"  # an Inductor capture's own provenance (a ``Provenance`` plus kernel, graph, kind)
GRAPH_KINDS = ("inference", "forward", "backward")


@dataclass(frozen=True)
class SourceLine:
    """One frame of a model line an FX node came from.

    Attributes:
        file: the Python file as Dynamo recorded it (absolute).
        line: its line number (1-based).
        function: the function the line is in (``forward``).
        code: the line's text, stripped ("" when Dynamo kept none).
    """

    file: str
    line: int
    function: str = ""
    code: str = ""

    def short(self) -> str:
        """``modeling_llama.py:123``: the file's last part and the line."""
        return f"{self.file.rsplit('/', 1)[-1]}:{self.line}"


@dataclass(frozen=True)
class Provenance:
    """Where one Inductor kernel came from.

    Attributes:
        aten: the ATen operators it fused (``aten.native_layer_norm``), in the graph's order.
        nodes: the FX nodes of the (post-grad) graph it was generated from, by name.
        lines: the model lines those nodes were traced from, each the innermost frame outside torch's own
            package, distinct, in the graph's order.
        missing: when ``lines`` is empty, why ("the installed torch recorded no stack trace for its nodes").
    """

    aten: tuple[str, ...] = ()
    nodes: tuple[str, ...] = ()
    lines: tuple[SourceLine, ...] = ()
    missing: str = ""


@dataclass(frozen=True)
class KernelUse:
    """One Triton kernel a graph launches.

    Attributes:
        name: the kernel's name (``triton_red_fused_native_layer_norm_0``).
        keys: the capture keys of its compiled configs (one per config Inductor compiled), in config order.
        per_run: launches in one run of the graph.
        provenance: where it came from in the model.
    """

    name: str
    keys: tuple[str, ...]
    per_run: int
    provenance: Provenance = field(default_factory=Provenance)


@dataclass(frozen=True)
class ExternUse:
    """One call a graph makes outside Triton (an mm that goes to cuBLAS, an ATen fallback), not modelled by perf.

    Attributes:
        op: the ATen operator (``aten.mm.default``).
        library: who runs it on the GPU: ``cuBLAS``, ``cuDNN``, ``FlashAttention``, ``ATen`` (a native kernel).
        per_run: calls in one run of the graph.
        shapes: the tensor arguments' shapes, of the first call.
        dtype: the first tensor argument's dtype ("" if none).
        flops: the first call's floating-point operations where known (an mm's 2*M*N*K), else 0.
        nbytes: the first call's tensor bytes read and written (inputs and outputs), else 0.
    """

    op: str
    library: str
    per_run: int
    shapes: tuple[tuple[int, ...], ...] = ()
    dtype: str = ""
    flops: int = 0
    nbytes: int = 0


@dataclass(frozen=True)
class GraphRecord:
    """One graph Inductor compiled for the program.

    Attributes:
        index: its place in the order the program compiled its graphs (0 first).
        kind: ``inference`` (no backward), ``forward`` or ``backward`` (a training graph's halves).
        calls: how many times the program ran it (0 when not counted: the program ended abruptly).
        kernels: the Triton kernels one run launches, in first-launch order.
        externs: the calls outside Triton one run makes.
    """

    index: int
    kind: str
    calls: int
    kernels: tuple[KernelUse, ...] = ()
    externs: tuple[ExternUse, ...] = ()


@dataclass(frozen=True)
class ProgramRecord:
    """One program capture.

    Attributes:
        id: its name in the store (``prog-<created>-<hash>``, sortable by time).
        command: the program's command line.
        target: the target its kernels were compiled for; ``gpu`` the GPU stood in for ("" on a real GPU).
        created: when it was captured (seconds since the epoch).
        exit_code: the program's exit status.
        graphs: every torch.compile graph, in compile order (empty for a program of hand-written kernels).
        keys: every capture the run stored (Inductor's and hand-written kernels'), in the order stored.
        notes: what the capture could not record (a graph whose wrapper could not run on fake inputs, say).
        torch_version: the program's torch ("" when it imported none).
        format: ``PROGRAM_FORMAT``.
    """

    id: str
    command: str
    target: str
    gpu: str
    created: float
    exit_code: int
    graphs: tuple[GraphRecord, ...] = ()
    keys: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    torch_version: str = ""
    format: int = PROGRAM_FORMAT

    def to_json(self) -> dict[str, Any]:
        """The record as plain JSON data."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> ProgramRecord:
        """The record from JSON data; ``ValueError`` naming the first field that is missing or of the wrong type."""
        top = _mapping(data, "program")
        fmt = _int(top.get("format"), "format")
        if fmt != PROGRAM_FORMAT:
            raise ValueError(f"format is {fmt}; this irscope reads {PROGRAM_FORMAT}")
        return cls(
            id=_str(top.get("id"), "id"), command=_str(top.get("command"), "command"),
            target=_str(top.get("target"), "target"), gpu=_str(top.get("gpu", ""), "gpu"),
            created=_float(top.get("created"), "created"), exit_code=_int(top.get("exit_code"), "exit_code"),
            graphs=tuple(_graph(g, f"graphs[{i}]") for i, g in enumerate(_list(top.get("graphs", []), "graphs"))),
            keys=tuple(_str(k, "keys[]") for k in _list(top.get("keys", []), "keys")),
            notes=tuple(_str(n, "notes[]") for n in _list(top.get("notes", []), "notes")),
            torch_version=_str(top.get("torch_version", ""), "torch_version"), format=fmt,
        )


def _graph(data: Any, where: str) -> GraphRecord:
    g = _mapping(data, where)
    kind = _str(g.get("kind"), f"{where}.kind")
    if kind not in GRAPH_KINDS:
        raise ValueError(f"{where}.kind is {kind!r}, not one of {', '.join(GRAPH_KINDS)}")
    return GraphRecord(
        index=_int(g.get("index"), f"{where}.index"), kind=kind, calls=_int(g.get("calls", 0), f"{where}.calls"),
        kernels=tuple(_kernel(k, f"{where}.kernels[{i}]")
                      for i, k in enumerate(_list(g.get("kernels", []), f"{where}.kernels"))),
        externs=tuple(_extern(e, f"{where}.externs[{i}]")
                      for i, e in enumerate(_list(g.get("externs", []), f"{where}.externs"))),
    )


def _kernel(data: Any, where: str) -> KernelUse:
    k = _mapping(data, where)
    return KernelUse(name=_str(k.get("name"), f"{where}.name"),
                     keys=tuple(_str(x, f"{where}.keys[]") for x in _list(k.get("keys", []), f"{where}.keys")),
                     per_run=_int(k.get("per_run"), f"{where}.per_run"),
                     provenance=provenance_from_json(k.get("provenance", {}), f"{where}.provenance"))


def provenance_from_json(data: Any, where: str = "provenance") -> Provenance:
    """A ``Provenance`` from JSON data (a capture's ``provenance.json`` too); ``ValueError`` naming a bad field."""
    p = _mapping(data, where)
    lines = []
    for i, raw in enumerate(_list(p.get("lines", []), f"{where}.lines")):
        line = _mapping(raw, f"{where}.lines[{i}]")
        lines.append(SourceLine(file=_str(line.get("file"), f"{where}.lines[{i}].file"),
                                line=_int(line.get("line"), f"{where}.lines[{i}].line"),
                                function=_str(line.get("function", ""), f"{where}.lines[{i}].function"),
                                code=_str(line.get("code", ""), f"{where}.lines[{i}].code")))
    return Provenance(aten=tuple(_str(a, f"{where}.aten[]") for a in _list(p.get("aten", []), f"{where}.aten")),
                      nodes=tuple(_str(n, f"{where}.nodes[]") for n in _list(p.get("nodes", []), f"{where}.nodes")),
                      lines=tuple(lines), missing=_str(p.get("missing", ""), f"{where}.missing"))


def _extern(data: Any, where: str) -> ExternUse:
    e = _mapping(data, where)
    shapes = tuple(tuple(_int(d, f"{where}.shapes[][]") for d in _list(s, f"{where}.shapes[]"))
                   for s in _list(e.get("shapes", []), f"{where}.shapes"))
    return ExternUse(op=_str(e.get("op"), f"{where}.op"), library=_str(e.get("library"), f"{where}.library"),
                     per_run=_int(e.get("per_run"), f"{where}.per_run"), shapes=shapes,
                     dtype=_str(e.get("dtype", ""), f"{where}.dtype"), flops=_int(e.get("flops", 0), f"{where}.flops"),
                     nbytes=_int(e.get("nbytes", 0), f"{where}.nbytes"))


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{where} is not an object")
    return value


def _list(value: Any, where: str) -> Sequence[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{where} is not a list")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{where} is missing or not a string")
    return value


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where} is missing or not an integer")
    return value


def _float(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{where} is missing or not a number")
    return float(value)
