"""Words the offline parser recognizes besides catalog names, loaded from
``knowledge/lexicon.yaml``: methods, billing modes, project stages, precisions, model
families (for models the catalog does not list) and currency words.

GPU, model and provider names are not here: they are the catalog's ids and aliases, read
from questions with :func:`advisor.catalog.names.find_names`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from advisor.config import ROOT
from advisor.datafile import read_mapping

LEXICON_FILE = ROOT / "knowledge" / "lexicon.yaml"

# Left/right guards: a word is not part of a longer ASCII token ("a1000", "xh100").
L = r"(?<![a-z0-9])"
R = r"(?![a-z0-9])"


@lru_cache(maxsize=1)
def lexicon() -> dict[str, Any]:
    """The parsed lexicon file (DataError naming the file when it is unreadable), each pattern that
    names a word boundary or word character (``\\b``, ``\\w``) made ASCII (:func:`_ascii_words`)."""
    return _ascii_words(read_mapping(LEXICON_FILE))


def _ascii_words(node: Any) -> Any:
    """A pattern's ``\\b`` and ``\\w`` mean an English word's edge and letters: a Chinese character is no
    word character, so "包月quote" holds the word "quote" and "fine-tuning要多少" ends the word at 要."""
    if isinstance(node, dict):
        return {k: _ascii_words(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_ascii_words(v) for v in node]
    return f"(?a:{node})" if isinstance(node, str) and ("\\b" in node or "\\w" in node) else node


def _pairs(section: str) -> list[tuple[str, str]]:
    return [(str(e["pattern"]), str(e["value"])) for e in lexicon()[section]]


METHODS = _pairs("methods")
BILLING_MODES = _pairs("billing_modes")
STAGES = _pairs("stages")
PRECISIONS = _pairs("precisions")
SERVING_PRECISIONS = frozenset(str(e["value"]) for e in lexicon()["precisions"] if e.get("serving_only"))
"""Quantised precisions only the serving tool takes (int4 training is QLoRA, a method)."""
MODEL_FAMILIES: list[tuple[str, str]] = [(str(e["family"]), str(e["pattern"])) for e in lexicon()["model_families"]]
MODEL_FORMATS: dict[str, tuple[str, str, str]] = {
    str(e["family"]): (e["formats"]["both"], e["formats"]["size"], e["formats"]["version"])
    for e in lexicon()["model_families"]
}
"""How each family writes a model id: (with version and size, size only, version only)."""
DEFAULT_VERSION_BY_SIZE: dict[str, dict[str, str]] = {
    fam: {str(k): str(v) for k, v in sizes.items()} for fam, sizes in lexicon()["default_version_by_size"].items()
}
SIZED_VERSIONS = {(str(f), str(v)) for f, v in lexicon()["sized_versions"]}
FILE_EXTENSIONS = tuple(str(x) for x in lexicon()["file_extensions"])
CURRENCY = lexicon()["currency"]
