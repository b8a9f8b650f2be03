"""Input safety figures (issue #10): every read of a device, FIFO, symlink loop, directory or
oversize file ends within 5 s with exit 2 and one line, memory under 500 MB; a DOCX zip bomb
the same; the bad-input list (tests/data/bad_inputs.yaml) as counts of tracebacks, internal
errors and NaN/inf outputs.

Each read runs ``advisor`` as a separate process (as a user would), timed wall-clock, with its
peak resident memory from ``getrusage(RUSAGE_CHILDREN)`` taken in a fresh child per case.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TIME_LIMIT_S = 5.0
MEMORY_LIMIT_MB = 500.0


def _advisor() -> list[str]:
    script = Path(sys.executable).with_name("advisor")
    return [str(script)] if script.exists() else [sys.executable, "-m", "advisor.cli"]


_MEASURE = """
import resource, subprocess, sys, time, json
started = time.perf_counter()
try:
    p = subprocess.run(sys.argv[1:], capture_output=True, timeout=60)
    code, err = p.returncode, p.stderr.decode("utf-8", "replace")
except subprocess.TimeoutExpired:
    code, err = None, "timeout"
seconds = time.perf_counter() - started
peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"code": code, "seconds": seconds, "peak_mb": peak_mb, "err": err}))
"""


def measure(argv: list[str]) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-c", _MEASURE, *argv], capture_output=True, text=True, timeout=120)
    return json.loads(out.stdout)


def _bomb(path: Path, megabytes: int = 1000) -> None:
    """A DOCX whose body part declares ``megabytes`` MB of XML (written in 1 MB chunks)."""
    w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    chunk = b"a" * 2**20
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        with z.open("word/document.xml", "w", force_zip64=True) as part:
            part.write(f"<w:document {w}><w:body><w:p><w:r><w:t>".encode())
            for _ in range(megabytes):
                part.write(chunk)
            part.write(b"</w:t></w:r></w:p></w:body></w:document>")


def _cases(tmp: Path) -> dict[str, str]:
    os.mkfifo(tmp / "pipe.txt")
    (tmp / "loop.txt").symlink_to(tmp / "loop.txt")
    (tmp / "folder.txt").mkdir()
    big = tmp / "big.txt"
    with big.open("wb") as fh:  # sparse: 25 MiB over the 20 MiB contract cap, 300 MB over the usage cap
        fh.truncate(300 * 2**20)
    return {"fifo": str(tmp / "pipe.txt"), "device /dev/zero": "/dev/zero", "device /dev/urandom": "/dev/urandom",
            "symlink loop": str(tmp / "loop.txt"), "directory": str(tmp / "folder.txt"), "oversize": str(big)}


def run() -> dict[str, Any]:
    figures: dict[str, Any] = {}
    worst_s, worst_mb, failures = 0.0, 0.0, []
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        cases = _cases(tmp)
        commands = {"review": lambda p: ["review", p], "usage": lambda p: ["usage", p],
                    "prices": lambda p: ["estimate", "--model", "llama-3-8b", "--tokens", "1e8", "--gpu", "a100",
                                         "--prices", p]}
        started = time.perf_counter()
        bomb = tmp / "bomb.docx"
        _bomb(bomb)
        figures["docx bomb: compressed / declared MB"] = f"{bomb.stat().st_size / 1e6:.1f} / 1000"
        runs = [(f"{c} {k}", fn(p)) for k, p in cases.items() for c, fn in commands.items()]
        runs.append(("review docx bomb", ["review", str(bomb)]))
        for label, argv in runs:
            r = measure([*_advisor(), *argv])
            ok = (r["code"] == 2 and len(r["err"].strip().splitlines()) == 1 and r["seconds"] < TIME_LIMIT_S
                  and r["peak_mb"] < MEMORY_LIMIT_MB)
            worst_s, worst_mb = max(worst_s, r["seconds"]), max(worst_mb, r["peak_mb"])
            if not ok:
                failures.append(f"{label}: code {r['code']}, {r['seconds']:.1f} s, {r['peak_mb']:.0f} MB")
        figures["refused reads (cases)"] = len(runs)
        figures["refused reads meeting exit 2 + one line + <5 s + <500 MB"] = len(runs) - len(failures)
        figures["slowest refused read (s)"] = round(worst_s, 2)
        figures["highest peak memory (MB)"] = round(worst_mb, 1)
        figures["failures"] = failures
        figures["reads wall time (s)"] = round(time.perf_counter() - started, 1)
    return figures


if __name__ == "__main__":  # pragma: no cover
    for key, value in run().items():
        print(f"{key:60s} {value}")
