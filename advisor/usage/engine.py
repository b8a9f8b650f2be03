"""The SQL engines: DuckDB embedded (the default) and Spark (:mod:`advisor.usage.spark`).

DuckDB is imported here and only when an analysis runs. It reads large CSV and Parquet files
out of core and spills to a private temporary folder above ``engine.memory_limit_gb``. The
analysis SQL itself lives in :mod:`advisor.usage.queries` and is engine-neutral; the readers
write the few engine-specific expressions (file sources, epoch seconds, quoting) through the
engine's :class:`Dialect`. Both engines offer the same methods: ``execute``, ``rows``,
``one``, ``load_arrow``, ``parquet_types``, ``csv_source``, ``parquet_source`` and ``close``.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Self

from advisor.errors import DocumentError, InputError
from advisor.progress import Progress, Step, watch

ENGINES = ("duckdb", "spark")
ENGINE_ENV = "ADVISOR_USAGE_ENGINE"


class Dialect:
    """The engine-specific pieces of the readers' SQL (DuckDB's)."""

    name = "duckdb"
    # whether the engine can number a file's rows in file order (to name a malformed row)
    file_row_numbers = True

    def ident(self, name: str) -> str:
        """A column name as a quoted identifier."""
        return '"' + str(name).replace('"', '""') + '"'

    def text(self, x: str) -> str:
        return f"CAST({x} AS VARCHAR)"

    def epoch(self, ts: str) -> str:
        """Epoch seconds (DOUBLE) of a TIMESTAMP expression."""
        return f"epoch({ts})"

    def isfinite(self, x: str) -> str:
        return f"isfinite({x})"

    zoned_timestamp = "TIMESTAMPTZ"


DUCKDB = Dialect()


def engine_name(requested: str | None = None) -> str:
    """The engine to use: ``requested``, else ``ADVISOR_USAGE_ENGINE``, else DuckDB."""
    raw = requested if requested else os.environ.get(ENGINE_ENV, "")
    name = (raw or "duckdb").strip().lower()
    if name not in ENGINES:
        raise InputError("engine", raw, "duckdb or spark (--engine, or ADVISOR_USAGE_ENGINE)")
    return name


class Shared:
    """What both engines do the same way over their own ``close`` and ``rows``."""

    close: Callable[[], None]
    rows: Callable[..., list[dict[str, Any]]]

    def one(self, sql: str, params: dict[str, Any] | list[Any] | None = None, *, label: str | None = None) -> dict[str, Any]:
        found = self.rows(sql, params, label=label)
        return found[0] if found else {}

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Engine(Shared):
    """A DuckDB connection with a memory limit, a private spill folder and progress polling."""

    name = "duckdb"
    dialect = DUCKDB

    def __init__(self, *, memory_limit_gb: float, threads: int | None = None, progress: Progress | None = None):
        import duckdb

        self._tmp = tempfile.mkdtemp(prefix="advisor-usage-")
        self.con = duckdb.connect(":memory:")
        self.threads = threads or max(1, min(os.cpu_count() or 1, 8))
        self.con.execute(f"SET memory_limit = '{float(memory_limit_gb):.3f}GB'")
        self.con.execute(f"SET threads = {int(self.threads)}")
        self.con.execute("SET preserve_insertion_order = false")
        self.con.execute("SET TimeZone = 'UTC'")  # naive times are read as the log's own clock
        self.con.execute(f"SET temp_directory = '{sql_text(self._tmp)}'")
        self.progress = progress

    def close(self) -> None:
        try:
            self.con.close()
        finally:
            shutil.rmtree(self._tmp, ignore_errors=True)

    def execute(self, sql: str, params: dict[str, Any] | list[Any] | None = None, *, label: str | None = None):  # type: ignore[no-untyped-def]
        """Run one statement; with ``label`` and a progress sink, report its progress."""
        with self._watch(label):
            return self.con.execute(sql, params) if params is not None else self.con.execute(sql)

    def rows(self, sql: str, params: dict[str, Any] | list[Any] | None = None, *, label: str | None = None) -> list[dict[str, Any]]:
        """Rows of a query as dicts keyed by column name."""
        cur = self.execute(sql, params, label=label)
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]

    @property
    def errors(self) -> tuple[type[Exception], ...]:
        """The exceptions a failed read raises (turned into one-line errors by the readers)."""
        import duckdb

        return (duckdb.Error,)

    def load_arrow(self, table: str, arrow, *, append: bool = False) -> None:  # type: ignore[no-untyped-def]
        """Create ``table`` from an Arrow table, or append to it."""
        self.con.register("_incoming", arrow)
        try:
            if append:
                self.execute(f"INSERT INTO {table} SELECT * FROM _incoming")
            else:
                self.execute(f"CREATE OR REPLACE TABLE {table} AS SELECT * FROM _incoming")
        finally:
            self.con.unregister("_incoming")

    def parquet_types(self, location: str) -> dict[str, str]:
        """Column name -> SQL type name of a Parquet file (or glob)."""
        rel = self.rows(f"DESCRIBE SELECT * FROM {self.parquet_source(location)}")
        return {r["column_name"]: str(r["column_type"]) for r in rel}

    def parquet_source(self, location: str) -> str:
        return f"read_parquet('{sql_text(location)}')"

    def csv_source(self, location: str, columns: int, nulls: tuple[str, ...] = ("",)) -> str:
        """A CSV file (or glob) with a header line, every column as text named c0, c1, ..."""
        cols = ", ".join(f"'c{i}': 'VARCHAR'" for i in range(columns))
        null_list = ", ".join(f"'{sql_text(n)}'" for n in nulls)
        return (
            f"read_csv('{sql_text(location)}', delim = ',', quote = '\"', escape = '\"', header = true, "
            f"auto_detect = false, nullstr = [{null_list}], columns = {{{cols}}})"
        )

    def _watch(self, label: str | None) -> AbstractContextManager[None]:
        def poll() -> Step | None:
            pct = float(self.con.query_progress())
            return Step(f"{label} {pct // 10 * 10:.0f} %", pct, 100) if pct >= 0 else None

        return watch(self.progress, label, poll)


@contextmanager
def ordered_scan(engine: Engine) -> Iterator[None]:
    """Single-threaded, order-preserving scans, so that ROW_NUMBER() OVER () is file order.
    Used only to name the first malformed row after a read failed its checks."""
    engine.execute("SET threads = 1")
    engine.execute("SET preserve_insertion_order = true")
    try:
        yield
    finally:
        engine.execute(f"SET threads = {engine.threads}")
        engine.execute("SET preserve_insertion_order = false")


def first_malformed(engine: Any, det: Any, source: str, query: Callable[[str, bool], str], bad: int,
                    problem: Callable[[dict[str, Any]], str], *, line: bool) -> DocumentError:
    """The error naming the first malformed row in file order (with its line when ``line``):
    ``query(source, numbered)`` selects the malformed rows of ``source`` (carrying ``rn``, the row
    number, when numbered) and ``problem`` words a row it found. An engine that cannot number rows
    in file order names one of the ``bad`` rows and their count."""
    if not engine.dialect.file_row_numbers:
        probe = engine.one(query(source, False) + " LIMIT 1")
        rows = "1 malformed row" if bad == 1 else f"{bad} malformed rows, one of them"
        return DocumentError(det.name, f"{rows}: {problem(probe)}")
    if det.container == "parquet":
        source = f"(SELECT *, file_row_number + 1 AS rn FROM read_parquet('{sql_text(det.location)}', file_row_number = true))"
    else:
        source = f"(SELECT *, ROW_NUMBER() OVER () AS rn FROM {source})"
    with ordered_scan(engine):
        probe = engine.one(query(source, True) + " ORDER BY rn LIMIT 1")
    rn = int(probe["rn"])
    return DocumentError(det.name, f"row {rn}{f' (line {rn + 1})' if line else ''}, {problem(probe)}")


def table_columns(ddl: str) -> list[tuple[str, str]]:
    """``[(name, SQL type)]`` of a ``CREATE TABLE t (src INTEGER, -- note ...)`` statement (or of the
    column list inside its parentheses), comments dropped; ``DECIMAL(38, 18)`` stays one type."""
    text = re.sub(r"--[^\n]*", "", ddl)
    body = text[text.index("(") + 1:text.rindex(")")] if text.lstrip().upper().startswith("CREATE") else text
    parts = (p.strip() for p in re.split(r",(?![^(]*\))", body))
    return [(name, typ.strip()) for name, typ in (p.split(None, 1) for p in parts if p)]


def sql_text(value: str) -> str:
    """A value safe inside a single-quoted SQL literal."""
    return str(value).replace("'", "''")


def csv_error(path: str, exc: Exception) -> DocumentError:
    """DuckDB's multi-line CSV error -> one line naming the line and the problem."""
    text = str(exc)
    line = re.search(r"CSV Error on Line:\s*(\d+)", text)
    cols = re.search(r"Expected Number of Columns:\s*(\d+)\s*Found:\s*(\d+)", text)
    if line and cols:
        return DocumentError(path, f"line {line.group(1)}: expected {cols.group(1)} columns, found {cols.group(2)}")
    if line:
        return DocumentError(path, f"line {line.group(1)}: malformed CSV")
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "unreadable")
    first = re.sub(r"^[A-Za-z ]*Error:\s*", "", first)
    return DocumentError(path, first[:200])
