"""Chat (home page): the conversation, each answer with its tool cards, findings, sources
and suggested follow-ups. The page is a loop over ``st.session_state.messages``."""

from __future__ import annotations

import queue
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import streamlit as st

from advisor.glossary import listed, term
from advisor.present.errors import say
from ui import services, state
from ui.components.common import error_box
from ui.components.view import tool_card
from ui.state import Lang

STREAM_SECONDS = 0.35  # the whole answer appears within this time, however long it is
_CHUNK = re.compile(r"\S+\s*|\s+")


def chunks(text: str) -> Iterator[str]:
    """The answer in small pieces for ``st.write_stream`` (words; a few characters of Chinese)."""
    pieces: list[str] = []
    for word in _CHUNK.findall(text):
        if len(word) > 12:
            pieces.extend(word[i:i + 6] for i in range(0, len(word), 6))
        else:
            pieces.append(word)
    pause = STREAM_SECONDS / max(len(pieces), 1)
    for piece in pieces:
        yield piece
        time.sleep(pause)


def record_tools(answer: dict[str, Any], question: str) -> None:
    """Keep every successful tool result for the Report page."""
    for call in answer.get("tool_calls") or []:
        if call.get("result") and call.get("name") != "search_knowledge":
            state.add_record(call["name"], question[:80], call["result"], answer["lang"],
                             question=question, answer=answer.get("answer"))


def render_details(msg: dict[str, Any], key: str, lazy: bool) -> None:
    """Everything under the answer text: notice, cards, findings, sources. ``lazy``: the cards'
    folded parts are drawn only while open (every answer but the newest)."""
    lang = msg["lang"]
    if msg.get("notice"):
        st.warning(msg["notice"], icon=":material/wifi_off:")
    for i, call in enumerate(msg.get("tool_calls") or []):  # each result's findings are in its card
        if call.get("result"):
            tool_card(call["name"], call["result"], lang, f"{key}-{i}", in_chat=True, lazy=lazy)
        elif call.get("error"):
            error_box(term("chat.tool_failed", lang, name=term(f"tool.{call.get('name')}", lang),
                        error=say(call.get("problem") or call["error"], lang)))
    cited = [t for t in dict.fromkeys(str(c.get("title", "")) for c in msg.get("citations") or []) if t not in msg["content"]]
    if cited:  # the sources the answer text does not name already
        st.markdown(f"**{term('card.citations', lang)}**\n" + "\n".join(f"- {t}" for t in cited))
    if msg.get("intent") == "onboarding":
        st.page_link("views/learn.py", label=term("chat.open_learn", lang), icon=":material/school:")
    if msg.get("mode"):
        label = term("chat.mode_llm" if msg["mode"] == "llm" else "chat.mode_offline", lang)
        st.caption(f":material/smart_toy: {label}")


def render_message(msg: dict[str, Any], key: str, lazy: bool = False) -> None:
    with st.chat_message(msg["role"]):
        if msg["role"] == "user":
            st.markdown(msg["content"])
            return
        if msg.get("error"):
            error_box(msg["error"])
            return
        st.markdown(msg["content"])
        render_details(msg, key, lazy)


def prompts(texts: list[str], key: str, icon: str, **style: Any) -> None:
    """A row of buttons, each asking its text (examples, follow-ups)."""
    with st.container(horizontal=True, key=f"{key}s"):
        for i, text in enumerate(texts):
            st.button(text, key=f"{key}-{i}", on_click=_queue, args=(text,), icon=icon, wrap=True, **style)


def _queue(text: str) -> None:
    st.session_state.pending_prompt = text


def welcome(lang: str) -> None:
    st.title(term("app.title", lang))
    st.markdown(term("app.tagline", lang))
    st.caption(term("chat.welcome", lang))
    prompts(listed("chat.examples", lang), "example", ":material/lightbulb:")


def followups_for(msg: dict[str, Any]) -> list[str]:
    names = [c.get("name") for c in msg.get("tool_calls") or [] if c.get("result")]
    key = f"follow.{names[0]}" if names else f"follow.{msg.get('intent') or ''}"
    return listed(key, msg["lang"])


def ask_streaming(question: str, lang: Lang) -> services.Answer:
    """Ask in a worker thread and stream the LLM's pieces as they come; the offline assistant
    answers at once and its text is streamed afterwards."""
    s = state.settings()
    key, history = state.api_key(), st.session_state.history
    if not s.use_llm:
        with st.spinner(term("chat.thinking", lang)):
            result = services.ask(question, s, key, history, lang)
        if not result.error:
            st.write_stream(chunks(result.answer))
        return result
    pieces: queue.Queue[str | None] = queue.Queue()
    with ThreadPoolExecutor(1, thread_name_prefix="advisor-ask") as pool:
        job = pool.submit(services.ask, question, s, key, history, lang, on_token=pieces.put)
        job.add_done_callback(lambda _: pieces.put(None))
        with st.spinner(term("chat.thinking", lang)):
            st.write_stream(iter(pieces.get, None))
    return job.result()


def answer(question: str) -> None:
    """One turn: show the question, ask, stream the answer, render the cards, remember it all."""
    # lazy: cold start of the UI (the first page renders before the assistant loads)
    from advisor.assistant.offline.text import detect_language

    qlang = state.answer_lang(detect_language(question))
    user = {"role": "user", "content": question, "lang": qlang}
    st.session_state.messages.append(user)
    render_message(user, "pending-q")
    with st.chat_message("assistant"):
        result = ask_streaming(question, qlang)
        msg = {"role": "assistant", "content": result.answer, **result.public()}
        if result.error:
            error_box(result.error)
        else:
            st.session_state.history = result.history
            st.session_state.ui_lang = result.lang
            record_tools(msg, question)
    st.session_state.messages.append(msg)


def main() -> None:
    lang = state.ui_lang()
    messages = st.session_state.messages
    if not messages:
        welcome(lang)
    prompt = st.chat_input(term("chat.placeholder", lang), key=f"chat_input_{lang}")  # pinned to the bottom
    prompt = prompt or st.session_state.pop("pending_prompt", None)
    for i, msg in enumerate(messages):  # a new question: the earlier answers' folded parts wait until opened
        render_message(msg, f"m{i}", lazy=prompt is not None or i < len(messages) - 1)
    if prompt is not None:
        text = str(prompt).strip()
        if not text:
            st.warning(term("chat.empty", lang))
            st.stop()
        if len(text) > state.MAX_QUESTION_CHARS:
            st.warning(term("chat.too_long", lang, n=len(text), limit=state.MAX_QUESTION_CHARS),
                       icon=":material/content_cut:")
            st.stop()
        answer(text)
        st.rerun()  # draw the whole conversation from the session, follow-ups included
    last = messages[-1] if messages else {}
    followups = followups_for(last) if last.get("role") == "assistant" and not last.get("error") else []
    if followups:
        st.caption(term("chat.followups", last["lang"]))
        prompts(followups, "follow", ":material/subdirectory_arrow_right:", type="tertiary")


main()
