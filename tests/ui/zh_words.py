"""Latin-script words a Chinese page must not show: one checker for the page scan
(test_zh_complete.py) and the chat answers' own lines (test_assumed_line_zh.py).

Allowed: the words of tests/ui/zh_allowlist.yaml, every word of a catalog GPU, model or provider
name, and what SKIP drops (identifiers, file names, code, links, cited titles and quotes)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from advisor.catalog.catalog import get_catalog

WORD = re.compile(r"(?<![A-Za-z0-9_./#@-])[A-Za-z][A-Za-z'-]*[A-Za-z](?![A-Za-z0-9_])")


def _catalog_words() -> set[str]:
    """Every word of a GPU, model or provider name in the catalog (product names)."""
    catalog = get_catalog()
    names: list[str] = []
    for entry in [*catalog.gpus, *catalog.models, *catalog.providers.values()]:
        names += [str(entry.id), str(entry.name), *(str(a) for a in getattr(entry, "aliases", ()) or ())]
        names.append(str(getattr(entry, "family", "") or ""))
    return {w.lower() for n in names for w in re.findall(r"[A-Za-z][A-Za-z'-]*[A-Za-z]", n)}


ALLOW = {w.lower() for ws in yaml.safe_load((Path(__file__).with_name("zh_allowlist.yaml")).read_text("utf-8")).values()
         for w in ws} | _catalog_words()
SKIP = re.compile(r"`[^`]*`|https?://\S+|[\w./*-]+\.(?:md|csv|txt|py|yaml|json)\b|:material/[a-z_]+:|:[a-z]+-badge\["
                  r"|《[^》]*》|「[^」]*」|\b[A-Z][A-Za-z'.-]*(?:\s+[A-Z][A-Za-z'.-]*)*\s*等"  # a cited work, its authors
                  r"|[A-Za-z0-9-]*\d[A-Za-z0-9-]*|\w+(?:[._]\w+)+|\b[\w-]+(?:\.[a-z]{2,})+\b"  # identifiers, hosts
                  r"|\b\w+=\S+"  # a tool argument as given (model=llama-3.1-8b)
                  r"|\b[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+\b")  # a CamelCase name (a team's, a product's)


def leaks(texts: list[str]) -> list[str]:
    bad = []
    for text in texts:
        clean = SKIP.sub(" ", text)
        for word in WORD.findall(clean):
            if word.lower() not in ALLOW and not re.fullmatch(r"[A-Z]{1,3}\d*|[a-z]", word):
                bad.append(f"{word!r} in {text[:90]!r}")
    return bad
