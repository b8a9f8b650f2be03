"""Chat page under AppTest: Chinese and English questions, a follow-up, invalid input, the
language switch, and an LLM endpoint that is down (answered offline with a notice)."""

from __future__ import annotations

import re
import socket

from ui_helpers import ask, messages, texts

ZH = "微调一个 Llama-3-8B，LoRA，5 万条样本，要花多少钱？"
EN = "What should a LoRA fine-tune of Llama-3-8B on 50k samples cost?"
MONEY = re.compile(r"[$¥]\d")


def test_home_page_welcomes_with_examples(app):
    assert app.title[0].value in ("Compute Cost Advisor", "算力成本顾问")
    labels = [b.label for b in app.button]
    assert any("Llama-3-8B" in label for label in labels)
    assert len(app.chat_input) == 1
    assert not messages(app)


def test_chinese_question_gets_a_chinese_answer_with_cards(app):
    ask(app, ZH)
    assert messages(app) == ["user", "assistant"]
    answer = app.chat_message[1].markdown[0].value
    assert "估算" in answer and MONEY.search(answer)
    shown = texts(app)
    assert "区间" in answer  # the range of the total
    assert "同一任务在各计费方式下的费用" in shown  # billing chart heading
    assert "每卡显存构成" in shown  # memory table, under the details
    assert any(e.label.startswith("详细信息") for e in app.expander)  # details fold away
    assert any(e.label.startswith("假设与来源") for e in app.expander)  # assumptions expander
    assert app.session_state["ui_lang"] == "zh"
    assert [r["kind"] for r in app.session_state["records"]] == ["estimate_training_cost"]
    follow = [b.label for b in app.button if b.key and b.key.startswith("follow-")]
    assert follow and all(re.search(r"[\u4e00-\u9fff]", label) for label in follow)


def test_english_question_gets_an_english_answer(app):
    ask(app, EN)
    answer = app.chat_message[1].markdown[0].value
    assert "Expected total" in answer and MONEY.search(answer)
    assert app.session_state["ui_lang"] == "en"
    assert "Where the money goes" in texts(app)


def test_findings_show_severity_once_and_their_detail_folds_away(app):
    ask(app, EN)
    findings = app.session_state["messages"][1]["tool_calls"][0]["result"]["findings"]
    assert findings
    title = findings[0]["text"]["en"]["title"]
    short = [m.value for m in app.chat_message[1].markdown if title in m.value]
    assert len(short) <= 2  # the short form and the details, never a third copy
    details = next(e for e in app.expander if e.label == "Details")
    assert any(findings[0]["text"]["en"]["detail"][:40] in m.value for m in details.markdown)


def test_follow_up_button_keeps_the_job_and_changes_one_thing(app):
    ask(app, EN)
    before = app.session_state["messages"][1]["tool_calls"][0]["result"]["cost"]["total"]
    button = next(b for b in app.button if b.key and b.key.startswith("follow-") and "H100" in b.label)
    button.click().run()
    assert not app.exception
    assert messages(app) == ["user", "assistant", "user", "assistant"]
    call = app.session_state["messages"][3]["tool_calls"][0]
    assert call["name"] == "estimate_training_cost"
    assert call["result"]["inputs"]["gpu"].startswith("H100")
    assert call["result"]["inputs"]["model"] == "llama-3-8b"  # the rest of the request is kept
    assert call["result"]["cost"]["total"] != before


def test_typed_follow_up_in_chinese(app):
    ask(app, ZH)
    ask(app, "换成H100呢？")
    call = app.session_state["messages"][3]["tool_calls"][0]
    assert call["result"]["inputs"]["gpu"].startswith("H100")
    assert "H100" in app.chat_message[3].markdown[0].value


def test_gibberish_gets_a_clarifying_question_not_an_error(app):
    ask(app, "asdf qwerty zxcv")
    assert messages(app) == ["user", "assistant"]
    assert not app.error
    assert "?" in app.chat_message[1].markdown[0].value


def test_too_long_message_is_refused_with_a_clear_message(app):
    ask(app, "合同条款 " * 2000)
    assert not messages(app)  # nothing was sent to the assistant
    assert any("上限" in w.value or "limit" in w.value for w in app.warning)


def test_question_with_a_bad_value_asks_for_what_is_missing(app):
    ask(app, "用 -3 张 A100 微调 llama3-8b 要多少钱")
    assert not app.exception and not app.error
    assert messages(app) == ["user", "assistant"]


def test_language_switch_answers_in_english_whatever_the_question(app):
    app.radio(key="set_lang__en").set_value("en").run()
    ask(app, ZH)
    assert app.session_state["messages"][1]["lang"] == "en"
    assert "Expected total" in app.chat_message[1].markdown[0].value


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed again when the block ends


def test_llm_endpoint_down_falls_back_offline_with_a_notice_and_never_shows_the_key(app):
    secret = "sk-test-0123456789abcdef"
    app.toggle(key="set_offline").set_value(False).run()
    app.text_input(key="set_base_url").set_value(f"http://127.0.0.1:{_closed_port()}/v1").run()
    app.text_input(key="set_model").set_value("stand-in-model").run()
    app.text_input(key="set_api_key").set_value(secret).run()
    ask(app, EN)
    assert not app.exception
    assert messages(app) == ["user", "assistant"]
    msg = app.session_state["messages"][1]
    assert msg["mode"] == "offline_fallback" and msg["notice"], "the offline answer says the endpoint failed"
    assert any(msg["notice"] in w.value for w in app.warning)
    assert MONEY.search(msg["content"])
    shown = texts(app) + "".join(str(e.value) for e in app.chat_message[1].markdown)
    assert secret not in shown
    assert secret not in repr(app.session_state["messages"]) + repr(app.session_state["records"])


def test_new_conversation_clears_the_chat(app):
    ask(app, EN)
    next(b for b in app.button if b.label == "New conversation").click().run()
    assert not messages(app)
    assert app.session_state["history"] is None


def test_llm_endpoint_answer_is_streamed_and_the_key_goes_only_to_the_endpoint(app):
    from stand_in_llm import StandInLLM

    secret = "sk-test-streamed-abcdef0123"
    reply = "Ask me about a concrete job and I will price it with the cost engine."
    server = StandInLLM(reply)
    try:
        app.toggle(key="set_offline").set_value(False).run()
        app.text_input(key="set_base_url").set_value(server.url).run()
        app.text_input(key="set_model").set_value("stand-in-model").run()
        app.text_input(key="set_api_key").set_value(secret).run()
        ask(app, "Hello, who are you?")
    finally:
        server.close()
    assert not app.exception
    msg = app.session_state["messages"][1]
    assert msg["mode"] == "llm" and not msg["notice"]
    assert msg["content"] == reply
    assert server.requests and server.requests[0]["stream"] is True
    assert server.headers[0]["authorization"] == f"Bearer {secret}"
    assert "LLM" in texts(app)  # the answer says which assistant wrote it
    assert secret not in texts(app) + repr(app.session_state["messages"])


def test_sidebar_currency_and_budget_reach_the_chat_answer(app):
    app.selectbox(key="set_currency__en").set_value("CNY").run()
    app.number_input(key="set_budget").set_value(1.0).run()
    ask(app, EN)
    result = app.session_state["messages"][1]["tool_calls"][0]["result"]
    assert result["cost"]["currency"] == "CNY"
    assert "¥" in app.chat_message[1].markdown[0].value
    assert any(f["pack"] == "budget" for f in result["findings"])


def test_onboarding_question_links_to_the_learn_page(app):
    ask(app, "教我怎么控制算力成本")
    assert app.session_state["messages"][1]["intent"] == "onboarding"
    assert any("学习" in str(link.proto.label) for link in app.get("page_link"))
    assert [b.label for b in app.button if b.key and b.key.startswith("follow-")]


def test_an_invented_llm_figure_is_never_streamed_to_the_page(app):
    from stand_in_llm import StandInLLM

    server = StandInLLM("It will cost $987,654.32 and take 4,321 hours.")
    try:
        app.toggle(key="set_offline").set_value(False).run()
        app.text_input(key="set_base_url").set_value(server.url).run()
        app.text_input(key="set_model").set_value("stand-in-model").run()
        app.text_input(key="set_api_key").set_value("sk-test-ui-invented-0000").run()
        ask(app, EN)
    finally:
        server.close()
    assert not app.exception
    msg = app.session_state["messages"][1]
    assert msg["mode"] == "offline_fallback" and msg["notice"]
    shown = texts(app) + "".join(str(e.value) for e in app.chat_message[1].markdown)
    assert "987,654" not in shown and "4,321" not in shown and "987,654" not in msg["content"]
    assert MONEY.search(msg["content"])  # the calculated answer instead
