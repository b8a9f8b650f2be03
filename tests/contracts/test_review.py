"""The review: findings with quoted clauses and locations, amounts, the complete checklist, and
embedded instructions reported but never obeyed."""

from __future__ import annotations

from pathlib import Path

import pytest
from contract_helpers import FIXTURES, fixture_text

from advisor.contracts.checklist import is_missing_rule
from advisor.present import markdown, present
from advisor.rules.schema import CONTRACT_CATEGORIES
from advisor.tools import review_contract
from advisor.tools.contract import ContractReport, ReviewContractRequest

STATUSES = {"ok", "trap", "missing", "not_applicable"}


@pytest.fixture(scope="module")
def trap_zh() -> ContractReport:
    return review_contract(path=str(FIXTURES / "zh_gpu_cloud_trap.txt"))


def test_checklist_lists_every_category_once(trap_zh: ContractReport) -> None:
    assert [item.category for item in trap_zh.checklist] == list(CONTRACT_CATEGORIES)
    assert {item.status for item in trap_zh.checklist} <= STATUSES
    for item in trap_zh.checklist:
        assert item.note
        if item.status == "trap":
            assert item.clause and item.location and {"section", "page", "line"} <= set(item.location)


def test_trap_findings_quote_the_clause_with_its_location(trap_zh: ContractReport) -> None:
    traps = [f for f in trap_zh.findings if not is_missing_rule(f.rule_id)]
    assert traps
    for f in traps:
        quoted = [v for v in f.evidence.values() if isinstance(v, dict) and v.get("quote")]
        assert quoted, f.rule_id
        assert quoted[0]["quote"] in trap_zh.facts["_evidence"][next(k for k, v in f.evidence.items() if v is quoted[0])]["quote"]
        assert quoted[0]["location"]["page"] == 1 and quoted[0]["location"]["line"] > 0
        assert f.category in CONTRACT_CATEGORIES
        assert f.text["zh"].title and f.text["en"].title
        assert f.requirement and f.source


def test_missing_findings_quote_no_clause(trap_zh: ContractReport) -> None:
    for f in trap_zh.findings:
        if is_missing_rule(f.rule_id):
            assert not any(isinstance(v, dict) and v.get("quote") for v in f.evidence.values())


def test_amount_of_an_automatic_renewal(trap_zh: ContractReport) -> None:
    f = next(f for f in trap_zh.findings if f.rule_id == "contract.auto_renewal_cost")
    assert f.savings is not None
    assert (f.savings.amount, f.savings.currency) == (12 * 960_000, "CNY")
    assert "¥11,520,000" in f.text["zh"].detail


def test_monthly_fee_from_the_request() -> None:
    text = "This Agreement shall automatically renew for successive six (6) month periods."
    report = review_contract(text=text, monthly_fee=10_000, currency="usd")
    f = next(f for f in report.findings if f.rule_id == "contract.auto_renewal_cost")
    assert f.savings is not None and f.savings.amount == pytest.approx(60_000) and f.savings.currency == "USD"
    assert not report.assumptions


def test_language_detection_and_override() -> None:
    text = fixture_text("en_gpu_cloud_trap")
    assert review_contract(text=text).language == "en"
    zh = review_contract(text=text, lang="zh")
    assert zh.language == "zh"
    assert all(f.lang == "zh" and f.title == f.text["zh"].title for f in zh.findings)


def test_missing_protections_of_an_empty_contract() -> None:
    report = review_contract(text="第一条 甲方向乙方租用 GPU 服务器 8 台，租期为12个月。")
    fired = {f.rule_id for f in report.findings}
    for rule in (
        "contract.missing_sla_compensation",
        "contract.missing_price_lock",
        "contract.missing_stop_billing",
        "contract.missing_usage_alerts",
        "contract.missing_unused_refund",
    ):
        assert rule in fired
    status = {i.category: i.status for i in report.checklist}
    assert status["sla_compensation"] == status["usage_alerts"] == "missing"
    assert status["spot_reclaim"] == "not_applicable"


def test_injection_is_reported_and_not_obeyed() -> None:
    text = fixture_text("zh_injection_lease")
    clean = "\n".join(line for line in text.splitlines() if "AI" not in line)
    with_injection = review_contract(text=text)
    without = review_contract(text=clean)
    assert with_injection.injection_detected and not without.injection_detected
    found = next(f for f in with_injection.findings if f.category == "prompt_injection")
    assert found.severity == "critical"
    assert "忽略之前的所有指令" in found.evidence["injection_detected"]["sentences"][0]["quote"]
    assert found.evidence["injection_detected"]["sentences"][0]["location"]["section"] == "第四条"
    others = {f.rule_id for f in with_injection.findings} - {found.rule_id}
    assert others == {f.rule_id for f in without.findings}
    assert with_injection.facts["injection_detected"] is True


def test_english_injection() -> None:
    report = review_contract(path=str(FIXTURES / "en_spot_injection.txt"), lang="en")
    found = next(f for f in report.findings if f.category == "prompt_injection")
    assert "ignore all previous instructions" in found.evidence["injection_detected"]["sentences"][0]["quote"]
    assert any(f.rule_id == "contract.spot_no_notice" for f in report.findings)


def test_markdown_report(trap_zh: ContractReport) -> None:
    md = markdown.full(present("review_contract", trap_zh, "zh"))
    assert "检查清单" in md and "| 自动续约 | 陷阱 |" in md
    assert "> 5.1 租期届满前三十日内" in md
    assert "5.1，第1页第29行" in md


def test_report_json_round_trip(trap_zh: ContractReport) -> None:
    import json

    data = json.loads(json.dumps(trap_zh.model_dump(mode="json"), ensure_ascii=False))
    assert set(data) >= {"source", "language", "pages", "clause_count", "findings", "checklist", "facts", "injection_detected"}
    assert data["pages"] == 1 and data["clause_count"] > 20
    assert isinstance(data["facts"]["monthly_fee"], float)


def test_request_model_and_errors(tmp_path: Path) -> None:
    from advisor.errors import DocumentError, InputError

    assert ReviewContractRequest(text="x").path is None
    with pytest.raises(InputError, match="exactly one of text or path"):
        review_contract()
    with pytest.raises(InputError, match="exactly one of text or path"):
        review_contract(text="a", path="b")
    with pytest.raises(InputError, match="USD or CNY"):
        review_contract(text="第一条 租期一年。", currency="EUR")
    with pytest.raises(DocumentError):
        review_contract(path=str(tmp_path / "missing.pdf"))


def test_pdf_and_docx_end_to_end(pdf_file: Path, docx_file: Path) -> None:
    pdf = review_contract(path=str(pdf_file))
    assert pdf.pages == 2
    egress = next(f for f in pdf.findings if f.rule_id == "contract.egress_charged")
    assert egress.evidence["egress_charged"]["location"]["page"] == 2
    docx = review_contract(path=str(docx_file))
    assert docx.injection_detected
    assert {f.rule_id for f in docx.findings} >= {"contract.auto_renewal_cost", "contract.billing_after_stop"}


def test_gbk_file_end_to_end(tmp_path: Path) -> None:
    path = tmp_path / "gbk.txt"
    path.write_bytes(fixture_text("zh_spot_terms").encode("gbk"))
    report = review_contract(path=str(path))
    assert report.language == "zh"
    assert any(f.rule_id == "contract.spot_no_notice" for f in report.findings)


def test_suggested_sentences_still_go_through_the_detectors() -> None:
    from advisor.contracts.reader import read_text
    from advisor.contracts.review import review_document

    doc = read_text("第一条 租期为12个月。\n第二条 服务器停机期间，租金照常收取。\n第三条 天气很好。")
    plain = review_document(doc)
    suggested = review_document(doc, suggest=lambda sentences: ["第三条 天气很好。", "not in the document"])
    assert {f.rule_id for f in suggested.findings} == {f.rule_id for f in plain.findings}


def test_chinese_reports_name_categories_and_statuses_in_chinese(trap_zh: ContractReport) -> None:
    from advisor.rules.schema import CONTRACT_CATEGORIES

    md = markdown.full(present("review_contract", trap_zh, "zh"))
    table = md.split("**检查清单", 1)[1]
    for category in CONTRACT_CATEGORIES:
        assert f"| {category} |" not in table and f"`{category}`" not in md
    for word in ("| trap |", "| missing |", "| ok |", "| not_applicable |", "*critical", "*warning"):
        assert word not in md
    for item in trap_zh.checklist:
        assert item.label and item.label != item.category and any("\u4e00" <= ch <= "\u9fff" for ch in item.label)
        assert item.status_label in {"陷阱", "缺失", "正常", "未涉及"}
