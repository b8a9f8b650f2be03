"""The file to hand to ``spark-submit``: ``advisor usage --engine spark`` inside the session
that spark-submit made (its master, its configuration), with the same arguments.

    spark-submit --master yarn --deploy-mode client \\
        "$(python -c 'import advisor.cli.spark_submit as m; print(m.__file__)')" \\
        'hdfs://namenode/telemetry/2026-06/*.parquet' --price 2.5 --json > report.json
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.cli import main as cli

    return cli(["usage", "--engine", "spark", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
