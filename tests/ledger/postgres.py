"""A throwaway PostgreSQL server for the ledger tests: initdb + pg_ctl in a temporary folder, on a
free port of 127.0.0.1, stopped and deleted when the test session ends.

The server binaries come from Debian's ``postgresql`` package (``.ci/run`` installs it). PostgreSQL
refuses to run as root, so under root (as on CI) the server runs as the package's ``postgres`` user
through ``runuser``. Where the binaries are missing the tests that need them are skipped with the
reason, unless ``ADVISOR_REQUIRE_POSTGRES=1`` (set by ``.ci/run`` after a successful install), in
which case they fail.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

SUPERUSER = "ledger_test"


@dataclass
class Server:
    root: Path
    bindir: Path
    port: int
    runas: str | None

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh empty database; returns its SQLAlchemy URL."""
        import psycopg

        name = "ledger_" + uuid.uuid4().hex[:12]
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user={SUPERUSER} dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        _run(self, [str(self.bindir / "pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop"],
             check=False)
        shutil.rmtree(self.root, ignore_errors=True)


def find_bindir() -> Path | None:
    """The folder of ``initdb``/``pg_ctl``: PATH first, then Debian's /usr/lib/postgresql/N/bin."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return Path(candidates[-1]).parent if candidates else None


def unavailable_reason() -> str | None:
    """Why no server can be started here, or None."""
    if find_bindir() is None:
        return "PostgreSQL server binaries (initdb, pg_ctl) are not installed; .ci/run installs Debian's postgresql"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run the server as"
    return None


def _run(server: Server, argv: list[str], *, check: bool = True) -> subprocess.CompletedProcess[str]:
    if server.runas:
        argv = ["runuser", "-u", server.runas, "--", *argv]
    return subprocess.run(argv, check=check, capture_output=True, text=True, timeout=120)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start() -> Server:
    """initdb a new cluster in a temporary folder and start it; raises RuntimeError with the log."""
    bindir = find_bindir()
    assert bindir is not None
    runas = "postgres" if os.geteuid() == 0 else None
    root = Path(tempfile.mkdtemp(prefix="advisor-pg-"))
    if runas:
        entry = pwd.getpwnam(runas)
        os.chown(root, entry.pw_uid, entry.pw_gid)
    server = Server(root=root, bindir=bindir, port=_free_port(), runas=runas)
    try:
        _run(server, [str(bindir / "initdb"), "-D", str(root / "data"), "-U", SUPERUSER, "--auth=trust",
                      "--encoding=UTF8", "--no-sync"])
        options = (f"-p {server.port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=100")
        _run(server, [str(bindir / "pg_ctl"), "-D", str(root / "data"), "-o", options, "-l", str(root / "server.log"),
                      "-w", "-t", "60", "start"])
    except subprocess.CalledProcessError as exc:
        log = (root / "server.log").read_text(errors="replace") if (root / "server.log").exists() else ""
        server.stop()
        raise RuntimeError(f"PostgreSQL did not start: {exc.stderr.strip()} {log[-2000:]}") from None
    return server
