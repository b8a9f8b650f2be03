"""Every reader of a user's file refuses what is not a regular file and what is over its byte
cap, before reading, with exit 2 and one line naming what was refused and the limit. DOCX
packages are checked for zip bombs and XML depth, and their headers, footers, footnotes and
comments are read like the body."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from docx_parts import W, docx_with, note_part

from advisor.cli import main
from advisor.contracts.reader import read_path
from advisor.errors import DocumentError
from advisor.safe_read import path_policy, read_bytes, sniff_encoding


def commands(path: str) -> dict[str, list[str]]:
    return {
        "review": ["review", path],
        "usage": ["usage", path],
        "prices": ["estimate", "--model", "llama-3-8b", "--tokens", "1e8", "--gpu", "a100", "--prices", path],
    }


@pytest.fixture
def specials(tmp_path: Path) -> dict[str, str]:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.txt"
    loop.symlink_to(loop)
    (tmp_path / "folder.txt").mkdir()
    return {"fifo": str(fifo), "device": "/dev/zero", "symlink loop": str(loop), "directory": str(tmp_path / "folder.txt")}


@pytest.mark.parametrize("command", ["review", "usage", "prices"])
@pytest.mark.parametrize("kind", ["fifo", "device", "symlink loop", "directory"])
def test_special_files_are_refused_in_one_line(capsys, specials, command: str, kind: str) -> None:
    code = main(commands(specials[kind])[command])
    err = capsys.readouterr().err
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and err.startswith("error:")
    assert "refused" in err and "not a regular file" in err


@pytest.mark.parametrize("command", ["review", "usage", "prices"])
def test_oversize_files_are_refused_before_reading_with_the_limit(capsys, tmp_path, monkeypatch, command) -> None:
    limits = tmp_path / "limits.yaml"
    limits.write_text("reads:\n  max_file_bytes:\n    contract: 1000\n    usage: 1000\n    prices: 1000\n", encoding="utf-8")
    monkeypatch.setenv("ADVISOR_LIMITS", str(limits))
    big = tmp_path / "big.txt"
    big.write_bytes(b"gpu,price_per_gpu_hour,currency\n" + b"A100,2.5,USD\n" * 200)
    code = main(commands(str(big))[command])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "over the" in err and "1,000 bytes" in err


def test_a_path_policy_refuses_files_that_were_not_uploaded(tmp_path) -> None:
    allowed, other = tmp_path / "upload.txt", tmp_path / "server.txt"
    allowed.write_text("x", encoding="utf-8")
    other.write_text("y", encoding="utf-8")
    with path_policy(allowed=[allowed]):
        assert read_bytes(allowed) == b"x"
        with pytest.raises(DocumentError, match="not read from the server"):
            read_bytes(other)
    assert read_bytes(other) == b"y"


@pytest.mark.parametrize(("part", "root", "item", "label"), [
    ("word/footnotes.xml", "footnotes", "footnote", "footnotes"),
    ("word/endnotes.xml", "endnotes", "endnote", "endnotes"),
    ("word/comments.xml", "comments", "comment", "comments"),
    ("word/header1.xml", "hdr", "p", "header"),
    ("word/footer2.xml", "ftr", "p", "footer"),
])
def test_docx_side_parts_are_read_like_the_body(tmp_path, part, root, item, label) -> None:
    text = "Either party may terminate without notice and all prepaid fees are forfeited."
    if item == "p":
        xml = f'<?xml version="1.0"?><w:{root} {W}><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:{root}>'
    else:
        xml = note_part(root, item, text)
    path = tmp_path / "c.docx"
    path.write_bytes(docx_with({part: xml}))
    doc = read_path(path)
    assert text in doc.text
    assert any(p.label == label and text in p.text for p in doc.pages)


def test_a_docx_zip_bomb_is_refused_without_decompressing(tmp_path, capsys) -> None:
    bomb = "<w:p " + W + ">" + "a" * 150_000_000 + "</w:p>"
    path = tmp_path / "bomb.docx"
    path.write_bytes(docx_with({"word/bomb.xml": bomb}))
    assert path.stat().st_size < 1_000_000
    code = main(["review", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "refused" in err and "decompresses" in err


def test_over_deep_docx_xml_is_refused(tmp_path) -> None:
    deep = "<a>" * 500 + "</a>" * 500
    path = tmp_path / "deep.docx"
    path.write_bytes(docx_with({"word/deep.xml": deep}))
    with pytest.raises(DocumentError, match="nested deeper than 200"):
        read_path(path)


@pytest.mark.parametrize(("codec", "name"), [("gb18030", "gb18030"), ("big5", "big5"), ("utf-16", "utf-16"),
                                             ("utf-16-le", "utf-16")])
def test_contract_encodings_are_detected_and_named(tmp_path, codec, name) -> None:
    text = "第三條 服務費用：甲方應於每月五日前支付本月租金，逾期每日加收千分之五違約金。"
    path = tmp_path / "c.txt"
    path.write_bytes(text.encode(codec))
    doc = read_path(path)
    assert doc.text == text and doc.encoding == name
    assert sniff_encoding(text.encode(codec)).startswith(name)
