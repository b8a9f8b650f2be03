"""The one way a user's file is opened: regular files only, bytes capped before reading.

Every reader of a user-supplied file (contracts, usage logs, price sheets, billing exports)
calls :func:`open_checked`, :func:`read_bytes` or :func:`check_file`. They refuse, with one
line naming what was refused and the limit:

- anything that is not a regular file: FIFOs (opened non-blocking, so they never hang),
  devices, directories, sockets, symlink loops;
- a file larger than ``reads.max_file_bytes.<kind>`` of ``knowledge/limits.yaml``, before a
  byte is read (and a file that grows while read stops at the cap).

:func:`path_policy` lets a caller (the web UI) forbid reading paths that were not uploaded:
inside ``with path_policy(allowed=[...])`` any other path is refused.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from advisor.errors import DocumentError
from advisor.limits import read_limit

_ALLOWED: contextvars.ContextVar[frozenset[str] | None] = contextvars.ContextVar("advisor_allowed_paths",
                                                                                 default=None)
_KINDS = {stat.S_IFIFO: "a FIFO (named pipe)", stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device",
          stat.S_IFDIR: "a directory", stat.S_IFSOCK: "a socket"}


@contextlib.contextmanager
def path_policy(allowed: Iterable[str | Path] = ()) -> Iterator[None]:
    """Inside the block only the ``allowed`` paths may be read (all others are refused)."""
    token = _ALLOWED.set(frozenset(_key(p) for p in allowed))
    try:
        yield
    finally:
        _ALLOWED.reset(token)


def _key(path: str | Path) -> str:
    return os.path.realpath(os.path.expanduser(str(path)))


def check_allowed(path: str | Path) -> None:
    allowed = _ALLOWED.get()
    if allowed is not None and _key(path) not in allowed:
        raise DocumentError(str(path), "file paths are not read from the server here",
                            hint="upload the file instead / 请上传文件，服务器上的路径不会被读取")


def max_bytes(kind: str) -> int:
    return int(read_limit("max_file_bytes", kind))


def _refuse_kind(name: str, mode: int) -> None:
    what = _KINDS.get(stat.S_IFMT(mode), "not a regular file")
    raise DocumentError(name, f"refused: it is {what}, not a regular file; only regular files are read")


def _too_large(name: str, size: int, limit: int, kind: str) -> DocumentError:
    return DocumentError(name, f"refused: {size:,} bytes is over the {kind} file limit of {limit:,} bytes",
                         hint=f"limits.reads.max_file_bytes.{kind} in advisor.yaml raises it")


def open_checked(path: str | Path, kind: str = "default") -> tuple[BinaryIO, int, int]:
    """``(binary file, size, limit)`` for a regular file within the byte cap of ``kind``."""
    name = str(path)
    check_allowed(path)
    try:
        fd = os.open(os.path.expanduser(name), os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise DocumentError(name, "file not found", hint="check the path") from None
    except IsADirectoryError:
        raise DocumentError(name, "refused: it is a directory, not a regular file; only regular files are read") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise DocumentError(name, "refused: it is a symlink loop, not a regular file") from None
        if exc.errno == errno.ENXIO:  # a socket or a FIFO nobody writes to, on some systems
            raise DocumentError(name, "refused: not a regular file; only regular files are read") from None
        raise DocumentError(name, f"cannot be opened ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            _refuse_kind(name, info.st_mode)
        limit = max_bytes(kind)
        if info.st_size > limit:
            raise _too_large(name, info.st_size, limit, kind)
        os.set_blocking(fd, True)
        handle = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    return handle, int(info.st_size), limit


def check_file(path: str | Path, kind: str = "default") -> int:
    """Size of ``path`` after the checks of :func:`open_checked` (for readers such as DuckDB
    or pyarrow that open the file themselves)."""
    handle, size, _ = open_checked(path, kind)
    handle.close()
    return size


def read_bytes(path: str | Path, kind: str = "default") -> bytes:
    """All bytes of a checked file; stops (and refuses) at the cap if the file grows meanwhile."""
    handle, _, limit = open_checked(path, kind)
    with handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise _too_large(str(path), len(data), limit, kind)
    return data


# --- text encodings ------------------------------------------------------------------------

def sniff_encoding(data: bytes) -> str:
    """The encoding of text bytes: ``utf-8-sig``, ``utf-16-le``/``utf-16-be`` (BOM or the
    zero-byte pattern of ASCII in UTF-16), ``utf-8``, ``gb18030``, ``big5``, ``binary`` (zero bytes) or ``unknown``."""
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    if data.startswith(b"\xff\xfe"):
        return "utf-16-le"
    if data.startswith(b"\xfe\xff"):
        return "utf-16-be"
    head = data[:4096]
    if len(head) >= 4:
        even, odd = head[0::2].count(0), head[1::2].count(0)
        # mostly ASCII: zero high bytes on one side; a CJK character such as 一 (U+4E00) puts
        # a few zero bytes on the other side too
        if odd > len(head) // 4 and even * 10 < odd:
            return "utf-16-le"
        if even > len(head) // 4 and odd * 10 < even:
            return "utf-16-be"
    if b"\x00" in head:  # zero bytes without UTF-16's pattern of ASCII: CJK UTF-16, else binary
        return _utf16_or_binary(data)
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError as exc:
        if exc.start >= len(data) - 3 and len(data) >= 4096:  # a sample cut inside a character
            return "utf-8"
    for candidate in ("gb18030", "big5"):
        try:
            data.decode(candidate)
        except UnicodeDecodeError:
            continue
        if candidate == "gb18030" and _mostly_big5(data):
            return "big5"
        return candidate
    found = _utf16_or_binary(data)
    return "unknown" if found == "binary" else found


def _utf16_or_binary(data: bytes) -> str:
    """UTF-16 without a BOM and without ASCII (so without zero bytes): text that decodes to
    mostly CJK characters, else binary."""
    if len(data) < 16 or len(data) % 2:
        return "binary"
    for candidate in ("utf-16-le", "utf-16-be"):
        with contextlib.suppress(UnicodeDecodeError):
            sample = data[:8192].decode(candidate)
            cjk = sum("\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" for ch in sample)
            if cjk >= 0.6 * len(sample):
                return candidate
    return "binary"


def _mostly_big5(data: bytes) -> bool:
    """Big5 bytes usually also decode as GB18030, into rare GBK-extension characters. Common
    simplified text (GB2312) has trail bytes 0xA1-0xFE; about a third of Big5 characters have
    trail bytes 0x40-0x7E. Many such pairs, and a clean Big5 reading, mean Big5."""
    try:
        data.decode("big5")
    except UnicodeDecodeError:
        return False
    pairs = low = 0
    i, n = 0, min(len(data), 65536)
    while i < n - 1:
        if data[i] >= 0x81:
            pairs += 1
            low += data[i + 1] < 0xA1
            i += 2
        else:
            i += 1
    return pairs > 0 and low / pairs > 0.15


def decode(data: bytes, source: str, accepted: Iterable[str] = ("utf-8", "utf-8-sig", "gb18030", "big5",
                                                                 "utf-16-le", "utf-16-be")) -> tuple[str, str]:
    """``(text, encoding)``; an encoding outside ``accepted`` is refused with its name."""
    encoding = sniff_encoding(data)
    if encoding == "binary":
        raise DocumentError(source, "binary data, not text")
    if encoding == "unknown":
        raise DocumentError(source, "text is neither UTF-8 nor GB18030/GBK, Big5 or UTF-16",
                            hint="re-save it as UTF-8 / 请另存为 UTF-8 编码")
    if encoding not in tuple(accepted):
        raise DocumentError(source, f"the text is {encoding.upper()} encoded, which is not read here",
                            hint="re-save it as UTF-8 / 请另存为 UTF-8 编码")
    body = data[3:] if encoding == "utf-8-sig" else data[2:] if data[:2] in (b"\xff\xfe", b"\xfe\xff") else data
    try:
        return body.decode(encoding.replace("-sig", "")), encoding
    except UnicodeDecodeError as exc:
        raise DocumentError(source, f"broken {encoding.upper()} text at byte {exc.start}",
                            hint="re-save it as UTF-8 / 请另存为 UTF-8 编码") from None
