"""The one error hierarchy of irscope; the CLI turns these into exit codes and one-line messages."""

from __future__ import annotations


class IrscopeError(Exception):
    """Base class: something the user should read as one line, without a traceback."""

    exit_code = 1


class UsageError(IrscopeError):
    """The user asked for something that does not exist (unknown kernel, stage, target, config)."""

    exit_code = 2


class CompileError(IrscopeError):
    """Triton failed to compile the kernel; the message carries Triton's own words."""

    exit_code = 1


class StoreError(IrscopeError):
    """A capture on disk is missing, unreadable or from an incompatible irscope."""

    exit_code = 1


class DamagedCaptureError(StoreError):
    """A stored capture's file is missing, or differs from what its manifest recorded."""

    def __init__(self, key: str, name: str, why: str, hint: str = "") -> None:
        self.key, self.name, self.why = key, name, why
        super().__init__(f"capture {key} is damaged: {name}: {why}" + (f"; {hint}" if hint else ""))

    def why_line(self) -> str:
        """``file: what is wrong``."""
        return f"{self.name}: {self.why}"


class NoDeviceError(IrscopeError):
    """The command needs a GPU and none is visible."""

    exit_code = 2


def closest(name: str, choices: list[str] | tuple[str, ...]) -> str:
    """Return ' (did you mean X?)' when a close match exists, else ''."""
    import difflib

    match = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {match[0]!r}?)" if match else ""


def unknown(what: str, name: str, choices: list[str] | tuple[str, ...]) -> UsageError:
    """Build the standard 'unknown X' usage error naming the valid choices."""
    valid = ", ".join(choices) if choices else "none"
    return UsageError(f"unknown {what} {name!r}{closest(name, choices)}; valid: {valid}")
