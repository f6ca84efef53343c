"""The corpus's sources of Triton code: each a name, pinned requirements, how they install, and its driver."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
DRIVERS = HERE / "drivers"


@dataclass(frozen=True)
class Source:
    """One source of kernels: ``requirements`` (exact pins) install with --no-deps into its own folder.

    ``unpack``: sdists whose package needs a CUDA build: they are only unpacked (``$CORPUS_SRC``), and the
    driver loads their Triton modules by file path.
    ``tutorials``: the driver needs ``--tutorials DIR`` (Triton's python/tutorials, not on PyPI).
    """

    name: str
    requirements: tuple[str, ...]
    driver: str
    unpack: tuple[str, ...] = ()
    tutorials: bool = False
    note: str = ""

    @property
    def driver_path(self) -> Path:
        """The driver program."""
        return DRIVERS / self.driver


SOURCES: tuple[Source, ...] = (
    Source("liger", ("liger-kernel==0.8.5",), "liger_driver.py",
           note="Liger-Kernel's functional ops, forward+backward"),
    Source("fla", ("fla-core==0.6.0", "einops==0.8.1"), "fla_driver.py",
           note="flash-linear-attention's chunked and fused-recurrent ops"),
    Source("flag_gems", ("flag-gems==5.0.2", "sqlalchemy==2.0.48", "greenlet==3.2.4"), "flag_gems_driver.py",
           note="FlagGems' aten operators, called directly"),
    Source("gemlite", ("gemlite==0.5.1.post1", "tqdm==4.67.1"), "gemlite_driver.py",
           note="GemLite's low-bit GEMM/GEMV kernels"),
    Source("mamba", ("einops==0.8.1",), "mamba_driver.py", unpack=("mamba-ssm==2.3.1",),
           note="mamba-ssm's ops/triton modules, loaded by file path from the sdist"),
    Source("hf_inductor", ("transformers==4.57.1", "huggingface_hub==0.36.0", "tokenizers==0.22.1",
                           "safetensors==0.6.2", "tqdm==4.67.1"), "hf_inductor_driver.py",
           note="tiny-config Hugging Face models under torch.compile (Inductor's Triton kernels)"),
    Source("tutorials", ("tabulate==0.9.0",), "tutorials_driver.py", tutorials=True,
           note="Triton's tutorials and Gluon tutorials, from --tutorials DIR"),
)


def by_name(names: str | None) -> list[Source]:
    """The sources named in a comma list (all when None); an unknown name is a one-line error."""
    if not names:
        return list(SOURCES)
    known = {s.name: s for s in SOURCES}
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise SystemExit(f"corpus: unknown source {', '.join(unknown)} (known: {', '.join(known)})")
    return [known[n] for n in wanted]
