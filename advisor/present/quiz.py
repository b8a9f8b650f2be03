"""A graded onboarding quiz as a person reads it: each question with every choice marked (the
right one, the one given), the verdict, the explanation and the guide section that explains it.

The Learn page and ``advisor learn --quiz`` both render this review; they only choose the
glyphs. A JSON dump of the graded quiz (what the UI's services return) is validated back into
:class:`~advisor.knowledge.onboarding.QuizResult` first, so no face reads it through dict keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from advisor.glossary import term
from advisor.knowledge.onboarding import QuestionResult, QuizResult

Mark = Literal["right", "wrong", "other"]


@dataclass
class ChoiceLine:
    """One choice of a graded question: ``mark`` is ``right`` for the correct choice, ``wrong``
    for a wrong choice that was given, ``other`` for the rest; ``given`` marks the user's answer."""

    number: int  # 1-based, as the faces show choices and the CLI takes answers
    text: str
    mark: Mark
    given: bool


@dataclass
class QuestionReview:
    """One graded question: the verdict ("Correct" or the right answer), the explanation and
    where the guide explains it ("See: guide › section")."""

    number: int  # 1-based
    question: str
    correct: bool
    verdict: str
    explanation: str
    see: str
    choices: list[ChoiceLine]


@dataclass
class QuizReview:
    """A graded quiz: the score (``score_line``: "2 of 3 correct"), whether it passed, each question."""

    module_id: str
    lang: str
    score: int
    total: int
    passed: bool
    score_line: str
    questions: list[QuestionReview]


def _mark(i: int, r: QuestionResult) -> Mark:
    if i == r.correct_answer:
        return "right"
    return "wrong" if i == r.given else "other"


def _question(r: QuestionResult, lang: str) -> QuestionReview:
    right = r.choices[r.correct_answer]
    verdict = term("learn.correct", lang) if r.correct else term("learn.wrong", lang, answer=right)
    choices = [ChoiceLine(number=i + 1, text=c, mark=_mark(i, r), given=i == r.given) for i, c in enumerate(r.choices)]
    return QuestionReview(number=r.number, question=r.question, correct=r.correct, verdict=verdict,
                          explanation=r.explanation, see=f"{term('learn.see', lang)}: {r.cite.title} › {r.cite.section}",
                          choices=choices)


def review_quiz(result: QuizResult | dict[str, Any]) -> QuizReview:
    """The review of a graded quiz (the model, or its JSON dump), in the quiz's language."""
    graded = QuizResult.model_validate(result)
    lang = graded.lang
    return QuizReview(module_id=graded.module_id, lang=lang, score=graded.score, total=graded.total,
                      passed=graded.passed, score_line=term("learn.score_of", lang, score=graded.score, total=graded.total),
                      questions=[_question(r, lang) for r in graded.results])
