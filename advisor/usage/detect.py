"""Which kind of usage file is this? Sniffs the content, never trusts the extension alone.

Kinds: an nvidia-smi ``--query-gpu --format=csv`` log (``nvidia_smi_csv``), a text capture
with such CSV sections among other output (``nvidia_smi_capture``), Prometheus exposition text
from a GPU exporter (``prometheus``), a FOCUS billing export (``focus``) and an inventory of
rented resources (``inventory``). CSV files may be gzip-compressed; FOCUS, inventory and
telemetry tables may also be Parquet.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from advisor.errors import DocumentError
from advisor.safe_read import open_checked, sniff_encoding
from advisor.usage import columns as C

Kind = Literal["nvidia_smi_csv", "nvidia_smi_capture", "prometheus", "focus", "inventory"]
Container = Literal["text", "gzip", "parquet"]

ACCEPTED = (
    "nvidia-smi --query-gpu CSV, GPU-exporter Prometheus text, a FOCUS billing export "
    "or an inventory CSV (see `advisor usage --help`)"
)
SNIFF_BYTES = 256 * 1024
CAPTURE_SCAN_MAX_BYTES = 64 * 1024 * 1024

_PROM_SAMPLE = re.compile(
    r"^[A-Za-z_:][A-Za-z0-9_:]*(\{.*\})?\s+[-+]?(\d+(\.\d*)?([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?|NaN|[-+]?Inf)(\s+-?\d+)?\s*$"
)


@dataclass(frozen=True)
class Detected:
    """What a file is, and what the reader needs to know to read it."""

    path: Path
    kind: Kind
    container: Container
    size_bytes: int
    header: tuple[str, ...] = field(default_factory=tuple)
    # what the engine reads when it is not ``path`` itself: a glob, a directory or a URI (one
    # dataset), or the UTF-8 copy of a file in another encoding
    uri: str | None = None
    shown: str | None = None  # the name the user gave, when ``path`` is a transcoded copy

    @property
    def name(self) -> str:
        return self.shown or self.uri or str(self.path)

    @property
    def location(self) -> str:
        return self.uri or str(self.path)


def open_text(path: Path):  # type: ignore[no-untyped-def]
    """Open a text file, transparently gunzipping it."""
    with path.open("rb") as fh:
        magic = fh.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rt", encoding="utf-8-sig", errors="replace", newline="")
    return path.open("r", encoding="utf-8-sig", errors="replace", newline="")


# Encodings a usage file may come in: it is read through a UTF-8 copy (Big5 is told from
# GB18030 by a heuristic only, so it is refused with its name rather than guessed).
TRANSCODED = ("utf-16-le", "utf-16-be", "gb18030")
TRANSCODE_CHUNK = 1 << 20


def detect(path: str | Path, workdir: str | None = None) -> Detected:
    """Sniff ``path``; raises :class:`DocumentError` for missing, empty or unknown files.
    With ``workdir``, a UTF-16 (BOM or not) or GB18030 file is transcoded to a UTF-8 copy
    there, and the copy is what the readers read (under the file's own name)."""

    p = Path(path)
    handle, size, _ = open_checked(p, "usage")  # regular files only, byte cap first
    with handle:
        head = handle.read(4)
    if size == 0:
        raise DocumentError(str(p), "file is empty", hint=f"expected {ACCEPTED}")
    if head == b"PAR1":
        return _detect_parquet(p, size)
    container: Container = "gzip" if head[:2] == b"\x1f\x8b" else "text"
    try:
        if container == "gzip":
            with gzip.open(p, "rb") as gz:
                sample = gz.read(SNIFF_BYTES)
        else:
            with p.open("rb") as fh:
                sample = fh.read(SNIFF_BYTES)
    except (OSError, EOFError) as exc:
        raise DocumentError(str(p), f"cannot be read ({exc})") from exc
    encoding = sniff_encoding(sample)
    if encoding in TRANSCODED and workdir is not None:
        copy = _transcode(p, container, encoding, sample, Path(workdir))
        return replace(detect(copy), shown=str(p), size_bytes=size)
    if encoding not in ("utf-8", "utf-8-sig", "binary"):
        raise DocumentError(str(p), f"the file is {encoding.upper()} encoded; usage files are read as UTF-8",
                            hint="re-save it as UTF-8, e.g. iconv -f " + encoding.upper() + " -t UTF-8 / 请另存为 UTF-8 编码")
    text = sample.decode("utf-8-sig", errors="replace")
    if "\x00" in text:
        raise DocumentError(str(p), "unknown format (binary content)", hint=f"expected {ACCEPTED}")
    lines = [ln.rstrip("\r\n") for ln in text.splitlines()]
    content = [ln for ln in lines if ln.strip()]
    if not content:
        raise DocumentError(str(p), "file is empty (only blank lines)", hint=f"expected {ACCEPTED}")
    cells = C.split_csv_line(content[0])
    if kind := _table_kind(cells):
        return Detected(p, kind, container, size, tuple(cells))
    if _looks_prometheus(content):
        return Detected(p, "prometheus", container, size)
    if _has_smi_section(p, text, size):
        return Detected(p, "nvidia_smi_capture", container, size)
    raise DocumentError(str(p), "unknown format", hint=f"expected {ACCEPTED}")


def _transcode(p: Path, container: Container, encoding: str, sample: bytes, workdir: Path) -> Path:
    """Stream ``p`` (maybe gzipped) into a UTF-8 copy in a new folder of ``workdir``, keeping
    the file's name and modification time (a Prometheus scrape without timestamps uses it)."""
    import codecs
    import os
    import tempfile

    codec = "utf-16" if sample.startswith((b"\xff\xfe", b"\xfe\xff")) else encoding  # utf-16 drops the BOM
    decoder = codecs.getincrementaldecoder(codec)(errors="strict")
    out = Path(tempfile.mkdtemp(dir=workdir)) / p.name
    done = 0
    try:
        with (gzip.open(p, "rb") if container == "gzip" else p.open("rb")) as src, out.open("wb") as dst:
            while chunk := src.read(TRANSCODE_CHUNK):
                dst.write(decoder.decode(chunk).encode("utf-8"))
                done += len(chunk)
            dst.write(decoder.decode(b"", final=True).encode("utf-8"))
    except UnicodeDecodeError as exc:
        raise DocumentError(str(p), f"is not valid {encoding.upper()} text (byte {done + exc.start})",
                            hint="re-save it as UTF-8 / 请另存为 UTF-8 编码") from None
    except (OSError, EOFError) as exc:
        raise DocumentError(str(p), f"cannot be read ({exc})") from exc
    stat = p.stat()
    os.utime(out, (stat.st_atime, stat.st_mtime))
    return out


def _table_kind(cells: list[str], kinds: tuple[Kind, ...] = ("nvidia_smi_csv", "focus", "inventory")) -> Kind | None:
    """Which table a header row starts (nvidia-smi, FOCUS, inventory), if any."""
    tests = {"nvidia_smi_csv": C.looks_smi_header, "focus": C.is_focus_header, "inventory": C.is_inventory_header}
    return next((k for k in kinds if tests[k](cells)), None)


def _looks_prometheus(content: list[str]) -> bool:
    """Exposition text: sample lines, and '# HELP'/'# TYPE' comments or nothing but samples.
    A few malformed lines still make it Prometheus, so the reader can name the bad line."""
    samples = other = 0
    typed = False
    for line in content[:200]:
        s = line.strip()
        if s.startswith("#"):
            typed = typed or bool(re.match(r"#\s*(HELP|TYPE)\s", s))
            continue
        if _PROM_SAMPLE.match(s):
            samples += 1
        else:
            other += 1
    if samples == 0:
        return False
    return other == 0 or (typed and other <= samples)


def _has_smi_section(path: Path, text: str, size: int) -> bool:
    if any(C.is_smi_header(C.split_csv_line(ln)) for ln in text.splitlines() if "utilization.gpu" in ln):
        return True
    if size <= SNIFF_BYTES or size > CAPTURE_SCAN_MAX_BYTES:
        return False
    with open_text(path) as fh:
        for line in fh:
            if "utilization.gpu" in line and C.is_smi_header(C.split_csv_line(line)):
                return True
    return False


def _detect_parquet(p: Path, size: int) -> Detected:
    import pyarrow.parquet as pq

    try:
        names = list(pq.read_schema(p).names)
    except Exception as exc:  # pyarrow raises several types for corrupt files
        raise DocumentError(str(p), f"not a readable Parquet file ({str(exc).splitlines()[0]})") from exc
    if kind := _table_kind(names):
        return Detected(p, kind, "parquet", size, tuple(names))
    raise DocumentError(str(p), "unknown Parquet table (no utilization.gpu, BilledCost or inventory columns)", hint=f"expected {ACCEPTED}")


# --- Datasets: a glob, a directory or a URI read as one table ---------------------------------

_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
DATASET_KINDS: tuple[Kind, ...] = ("nvidia_smi_csv", "focus")


def is_dataset(path: str, *, directories: bool = True) -> bool:
    """A glob, a URI or (for Spark) a directory: read by the engine as one table, not opened here."""
    if _URI.match(path):
        return True
    p = Path(path)
    if any(ch in path for ch in "*?[") and not p.exists():
        return True
    return directories and p.is_dir()


def detect_inputs(paths: list[str], engine, workdir: str | None = None) -> list[Detected]:  # type: ignore[no-untyped-def]
    """Every input detected: files as :func:`detect`; a local glob of nvidia-smi tables or
    FOCUS exports of one layout becomes one dataset (other kinds: its files, in name order);
    a URI or a directory is read by the Spark engine as one dataset (DuckDB refuses a
    directory as it refuses every file that is not a regular file)."""
    out: list[Detected] = []
    spark = getattr(engine, "name", "") == "spark"
    for path in paths:
        if not is_dataset(path, directories=spark):
            out.append(detect(path, workdir))
            continue
        local = not _URI.match(path) and not Path(path).is_dir()
        if local:
            out.extend(_detect_glob(path, workdir))
        else:
            out.append(_detect_remote(path, engine))
    return out


def _detect_glob(pattern: str, workdir: str | None) -> list[Detected]:
    import glob

    files = sorted(glob.glob(pattern))
    if not files:
        raise DocumentError(pattern, "no file matches this pattern")
    found = [detect(f, workdir) for f in files]
    first = found[0]
    same = all(d.kind == first.kind and d.container == first.container and d.header == first.header
               and d.shown is None for d in found)
    if not same or first.kind not in DATASET_KINDS:
        return found
    return [_checked_dataset(Detected(first.path, first.kind, first.container,
                                      sum(d.size_bytes for d in found), first.header, uri=pattern))]


def _detect_remote(location: str, engine) -> Detected:  # type: ignore[no-untyped-def]
    if getattr(engine, "name", "") != "spark":
        raise DocumentError(location, "a URI or a directory is read by the Spark engine",
                            hint="add --engine spark (or set ADVISOR_USAGE_ENGINE=spark) / 请使用 Spark 引擎")
    low = location.lower().rstrip("/")
    containers: tuple[Container, ...]
    if low.endswith((".parquet", ".pq")):
        containers = ("parquet",)
    elif low.endswith((".csv", ".gz", ".txt")):
        containers = ("text",)
    else:
        containers = ("parquet", "text")
    last: Exception | None = None
    for container in containers:
        try:
            header = engine.header(location, container)
        except engine.errors as exc:
            last = exc
            continue
        kind = _table_kind(list(header), DATASET_KINDS)
        if kind is None:
            raise DocumentError(location, "unknown table (no utilization.gpu or BilledCost column)",
                                hint="a URI or directory holds nvidia-smi tables or FOCUS exports")
        return _checked_dataset(Detected(Path(location), kind, container, 0, tuple(header), uri=location))
    first = str(last).strip().splitlines()[0] if last else "unreadable"
    raise DocumentError(location, f"cannot be read ({first[:160]})")


def _checked_dataset(det: Detected) -> Detected:
    """Rows of several files are told apart by their own hostname or uuid cells."""
    if det.kind == "nvidia_smi_csv":
        fields = {C.smi_field(cell)[0] for cell in det.header}
        if not fields & {"hostname", "uuid"}:
            raise DocumentError(det.name, "several nvidia-smi logs without a hostname or uuid column cannot be told apart",
                                hint="name the files one by one, or add uuid to --query-gpu")
    return det
