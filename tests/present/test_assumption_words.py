"""Every assumption a report lists reads in the user's language: each data entry (engine,
usage, contract and decision defaults) has a name and a public source in the glossary, each
unit a Chinese word, and no source a user reads cites an internal file or requirement id."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from advisor.findings import Assumption
from advisor.glossary import entries
from advisor.present.common import assumption_name, assumption_source, assumption_value
from advisor.present.fmt import public_source

ROOT = Path(__file__).resolve().parents[2]
FILES = ["knowledge/catalog/defaults.yaml", "knowledge/catalog/usage_defaults.yaml",
         "knowledge/catalog/contract_defaults.yaml", *sorted(str(p.relative_to(ROOT))
                                                           for p in (ROOT / "knowledge/decisions").glob("*.yaml"))]
INTERNAL = re.compile(r"REQUIREMENTS|CALIBRATION|\.md\b|\.ya?ml\b|\.py\b|\.csv\b|\[S\d+\]|issue #|(?<![\w-])[A-F]\d\b")
LATIN_WORD = re.compile(r"\b(?!token\b)[a-z]{4,}\b")  # "token" is the Chinese usage too


def _entries() -> dict[str, dict]:
    out: dict[str, dict] = {}
    for name in FILES:
        def walk(prefix: str, x: object) -> None:
            if isinstance(x, dict) and "value" in x and "source" in x:
                out[prefix] = x
            elif isinstance(x, dict):
                for k, v in x.items():
                    walk(f"{prefix}.{k}" if prefix else str(k), v)
        walk("", yaml.safe_load((ROOT / name).read_text("utf-8")))
    return out


ENTRIES = _entries()


def test_the_data_files_were_found() -> None:
    assert len(ENTRIES) > 100


@pytest.mark.parametrize("key", sorted(ENTRIES))
def test_every_data_entry_reads_in_both_languages(key: str) -> None:
    entry = ENTRIES[key]
    a = Assumption(name=key, value=entry["value"], unit=entry.get("unit"), source=str(entry["source"]),
                   source_key=f"source.{key}")
    glossary = entries()
    assert "zh" in glossary.get(f"assumption.{key}", {}) and "en" in glossary[f"assumption.{key}"], key
    assert "zh" in glossary.get(f"source.{key}", {}), f"no Chinese source for {key}"
    zh = " ".join([assumption_name(key, "zh"), assumption_value(a, "zh"), assumption_source(a, "zh")])
    assert not INTERNAL.search(zh), zh
    assert not LATIN_WORD.search(assumption_value(a, "zh")), f"unit of {key} is English: {assumption_value(a, 'zh')}"
    assert not INTERNAL.search(assumption_source(a, "en")), assumption_source(a, "en")


@pytest.mark.parametrize("text, gone", [
    ("REQUIREMENTS.md B4: night (after 22:00) capacity", "B4"),
    ("FITTED (bench/accuracy.py) on knowledge/calibration/pretrain_runs.yaml: runs", ".yaml"),
    ("project assumption (issue #14): a Chinese question", "#14"),
    ("Lambda bills until terminated (CALIBRATION)", "CALIBRATION"),
    ("target ≥ 85 %; E2: adjust from the data", "E2"),
    ("shared/data/prices/cny_gpu_prices.csv line 82; section 'AutoDL'", ".csv"),
])
def test_public_source_drops_internal_references(text: str, gone: str) -> None:
    shown = public_source(text)
    assert gone not in shown and shown != "—"


def test_computed_values_read_in_both_languages() -> None:
    a = Assumption(name="price.market", value="local: CNY offers", source="default for a question in 'zh'",
                   source_key="source.price.market.default", source_values={"home": "CNY", "currency": "CNY",
                                                                           "choice": "local"})
    assert assumption_name(a.name, "zh") == "价格市场"
    assert "CNY" in assumption_value(a, "zh") and "报价" in assumption_value(a, "zh")
    assert "按提问语言" in assumption_source(a, "zh")
    given = Assumption(name="gpu_count", value=8, source="request")
    assert assumption_source(given, "zh") == "你的输入" and assumption_source(given, "en") == "your input"
    per_card = Assumption(name="price_per_gpu_hour.H100-SXM", value=13.6, unit="CNY per GPU-hour", source="x")
    assert assumption_name(per_card.name, "zh") == "每卡时单价" and assumption_value(per_card, "zh") == "13.6 CNY/卡时"


def test_every_rule_source_reads_in_chinese() -> None:
    """A finding's "source" line: every rule with a source has its Chinese text in the glossary."""
    glossary = entries()
    missing = [r["id"] for path in sorted((ROOT / "rules").glob("*.yaml"))
               for r in (yaml.safe_load(path.read_text("utf-8")) or {}).get("rules", [])
               if r.get("source") and "zh" not in glossary.get(f"source.rule.{r['id']}", {})]
    assert not missing, missing
