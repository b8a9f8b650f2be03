"""One exception tree for the whole package; callers catch :class:`AdvisorError`.

::

    AdvisorError
    ├── InputError (also ValueError)     a value the user gave is not acceptable
    │   ├── UnknownNameError             unknown GPU / model / provider, with close matches
    │   └── DocumentError                a document cannot be read (corrupt, too large, encrypted)
    ├── DataError                        a data file shipped or supplied is broken (file, row, field)
    │   └── RuleError                    a rule pack is broken (file, rule, field)
    └── ServiceError                     an external service (LLM endpoint) failed

Every message is one line: what was wrong, what is accepted, and the next step.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from advisor.redact import redact


class AdvisorError(Exception):
    """Base class of every error the advisor raises on purpose."""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        self.message = " ".join(message.split())
        self.hint = " ".join(hint.split()) if hint else None
        super().__init__(self.one_line())

    def one_line(self) -> str:
        """The message on one line, with any secret it quotes replaced by ``***``."""
        return redact(f"{self.message} ({self.hint})" if self.hint else self.message)

    def __str__(self) -> str:
        return self.one_line()

    def parts(self) -> dict[str, Any]:
        """The structured fields (field, value, accepted, hint, kind, suggestions, path, row, problem),
        JSON-safe and redacted, plus ``line`` (:meth:`one_line`): what advisor.present.errors words."""
        def plain(v: Any) -> Any:
            if v is None or isinstance(v, bool | int | float):
                return v
            return [plain(x) for x in v] if isinstance(v, list | tuple) else redact(str(v))
        return {"line": self.one_line(), **{k: plain(v) for k, v in vars(self).items()}}


class InputError(AdvisorError, ValueError):
    """A value given by the user is not acceptable.

    ``field`` names the input, ``value`` is what was given, ``accepted`` says what would be.
    """

    def __init__(
        self,
        field: str,
        value: object,
        accepted: str,
        *,
        hint: str | None = None,
    ) -> None:
        self.field = field
        self.value = value
        self.accepted = accepted
        shown = repr(value) if isinstance(value, str) else str(value)
        super().__init__(f"invalid {field} {shown}: expected {accepted}", hint=hint)


class UnknownNameError(InputError):
    """A name (GPU, model, provider, ...) that no catalog entry or alias matches."""

    def __init__(self, kind: str, name: str, suggestions: Sequence[str], accepted: str = "") -> None:
        self.kind = kind
        self.suggestions = list(suggestions)
        hint = f"did you mean {', '.join(self.suggestions)}?" if self.suggestions else None
        accepted_text = accepted or f"a known {kind} name (see `advisor {kind}s`)"
        super().__init__(kind, name, accepted_text, hint=hint)
        self.message = f"unknown {kind} {name!r}: expected {accepted_text}"
        Exception.__init__(self, self.one_line())


class DocumentError(InputError):
    """A document (contract, telemetry file, billing export) cannot be read as given."""

    def __init__(self, path: str, problem: str, *, hint: str | None = None) -> None:
        self.path = path
        self.problem = problem
        AdvisorError.__init__(self, f"cannot read {path}: {problem}", hint=hint)
        self.field, self.value, self.accepted = "document", path, problem


class DataError(AdvisorError):
    """A data file is malformed. Names the file, and the row and field when known."""

    def __init__(
        self,
        path: str,
        problem: str,
        *,
        row: int | str | None = None,
        field: str | None = None,
        hint: str | None = None,
    ) -> None:
        self.path, self.row, self.field, self.problem = path, row, field, problem
        where = path
        if row is not None:
            where += f", row {row}"
        if field is not None:
            where += f", field {field!r}"
        super().__init__(f"{where}: {problem}", hint=hint)


class RuleError(DataError):
    """A rule pack is malformed: names the file, the rule and the field."""

    def __init__(self, path: str, problem: str, *, rule: str | None = None, field: str | None = None) -> None:
        self.rule = rule
        AdvisorError.__init__(
            self,
            f"{path}" + (f", rule {rule!r}" if rule else "") + (f", field {field!r}" if field else "") + f": {problem}",
        )
        self.path, self.row, self.field, self.problem = path, rule, field, problem


class ServiceError(AdvisorError):
    """An external service, such as an LLM endpoint, failed or timed out."""


def close_matches(name: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """Closest candidates to ``name`` (case-insensitive), best first."""
    import difflib

    pool = {c.lower(): c for c in candidates}
    key = name.strip().lower()
    hits = difflib.get_close_matches(key, list(pool), n=n, cutoff=0.5)
    prefix = [c for k, c in pool.items() if key and (k.startswith(key) or key in k)]
    ordered: list[str] = []
    for c in [pool[h] for h in hits] + prefix:
        if c not in ordered:
            ordered.append(c)
    return ordered[:n]
