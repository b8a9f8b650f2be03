"""Learn page under AppTest: the onboarding path with progress, and a quiz graded."""

from __future__ import annotations

from ui_helpers import open_page

from ui import services


def test_path_progress_and_module(app):
    at = open_page(app, "learn")
    assert at.title[0].value == "Learn cost practice"
    modules = services.onboarding("en")
    assert at.selectbox(key="learn_module_en").value == modules[0]["id"]
    assert "0 of" in at.get("progress")[0].proto.text
    assert len(at.tabs) == 3


def test_quiz_answered_right_passes_and_ticks_the_module(app):
    at = open_page(app, "learn")
    module = services.onboarding("en")[0]
    for i, q in enumerate(module["quiz"]):
        at.radio(key=f"quiz_{module['id']}_en_{i}").set_value(q["answer"])
    next(iter(at.get("form_submit_button"))).click().run()
    assert not at.exception
    assert at.session_state["learn_progress"][module["id"]]["passed"] is True
    assert any("Passed" in s.value for s in at.success)


def test_quiz_with_a_missing_answer_says_so(app):
    at = open_page(app, "learn")
    next(iter(at.get("form_submit_button"))).click().run()
    assert any("Answer every question" in w.value for w in at.warning)


def test_chinese_path(app):
    app.radio(key="set_lang__en").set_value("zh").run()
    at = open_page(app, "learn")
    assert at.title[0].value == "学习算力成本实践"


def test_graded_quiz_shows_every_choice_with_the_answer(app):
    at = open_page(app, "learn")
    module = services.onboarding("en")[0]
    wrong = [(q["answer"] + 1) % len(q["choices"]) for q in module["quiz"]]
    for i, a in enumerate(wrong):
        at.radio(key=f"quiz_{module['id']}_en_{i}").set_value(a)
    next(iter(at.get("form_submit_button"))).click().run()
    assert not at.exception
    shown = "\n".join(m.value for m in at.markdown)
    for q, a in zip(module["quiz"], wrong, strict=True):
        assert f"✅ {q['choices'][q['answer']]}" in shown
        assert f"❌ {q['choices'][a]} ← Your answer" in shown
        assert all(c in shown for c in q["choices"])
