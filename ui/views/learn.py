"""Learn: the onboarding path, with progress, each module's goals, checklist, guide and quiz."""

from __future__ import annotations

from typing import Any

import streamlit as st

from advisor.glossary import term
from advisor.present.quiz import QuestionReview, review_quiz
from ui import services
from ui.components.common import error_box, page, shown
from ui.state import Lang


def overview(m: dict[str, Any], lang: str) -> None:
    st.caption(m.get("summary", ""))
    st.markdown(f"**{term('learn.goals', lang)}**")
    st.markdown("\n".join(f"- {g}" for g in m.get("goals") or []))
    st.markdown(f"**{term('learn.checklist', lang)}**")
    for i, item in enumerate(m.get("checklist") or []):
        st.checkbox(item, key=f"learn_chk_{m['id']}_{i}", persist_state="session")


def quiz(m: dict[str, Any], lang: Lang) -> None:
    questions = m.get("quiz") or []
    with st.form(key=f"quiz-{m['id']}-{lang}"):
        answers: list[int | None] = []
        for i, q in enumerate(questions):
            choices: list[str] = list(q["choices"])
            answers.append(st.radio(f"{i + 1}. {q['question']}", list(range(len(choices))), index=None,
                                    format_func=choices.__getitem__, key=f"quiz_{m['id']}_{lang}_{i}"))
        submitted = st.form_submit_button(term("learn.submit", lang), type="primary")
    if not submitted:
        return
    if any(a is None for a in answers):
        st.warning(term("learn.answer_all", lang))
        return
    result = shown(services.grade(m["id"], [int(a) for a in answers if a is not None], lang))
    if result is None:
        return
    review = review_quiz(result)
    st.session_state.learn_progress[m["id"]] = {"score": review.score, "total": review.total, "passed": review.passed}
    if review.passed:
        st.success(f"{term('learn.passed', lang)} · {review.score_line}", icon=":material/verified:")
    else:
        st.error(f"{review.score_line} — {term('learn.not_passed', lang)}", icon=":material/replay:")
    for q in review.questions:
        st.markdown(answer_review(q, lang))


# How a graded choice is marked (advisor.present.quiz.ChoiceLine.mark).
MARKS = {"right": "✅", "wrong": "❌", "other": "▫️"}


def answer_review(q: QuestionReview, lang: str) -> str:
    """One graded question: the question, every choice with the right one and the user's marked,
    then the verdict, the explanation and the guide section that explains it."""
    lines = [f"**{q.number}. {q.question}**", ""]
    for c in q.choices:
        mine = f" ← {term('learn.your_answer', lang)}" if c.given else ""
        lines.append(f"- {MARKS[c.mark]} {c.text}{mine}")
    lines += ["", f"**{q.verdict}** — {q.explanation}  ", f"*{q.see}*"]
    return "\n".join(lines)


def main() -> None:
    lang = page("learn")
    try:
        modules = services.onboarding(lang)
    except Exception as exc:
        error_box(term("learn.unavailable", lang, error=services.error_text(exc, lang)))
        st.stop()
    passed = {m["id"] for m in modules if st.session_state.learn_progress.get(m["id"], {}).get("passed")}
    st.progress(len(passed) / len(modules) if modules else 0.0,
                text=term("learn.progress", lang, done=len(passed), total=len(modules)))
    first_open = next((i for i, m in enumerate(modules) if m["id"] not in passed), 0)
    labels = {m["id"]: f"{'✓' if m['id'] in passed else '○'} {m['number']}. {m['title']}" for m in modules}
    chosen = st.selectbox(term("nav.learn", lang), list(labels), index=first_open, key=f"learn_module_{lang}",
                          format_func=labels.__getitem__, label_visibility="collapsed")
    m = next(x for x in modules if x["id"] == chosen)
    st.subheader(f"{m['number']}. {m['title']}")
    tab_overview, tab_guide, tab_quiz = st.tabs([term("learn.goals", lang), term("learn.read", lang), term("learn.quiz", lang)])
    with tab_overview:
        overview(m, lang)
    with tab_guide:
        try:
            st.markdown(services.guide_markdown(m["guide"], lang))
        except Exception as exc:
            error_box(services.error_text(exc, lang))
    with tab_quiz:
        quiz(m, lang)


main()
