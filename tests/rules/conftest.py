"""Shared fixtures of the rules tests: a scratch rules directory holding the real fact
registries, for packs written by a test."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from advisor import config

REAL_RULES = config.ROOT / "rules"


@pytest.fixture
def scratch_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Path]:
    """``write(rules, name="demo")`` writes a pack into a scratch rules dir (which holds a copy
    of the real fact registries) and points ADVISOR_RULES_DIR at it; returns the pack path."""
    shutil.copytree(REAL_RULES / "facts", tmp_path / "facts")
    monkeypatch.setenv("ADVISOR_RULES_DIR", str(tmp_path))

    def write(rules: list[dict[str, Any]], name: str = "demo", **top: Any) -> Path:
        doc = {"pack": name, "domain": "estimate", "description": {"en": "Demo", "zh": "演示"}, "rules": rules}
        doc.update(top)
        path = tmp_path / f"{name}.yaml"
        path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
        return path

    return write
