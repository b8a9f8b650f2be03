"""The onboarding path (``knowledge/onboarding.yaml``): ordered modules, each built on one
guide, with goals, a checklist and a short quiz — the same path for ``advisor learn``, the
chat ("onboard me", "教我…") and the UI.

Quiz answers are 0-based choice indexes here; the CLI shows and accepts 1-based numbers.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from advisor import config
from advisor.datafile import data_error, read_mapping
from advisor.errors import DataError, InputError, UnknownNameError, close_matches
from advisor.glossary import term
from advisor.knowledge.guides import Lang, check_lang, get_guide

ACCEPTED_ANSWERS = "one choice number per question, e.g. 1,3,2"


class _Text(BaseModel):
    model_config = ConfigDict(extra="forbid")
    en: str = Field(min_length=1)
    zh: str = Field(min_length=1)


class _TextList(BaseModel):
    model_config = ConfigDict(extra="forbid")
    en: list[str] = Field(min_length=1)
    zh: list[str] = Field(min_length=1)


class _Question(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cite: _Text
    question: _Text
    choices: _TextList
    answer: int = Field(ge=0)
    explanation: _Text

    @model_validator(mode="after")
    def _consistent(self) -> _Question:
        if len(self.choices.en) != len(self.choices.zh):
            raise ValueError("choices must have the same number of entries in en and zh")
        if not 2 <= len(self.choices.en) <= 6:
            raise ValueError("a question needs 2 to 6 choices")
        if self.answer >= len(self.choices.en):
            raise ValueError(f"answer {self.answer} is not a choice index (0..{len(self.choices.en) - 1})")
        return self


class _Module(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    guide: str
    title: _Text
    goals: _TextList
    checklist: _TextList
    quiz: list[_Question] = Field(min_length=2, max_length=4)


class _Path(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pass_share: float = Field(gt=0, le=1)
    modules: list[_Module] = Field(min_length=1)


class Citation(BaseModel):
    """Where an answer is explained: guide title, section heading, file path with anchor."""

    title: str
    section: str
    path: str


class QuizQuestion(BaseModel):
    """One quiz question in one language."""

    question: str
    choices: list[str]
    answer: int
    explanation: str
    cite: Citation


class Module(BaseModel):
    """One onboarding module in one language."""

    id: str
    number: int  # 1-based position on the path
    lang: Lang
    title: str
    guide: str  # guide slug
    guide_title: str
    guide_path: str
    summary: str
    requirements: list[str]
    goals: list[str]
    checklist: list[str]
    quiz: list[QuizQuestion]


class QuestionResult(BaseModel):
    """One graded question, with its choices (so a review needs nothing else)."""

    number: int  # 1-based
    question: str
    choices: list[str]
    given: int  # 0-based choice index
    correct_answer: int
    correct: bool
    explanation: str
    cite: Citation


class QuizResult(BaseModel):
    """The graded quiz of one module."""

    module_id: str
    lang: Lang
    score: int
    total: int
    passed: bool
    pass_share: float
    results: list[QuestionResult]


def onboarding_file() -> Path:
    return config.knowledge_dir() / "onboarding.yaml"


@lru_cache(maxsize=4)
def _load(path: str) -> _Path:
    try:
        parsed = _Path.model_validate(read_mapping(Path(path)))
    except ValidationError as exc:  # the field path names the module: modules.2.quiz.0.answer
        raise data_error(path, exc, row=None) from exc
    ids = [m.id for m in parsed.modules]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise DataError(path, f"duplicate module ids {dup}")
    return parsed


def _raw() -> _Path:
    return _load(str(onboarding_file()))


def _cite(guide_slug: str, lang: Lang, heading: str) -> Citation:
    guide = get_guide(guide_slug, lang)
    section = guide.section(heading)
    if section is None:
        raise DataError(str(onboarding_file()), f"guide {guide_slug} ({lang}) has no section {heading!r}",
                        field="quiz.cite")
    path = f"{guide.path}#{section.anchor}" if section.anchor else guide.path
    return Citation(title=guide.title, section=section.heading, path=path)


def _localize(raw: _Module, number: int, lang: Lang) -> Module:
    guide = get_guide(raw.guide, lang)
    quiz = [
        QuizQuestion(
            question=getattr(q.question, lang),
            choices=list(getattr(q.choices, lang)),
            answer=q.answer,
            explanation=getattr(q.explanation, lang),
            cite=_cite(raw.guide, lang, getattr(q.cite, lang)),
        )
        for q in raw.quiz
    ]
    return Module(
        id=raw.id,
        number=number,
        lang=lang,
        title=getattr(raw.title, lang),
        guide=raw.guide,
        guide_title=guide.title,
        guide_path=guide.path,
        summary=guide.meta.summary,
        requirements=list(guide.meta.requirements),
        goals=list(getattr(raw.goals, lang)),
        checklist=list(getattr(raw.checklist, lang)),
        quiz=quiz,
    )


def onboarding_path(lang: Lang = "en") -> list[Module]:
    """The modules in order, in ``lang``."""
    check_lang(lang)
    return [_localize(m, i + 1, lang) for i, m in enumerate(_raw().modules)]


def find_module(key: str, lang: Lang = "en") -> Module:
    """A module by id, 1-based number or guide slug; UnknownNameError with close matches."""
    modules = onboarding_path(lang)
    text = str(key).strip().lower()
    for m in modules:
        if text in (m.id, m.guide, str(m.number)):
            return m
    raise UnknownNameError("module", key, close_matches(text, [m.id for m in modules]),
                           accepted="a module id or number (see `advisor learn`)")


def parse_answers(text: str) -> list[int]:
    """``"1,3,2"`` or ``"a c b"`` (as the CLI shows choices) -> 0-based indexes."""
    parts = [p for p in text.replace(",", " ").replace("，", " ").split() if p]
    out = []
    for p in parts:
        if p.isdigit() and int(p) >= 1:
            out.append(int(p) - 1)
        elif len(p) == 1 and p.isalpha():
            out.append(ord(p.lower()) - ord("a"))
        else:
            raise InputError("answers", text, ACCEPTED_ANSWERS)
    if not out:
        raise InputError("answers", text, ACCEPTED_ANSWERS)
    return out


def grade_quiz(module_id: str, answers: list[int] | str, lang: Lang = "en") -> QuizResult:
    """Grade a module's quiz. ``answers`` are 0-based choice indexes (or the CLI's "1,3,2")."""
    module = find_module(module_id, lang)
    given = parse_answers(answers) if isinstance(answers, str) else list(answers)
    if len(given) != len(module.quiz):
        raise InputError("answers", answers, f"{len(module.quiz)} answers, {ACCEPTED_ANSWERS}")
    results = []
    for i, (q, a) in enumerate(zip(module.quiz, given, strict=True)):
        if not isinstance(a, int) or isinstance(a, bool) or not 0 <= a < len(q.choices):
            raise InputError(f"answers[{i + 1}]", a, f"a choice from 1 to {len(q.choices)}")
        results.append(QuestionResult(number=i + 1, question=q.question, choices=q.choices, given=a, correct_answer=q.answer,
                                      correct=a == q.answer, explanation=q.explanation, cite=q.cite))
    score = sum(r.correct for r in results)
    share = _raw().pass_share
    return QuizResult(module_id=module.id, lang=lang, score=score, total=len(results),
                      passed=score >= share * len(results), pass_share=share, results=results)


def describe_path(lang: Lang = "en", progress: dict[str, Any] | None = None) -> str:
    """The path as a short Markdown list, for the chat ("onboard me", "教我…") and the UI."""
    modules = onboarding_path(lang)
    done = {k for k, v in (progress or {}).items() if isinstance(v, dict) and v.get("passed")}
    lines = [term("learn.path_intro", lang), ""]
    for m in modules:
        mark = "✓ " if m.id in done else ""
        lines.append(f"{m.number}. {mark}**{m.title}** (`{m.id}`): {m.summary}")
    return "\n".join(lines)


def next_module(lang: Lang = "en", progress: dict[str, Any] | None = None) -> Module | None:
    """The first module whose quiz has not been passed, or None when all are done."""
    for m in onboarding_path(lang):
        entry = (progress or {}).get(m.id)
        if not (isinstance(entry, dict) and entry.get("passed")):
            return m
    return None
