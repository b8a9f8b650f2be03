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
             ("set3", "dev"): 0.95, ("set3", "test"): 0.73, ("set4", "dev"): 0.75, ("set4", "test"): 0.68}
"""Per set, half and language. The figures reached are in /work/coord/notes/issue-11a.md and printed by
`python -m bench.eval_personas`; these floors (below the 90 % target on the test halves) keep them
from sliding back."""


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


def test_the_third_set_is_new_bilingual_and_labels_catalog_ids() -> None:
    third = load(SETS["set3"])
    earlier = {x["id"] for name in ("set1", "set2") for x in load(SETS[name])}
    ids = [x["id"] for x in third]
    assert len(third) >= 300 and len(set(ids)) == len(ids) and not set(ids) & earlier
    langs = [x["lang"] for x in third]
    assert set(langs) == {"zh", "en"} and abs(langs.count("zh") - langs.count("en")) <= 10
    assert all(set(x["expect"]) >= {"intent", "args"} for x in third)
    known = {"gpu": _catalog_ids("gpus"), "model": _catalog_ids("models")}
    wrong = [(x["id"], key, x["expect"]["args"][key]) for x in third for key in known
             if key in x["expect"]["args"] and x["expect"]["args"][key] not in known[key]]
    assert not wrong, wrong


def _as_list(value: object) -> list[object]:
    return [] if value is None else value if isinstance(value, list) else [value]


def test_the_fourth_set_is_new_mostly_chinese_and_labels_catalog_ids() -> None:
    fourth = load(SETS["set4"])
    earlier = {x["id"] for name in ("set1", "set2", "set3") for x in load(SETS[name])}
    ids = [x["id"] for x in fourth]
    assert len(fourth) >= 300 and len(set(ids)) == len(ids) and not set(ids) & earlier
    langs = [x["lang"] for x in fourth]
    assert langs.count("zh") >= 170 and langs.count("en") >= 110
    assert all(set(x["expect"]) >= {"intent", "args"} for x in fourth)
    gpus, models = _catalog_ids("gpus"), _catalog_ids("models")
    wrong = [(x["id"], value) for x in fourth for key, ids in (("gpu", gpus), ("gpus", gpus), ("model", models))
             for value in _as_list(x["expect"]["args"].get(key)) if value not in ids]
    assert not wrong, wrong



def test_the_fifth_set_is_new_mostly_chinese_and_labels_catalog_ids() -> None:
    fifth = load(SETS["set5"])
    earlier = {x["id"] for name in ("set1", "set2", "set3", "set4") for x in load(SETS[name])}
    ids = [x["id"] for x in fifth]
    assert len(fifth) >= 200 and len(set(ids)) == len(ids) and not set(ids) & earlier
    langs = [x["lang"] for x in fifth]
    assert langs.count("zh") >= 125 and langs.count("en") >= 65
    assert all(set(x["expect"]) >= {"intent", "args"} for x in fifth)
    gpus, models = _catalog_ids("gpus"), _catalog_ids("models")
    wrong = [(x["id"], value) for x in fifth for key, ids in (("gpu", gpus), ("gpus", gpus), ("model", models))
             for value in _as_list(x["expect"]["args"].get(key)) if value not in ids]
    assert not wrong, wrong

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
