"""Report page under AppTest: empty state, the session's results exported as Markdown and
HTML, and no API key anywhere in an export."""

from __future__ import annotations

from ui_helpers import ask, open_page

SECRET = "sk-report-secret-98765"


def downloads(at) -> dict[str, str]:
    return {b.proto.label: b.proto.url for b in at.get("download_button")}


def test_empty_report_says_what_to_do(app):
    at = open_page(app, "report")
    assert any("Nothing yet" in i.value for i in at.info)


def test_report_collects_chat_estimates_reviews_and_exports(app):
    app.toggle(key="set_offline").set_value(False).run()
    app.text_input(key="set_api_key").set_value(SECRET).run()
    app.toggle(key="set_offline").set_value(True).run()
    ask(app, "What should a LoRA fine-tune of Llama-3-8B on 50k samples cost?")
    at = open_page(app, "estimate")
    at.button(key="est_add").click().run()
    at = open_page(at, "report")
    assert not at.exception
    labels = set(downloads(at))
    assert {"Download Markdown", "Download HTML"} <= labels
    preview = "\n".join(m.value for m in at.markdown)
    assert "# Compute cost report" in preview
    assert preview.count("## ") == 2
    assert "Where the money goes" in preview and "Findings" in preview
    assert SECRET not in preview
    assert SECRET not in repr(at.session_state["records"])


def test_unticking_a_record_leaves_it_out(app):
    ask(app, "What should a LoRA fine-tune of Llama-3-8B on 50k samples cost?")
    at = open_page(app, "report")
    record = at.session_state["records"][0]
    at.checkbox(key=f"rep_inc_{record['id']}").uncheck().run()
    preview = "\n".join(m.value for m in at.markdown)
    assert "## 1." not in preview
