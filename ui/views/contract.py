"""Contract review: upload or paste a contract; the findings stand beside the text with the
clauses they quote highlighted; the checklist shows what was checked; export as Markdown
or JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import streamlit as st

from advisor.glossary import term
from advisor.present import View, markdown, present
from ui import services, state
from ui.components.common import page, shown
from ui.components.contract import contract_text, upload_text
from ui.components.progress import run_with_progress
from ui.components.view import assumptions_fold, finding, finding_detail, head, table

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
TEXT_TYPES = (".txt", ".md")


def _load_sample(lang: str) -> None:
    st.session_state.con_text = (SAMPLES / f"contract_{lang}.txt").read_text(encoding="utf-8")


def source_inputs(lang: str) -> tuple[Any, str]:
    """The uploaded file (or None) and the pasted text."""
    upload = st.file_uploader(term("con.upload", lang), type=["txt", "md", "pdf", "docx"], key="con_upload")
    st.text_area(term("con.paste", lang), key="con_text", height=180, persist_state="session")
    st.button(term("con.sample", lang), on_click=_load_sample, args=(lang,), type="tertiary",
              icon=":material/description:", key="con_sample")
    return upload, str(st.session_state.get("con_text") or "").strip()


def review_args(upload: Any, text: str) -> tuple[dict[str, Any] | None, str | None, str]:
    """(tool arguments, text to show, title) for an upload (saved to a temporary file) or pasted text."""
    if upload is not None:
        suffix = Path(upload.name).suffix.lower()
        data = upload.getvalue()
        path = services.save_uploads([(f"contract{suffix}", data)])[0]  # deleted after the review
        return {"path": path}, upload_text(data, upload.name) if suffix in TEXT_TYPES else None, upload.name
    if text:
        return {"text": text}, text, text[:40].replace("\n", " ")
    return None, None, ""


def review_markdown(view: View) -> str:
    """The whole review as Markdown (advisor.present.markdown.full): what the export button gives."""
    return f"# {view.title}\n\n" + markdown.full(view)


def show(review: dict[str, Any], lang: str) -> None:
    result = review["outcome"].result or {}
    view = present("review_contract", result, lang)
    head(view)  # its notes say when the document addressed an AI assistant
    with st.container(horizontal=True, key="con-exports"):
        st.download_button(term("con.export_md", lang), review_markdown(view), file_name="contract-review.md",
                           mime="text/markdown", icon=":material/download:", on_click="ignore")
        st.download_button(term("con.export_json", lang), json.dumps(result, ensure_ascii=False, indent=1),
                           file_name="contract-review.json", mime="application/json",
                           icon=":material/data_object:", on_click="ignore")
    left, right = st.columns([1.25, 1], gap="medium")
    with left:
        contract_text(review.get("text"), view, lang)
    with right, st.container(height=620, border=False, key="con-findings"):
        if not view.findings:
            st.caption(term("card.no_findings", lang))
        for i, f in enumerate(view.findings):
            with st.container(border=True, key=f"finding-con-{i}"):
                finding(f)
                with st.expander(term("label.why", lang), icon=":material/help:"):
                    finding_detail(f, lang)
    checklist = view.table("checklist")
    if checklist is not None and checklist.rows:
        with st.expander(checklist.title, icon=":material/checklist:"):
            table(checklist)
    assumptions_fold(view, "con")


def main() -> None:
    lang = page("con")
    reviewed = bool(st.session_state.get("con_review"))
    box = st.expander(term("con.input", lang), icon=":material/description:") if reviewed \
        else st.container(border=True, key="con-input")
    with box:
        upload, pasted = source_inputs(lang)
        fee = st.number_input(term("con.fee", lang), min_value=0.0, value=0.0, step=1000.0, format="%.0f",
                              key="con_fee", persist_state="session")
        go = st.button(term("con.review", lang), type="primary", icon=":material/policy:", key="con_go")
    if go:
        args, text, title = review_args(upload, pasted)
        if args is None:
            st.warning(term("con.none", lang))
            st.stop()
        s = state.settings()
        call = {**args, "lang": s.lang_pref} if s.lang_pref in ("zh", "en") else dict(args)  # else: the contract's
        if fee > 0:
            call["monthly_fee"] = fee
            if s.currency:
                call["currency"] = s.currency
        outcome = run_with_progress("review_contract", lang, term("con.running", lang), **call)
        st.session_state.con_review = {"outcome": outcome, "text": text}
        if outcome.ok:  # the page keeps the user's language whatever the contract's language
            state.add_record("review_contract", title, outcome.result or {}, lang)
            st.rerun()  # draw the result under the folded input
    review = st.session_state.get("con_review")
    if review and shown(review["outcome"]) is not None:
        show(review, lang)


main()
