"""A throwaway PostgreSQL server for the ledger tests: initdb + pg_ctl in a temporary folder, on a
free port of 127.0.0.1, stopped and deleted when the test session ends.

The server binaries come from Debian's ``postgresql`` package (``.ci/run`` installs it). PostgreSQL
refuses to run as root, so under root (as on CI) initdb and the server run as the package's
``postgres`` user. The server is a child of the test process that the kernel stops when that
process dies (``PR_SET_PDEATHSIG``), so a killed test run leaves no server behind. Where the binaries are missing the tests that need them are skipped with the
reason, unless ``ADVISOR_REQUIRE_POSTGRES=1`` (set by ``.ci/run`` after a successful install), in
which case they fail.
"""

from __future__ import annotations

import ctypes
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SUPERUSER = "ledger_test"
PR_SET_PDEATHSIG = 1  # linux/prctl.h


@dataclass
class Server:
    root: Path
    bindir: Path
    port: int
    runas: str | None
    process: subprocess.Popen[bytes] | None = None

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def dsn(self, database: str = "postgres") -> str:
        return f"host=127.0.0.1 port={self.port} user={SUPERUSER} dbname={database} connect_timeout=5"

    def new_database(self) -> str:
        """A fresh empty database; returns its SQLAlchemy URL."""
        import psycopg

        name = "ledger_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # "fast" shutdown
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        shutil.rmtree(self.root, ignore_errors=True)


def find_bindir() -> Path | None:
    """The folder of ``initdb``/``postgres``: PATH first, then Debian's /usr/lib/postgresql/N/bin."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return Path(candidates[-1]).parent if candidates else None


def unavailable_reason() -> str | None:
    """Why no server can be started here, or None."""
    if find_bindir() is None:
        return "PostgreSQL server binaries (initdb, postgres) are not installed; .ci/run installs Debian's postgresql"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run the server as"
    return None


def _child_setup(runas: str | None) -> Callable[[], None]:
    """In the child, before exec: become ``runas`` (under root), then ask for SIGTERM when the parent dies."""
    entry = pwd.getpwnam(runas) if runas else None

    def setup() -> None:
        if entry is not None:
            os.setgid(entry.pw_gid)
            os.setgroups([])
            os.setuid(entry.pw_uid)
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)  # after setuid, which clears it

    return setup


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_ready(server: Server, log: Path, timeout_s: float = 60) -> None:
    import psycopg

    deadline = time.monotonic() + timeout_s
    while True:
        assert server.process is not None
        if server.process.poll() is not None:
            raise RuntimeError(f"PostgreSQL exited at start: {log.read_text(errors='replace')[-2000:]}")
        try:
            with psycopg.connect(server.dsn()):
                return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL did not accept connections: {log.read_text(errors='replace')[-2000:]}") from None
            time.sleep(0.2)


def _sweep(stale_after_s: float = 3600) -> None:
    """Delete the folders of servers that died with a killed test run (no live postmaster, an hour old)."""
    for folder in Path(tempfile.gettempdir()).glob("advisor-pg-*"):
        try:
            if time.time() - folder.stat().st_mtime < stale_after_s:
                continue
            pid_file = folder / "data" / "postmaster.pid"
            pid = int(pid_file.read_text().split()[0]) if pid_file.exists() else 0
            if pid and Path(f"/proc/{pid}").exists():
                continue
        except (OSError, ValueError, IndexError):
            continue
        shutil.rmtree(folder, ignore_errors=True)


def start() -> Server:
    """initdb a new cluster in a temporary folder and start it; raises RuntimeError with the log."""
    _sweep()
    bindir = find_bindir()
    assert bindir is not None
    runas = "postgres" if os.geteuid() == 0 else None
    root = Path(tempfile.mkdtemp(prefix="advisor-pg-"))
    if runas:
        entry = pwd.getpwnam(runas)
        os.chown(root, entry.pw_uid, entry.pw_gid)
    server = Server(root=root, bindir=bindir, port=_free_port(), runas=runas)
    log = root / "server.log"
    try:
        subprocess.run([str(bindir / "initdb"), "-D", str(root / "data"), "-U", SUPERUSER, "--auth=trust",
                        "--encoding=UTF8", "--no-sync"], check=True, capture_output=True, text=True, timeout=120,
                       preexec_fn=_child_setup(runas), cwd=root)
        with log.open("wb") as out:
            server.process = subprocess.Popen(
                [str(bindir / "postgres"), "-D", str(root / "data"), "-p", str(server.port), "-k", str(root),
                 "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
                 "-c", "full_page_writes=off", "-c", "max_connections=100"],
                stdout=out, stderr=subprocess.STDOUT, preexec_fn=_child_setup(runas), cwd=root)
        _wait_ready(server, log)
    except subprocess.CalledProcessError as exc:
        server.stop()
        raise RuntimeError(f"initdb failed: {exc.stderr.strip()[-2000:]}") from None
    except BaseException:
        server.stop()
        raise
    return server
