"""The short form shows the same top findings in every face: the Markdown answer and the
terminal both show ``TOP_FINDINGS`` of them (the rest fold into the details), in zh and en."""

from __future__ import annotations

import pytest
from rich.console import Console

from advisor.cli.render import view as terminal
from advisor.present.markdown import full, short
from advisor.present.view import TOP_FINDINGS, Figure, FindingLine, View


def _view(lang: str, n: int) -> View:
    findings = [FindingLine(rule_id=f"r{i}", severity="warning", severity_label="!", title=f"finding-{i}",
                            detail="", recommendation=f"do-{i}") for i in range(n)]
    return View(summary="s", headline=Figure(key="k", label="l", value="1"), findings=findings, lang=lang)


def _shown(text: str, n: int) -> list[int]:
    return [i for i in range(n) if f"finding-{i}" in text]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("n", [1, TOP_FINDINGS + 2])
def test_markdown_and_terminal_show_the_same_top_findings(lang, n) -> None:
    v = _view(lang, n)
    console = Console(record=True, width=200)
    terminal(v, console=console)
    top = list(range(min(n, TOP_FINDINGS)))
    assert _shown(short(v), n) == _shown(console.export_text(), n) == top
    details = Console(record=True, width=200)
    terminal(v, details=True, console=details)
    assert _shown(full(v), n) == _shown(details.export_text(), n) == list(range(n))
