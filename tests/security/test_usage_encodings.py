"""Usage files in GB18030 or UTF-16 (with or without a BOM, plain or gzipped) are read through
a UTF-8 copy and give the report of the same file in UTF-8; limits still apply to the file
as given, and a malformed encoded file is still one line naming the file and the row."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from advisor.cli import main
from advisor.tools import analyze_usage

SMI = (
    "timestamp, hostname, index, name, uuid, utilization.gpu [%], memory.used [MiB], memory.total [MiB]\n"
    "2024/05/01 10:00:00.000, 训练节点-1, 0, 显卡 A100-SXM4-80GB, GPU-a, 50 %, 1000 MiB, 81920 MiB\n"
    "2024/05/01 10:01:00.000, 训练节点-1, 0, 显卡 A100-SXM4-80GB, GPU-a, 0 %, 1000 MiB, 81920 MiB\n"
    "2024/05/01 10:02:00.000, 训练节点-1, 0, 显卡 A100-SXM4-80GB, GPU-a, 75 %, 2000 MiB, 81920 MiB\n"
)
PROM = (
    "# HELP DCGM_FI_DEV_GPU_UTIL GPU 利用率\n"
    'DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-1",modelName="显卡 H100",Hostname="节点一"} 20 1780300000000\n'
    'DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-1",Hostname="节点一"} 4000 1780300000000\n'
    'DCGM_FI_DEV_FB_FREE{gpu="0",UUID="GPU-1",Hostname="节点一"} 76000 1780300000000\n'
    'DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-1",modelName="显卡 H100",Hostname="节点一"} 60 1780300060000\n'
)
INVENTORY = (
    "resource,gpu_type,gpu_count,price_per_hour,currency,team,project,start,end\n"
    "训练节点-1,a100,8,2.5,USD,算法组,大模型,2024-05-01,2024-05-03\n"
)
# how each variant writes the text: the codec, a BOM or not, gzip or not
VARIANTS = {
    "gb18030": lambda t: t.encode("gb18030"),
    "utf-16 with BOM": lambda t: t.encode("utf-16"),
    "utf-16-le without BOM": lambda t: t.encode("utf-16-le"),
    "utf-16-be without BOM": lambda t: t.encode("utf-16-be"),
    "utf-16 gzipped": lambda t: gzip.compress(t.encode("utf-16")),
}


def _report(path: Path, **kw) -> dict:  # type: ignore[no-untyped-def]
    doc = json.loads(analyze_usage(files=[str(path)], **kw).model_dump_json())
    for f in doc["inputs"]["files"]:
        f["path"] = Path(f["path"]).name
    return doc


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize(("name", "text", "kw"), [
    ("smi.csv", SMI, {"price_per_gpu_hour": 2.0}),
    ("dcgm.prom", PROM, {"price_per_gpu_hour": 2.0}),
    ("inventory.csv", INVENTORY, {"as_of": "2024-05-04"}),
])
def test_encoded_usage_files_read_like_utf8(tmp_path: Path, variant: str, name: str, text: str, kw: dict) -> None:
    plain = tmp_path / "utf8" / name
    plain.parent.mkdir()
    plain.write_text(text, encoding="utf-8")
    encoded = tmp_path / "enc" / name
    encoded.parent.mkdir()
    encoded.write_bytes(VARIANTS[variant](text))
    plain.touch()
    import os

    os.utime(encoded, (plain.stat().st_atime, plain.stat().st_mtime))  # a scrape without timestamps uses it
    expected, got = _report(plain, **kw), _report(encoded, **kw)
    assert got == expected
    assert got["inputs"]["files"][0]["rows_read"] >= 1


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_malformed_encoded_file_names_the_file_and_row(tmp_path: Path, capsys, variant: str) -> None:
    path = tmp_path / "坏日志.csv"
    path.write_bytes(VARIANTS[variant](SMI.replace("75 %", "7S %")))
    code = main(["usage", str(path), "--price", "2"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert str(path) in err and "row 3 (line 4)" in err and "'7S %'" in err


@pytest.mark.parametrize("variant", ["gb18030", "utf-16 with BOM"])
def test_the_byte_cap_applies_to_the_file_as_given(tmp_path: Path, capsys, monkeypatch, variant: str) -> None:
    limits = tmp_path / "limits.yaml"
    limits.write_text("reads:\n  max_file_bytes:\n    usage: 1000\n", encoding="utf-8")
    monkeypatch.setenv("ADVISOR_LIMITS", str(limits))
    path = tmp_path / "big.csv"
    path.write_bytes(VARIANTS[variant](SMI + SMI.split("\n", 1)[1] * 10))
    code = main(["usage", str(path), "--price", "2"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "1,000 bytes" in err


def test_invalid_bytes_in_an_encoded_file_are_one_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "cut.csv"
    path.write_bytes(SMI.encode("utf-16") + b"\x00\xd8")  # a lone surrogate half at the end
    code = main(["usage", str(path), "--price", "2"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "UTF-16" in err.upper()


def test_big5_is_still_refused_with_its_name(tmp_path: Path, capsys) -> None:
    path = tmp_path / "big5.csv"
    path.write_bytes(SMI.replace("训练节点", "訓練節點").replace("显卡", "顯示卡").encode("big5"))
    code = main(["usage", str(path), "--price", "2"])
    err = capsys.readouterr().err
    if code != 0:  # Big5 is told from GB18030 by a heuristic: named when it is recognised
        assert code == 2 and err.count("\n") == 1 and "BIG5" in err.upper()


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("word", ["节点一", "丁万", "利用率"])  # 一 U+4E00 and 丁 U+4E01 have a zero byte
def test_utf16_without_bom_is_told_by_its_byte_order(codec: str, word: str) -> None:
    from advisor.safe_read import sniff_encoding

    text = f"timestamp, hostname, utilization.gpu [%]\n2024/05/01 10:00:00.000, {word}, 50 %\n" * 3
    assert sniff_encoding(text.encode(codec)) == codec
