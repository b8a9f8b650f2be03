"""The Spark engine: the same analysis SQL on PySpark, for fleets past one machine.

``advisor usage --engine spark`` (or ``ADVISOR_USAGE_ENGINE=spark``) runs the engine-neutral
queries of :mod:`advisor.usage.queries` and the readers' SQL unchanged through ``spark.sql``.
This module adapts only what a Spark session has no statement for:

- ``CREATE [OR REPLACE] TABLE t AS q`` and ``INSERT INTO t q`` become cached DataFrames kept
  as temporary views (materialised at once, so a table never re-reads its inputs);
- ``CREATE TABLE IF NOT EXISTS t (columns)`` becomes an empty DataFrame of that schema;
- ``UPDATE t SET c = v WHERE p`` becomes ``t`` rebuilt with ``CASE WHEN p THEN v ELSE c END``;
- ``$name`` parameters are bound as Spark's named parameters (``:name``), typed as given.

The session: inside ``spark-submit`` or with ``SPARK_REMOTE`` (Spark Connect) set, the one
Spark gives; otherwise a local one on ``engine.spark_master`` (usage_defaults.yaml, or
``ADVISOR_SPARK_MASTER``). Files are read by Spark itself, so a path may be a glob, a
directory or any Hadoop URI the cluster reaches (``hdfs://``, ``s3a://``, ``abfss://``...).
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from advisor.progress import Progress, Step, watch
from advisor.usage.defaults import load_defaults
from advisor.usage.engine import Dialect, Shared, sql_text, table_columns

MASTER_ENV = "ADVISOR_SPARK_MASTER"
# Spark runtime settings every analysis needs, whoever made the session: naive times are the
# log's own clock (as in DuckDB), and a division by zero is NULL, as in DuckDB.
SESSION_SQL_CONF = {"spark.sql.session.timeZone": "UTC", "spark.sql.ansi.enabled": "false"}


class SparkDialect(Dialect):
    name = "spark"
    file_row_numbers = False  # a distributed read has no file order to name a row by
    zoned_timestamp = "TIMESTAMP"  # Spark's TIMESTAMP is the zoned (local-time) type

    def ident(self, name: str) -> str:
        return "`" + str(name).replace("`", "``") + "`"

    def text(self, x: str) -> str:
        return f"CAST({x} AS STRING)"

    def epoch(self, ts: str) -> str:
        # DuckDB's epoch(): microseconds as DOUBLE / 1e6, the same rounding
        return f"(CAST(unix_micros({ts}) AS DOUBLE) / 1000000.0)"

    def isfinite(self, x: str) -> str:
        return f"(NOT isnan({x}) AND abs({x}) <> CAST('Infinity' AS DOUBLE))"


SPARK = SparkDialect()

_CREATE_AS = re.compile(r"^\s*CREATE\s+(?:OR\s+REPLACE\s+)?TABLE\s+(\w+)\s+AS\s+(.*)$", re.S | re.I)
_CREATE_COLS = re.compile(r"^\s*CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)\s*\((.*)\)\s*$", re.S | re.I)
_INSERT = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)\s+(.*)$", re.S | re.I)
_UPDATE = re.compile(r"^\s*UPDATE\s+(\w+)\s+SET\s+(\w+)\s*=\s*(.+?)\s+WHERE\s+(.*)$", re.S | re.I)
_DROP = re.compile(r"^\s*DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?(\w+)\s*$", re.S | re.I)
_SET = re.compile(r"^\s*SET\s+", re.I)
_PARAM = re.compile(r"\$([A-Za-z_]\w*)")
# SQL type names of the staging tables' DDL -> Spark's
_TYPES = {"VARCHAR": "STRING", "INTEGER": "INT", "BIGINT": "BIGINT", "DOUBLE": "DOUBLE"}
# Spark type names -> the readers' (DuckDB's) vocabulary for Parquet columns
_READER_TYPES = {
    "string": "VARCHAR", "double": "DOUBLE", "float": "FLOAT", "bigint": "BIGINT", "int": "INTEGER",
    "smallint": "SMALLINT", "tinyint": "TINYINT", "timestamp": "TIMESTAMP", "timestamp_ntz": "TIMESTAMP",
    "date": "DATE", "boolean": "BOOLEAN",
}

# Spark's own logging in a local session: errors only, on stderr
LOG4J = Path(__file__).with_name("spark_log4j2.properties")


def _arrow_schema(schema) -> str:  # type: ignore[no-untyped-def]
    """An Arrow schema as Spark DDL (the few types the readers stage)."""
    names = {"int32": "INT", "int64": "BIGINT", "double": "DOUBLE", "float": "FLOAT", "string": "STRING",
             "large_string": "STRING", "bool": "BOOLEAN"}
    cols = []
    for f in schema:
        typ = str(f.type)
        spark_type = names.get(typ) or (typ.replace("decimal128", "DECIMAL") if typ.startswith("decimal") else None)
        if spark_type is None:
            raise TypeError(f"no Spark type for Arrow {typ}")
        cols.append(f"`{f.name}` {spark_type}")
    return ", ".join(cols)


@contextmanager
def _jvm_output_to(path: str) -> Iterator[None]:
    """The JVM that a local session starts inherits this process's stderr: point it at a log
    file while it starts, so Spark's own messages never mix with the report's one-line errors."""
    sys.stderr.flush()
    saved = os.dup(2)
    log = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.dup2(log, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(log)


def session(master: str | None = None):  # type: ignore[no-untyped-def]
    """The Spark session to run on (see the module doc); creating a local one if needed."""
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        return active

    d = load_defaults()
    builder = SparkSession.builder.appName("compute-cost-advisor usage")
    submitted = "PYSPARK_GATEWAY_PORT" in os.environ or "SPARK_REMOTE" in os.environ
    log_dir = tempfile.mkdtemp(prefix="advisor-spark-")
    if not submitted:
        builder = (
            builder.master(master or os.environ.get(MASTER_ENV) or str(d["engine.spark_master"]))
            .config("spark.driver.memory", f"{int(d.number('engine.spark_driver_memory_gb') * 1024)}m")
            .config("spark.sql.shuffle.partitions", str(int(d.number("engine.spark_shuffle_partitions"))))
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile=file:{LOG4J}")
        )
    with _jvm_output_to(os.path.join(log_dir, "spark.log")), warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # PySpark's pandas version notice
        spark = builder.getOrCreate()
    with contextlib.suppress(Exception):  # Spark Connect has no SparkContext: the server keeps its own logs
        spark.sparkContext.setLogLevel("OFF")
    return spark


class SparkEngine(Shared):
    """The :class:`advisor.usage.engine.Engine` interface over a Spark session."""

    name = "spark"
    dialect = SPARK

    def __init__(self, *, progress: Progress | None = None, spark: Any = None) -> None:
        self.spark = spark if spark is not None else session()
        for key, value in SESSION_SQL_CONF.items():
            self.spark.conf.set(key, value)
        self.progress = progress
        self._tables: dict[str, Any] = {}
        self._sources = 0

    @property
    def errors(self) -> tuple[type[Exception], ...]:
        from py4j.protocol import Py4JError
        from pyspark.errors import PySparkException

        return (PySparkException, Py4JError)

    def close(self) -> None:
        for name in list(self._tables):
            self._drop(name)

    # --- statements ---------------------------------------------------------------------

    def _sql(self, query: str, params: dict[str, Any] | None):  # type: ignore[no-untyped-def]
        if params:
            used = set(_PARAM.findall(query))
            return self.spark.sql(_PARAM.sub(r":\1", query), args={k: v for k, v in params.items() if k in used})
        return self.spark.sql(query)

    def _store(self, name: str, df) -> None:  # type: ignore[no-untyped-def]
        from pyspark import StorageLevel

        df = df.persist(StorageLevel.MEMORY_AND_DISK)
        df.count()  # materialise now: the table no longer depends on what it was made from
        old = self._tables.pop(name, None)
        df.createOrReplaceTempView(name)
        self._tables[name] = df
        if old is not None:
            old.unpersist()

    def _drop(self, name: str) -> None:
        df = self._tables.pop(name, None)
        self.spark.catalog.dropTempView(name)
        if df is not None:
            df.unpersist()

    def execute(self, sql: str, params: dict[str, Any] | None = None, *, label: str | None = None) -> None:
        """Run one statement; with ``label`` and a progress sink, report its progress."""
        with self._watch(label):
            self._execute(sql, params)

    def _execute(self, sql: str, params: dict[str, Any] | None) -> None:
        if _SET.match(sql):
            return  # DuckDB session settings have no meaning here
        if m := _CREATE_AS.match(sql):
            self._store(m.group(1), self._sql(m.group(2), params))
        elif m := _CREATE_COLS.match(sql):
            name = m.group(1)
            if name not in self._tables:
                schema = ", ".join(f"{n} {_TYPES.get(t.upper(), t)}" for n, t in table_columns(m.group(2)))  # Spark DDL
                empty = self.spark.createDataFrame([], schema)
                empty.createOrReplaceTempView(name)
                self._tables[name] = empty
        elif m := _INSERT.match(sql):
            name, query = m.group(1), m.group(2)
            old = self._tables[name]
            new = self._sql(query, params).toDF(*old.columns)
            new = new.select(*[new[c].cast(t) for c, t in zip(old.columns, [f.dataType for f in old.schema.fields], strict=True)])
            self._store(name, old.unionAll(new))
        elif m := _UPDATE.match(sql):
            name, column, value, where = m.groups()
            if not self._sql(f"SELECT 1 FROM {name} WHERE {where} LIMIT 1", params).take(1):
                return  # nothing to change: the cached table stays as it is, not rebuilt
            cols = [f"CASE WHEN {where} THEN {value} ELSE {c} END AS {c}" if c == column else c for c in self._tables[name].columns]
            self._store(name, self._sql(f"SELECT {', '.join(cols)} FROM {name}", params))
        elif m := _DROP.match(sql):
            if m.group(1) in self._tables:
                self._drop(m.group(1))
        else:
            self._sql(sql, params).collect()

    def rows(self, sql: str, params: dict[str, Any] | None = None, *, label: str | None = None) -> list[dict[str, Any]]:
        """Rows of a query as dicts keyed by column name."""
        with self._watch(label):
            return [r.asDict() for r in self._sql(sql, params).collect()]

    # --- data in ------------------------------------------------------------------------

    def load_arrow(self, table: str, arrow, *, append: bool = False) -> None:  # type: ignore[no-untyped-def]
        """Create ``table`` from a (small) Arrow table, or append to it."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # PySpark's pandas version notice
            df = self.spark.createDataFrame(arrow.to_pylist(), _arrow_schema(arrow.schema))
        view = f"_incoming_{table}"
        df.createOrReplaceTempView(view)
        try:
            if append:
                self._execute(f"INSERT INTO {table} SELECT * FROM {view}", None)
            else:
                self._store(table, self.spark.sql(f"SELECT * FROM {view}"))
        finally:
            self.spark.catalog.dropTempView(view)

    def _register(self, df) -> str:  # type: ignore[no-untyped-def]
        self._sources += 1
        name = f"source_{self._sources}"
        df.createOrReplaceTempView(name)
        self._tables[name] = df
        return name

    def parquet_types(self, location: str) -> dict[str, str]:
        """Column name -> SQL type name (the readers' vocabulary) of a Parquet dataset."""
        schema = self.spark.read.parquet(location).schema
        out = {}
        for f in schema.fields:
            name = f.dataType.simpleString()
            out[f.name] = name.upper() if name.startswith("decimal") else _READER_TYPES.get(name, name.upper())
        return out

    def parquet_source(self, location: str) -> str:
        return self._register(self.spark.read.parquet(location))

    def csv_source(self, location: str, columns: int, nulls: tuple[str, ...] = ("",)) -> str:
        """A CSV dataset with a header line, every column as text named c0, c1, ..."""
        schema = ", ".join(f"c{i} STRING" for i in range(columns))
        df = self.spark.read.csv(location, schema=schema, header=True, quote='"', escape='"', enforceSchema=True,
                                 mode="PERMISSIVE", nullValue=nulls[0] if nulls else None)
        name = self._register(df)
        others = [n for n in nulls[1:]]
        if not others:
            return name
        cols = ", ".join(
            f"CASE WHEN c{i} IN ({', '.join(repr(n) for n in others)}) THEN NULL ELSE c{i} END AS c{i}"
            for i in range(columns)
        )
        return f"(SELECT {cols} FROM {name})"

    def header(self, location: str, container: str) -> tuple[str, ...]:
        """The column names of a dataset (a CSV header line, or a Parquet schema)."""
        if container == "parquet":
            return tuple(self.spark.read.parquet(location).columns)
        return tuple(self.spark.read.csv(location, header=True, inferSchema=False).columns)

    # --- progress -----------------------------------------------------------------------

    def _watch(self, label: str | None) -> AbstractContextManager[None]:
        try:
            tracker = self.spark.sparkContext.statusTracker() if label and self.progress else None
        except Exception:  # Spark Connect: no status tracker on the client
            tracker = None
        if tracker is None:
            return watch(self.progress, label)

        def poll() -> Step | None:
            tasks = total = 0
            for sid in tracker.getActiveStageIds():
                info = tracker.getStageInfo(sid)
                if info is not None:
                    tasks += info.numCompletedTasks
                    total += info.numTasks
            return Step(f"{label}: {tasks}/{total} tasks", tasks, total) if total else None

        return watch(self.progress, label, poll)


__all__ = ["SPARK", "SparkDialect", "SparkEngine", "session", "sql_text"]
