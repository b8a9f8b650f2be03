"""FOCUS billing exports (FinOps Open Cost and Usage Specification 1.0-1.2), CSV or Parquet.

Money stays exact: cost columns are read as text (or as the Parquet decimal) and cast to
DECIMAL(38, 18), so a sum in SQL equals the file's sum to the last digit it carries. Column
names match case-, space- and underscore-blind (``billed_cost`` = ``BilledCost``). Every row
is kept: the billing totals account for all of them.
"""

from __future__ import annotations

from advisor.errors import DocumentError
from advisor.usage import columns as C
from advisor.usage.detect import Detected
from advisor.usage.engine import Dialect, Engine, csv_error, ordered_scan, sql_text
from advisor.usage.readers.common import FileSummary

BILLING_TABLE = "billing"
MONEY_SQL_TYPE = "DECIMAL(38, 18)"


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


BILLING_DDL = f"""
CREATE TABLE IF NOT EXISTS {BILLING_TABLE} (
    src INTEGER,
    billed_cost {MONEY_SQL_TYPE}, effective_cost {MONEY_SQL_TYPE},
    list_cost {MONEY_SQL_TYPE}, contracted_cost {MONEY_SQL_TYPE},
    currency VARCHAR, start_t DOUBLE, end_t DOUBLE,
    charge_category VARCHAR, charge_frequency VARCHAR,
    service_name VARCHAR, service_category VARCHAR, provider VARCHAR,
    sub_account_id VARCHAR, sub_account_name VARCHAR,
    resource_id VARCHAR, resource_name VARCHAR, resource_type VARCHAR,
    commitment_status VARCHAR, commitment_id VARCHAR, pricing_category VARCHAR,
    consumed_quantity DOUBLE, consumed_unit VARCHAR, sku_id VARCHAR, tags VARCHAR, row_id VARCHAR,
    bad VARCHAR
)
"""


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
    engine.execute(BILLING_DDL)
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
    if not dialect.file_row_numbers:
        texts = ", ".join(f"{dialect.text(dialect.ident(c) if det.container == 'parquet' else f'c{i}')} AS raw_{i}"
                          for i, c in enumerate(det.header))
        probe = engine.one(f"SELECT * FROM (SELECT {body}, {texts} FROM {file_source}) WHERE bad IS NOT NULL LIMIT 1")
        cell = probe["bad"]
        value = probe.get(f"raw_{det.header.index(cell)}")
        where = "1 malformed row" if bad == 1 else f"{bad} malformed rows, one of them"
        return DocumentError(det.name, f"{where}: column {cell!r}: {_problem(cell, value)}")
    if det.container == "parquet":
        path = sql_text(det.location)
        source = f"(SELECT *, file_row_number + 1 AS rn FROM read_parquet('{path}', file_row_number = true))"
    else:
        source = f"(SELECT *, ROW_NUMBER() OVER () AS rn FROM {file_source})"
    with ordered_scan(engine):
        probe = engine.one(f"SELECT rn, bad FROM (SELECT rn, {body} FROM {source}) WHERE bad IS NOT NULL ORDER BY rn LIMIT 1")
        cell = probe["bad"]
        pos = det.header.index(cell)
        ident = dialect.ident(cell) if det.container == "parquet" else f"c{pos}"
        value = engine.one(f"SELECT {dialect.text(ident)} AS v FROM {source} WHERE rn = {int(probe['rn'])}").get("v")
    rn = int(probe["rn"])
    where = f"row {rn}"  # data rows after the header; quoted fields may span lines
    return DocumentError(det.name, f"{where}, column {cell!r}: {_problem(cell, value)}")


def _problem(cell: str, value: object) -> str:
    canon = next((c for c in C.FOCUS_STAGE_NAMES if C.norm_key(c) == C.norm_key(cell)), cell)
    if value is None or not str(value).strip():
        return "is empty (mandatory in FOCUS)"
    if canon in C.FOCUS_TIMES:
        return f"{str(value).strip()!r} is not a date-time (expected ISO 8601, e.g. 2024-09-01T00:00:00Z)"
    return f"{str(value).strip()!r} is not a number"
