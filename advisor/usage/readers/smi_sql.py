"""nvidia-smi ``--query-gpu --format=csv`` logs (and the same table as Parquet), read by DuckDB.

Large logs (millions of rows) never pass through Python: DuckDB parses the file out of core
into the telemetry staging table. Cells keep nvidia-smi's conventions (``45 %``,
``19818 MiB``, ``[N/A]``, ``2026/07/14 08:12:38.696``), the same rules as
:mod:`advisor.usage.values`. A malformed value stops the read with its row, line and column;
a row whose utilization is not reported is counted as skipped, never dropped silently.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.errors import DocumentError
from advisor.usage import columns as C
from advisor.usage.detect import Detected
from advisor.usage.engine import DUCKDB, Dialect, Engine, csv_error, first_malformed, sql_text
from advisor.usage.readers.common import (
    GPU_KEYS,
    SAMPLES,
    SKIP_NO_UTILIZATION,
    SKIP_REPEATED_HEADER,
    TELEMETRY_DDL,
    FileSummary,
    register_keys_sql,
)


@dataclass(frozen=True)
class Column:
    """One source column the reader uses: its SQL name, header text, unit and type."""

    ident: str
    header: str
    unit: str | None
    sql_type: str

    @property
    def is_text(self) -> bool:
        return self.sql_type == "VARCHAR"


def _na(col: Column, x: str) -> str:
    """SQL: the cell ``x`` (of ``col``) holds no value ([N/A], empty, ...)."""
    if not col.is_text:
        return f"({x} IS NULL)"
    return f"({x} IS NULL OR TRIM({x}) = '' OR TRIM({x}) LIKE '[%' OR UPPER(TRIM({x})) IN ('N/A', 'NA'))"


def _number(col: Column, x: str) -> str:
    """SQL: the cell as DOUBLE (NULL when it is not a number); TRY_CAST ignores spaces."""
    if not col.is_text:
        return f"CAST({x} AS DOUBLE)"
    return f"TRY_CAST(REPLACE({x}, '{sql_text(col.unit)}', '') AS DOUBLE)" if col.unit else f"TRY_CAST({x} AS DOUBLE)"


def _time(col: Column, x: str, dialect: Dialect) -> str:
    """SQL: the cell as epoch seconds; nvidia-smi's 2026/07/14 08:12:38.696 and ISO forms."""
    if col.sql_type.startswith("TIMESTAMP") or col.sql_type == "DATE":
        return dialect.epoch(f"CAST({x} AS TIMESTAMP)")
    return dialect.epoch(f"TRY_CAST(REPLACE({dialect.text(x)}, '/', '-') AS TIMESTAMP)")


NUMBER_FIELDS = (("memory.used", "mem_used_mib"), ("memory.total", "mem_total_mib"))
# where a row's GPU id comes from, first found wins, and how it is written ("index 3")
GPU_ID_FORMS = (("uuid", ""), ("index", "index "), ("pci.bus_id", ""))


ID_FIELDS = ("hostname", "uuid", "index", "pci.bus_id", "name")
STAGE = "smi_stage"


class SmiTable:
    """The SQL that turns one nvidia-smi table into samples, and finds its bad rows.

    Layers, so that each cell is parsed once: the source columns (a), their parsed values (b),
    then the sample with its skip and bad flags and the raw id cells (c). The GPU of a row is
    found by joining its raw id cells to the few distinct id tuples, parsed once each, instead
    of trimming and testing strings on every one of millions of rows.
    """

    def __init__(self, det: Detected, types: dict[str, str] | None = None, dialect: Dialect = DUCKDB) -> None:
        self.det = det
        self.dialect = dialect
        self.parquet = det.container == "parquet"
        self.cols: dict[str, Column] = {
            name: Column(dialect.ident(det.header[i]) if self.parquet else f"c{i}", text, unit,
                         (types or {}).get(det.header[i], "VARCHAR"))
            for name, (i, text, unit) in C.smi_columns(det.header, det.name).items()
        }
        self.ids = [self._alias(f) for f in ID_FIELDS if f in self.cols]

    def source(self, engine: Engine) -> str:
        if self.parquet:
            return engine.parquet_source(self.det.location)
        return engine.csv_source(self.det.location, len(self.det.header))

    @staticmethod
    def _alias(field: str) -> str:
        return "f_" + field.replace(".", "_")

    def _layer_a(self, source: str, extra: str = "") -> str:
        cols = ", ".join(f"{c.ident} AS {self._alias(f)}" for f, c in self.cols.items())
        return f"SELECT {cols}{extra} FROM {source}"

    def _header_row(self) -> str:
        ts = self.cols["timestamp"]
        return f"TRIM({self.dialect.text(self._alias('timestamp'))}) = 'timestamp'" if ts.is_text else "FALSE"

    def id_exprs(self, instance: str) -> list[str]:
        """SQL for instance, gpu_id and model over the raw id cells."""
        a = self._alias
        ids = []
        for name, prefix in GPU_ID_FORMS:
            col = self.cols.get(name)
            if col is not None:
                text = f"TRIM({self.dialect.text(a(name))})"
                ids.append(f"CASE WHEN NOT {_na(col, a(name))} THEN '{prefix}' || {text} END")
        host = self.cols.get("hostname")
        inst = f"'{sql_text(instance)}'"
        inst_sql = f"CASE WHEN {_na(host, a('hostname'))} THEN {inst} ELSE TRIM({a('hostname')}) END" if host else inst
        name = self.cols.get("name")  # type: ignore[assignment]
        model = f"CASE WHEN NOT {_na(name, a('name'))} THEN TRIM({self.dialect.text(a('name'))}) END" if name else self.dialect.text("NULL")  # type: ignore[arg-type]
        return [f"{inst_sql} AS instance", f"COALESCE({', '.join(ids)}) AS gpu_id", f"{model} AS model"]

    def _layer_b(self) -> str:
        a = self._alias
        ts, util = self.cols["timestamp"], self.cols[C.SMI_UTIL]
        parts = [f"{_time(ts, a('timestamp'), self.dialect)} AS t_v", f"{_number(util, a(C.SMI_UTIL))} AS util_v"]
        for field, out in NUMBER_FIELDS:
            col = self.cols.get(field)
            parts.append(f"{_number(col, a(field))} AS {out}_v" if col else f"CAST(NULL AS DOUBLE) AS {out}_v")
        return ", ".join(parts)

    def _layer_c(self, src: int) -> str:
        a = self._alias
        util = self.cols[C.SMI_UTIL]
        header = self._header_row()
        util_na = _na(util, a(C.SMI_UTIL))
        bad = [
            f"WHEN t_v IS NULL THEN CASE WHEN {header} THEN NULL ELSE 'timestamp' END",
            f"WHEN util_v IS NULL THEN CASE WHEN {util_na} THEN NULL ELSE '{C.SMI_UTIL}' END",
            f"WHEN NOT {self.dialect.isfinite('util_v')} OR util_v < 0 OR util_v > 100 THEN '{C.SMI_UTIL}'",
        ]
        for field, out in NUMBER_FIELDS:
            col = self.cols.get(field)
            if col is not None:
                bad.append(f"WHEN {out}_v IS NULL AND NOT {_na(col, a(field))} THEN '{field}'")
                bad.append(f"WHEN {out}_v IS NOT NULL AND NOT {self.dialect.isfinite(out + '_v')} THEN '{field}'")
        skip = (f"CASE WHEN t_v IS NULL AND {header} THEN '{SKIP_REPEATED_HEADER}' "
                f"WHEN util_v IS NULL AND {util_na} THEN '{SKIP_NO_UTILIZATION}' END")
        return (
            f"{int(src)} AS src, t_v AS t, util_v / 100.0 AS util, mem_used_mib_v AS mem_used_mib, "
            f"mem_total_mib_v AS mem_total_mib, {skip} AS skip, CASE {' '.join(bad)} END AS bad, "
            + ", ".join(self.ids)
        )

    def select(self, src: int, source: str, extra: str = "") -> str:
        """Samples with raw id cells over ``source`` (the file's SQL source); ``extra`` carries
        columns such as a row number through every layer."""
        b = f"SELECT {self._layer_b()}, * FROM ({self._layer_a(source, extra)})"
        carry = "".join(f", {c}" for c in carry_names(extra))
        return f"SELECT {self._layer_c(src)}{carry} FROM ({b})"

    def distinct_ids(self, staged: str | None, source: str) -> str:
        """The distinct raw id tuples of the data rows (repeated header lines left out)."""
        if staged is not None:
            return f"SELECT DISTINCT {', '.join(self.ids)} FROM {staged} WHERE skip IS DISTINCT FROM '{SKIP_REPEATED_HEADER}'"
        a = self._layer_a(source)
        return f"SELECT DISTINCT {', '.join(self.ids)} FROM ({a}) WHERE NOT ({self._header_row()})"

    def join_on(self, left: str, right: str) -> str:
        return " AND ".join(f"{left}.{c} IS NOT DISTINCT FROM {right}.{c}" for c in self.ids)

    def raw(self, field: str) -> str:
        col = self.cols.get(field) or self.cols.get("uuid") or self.cols["timestamp"]
        return self.dialect.text(col.ident)

    def header_of(self, field: str) -> str:
        col = self.cols.get(field)
        return col.header if col else field


def read_smi_table(engine: Engine, det: Detected, src: int, instance: str, *, label: str | None = None) -> FileSummary:
    """Stage one nvidia-smi CSV/Parquet file into ``samples``; returns its accounting.

    Parquet is read in place; CSV is parsed once into a staging table. Either way the distinct
    id tuples are parsed into GPU numbers, and the samples take theirs by a join.
    """
    types: dict[str, str] | None = None
    parquet = det.container == "parquet"
    try:
        if parquet:
            types = engine.parquet_types(det.location)
        table = SmiTable(det, types, engine.dialect)
        source = table.source(engine)
    except engine.errors as exc:
        raise csv_error(det.name, exc) from exc
    for ddl in TELEMETRY_DDL:
        engine.execute(ddl)
    try:
        if parquet:
            rows_sql = f"({table.select(src, source)})"
            staged = None
        else:
            engine.execute(f"CREATE OR REPLACE TABLE {STAGE} AS {table.select(src, source)}", label=label)
            rows_sql = staged = STAGE
        id_sql = ", ".join(table.id_exprs(instance))
        engine.execute(f"CREATE OR REPLACE TABLE smi_ids AS SELECT *, {id_sql} FROM ({table.distinct_ids(staged, source)}) d")
        engine.execute(register_keys_sql("SELECT instance, gpu_id, model FROM smi_ids"))
        engine.execute(
            f"""INSERT INTO {SAMPLES}
                SELECT p.src, k.gid, p.t, p.util, p.mem_used_mib, p.mem_total_mib, p.skip,
                       COALESCE(p.bad, CASE WHEN p.skip IS NULL AND k.gid IS NULL THEN 'uuid' END)
                FROM {rows_sql} p
                LEFT JOIN (SELECT i.*, g.gid FROM smi_ids i JOIN {GPU_KEYS} g
                           ON g.instance = i.instance AND g.gpu_id = i.gpu_id) k
                  ON {table.join_on('p', 'k')}""",
            label=label if parquet else None,
        )
    except engine.errors as exc:
        raise csv_error(det.name, exc) from exc
    finally:
        engine.execute(f"DROP TABLE IF EXISTS {STAGE}")
        engine.execute("DROP TABLE IF EXISTS smi_ids")
    counts = engine.one(
        f"""SELECT COUNT(*) AS rows_read, COUNT(bad) AS bad,
                   COUNT(CASE WHEN skip = '{SKIP_REPEATED_HEADER}' THEN 1 END) AS headers,
                   COUNT(CASE WHEN skip = '{SKIP_NO_UTILIZATION}' THEN 1 END) AS no_util,
                   COUNT(DISTINCT CASE WHEN skip IS NULL THEN gid END) AS gpus
            FROM {SAMPLES} WHERE src = {int(src)}"""
    )
    if counts["bad"]:
        raise _locate_bad_row(engine, det, table, src, instance, int(counts["bad"]))
    if not counts["rows_read"]:
        raise DocumentError(det.name, "has a header but no data rows")
    skipped = {k: int(v) for k, v in ((SKIP_REPEATED_HEADER, counts["headers"]), (SKIP_NO_UTILIZATION, counts["no_util"])) if v}
    rows_read = int(counts["rows_read"])
    return FileSummary(
        path=det.name,
        kind="nvidia_smi_csv",
        format=f"nvidia-smi --query-gpu ({'Parquet' if parquet else 'CSV'})",
        rows_read=rows_read,
        rows_used=rows_read - sum(skipped.values()),
        rows_skipped=skipped,
        gpus=int(counts["gpus"]),
    )


def carry_names(extra: str) -> list[str]:
    """The output names of the ``extra`` columns (``", a + 1 AS rn, b"`` -> ``["rn", "b"]``)."""
    return [part.strip().split()[-1] for part in extra.split(",") if part.strip()]


def _problem(field: str, value: object) -> str:
    if field != "uuid" and (value is None or not str(value).strip()):
        return "is empty"
    shown = repr(str(value).strip())
    if field == "timestamp":
        return f"{shown} is not a timestamp (expected YYYY/MM/DD HH:MM:SS.mmm)"
    if field == "uuid":
        return "no GPU id (uuid, index or pci.bus_id all empty)"
    if field == C.SMI_UTIL:
        return f"{shown} is not a utilization between 0 and 100 %"
    return f"{shown} is not a number"


def _locate_bad_row(engine: Engine, det: Detected, table: SmiTable, src: int, instance: str, bad: int) -> DocumentError:
    """The first malformed row, by file order (single-threaded scan so the order holds); an
    engine that cannot number rows in file order names one malformed row and the count."""
    gpu_id = table.id_exprs(instance)[1].removesuffix(" AS gpu_id")
    raw = {f: f"raw_{i}" for i, f in enumerate(table.cols)}
    extra = "".join(f", {engine.dialect.text(c.ident)} AS {raw[f]}" for f, c in table.cols.items())

    def query(source: str, numbered: bool) -> str:
        return (f"SELECT COALESCE(bad, CASE WHEN skip IS NULL AND {gpu_id} IS NULL THEN 'uuid' END) AS bad_field, * "
                f"FROM ({table.select(src, source, extra + (', rn' if numbered else ''))}) "
                f"WHERE bad IS NOT NULL OR (skip IS NULL AND {gpu_id} IS NULL)")

    def problem(probe: dict) -> str:
        field = probe["bad_field"]
        return f"column {table.header_of(field)!r}: {_problem(field, probe.get(raw.get(field, '')))}"

    return first_malformed(engine, det, table.source(engine), query, bad, problem, line=det.container != "parquet")
