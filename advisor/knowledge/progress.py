"""Onboarding progress of the local user: which modules were opened and which quizzes passed.

Stored as a small JSON file at ``ADVISOR_LEARN_PROGRESS`` or, by default,
``$XDG_STATE_HOME/compute-cost-advisor/learn.json`` (``~/.local/state/...``). Nothing else
reads it; losing it only resets the check marks.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from advisor.errors import DataError
from advisor.knowledge.onboarding import QuizResult


def progress_file() -> Path:
    env = os.environ.get("ADVISOR_LEARN_PROGRESS")
    if env:
        return Path(env)
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "compute-cost-advisor" / "learn.json"


def load_progress() -> dict[str, dict[str, Any]]:
    """``{module_id: {opened, attempts, best_score, total, passed}}``; empty when no file yet."""
    path = progress_file()
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DataError(str(path), f"progress file is not readable JSON ({exc.__class__.__name__}); delete it to start over") from exc
    if not isinstance(data, dict):
        raise DataError(str(path), "progress file must hold a JSON object; delete it to start over")
    return {k: v for k, v in data.items() if isinstance(v, dict)}


def _save(data: dict[str, dict[str, Any]]) -> None:
    path = progress_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True), encoding="utf-8")
    tmp.replace(path)


def mark_opened(module_id: str) -> None:
    data = load_progress()
    entry = data.setdefault(module_id, {})
    entry.setdefault("opened", time.strftime("%Y-%m-%d"))
    _save(data)


def record_quiz(result: QuizResult) -> dict[str, Any]:
    """Store a graded quiz (best score kept) and return the module's entry."""
    data = load_progress()
    entry = data.setdefault(result.module_id, {})
    entry.setdefault("opened", time.strftime("%Y-%m-%d"))
    entry["attempts"] = int(entry.get("attempts", 0)) + 1
    entry["total"] = result.total
    entry["best_score"] = max(int(entry.get("best_score", 0)), result.score)
    entry["passed"] = bool(entry.get("passed")) or result.passed
    _save(data)
    return entry
