"""A kernel launch as the performance model needs it: the grid, the integer arguments, the tensors' bytes."""

from __future__ import annotations

from dataclasses import dataclass

# A program capture's recorded launches: [{grid, values, tensors}]; an Inductor kernel's also say ``per_run``, how
# many times one run of its torch.compile graph launches it.
LAUNCHES_FILE = "launches.json"


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
class LaunchShape:
    """What the capture alone does not say about a launch.

    Attributes:
        grid: programs per axis.
        values: the integer arguments by parameter name (sizes, strides).
        tensors: the tensor arguments, for the compulsory traffic; empty when unknown.
        origin: where the grid came from (``the kernel's grid()``, ``--grid``).
    """

    grid: tuple[int, int, int]
    values: dict[str, int]
    tensors: tuple[TensorBytes, ...] = ()
    origin: str = ""
