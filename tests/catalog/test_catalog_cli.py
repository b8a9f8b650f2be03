"""``advisor gpus`` and ``advisor prices``: JSON that parses, tables for people, and one-line
errors with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.cli import main
from advisor.present.fmt import text_of


@pytest.fixture(autouse=True)
def _no_user_sheet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ADVISOR_PRICES", raising=False)
    monkeypatch.delenv("ADVISOR_KNOWLEDGE_DIR", raising=False)


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_gpus_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, ["gpus", "--json"])
    ids = [g["id"] for g in data["gpus"]]
    assert data["count"] == len(ids) and {"H100-SXM", "Ascend-910B", "RTX-4090"} <= set(ids)
    h100 = next(g for g in data["gpus"] if g["id"] == "H100-SXM")
    assert h100["bf16_tflops"] == 989 and h100["source"] and h100["uncertain"] is False


def test_gpus_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gpus"]) == 0
    out = capsys.readouterr().out
    assert "H100-SXM" in out and "Ascend-910B" in out and "≈" in out


def test_prices_json_filters_and_order(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, ["prices", "--gpu", "a100", "--currency", "rmb", "--json"])
    assert data["filters"]["gpu"] == "A100-80GB" and data["filters"]["currency"] == "CNY"
    offers = data["offers"]
    assert offers and data["count"] == len(offers)
    assert {o["gpu"] for o in offers} == {"A100-80GB"} and {o["currency"] for o in offers} == {
        "CNY"
    }
    prices = [o["per_gpu_hour"] for o in offers if o["per_gpu_hour"] is not None]
    assert prices == sorted(prices) and all(isinstance(p, float) for p in prices)
    assert all(o["source"] for o in offers)


def test_prices_json_by_provider(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, ["prices", "--provider", "腾讯云", "--json"])
    assert data["filters"]["provider"] == "tencent" and {o["provider"] for o in data["offers"]} == {
        "tencent"
    }


def test_prices_with_user_sheet(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sheet = tmp_path / "mine.csv"
    sheet.write_text("gpu,currency,price_per_gpu_hour\nh100,USD,4.2\n", encoding="utf-8")
    data = _json(
        capsys, ["prices", "--gpu", "h100", "--currency", "USD", "--prices", str(sheet), "--json"]
    )
    assert data["offers"][0]["negotiated"] is True and data["offers"][0]["per_gpu_hour"] == 4.2
    assert data["filters"]["user_prices"] == str(sheet.resolve())
    assert main(["prices", "--gpu", "h100", "--currency", "USD", "--prices", str(sheet)]) == 0
    assert "*" in capsys.readouterr().out


def test_prices_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prices", "--gpu", "4090", "--currency", "CNY"]) == 0
    out = capsys.readouterr().out
    assert "offer(s)" in out and "¥" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["prices", "--gpu", "a1000"], "did you mean"),
        (["prices", "--currency", "EUR"], "USD or CNY"),
        (["prices", "--provider", "runpood"], "runpod"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0]


def test_broken_user_sheet_exits_2_naming_row_and_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sheet = tmp_path / "bad.csv"
    sheet.write_text("gpu,currency,monthly\nh100,USD,lots\n", encoding="utf-8")
    assert main(["prices", "--prices", str(sheet), "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert "bad.csv" in err and "row 2" in err and "'monthly'" in err and "\n" not in err


def test_prices_market_json_has_p10_median_p90_and_the_offers_behind(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(capsys, ["prices", "--gpu", "h100", "--json"])
    markets = {m["currency"]: m for m in data["markets"]}
    assert set(markets) == {"USD", "CNY"}
    for m in markets.values():
        assert m["p10"] <= m["median"] <= m["p90"] and m["offers"] == len(m["rows"])
        assert len(set(m["providers"])) == m["offers"]
        assert all(r["provider"] and r["as_of"] for r in m["rows"])
    spot = _json(capsys, ["prices", "--gpu", "h100", "--currency", "usd", "--mode", "spot", "--json"])
    assert 0 < spot["markets"][0]["ratio_to_on_demand"] < 1


def test_prices_market_table_never_cuts_a_price_at_80_columns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from advisor.catalog import get_catalog
    from advisor.catalog.market import market_table
    from advisor.money import format_money

    monkeypatch.setenv("COLUMNS", "80")
    assert main(["prices", "--currency", "CNY"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 80
    for m in market_table(get_catalog(), "CNY"):
        for value in (m.p10, m.median, m.p90):
            assert format_money(value, "CNY", 2) in out
    assert main(["prices", "--gpu", "a100", "--currency", "CNY"]) == 0
    behind = capsys.readouterr().out
    assert "Offers behind A100-80GB CNY" in behind and "¥34.740" in behind  # the stale Alibaba row
    m = next(m for m in market_table(get_catalog(), "CNY") if m.gpu == "A100-80GB")
    flat = "".join(behind.split())
    assert "".join(f"sheet: {m.sheets}".split()) in flat  # which sheet, and each provider type's median
    assert "".join(text_of(m.kinds(), "en").split()) in flat and "rentalplatforms" in flat


def test_prices_mode_must_be_known(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prices", "--mode", "weekly"]) == 2
    assert "on_demand" in capsys.readouterr().err
