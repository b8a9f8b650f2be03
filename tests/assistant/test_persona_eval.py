"""The offline assistant on the persona question set (written by someone who had not seen the
parser; see bench/persona_eval.py): per-language accuracy on the dev half
(tuned on) and on the test half (never tuned on), and "What I understood" on every answer."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from advisor.assistant import ask
from advisor.glossary import term
from bench.persona_eval import SETS, evaluate, half_of, load

pytestmark = pytest.mark.usefixtures("clean_llm_env")

ITEMS = load()
THRESHOLD = {("set1", "dev"): 0.94, ("set1", "test"): 0.75, ("set2", "dev"): 0.92, ("set2", "test"): 0.72,
             ("set3", "dev"): 0.95, ("set3", "test"): 0.73, ("set4", "dev"): 0.75, ("set4", "test"): 0.68,
             ("set5", "dev"): 0.95, ("set5", "test"): 0.75, ("set6", "dev"): 0.70, ("set6", "test"): 0.78,
             ("set7", "dev"): 0.60, ("set7", "test"): 0.65}
"""Per set, half and language. The figures reached are printed by `python -m bench.eval_personas`;
these floors (below the 90 % target on the test halves) keep them from sliding back."""


def test_the_set_is_large_bilingual_and_split_in_halves() -> None:
    assert len(ITEMS) >= 300
    langs = [x["lang"] for x in ITEMS]
    assert abs(langs.count("zh") - langs.count("en")) <= 10
    halves = [half_of(x["id"]) for x in ITEMS]
    assert 0.4 <= halves.count("dev") / len(halves) <= 0.6
    assert half_of("zh-mgr-001") == half_of("zh-mgr-001")


def test_the_second_set_is_new_bilingual_and_keeps_the_schema() -> None:
    second = load(SETS["set2"])
    assert len(second) >= 200 and not {x["id"] for x in second} & {x["id"] for x in ITEMS}
    assert {x["lang"] for x in second} == {"zh", "en"}
    assert all(set(x["expect"]) >= {"intent", "args"} for x in second)


def _catalog_ids(kind: str) -> set[str]:
    path = Path(__file__).resolve().parents[2] / "knowledge" / "catalog" / f"{kind}.yaml"
    return {entry["id"] for entry in yaml.safe_load(path.read_text(encoding="utf-8"))[kind]}


LATER_SETS = [("set3", 300, 140, 140), ("set4", 300, 170, 110), ("set5", 200, 125, 65), ("set6", 240, 115, 115),
              ("set7", 240, 115, 115)]
"""Sets 3 onwards: name, least items, least Chinese and least English items."""


@pytest.mark.parametrize(("name", "size", "zh", "en"), LATER_SETS)
def test_each_later_set_is_new_and_labels_catalog_ids(name: str, size: int, zh: int, en: int) -> None:
    items = load(SETS[name])
    earlier = {x["id"] for other in SETS if other < name for x in load(SETS[other])}
    ids = [x["id"] for x in items]
    assert len(items) >= size and len(set(ids)) == len(ids) and not set(ids) & earlier
    langs = [x["lang"] for x in items]
    assert langs.count("zh") >= zh and langs.count("en") >= en
    assert all(set(x["expect"]) >= {"intent", "args"} for x in items)
    gpus, models = _catalog_ids("gpus"), _catalog_ids("models")
    wrong = [(x["id"], value) for x in items for key, known in (("gpu", gpus), ("gpus", gpus), ("model", models))
             for value in _as_list(x["expect"]["args"].get(key)) if value not in known]
    assert not wrong, wrong


def _as_list(value: object) -> list[object]:
    return [] if value is None else value if isinstance(value, list) else [value]


@pytest.mark.parametrize(("name", "half"), sorted(THRESHOLD))
def test_accuracy_per_language(name: str, half: str) -> None:
    report = evaluate(half, SETS[name], failures=False)
    scores = {k: v["accuracy"] for k, v in report["by_language"].items()}
    print(name, half, scores)
    assert set(scores) == {"zh", "en"}
    assert all(score >= THRESHOLD[(name, half)] for score in scores.values()), scores


def test_every_answer_says_first_what_it_understood() -> None:
    scanned = 0
    for item in ITEMS[:130]:
        history = None
        for earlier in item.get("history") or []:
            history = ask(earlier, history=history, offline=True).history
        result = ask(item["text"], history=history, offline=True)
        if result.intent in ("greeting", "help"):
            continue
        assert result.answer.startswith(term("understood.head", result.lang)), (item["id"], result.answer[:200])
        first = result.answer.split("\n\n")[0]
        assert len(first) > len(term("understood.head", result.lang)) + 3, (item["id"], first)
        scanned += 1
    assert scanned >= 100
