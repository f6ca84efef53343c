"""Inside an offline ``irscope capture``: ``torch.cuda.default_generators``, the GPU's random generators.

Libraries that launch their own random kernels (FlagGems' dropout) read the GPU generator's Philox state and
advance its offset by what the kernel will draw, as PyTorch's own CUDA kernels do. A CPU build of torch has no
GPU generator (an empty tuple), so the stand-in device gets one whose ``get_state`` / ``set_state`` have the
CUDA generator's layout: 16 bytes, the seed then the offset, each 64 bits. Its seed is the CPU generator's
(``torch.manual_seed`` seeds both on a GPU machine) until the program seeds it itself. It is a CPU
``torch.Generator`` underneath, so a torch call given it as ``generator=`` draws on the CPU.
"""

from __future__ import annotations

from typing import Any


def generators(torch: Any) -> tuple[Any, ...]:
    """One generator per stood-in device (there is one), for ``torch.cuda.default_generators``."""

    class PhiloxGenerator(torch.Generator):
        """A GPU generator's seed and offset over a CPU generator."""

        def __init__(self) -> None:
            super().__init__()
            self.own_seed: int | None = None
            self.offset = 0

        def initial_seed(self) -> int:
            """The seed: the program's own, else the CPU's."""
            return int(torch.initial_seed()) if self.own_seed is None else self.own_seed

        def manual_seed(self, seed: int) -> Any:
            """Seed it and start its offset over."""
            self.own_seed, self.offset = int(seed), 0
            super().manual_seed(int(seed))
            return self

        def get_state(self) -> Any:
            """16 bytes: seed and offset as int64, as a CUDA generator's state."""
            seed = self.initial_seed() % 2**64  # a uint64 in CUDA's state: the same bytes as this int64
            signed = seed - 2**64 if seed >= 2**63 else seed  # (torch.seed() gives seeds above 2**63)
            return torch.tensor([signed, self.offset], dtype=torch.int64).view(torch.uint8)

        def set_state(self, new_state: Any) -> Any:
            """Take a 16-byte seed-and-offset state."""
            if new_state.numel() != 16:
                raise RuntimeError(f"RNG state is wrong size: a GPU generator's state is 16 bytes, got "
                                   f"{new_state.numel()}")
            seed, offset = (int(v) for v in new_state.clone().view(torch.int64))
            seed %= 2**64
            if seed != self.initial_seed():
                self.own_seed = seed
            self.offset = offset
            return self

        def get_offset(self) -> int:
            """The Philox offset."""
            return self.offset

        def set_offset(self, offset: int) -> None:
            """Move the Philox offset."""
            self.offset = int(offset)

    return (PhiloxGenerator(),)
