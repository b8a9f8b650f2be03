"""FOCUS billing exports (FinOps Open Cost and Usage Specification 1.0-1.2), CSV or Parquet.

Money stays exact: cost columns are read as text (or as the Parquet decimal) and cast to
DECIMAL(38, 18), so a sum in SQL equals the file's sum to the last digit it carries. Column
names match case-, space- and underscore-blind (``billed_cost`` = ``BilledCost``). Every row
is kept: the billing totals account for all of them.
"""

from __future__ import annotations

from advisor.errors import DocumentError
from advisor.usage import columns as C
from advisor.usage import queries as Q
from advisor.usage.detect import Detected
from advisor.usage.engine import Dialect, Engine, csv_error, first_malformed, sql_text
from advisor.usage.readers.common import FileSummary

BILLING_TABLE = "billing"
MONEY_SQL_TYPE = "DECIMAL(38, 18)"  # the money columns of BILLING_DDL (queries.sql)


def _locate_columns(det: Detected) -> dict[str, tuple[int, str]]:
    """Canonical FOCUS name -> (position, header cell) for the columns the analysis reads."""
    by_key = {C.norm_key(cell): (i, cell) for i, cell in enumerate(det.header)}
    found: dict[str, tuple[int, str]] = {}
    for canon in (*C.FOCUS_REQUIRED, *C.FOCUS_OPTIONAL):
        hit = by_key.get(C.norm_key(canon))
        if hit is not None:
            found[canon] = hit
    missing = [c for c in C.FOCUS_REQUIRED if c not in found]
    if missing:
        raise DocumentError(det.name, f"missing column {missing[0]!r} (mandatory in FOCUS 1.0-1.2)")
    return found


def _source(engine: Engine, det: Detected) -> str:
    if det.container == "parquet":
        return engine.parquet_source(det.location)
    return engine.csv_source(det.location, len(det.header), ("", "NULL"))


def _expr(canon: str, ident: str, sql_type: str, dialect: Dialect) -> tuple[str, str | None]:
    """(parsed value SQL, check SQL that is TRUE when the cell is malformed) for one column."""
    text = dialect.text(ident)
    if canon in C.FOCUS_MONEY:
        # a binary DOUBLE goes through the shortest text that round-trips it: what the exporter meant
        value = f"TRY_CAST({text} AS {MONEY_SQL_TYPE})"
    elif canon in C.FOCUS_NUMBERS:
        value = f"TRY_CAST({text} AS DOUBLE)"
    elif canon in C.FOCUS_TIMES:
        zoned = dialect.zoned_timestamp
        if sql_type.startswith(("TIMESTAMP", "DATE")):
            value = dialect.epoch(f"CAST({ident} AS {zoned})")
        else:
            value = dialect.epoch(f"TRY_CAST({text} AS {zoned})")
    else:
        value = f"NULLIF(NULLIF(TRIM({text}), ''), 'NULL')"
        return value, (f"({value} IS NULL)" if canon in C.FOCUS_NOT_NULL else None)
    null_bad = canon in C.FOCUS_NOT_NULL
    check = f"({value} IS NULL AND ({ident} IS NOT NULL OR {str(null_bad).upper()}))"
    return value, check


def read_focus(engine: Engine, det: Detected, src: int, *, label: str | None = None) -> FileSummary:
    """Stage one FOCUS export into the billing table; every row is kept and counted."""
    types: dict[str, str] = {}
    try:
        if det.container == "parquet":
            types = engine.parquet_types(det.location)
        source = _source(engine, det)
    except engine.errors as exc:
        raise csv_error(det.name, exc) from exc
    found = _locate_columns(det)
    select = [f"{int(src)} AS src"]
    checks: list[tuple[str, str]] = []
    for canon, stage in C.FOCUS_STAGE_NAMES.items():
        if canon not in found:
            select.append(f"NULL AS {stage}")
            continue
        pos, cell = found[canon]
        ident = engine.dialect.ident(cell) if det.container == "parquet" else f"c{pos}"
        value, check = _expr(canon, ident, types.get(cell, "VARCHAR"), engine.dialect)
        select.append(f"{value} AS {stage}")
        if check:
            checks.append((check, cell))
    bad = "CASE " + " ".join(f"WHEN {cond} THEN '{sql_text(cell)}'" for cond, cell in checks) + " END"
    body = f"{', '.join(select)}, {bad} AS bad"
    engine.execute(Q.BILLING_DDL)
    try:
        engine.execute(f"INSERT INTO {BILLING_TABLE} SELECT {body} FROM {source}", label=label)
    except engine.errors as exc:
        raise csv_error(det.name, exc) from exc
    counts = engine.one(
        f"SELECT COUNT(*) AS n, COUNT(bad) AS bad FROM {BILLING_TABLE} WHERE src = {int(src)}"
    )
    if counts["bad"]:
        raise _bad_row(engine, det, body, source, int(counts["bad"]))
    if not counts["n"]:
        raise DocumentError(det.name, "has a header but no data rows")
    version = C.focus_version(list(det.header))
    container = "Parquet" if det.container == "parquet" else "CSV"
    return FileSummary(
        path=det.name,
        kind="focus",
        format=f"FOCUS {version} ({container})",
        rows_read=int(counts["n"]),
        rows_used=int(counts["n"]),
    )


def _bad_row(engine: Engine, det: Detected, body: str, file_source: str, bad: int) -> DocumentError:
    """The first malformed row in file order, with its column and value (an engine that cannot
    number rows in file order names one malformed row and the count)."""
    dialect = engine.dialect
    texts = ", ".join(f"{dialect.text(dialect.ident(c) if det.container == 'parquet' else f'c{i}')} AS raw_{i}"
                      for i, c in enumerate(det.header))

    def query(source: str, numbered: bool) -> str:  # rn: data rows after the header; quoted fields may span lines
        return f"SELECT * FROM (SELECT {'rn, ' if numbered else ''}{body}, {texts} FROM {source}) WHERE bad IS NOT NULL"

    def problem(probe: dict) -> str:
        cell = probe["bad"]
        return f"column {cell!r}: {_problem(cell, probe.get(f'raw_{det.header.index(cell)}'))}"

    return first_malformed(engine, det, file_source, query, bad, problem, line=False)


def _problem(cell: str, value: object) -> str:
    canon = next((c for c in C.FOCUS_STAGE_NAMES if C.norm_key(c) == C.norm_key(cell)), cell)
    if value is None or not str(value).strip():
        return "is empty (mandatory in FOCUS)"
    if canon in C.FOCUS_TIMES:
        return f"{str(value).strip()!r} is not a date-time (expected ISO 8601, e.g. 2024-09-01T00:00:00Z)"
    return f"{str(value).strip()!r} is not a number"
