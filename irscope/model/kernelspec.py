"""Kernels given as ``file.py:function`` or ``package.module:function``, with their arguments.

Two ways to describe the launch, both parsed here without importing Triton:

* the signature syntax of Triton's ahead-of-time compiler (``triton/tools/compile.py``):
  ``"*fp16:16, *fp16:16, i32, i32:16, 128"`` -- a type with an optional hint (16: divisible by 16,
  1: equal to 1) or a constant value per argument;
* example arguments, from which the JIT's own binder derives the specialization:
  ``"x=fp16[4096,4096], y=fp16[4096,4096], n=4096"`` plus ``--constexpr BLOCK=1024``.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from irscope.errors import UsageError
from irscope.model.definition import find_definition, module_file, source_digest
from irscope.model.dtype_text import DTYPE_NAMES, dtype_constexpr, dtype_value
from irscope.model.gluon_layout_text import looks_like_layout, parse_layout
from irscope.model.kernel_params import check_launch_early

# Example: kernels/matmul.py:matmul_kernel   or   my_pkg.ops.attention:_attn_fwd
_REF_RE = re.compile(r"^(?P<target>[^:]+):(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)$")
# Example: fp16[4096,4096]   /   *fp32[128]   /   bf16[]
_TENSOR_RE = re.compile(r"^\*?(?P<dtype>[a-z][a-z0-9_]*)\[(?P<shape>[\d,\s]*)\](?P<misaligned>@unaligned)?$")
# Example: *fp16:16   /   i32   /   i32:1   /   128
_SIG_RE = re.compile(r"^(?P<type>\*?k?[a-z]+\d*\w*)(?::(?P<hint>\S+))?$")

# Scalar type names Triton's signature parser (triton.language.str_to_ty) knows; pointers are `*T` or `*kT`.
SIGNATURE_TYPES = ("i1", "i8", "i16", "i32", "i64", "u1", "u8", "u16", "u32", "u64", "fp16", "bf16", "fp32", "fp64",
                   "fp8e4nv", "fp8e4b8", "fp8e4b15", "fp8e5", "fp8e5b16")

DTYPES = {
    "fp16": "float16", "f16": "float16", "float16": "float16", "half": "float16",
    "bf16": "bfloat16", "bfloat16": "bfloat16",
    "fp32": "float32", "f32": "float32", "float32": "float32", "float": "float32",
    "fp64": "float64", "f64": "float64", "float64": "float64",
    # fp8: Triton's names (fp8e4b8 and fp8e5b16 are AMD's fnuz formats) and torch's.
    "fp8e4nv": "float8_e4m3fn", "fp8e5": "float8_e5m2", "fp8e4b8": "float8_e4m3fnuz", "fp8e5b16": "float8_e5m2fnuz",
    "float8_e4m3fn": "float8_e4m3fn", "float8_e5m2": "float8_e5m2", "float8_e4m3fnuz": "float8_e4m3fnuz",
    "float8_e5m2fnuz": "float8_e5m2fnuz",
    "i8": "int8", "int8": "int8", "u8": "uint8", "uint8": "uint8",
    "i16": "int16", "int16": "int16", "i32": "int32", "int32": "int32", "i64": "int64", "int64": "int64",
    "i1": "bool", "bool": "bool",
}


@dataclass(frozen=True)
class FunctionRef:
    """Where a kernel function lives.

    Attributes:
        spec: what the user typed.
        path: the file that defines the function: its source, the file the compiler's positions name.
        module: dotted module name for package kernels, None for files.
        qualname: the name looked up in the named module (``ops.attn`` for attributes of attributes).
        module_file: the named module's file, where the lookup starts (None: ``path`` itself).
        function: the function's name in ``path`` ("": ``qualname``).
        line: the first line of its definition in ``path`` (0: not found without importing it).
    """

    spec: str
    path: Path
    module: str | None
    qualname: str
    module_file: Path | None = None
    function: str = ""
    line: int = 0

    @property
    def lookup_file(self) -> Path:
        """The file of the module the name is looked up in."""
        return self.module_file or self.path

    @property
    def defined_as(self) -> str:
        """The function's qualified name in its defining file."""
        return self.function or self.qualname


@dataclass(frozen=True)
class ArgSpec:
    """One example argument.

    Attributes:
        name: keyword name, or None when positional.
        kind: ``tensor``, ``int``, ``float``, ``bool``, ``none`` or ``str``.
        dtype: torch dtype name for tensors.
        shape: tensor shape.
        aligned: whether the tensor's address is 16-byte aligned (``@unaligned`` says it is not).
        value: the scalar value.
    """

    name: str | None
    kind: str
    dtype: str = ""
    shape: tuple[int, ...] = ()
    aligned: bool = True
    value: Any = None


@dataclass(frozen=True)
class SignatureEntry:
    """One argument in Triton's AOT signature syntax.

    Attributes:
        text: the entry as written.
        type: Triton type (``*fp16``, ``i32``) or ``constexpr``.
        hint: 16 (divisible by 16), 1 (equal to 1) or None.
        constant: the value when the entry is a constant.
    """

    text: str
    type: str
    hint: int | None = None
    constant: Any = None


def _number(text: str) -> int | float | None:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return None


def _module_file(module: str) -> Path | None:
    """Find ``a.b.c``'s source file on sys.path without importing its packages."""
    found = module_file(module)
    if found is not None:
        return found
    import importlib.util

    # Only the top-level name goes to the finders (an editable install's finder knows where it lives): finding
    # ``a.b`` would import ``a``, running its code. The rest is looked for in the package's folders.
    try:
        spec = importlib.util.find_spec(module.partition(".")[0])
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if "." not in module:
        return Path(spec.origin).resolve() if spec.origin and spec.origin.endswith(".py") else None
    folders = [Path(folder) for folder in spec.submodule_search_locations or ()]
    return module_file(module.partition(".")[2], folders) if folders else None


# What can bind a module's name without the name's word in its text, or hide what it imports.
_DYNAMIC_RE = re.compile(r"\bimport\s+\*|__getattr__|\bglobals\s*\(|\bexec\s*\(|\bsetattr\s*\(|\b__dict__\b|"
                         r"\bvars\s*\(|\bimport_module\b|\b__import__\b")


def _kernels_if_missing(file: Path, name: str) -> list[str] | None:
    """The file's Triton kernels when its source shows, without importing it, that it has no ``name``; else None.

    Certain only for a file that never writes the name, binds nothing dynamically and imports from no module but
    Triton, torch and the standard library's (then its kernels are its ``@...jit``-decorated functions).
    """
    import ast

    try:
        text = file.read_text(encoding="utf-8")
        tree = ast.parse(text)
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None
    if re.search(rf"\b{re.escape(name.partition('.')[0])}\b", text) or _DYNAMIC_RE.search(text):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] not in
                                                 ("triton", "torch", *sys.stdlib_module_names)):
            return None  # it may bind a kernel it imports
    return sorted(node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and any("jit" in ast.unparse(d) for d in node.decorator_list))


def _located(spec: str, file: Path, module: str | None, name: str) -> FunctionRef:
    """The reference with the function's defining file and line, when the source says where it is.

    A name the file certainly lacks is refused here, before Triton is imported (as ``load_object`` would refuse it).
    """
    found = find_definition(file, name)
    if found is None:
        kernels = _kernels_if_missing(file, name)
        if kernels is not None:
            raise UsageError(f"{file} has no {name!r}; its Triton kernels: {', '.join(kernels) or 'none'}")
        return FunctionRef(spec=spec, path=file, module=module, qualname=name)
    return FunctionRef(spec=spec, path=found.path, module=module, qualname=name,
                       module_file=None if found.path == file else file,
                       function="" if found.qualname == name else found.qualname, line=found.line)


def parse_function_ref(spec: str) -> FunctionRef | None:
    """``file.py:name`` or ``pkg.mod:name``; None when ``spec`` has neither form."""
    match = _REF_RE.match(spec)
    if not match:
        return None
    target, name = match.group("target"), match.group("name")
    if target.endswith(".py") or "/" in target:
        path = Path(target).expanduser()
        try:
            is_file = path.is_file()
        except OSError as exc:  # e.g. a name too long for the file system
            raise UsageError(f"kernel file {target[:80]}... ({len(target)} characters) cannot be opened: "
                             f"{exc.strerror}") from None
        if not is_file:
            raise UsageError(f"kernel file {target} does not exist")
        return _located(spec, path.resolve(), None, name)
    if not re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", target):
        raise UsageError(f"{spec!r}: expected FILE.py:FUNCTION or package.module:FUNCTION")
    found = _module_file(target)
    if found is None:
        raise UsageError(f"module {target!r} cannot be found on the Python path (is its package installed?)")
    return _located(spec, found, target, name)


def _split_top(text: str) -> list[str]:
    """Split on commas that are not inside brackets."""
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def parse_arg_value(name: str | None, text: str) -> ArgSpec:
    """One example argument: ``fp16[64,64]``, ``4096``, ``0.5``, ``True``, ``None`` or ``'str'``."""
    tensor = _TENSOR_RE.match(text.replace(" ", ""))
    if tensor:
        dtype = DTYPES.get(tensor.group("dtype"))
        if dtype is None:
            raise UsageError(f"unknown dtype {tensor.group('dtype')!r} in {text!r}; valid: {', '.join(sorted(DTYPES))}")
        dims = tensor.group("shape").replace(" ", "")
        shape = tuple(int(d) for d in dims.split(",") if d) if dims else ()
        return ArgSpec(name=name, kind="tensor", dtype=dtype, shape=shape, aligned=not tensor.group("misaligned"))
    if text in ("True", "False", "true", "false"):
        return ArgSpec(name=name, kind="bool", value=text.lower() == "true")
    if text in ("None", "none"):
        return ArgSpec(name=name, kind="none")
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return ArgSpec(name=name, kind="str", value=text[1:-1])
    number = _number(text)
    if number is None:
        raise UsageError(f"cannot read argument {text!r}: expected a tensor like fp16[4096,4096], a number, "
                         "True/False, None or a quoted string")
    return ArgSpec(name=name, kind="int" if isinstance(number, int) else "float", value=number)


def parse_args(text: str) -> list[ArgSpec]:
    """``"x=fp16[4096,4096], y=fp16[4096,4096], n=4096"`` (names optional, positional first)."""
    specs: list[ArgSpec] = []
    for part in _split_top(text):
        name, _, value = part.rpartition("=") if re.match(r"^[A-Za-z_]\w*\s*=", part) else ("", "", part)
        spec = parse_arg_value(name.strip() or None, value.strip())
        if spec.name is None and any(s.name is not None for s in specs):
            raise UsageError(f"positional argument {part!r} after keyword arguments in --args")
        specs.append(spec)
    if not specs:
        raise UsageError("--args is empty; example: --args \"x=fp16[4096], y=fp16[4096], n=4096\"")
    return specs


# What a --constexpr value may be, for the message that refuses another.
_CONSTEXPR_VALUES = ("a number (1024, 0.5), True/False, None, a quoted string ('relu'), a dtype (tl.bfloat16, "
                     "tl.float8e4nv, fp16) or a Gluon layout (gl.BlockedLayout([1, 4], [32, 1], [4, 1], [1, 0]))")


def parse_constexprs(items: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """``("BLOCK=1024", "ACT='relu'", "ACT=")`` -> ``{"BLOCK": 1024, "ACT": "relu"}``, ``{"ACT": ""}``.

    A Gluon layout (``layout=gl.BlockedLayout([1, 4], [32, 1], [4, 1], [1, 0])``) becomes ``{"layout": TEXT}``.

    ``NAME=`` is the empty string: what the shell passes for ``--constexpr NAME=""``.
    """
    out: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not re.fullmatch(r"[A-Za-z_]\w*", name.strip()):
            raise UsageError(f"--constexpr {item!r}: expected NAME=VALUE, e.g. --constexpr BLOCK_SIZE=1024")
        if not value:
            out[name.strip()] = ""
            continue
        if looks_like_layout(value):  # a Gluon layout's constructor text, checked here, built where it compiles
            out[name.strip()] = {"layout": parse_layout(value, f"--constexpr {name.strip()}").text()}
            continue
        dtype = dtype_constexpr(value)
        if dtype is not None:  # a dtype constexpr (a MoE kernel's compute_type): built as tl.dtype where it compiles
            out[name.strip()] = dtype
            continue
        if dtype_value(value):
            raise UsageError(f"--constexpr {name.strip()}: {value.strip()!r} is not a Triton dtype; valid: "
                             f"{', '.join(f'tl.{n}' for n in sorted(set(DTYPE_NAMES.values())))}")
        if _TENSOR_RE.match(value.replace(" ", "")):
            raise UsageError(f"--constexpr {item!r}: a constexpr cannot be a tensor")
        try:
            spec = parse_arg_value(name.strip(), value.strip())
        except UsageError:
            raise UsageError(f"--constexpr {name.strip()}: cannot read {value.strip()!r} as a constexpr value; "
                             f"valid: {_CONSTEXPR_VALUES}") from None
        out[name.strip()] = spec.value
    return out


def parse_signature(text: str) -> list[SignatureEntry]:
    """Triton's AOT signature: ``"*fp16:16, *fp16:16, i32, i32:16, 128"``."""
    entries: list[SignatureEntry] = []
    for part in [p.strip() for p in text.split(",")]:
        if not part:
            raise UsageError(f"--signature {text!r} has an empty entry")
        constant = _number(part)
        if constant is not None:
            entries.append(SignatureEntry(text=part, type="constexpr", constant=constant))
            continue
        match = _SIG_RE.match(part)
        if not match:
            raise UsageError(f"--signature entry {part!r}: expected TYPE[:HINT] (e.g. *fp16:16, i32:16) or a constant")
        scalar = match.group("type").removeprefix("*k") if match.group("type").startswith("*k") \
            else match.group("type").removeprefix("*")
        if scalar not in SIGNATURE_TYPES:
            raise UsageError(f"--signature entry {part!r}: unknown type {scalar!r}; valid: "
                             f"{', '.join(SIGNATURE_TYPES)} "
                             "(a pointer is *TYPE)")
        hint_text = match.group("hint")
        hint = None
        if hint_text is not None:
            value = _number(hint_text)
            if value not in (1, 16):
                raise UsageError(f"--signature entry {part!r}: only 1 and 16 are valid hints")
            hint = int(value or 0)
        entries.append(SignatureEntry(text=part, type=match.group("type"), hint=hint))
    return entries


@dataclass(frozen=True)
class FunctionKernel:
    """A ``@triton.jit`` function named by reference, with the launch described by the user.

    Attributes:
        ref: where it lives.
        signature: AOT-syntax entries, when given with --signature.
        args: example arguments, when given with --args.
        constexprs: values from --constexpr.
        options: num_warps / num_stages / ... from the command line.
        source_sha: digest of the defining file and the local files it imports (part of the capture key).
        obj: the kernel object itself when the caller already holds it (Python API); not re-imported.
        settings: ``--set`` values applied on top of the config (a what-if variant).
    """

    kind: ClassVar[str] = "function"
    origin: ClassVar[str] = "function"  # what its captures' manifests say they come from
    dtype: ClassVar[str] = ""  # its tensors' dtypes are in its arguments
    compiles_recorded_ir: ClassVar[bool] = False

    ref: FunctionRef
    signature: tuple[SignatureEntry, ...] = ()
    args: tuple[ArgSpec, ...] = ()
    constexprs: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    source_sha: str = ""
    obj: Any = field(default=None, compare=False, hash=False, repr=False)
    settings: dict[str, Any] = field(default_factory=dict, hash=False)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the kernel object: a child process re-imports it from ``ref``."""
        state = dict(self.__dict__)
        state["obj"] = None
        return state

    @property
    def name(self) -> str:
        """The function's name (as defined: the name of the compiled kernel)."""
        return self.ref.defined_as.rsplit(".", 1)[-1]

    @property
    def function(self) -> str:
        """Qualified name inside its defining file."""
        return self.ref.defined_as

    @property
    def path(self) -> Path:
        """The file that defines the function."""
        return self.ref.path

    def describe_arguments(self) -> str:
        """The launch as the user gave it, for manifests and messages."""
        if self.signature:
            text = "signature: " + ", ".join(e.text for e in self.signature)
        else:
            text = "args: " + ", ".join(
                (f"{a.name}=" if a.name else "")
                + (f"{a.dtype}[{','.join(map(str, a.shape))}]" + ("" if a.aligned else "@unaligned")
                   if a.kind == "tensor" else repr(a.value))
                for a in self.args)
        if self.constexprs:
            text += "; constexprs: " + ", ".join(f"{k}={v!r}" for k, v in self.constexprs.items())
        if self.options:
            text += "; options: " + ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        if self.settings:
            text += "; set: " + ", ".join(f"{k}={v!r}" for k, v in sorted(self.settings.items()))
        return text

    def key_payload(self, backend: str, config_index: int, sizes: dict[str, int]) -> dict[str, Any]:
        """What identifies a compile of this kernel, for the capture key (its arguments say the sizes)."""
        return {"kernel_sha": self.source_sha, "function": self.ref.qualname, "arguments": self.describe_arguments(),
                "config_index": config_index}

    def default_sizes(self) -> dict[str, int]:
        """No problem sizes: the arguments carry the shapes."""
        return {}

    def source_file(self, recorded: str) -> Path:
        """The file whose text its capture's source copy holds: the defining file the capture recorded."""
        return Path(recorded)

    def defining_file(self, fn: Any) -> tuple[Path, str]:
        """The file that defines the compiled function ``fn`` and its name there.

        Usually ``path`` (found from source without importing it); the code object has the last word, for
        kernels bound in ways the source reader does not follow.
        """
        py = getattr(fn, "fn", None)
        code = getattr(py, "__code__", None)
        if code is not None and Path(code.co_filename).is_file():
            found = Path(code.co_filename).resolve()
            if found != Path(self.path).resolve():
                return found, str(getattr(py, "__qualname__", self.function))
        return Path(self.path), self.function

    def to_data(self) -> dict[str, Any]:
        """Its JSON form (the kernel object held in memory stays behind: ``from_data`` imports it again)."""
        return {"kind": self.kind, "ref": plain_fields(self.ref),
                "signature": [plain_fields(e) for e in self.signature],
                "args": [plain_fields(a) for a in self.args], "constexprs": self.constexprs, "options": self.options,
                "source_sha": self.source_sha, "settings": self.settings}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> FunctionKernel:
        """The kernel ``to_data`` described."""
        ref = dict(data["ref"])
        ref["path"] = Path(ref["path"])
        ref["module_file"] = Path(ref["module_file"]) if ref.get("module_file") else None
        return cls(ref=FunctionRef(**ref), signature=tuple(SignatureEntry(**e) for e in data["signature"]),
                   args=tuple(ArgSpec(**{**a, "shape": tuple(a.get("shape", ()))}) for a in data["args"]),
                   constexprs=dict(data["constexprs"]), options=dict(data["options"]), source_sha=data["source_sha"],
                   settings=dict(data.get("settings", {})))


def plain_fields(obj: Any) -> dict[str, Any]:
    """A dataclass as JSON-ready data (paths as text, tuples as lists; a kernel object held in memory is left out)."""
    out = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if f.name == "obj":
            continue
        out[f.name] = str(value) if isinstance(value, Path) else list(value) if isinstance(value, tuple) else value
    return out


def _check_source_text(path: Path, data: bytes) -> None:
    """Refuse a kernel file Python could not read as source (not UTF-8, nor in its declared coding)."""
    import importlib.util

    try:
        importlib.util.decode_source(data)
    except (UnicodeDecodeError, SyntaxError, LookupError) as exc:
        where = f" at byte {exc.start}" if isinstance(exc, UnicodeDecodeError) else ""
        raise UsageError(f"kernel file {path} is not readable as Python source text{where} "
                         "(save it as UTF-8)") from None


def function_kernel(spec: str, signature: str | None = None, args: str | None = None,
                    constexprs: tuple[str, ...] | list[str] = (), options: dict[str, Any] | None = None
                    ) -> FunctionKernel | None:
    """Build a FunctionKernel from the command line, or None when ``spec`` is not FILE:NAME / MOD:NAME."""
    ref = parse_function_ref(spec)
    if ref is None:
        if signature or args:
            raise UsageError("--signature and --args need a kernel given as FILE.py:FUNCTION or "
                             "package.module:FUNCTION")
        return None
    if bool(signature) == bool(args):
        raise UsageError(f"{spec}: describe the launch with exactly one of --signature \"*fp16:16, i32, 128\" "
                         "or --args \"x=fp16[4096], n=4096\"")
    _check_source_text(ref.path, ref.path.read_bytes())
    kernel = FunctionKernel(
        ref=ref,
        signature=tuple(parse_signature(signature)) if signature else (),
        args=tuple(parse_args(args)) if args else (),
        constexprs=parse_constexprs(constexprs),
        options={k: v for k, v in (options or {}).items() if v is not None},
    )
    check_launch_early(kernel)  # before digesting the files it imports: a library's can take seconds
    return dataclasses.replace(kernel, source_sha=source_digest(ref.path))


@dataclass(frozen=True)
class RecordedKernel:
    """A kernel recorded from a program run, to be compiled again exactly as it was.

    Attributes:
        path: the stored copy of its source file.
        qualname: the function's name in that file.
        replay: the recorded specialization (see ``Manifest.replay``).
        key: the capture it was recorded as (for a variant: the variant's own key).
        settings: ``--set`` values applied to the recorded specialization (a what-if variant).
        settings_of: for a variant, the key of the recorded capture it varies.
    """

    kind: ClassVar[str] = "recorded"
    origin: ClassVar[str] = "function"  # compiled anew (a --set variant), its capture is irscope's, not the program's
    dtype: ClassVar[str] = ""
    compiles_recorded_ir: ClassVar[bool] = True  # its per-pass compile may start from the IR its program run recorded

    path: Path
    qualname: str
    replay: dict[str, Any] = field(hash=False)
    key: str = ""
    settings: dict[str, Any] = field(default_factory=dict, hash=False)
    settings_of: str = ""

    @property
    def name(self) -> str:
        """The function's name."""
        return self.qualname.rsplit(".", 1)[-1]

    @property
    def function(self) -> str:
        """Qualified name inside the file."""
        return self.qualname

    def key_payload(self, backend: str, config_index: int, sizes: dict[str, int]) -> str:
        """Not a payload but the key itself: a recorded kernel (or its variant) carries the key it is stored under."""
        return self.key

    def default_sizes(self) -> dict[str, int]:
        """No problem sizes: the recorded specialization carries them."""
        return {}

    def describe_arguments(self) -> str:
        """What its manifest says of its launch: the recorded capture it is a variant of."""
        return f"a variant of {self.settings_of}"

    def source_file(self, recorded: str) -> Path:
        """The stored copy of its source, which a compile of it reads."""
        return self.path

    def defining_file(self, fn: Any) -> tuple[Path, str]:
        """The file the IR's locations name (the recorded file; the stored copy when none was recorded) and the
        function's name there.

        A compile of it reads the stored copy (``source_file``) under the recorded file's name
        (``irscope.compile.replay.load_replayed``), so a variant's locations name the file its base's do.
        """
        recorded = str(self.replay.get("file", ""))
        return (Path(recorded) if recorded else Path(self.path)), self.function

    def to_data(self) -> dict[str, Any]:
        """Its JSON form."""
        return {"kind": self.kind, "path": str(self.path), "qualname": self.qualname, "replay": self.replay,
                "key": self.key, "settings": self.settings, "settings_of": self.settings_of}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> RecordedKernel:
        """The kernel ``to_data`` described."""
        return cls(path=Path(data["path"]), qualname=data["qualname"], replay=data["replay"], key=data["key"],
                   settings=dict(data.get("settings", {})), settings_of=str(data.get("settings_of", "")))
