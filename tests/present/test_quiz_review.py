"""The review of a graded quiz (advisor.present.quiz), the one the Learn page and
``advisor learn --quiz`` both render: marks, verdicts, citations and the score, in zh and en."""

from __future__ import annotations

import pytest

from advisor.glossary import term
from advisor.knowledge.onboarding import grade_quiz, onboarding_path
from advisor.present.quiz import review_quiz


def _wrong(module) -> list[int]:
    return [(q.answer + 1) % len(q.choices) for q in module.quiz]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("index", [0, 2])
def test_wrong_answers_mark_the_right_choice_and_the_given_one(lang, index) -> None:
    module = onboarding_path(lang)[index]
    given = _wrong(module)
    review = review_quiz(grade_quiz(module.id, given, lang))
    assert (review.score, review.passed, review.lang) == (0, False, lang)
    for q, raw, a in zip(review.questions, module.quiz, given, strict=True):
        assert [c.text for c in q.choices] == raw.choices
        assert [c.number for c in q.choices] == list(range(1, len(raw.choices) + 1))
        assert [c.mark for c in q.choices].count("right") == 1
        assert q.choices[raw.answer].mark == "right" and not q.choices[raw.answer].given
        assert q.choices[a].mark == "wrong" and q.choices[a].given
        assert [c.given for c in q.choices].count(True) == 1
        assert not q.correct
        assert q.verdict == term("learn.wrong", lang, answer=raw.choices[raw.answer])
        assert q.see == f"{term('learn.see', lang)}: {raw.cite.title} › {raw.cite.section}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_right_answers_pass_with_the_score_line(lang) -> None:
    module = onboarding_path(lang)[1]
    review = review_quiz(grade_quiz(module.id, [q.answer for q in module.quiz], lang))
    assert review.passed and review.score == review.total == len(module.quiz)
    assert review.score_line == term("learn.score_of", lang, score=review.total, total=review.total)
    for q in review.questions:
        assert q.correct and q.verdict == term("learn.correct", lang)
        right = next(c for c in q.choices if c.mark == "right")
        assert right.given and all(c.mark == "other" for c in q.choices if c is not right)


def test_a_json_dump_gives_the_same_review_as_the_model() -> None:
    module = onboarding_path("zh")[0]
    given = [q.answer for q in module.quiz]
    given[0] = (given[0] + 1) % len(module.quiz[0].choices)
    graded = grade_quiz(module.id, given, "zh")
    assert review_quiz(graded.model_dump(mode="json")) == review_quiz(graded)
    assert review_quiz(graded).score == len(given) - 1
