"""Contract review page under AppTest: paste or load a contract, see findings beside the text
with the clauses highlighted, export; nothing to review is a clear message."""

from __future__ import annotations

from ui_helpers import FIXTURES, open_page, texts

from advisor.present import present


def review(at, text: str):
    at.text_area(key="con_text").set_value(text).run()
    at.button(key="con_go").click().run()
    assert not at.exception, at.exception
    return at


def test_pasted_contract_gets_findings_beside_highlighted_clauses(app):
    at = open_page(app, "contract")
    review(at, (FIXTURES / "contract_en.txt").read_text(encoding="utf-8"))
    result = at.session_state["con_review"]["outcome"].result
    rules = {f["rule_id"] for f in result["findings"]}
    assert any("renewal" in r for r in rules)
    shown = texts(at)
    assert "Contract text, flagged clauses highlighted" in shown
    highlighted = "".join(str(h.proto.body) for h in at.get("html"))
    assert highlighted.count("<mark") >= 2
    assert "automatically renews" in highlighted
    assert any(e.label.startswith("Why?") for e in at.expander)
    assert [r["kind"] for r in at.session_state["records"]] == ["review_contract"]


def test_chinese_contract_in_a_chinese_page(app):
    app.radio(key="set_lang__en").set_value("zh").run()
    at = open_page(app, "contract")
    review(at, (FIXTURES / "contract_zh.txt").read_text(encoding="utf-8"))
    assert "合同原文（风险条款已高亮）" in texts(at)
    findings = at.session_state["con_review"]["outcome"].result["findings"]
    assert any(f["severity"] == "critical" for f in findings)


def test_sample_button_loads_a_contract(app):
    at = open_page(app, "contract")
    at.button(key="con_sample").click().run()
    assert "GPU COMPUTE RENTAL AGREEMENT" in at.text_area(key="con_text").value


def test_export_buttons_offer_markdown_and_json(app):
    at = open_page(app, "contract")
    review(at, (FIXTURES / "contract_en.txt").read_text(encoding="utf-8"))
    from ui.views.contract import review_markdown

    md = review_markdown(present("review_contract", at.session_state["con_review"]["outcome"].result, "en"))
    assert md.startswith("# Contract review") and "renew" in md.lower()
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download review (JSON)" in labels and "Download review (Markdown)" in labels


def test_nothing_to_review_is_a_clear_message(app):
    at = open_page(app, "contract")
    at.button(key="con_go").click().run()
    assert not at.exception
    assert any("paste" in w.value for w in at.warning)


def test_a_chinese_contract_does_not_switch_an_english_page(app):
    at = open_page(app, "contract")
    review(at, (FIXTURES / "contract_zh.txt").read_text(encoding="utf-8"))
    assert at.title[0].value == "Review a compute-rental contract"
    assert at.session_state.get("ui_lang") != "zh"
    assert any(e.label.startswith("Why?") for e in at.expander)  # findings in the page's language


def test_an_english_contract_does_not_switch_a_chinese_page(app):
    app.session_state["ui_lang"] = "zh"  # the language the user has been working in
    at = open_page(app, "contract")
    assert at.title[0].value == "审查算力租赁合同"
    review(at, (FIXTURES / "contract_en.txt").read_text(encoding="utf-8"))
    assert at.title[0].value == "审查算力租赁合同"
    assert at.session_state["ui_lang"] == "zh"
