"""A kernel launch as the performance model needs it: the grid, the integer arguments, the tensors' bytes, and the
contents of the small integer tensors a kernel may load its loop bounds and indices from."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# A program capture's recorded launches: [{grid, values, tensors, data}]; an Inductor kernel's also say ``per_run``,
# how many times one run of its torch.compile graph launches it.
LAUNCHES_FILE = "launches.json"

# The most elements of one integer tensor a launch records the contents of, and of all of them together: enough
# for sequence lengths, block tables and expert ids of a serving batch, bounded so a launch record stays small.
DATA_ELEMENTS = 1 << 16
DATA_ELEMENTS_PER_LAUNCH = 1 << 17
# The dtypes whose contents are recorded: the ones a kernel loads scalars and indices from.
INTEGER_DTYPES = ("int8", "uint8", "int16", "int32", "int64", "uint32", "uint64", "bool")


@dataclass(frozen=True)
class TensorBytes:
    """One tensor argument of the launch.

    Attributes:
        name: the parameter; ``nbytes`` its size; ``role`` ``input``, ``output`` or ``inout``.
    """

    name: str
    nbytes: int
    role: str


@dataclass(frozen=True)
class TensorData:
    """The contents of one integer tensor argument, as the kernel reads them from its pointer.

    Attributes:
        name: the parameter.
        dtype: torch's name of its element type (``int32``, ``int64``...).
        shape: its shape.
        values: its elements in memory order from the pointer the kernel gets (a contiguous tensor, flattened).
    """

    name: str
    dtype: str
    shape: tuple[int, ...]
    values: tuple[int, ...]


@dataclass(frozen=True)
class LaunchShape:
    """What the capture alone does not say about a launch.

    Attributes:
        grid: programs per axis.
        values: the integer arguments by parameter name (sizes, strides).
        tensors: the tensor arguments, for the compulsory traffic; empty when unknown.
        origin: where the grid came from (``the kernel's grid()``, ``--grid``).
        data: the contents of the small integer tensors (sequence lengths, block tables, offsets, expert ids).
        not_recorded: integer tensors whose contents were not recorded, each ``name: why`` (too large, not
            contiguous, no data on the launching side).
    """

    grid: tuple[int, int, int]
    values: dict[str, int]
    tensors: tuple[TensorBytes, ...] = ()
    origin: str = ""
    data: tuple[TensorData, ...] = ()
    not_recorded: tuple[str, ...] = ()

    def contents(self) -> dict[str, tuple[int, ...]]:
        """The recorded contents by parameter name."""
        return {d.name: d.values for d in self.data}


def data_from_json(items: object) -> tuple[tuple[TensorData, ...], str]:
    """Recorded contents read back from ``[[name, dtype, shape, values], ...]``; ("", ...) or the first problem."""
    if items is None:
        return (), ""
    if not isinstance(items, list):
        return (), "data: not a list"
    out: list[TensorData] = []
    total = 0
    for item in items:
        if not (isinstance(item, list) and len(item) == 4 and isinstance(item[0], str) and isinstance(item[1], str)
                and isinstance(item[2], list) and isinstance(item[3], list)):
            return (), "data: each entry must be [name, dtype, shape, values]"
        shape, values = item[2], item[3]
        if not all(_is_int(d) and d >= 0 for d in shape) or not all(_is_int(v) for v in values):
            return (), f"data {item[0]!r}: shape and values must be integers"
        total += len(values)
        if len(values) > DATA_ELEMENTS or total > DATA_ELEMENTS_PER_LAUNCH:
            return (), f"data {item[0]!r}: more than {DATA_ELEMENTS} elements ({DATA_ELEMENTS_PER_LAUNCH} per launch)"
        out.append(TensorData(item[0], item[1], tuple(shape), tuple(values)))
    return tuple(out), ""


def data_to_json(data: Sequence[TensorData]) -> list[list[object]]:
    """The JSON form :func:`data_from_json` reads."""
    return [[d.name, d.dtype, list(d.shape), list(d.values)] for d in data]


def with_data(shape: LaunchShape, given: Mapping[str, tuple[int, ...]], origin: str) -> LaunchShape:
    """``shape`` with the contents ``given`` (``--data``) in place of any recorded for the same parameters."""
    from dataclasses import replace

    kept = tuple(d for d in shape.data if d.name not in given)
    added = tuple(TensorData(name, "given", (len(values),), tuple(values)) for name, values in given.items())
    return replace(shape, data=kept + added, not_recorded=tuple(n for n in shape.not_recorded
                                                                if n.split(":", 1)[0] not in given),
                   origin=shape.origin + (f"; contents of {', '.join(given)} from {origin}" if given else ""))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
