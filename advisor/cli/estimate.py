"""``advisor estimate | recommend | billing | plan | serve | quote | own | usage``: the cost,
decision and usage commands. Their flags are listed in ``options.yaml`` (parsed by :mod:`advisor.cli.args`).

Each prints the report's view (advisor.present): the short form, ``--details`` for every table
and assumption, ``--json`` for the report itself; bad input exits 2 with one line on stderr,
like every command.
"""

from __future__ import annotations

import argparse
from functools import partial

import typer

from advisor.cli import args as A
from advisor.cli.common import emit_json


def _run(ns: argparse.Namespace, command: str) -> None:
    """Call the command's tool with its flags and print its report; with a ``progress`` title,
    the tool's steps are drawn on a bar when stderr is a terminal (never with --json)."""
    spec = A.options()["commands"][command]
    tool, progress = spec["tool"], spec.get("progress")
    req = A.to_request(ns)
    if tool == "compare_billing" and "job_minutes" in req:
        req.setdefault("job_hours", req.pop("job_minutes") / 60)
    if tool == "compare_billing" and not {"wall_hours", "days", "jobs"} & set(req):
        raise A.ArgumentError("give how long the cards are needed: --hours N, --days N, or --jobs N --job-hours H")
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor import tools
    from advisor.cli.progress import tty_progress

    fn = getattr(tools, tool)
    if progress is None or ns.json:
        report = fn(**req)
    else:
        with tty_progress(progress) as sink:
            report = fn(progress=sink, **req)
    if ns.json:
        emit_json(report)
    else:
        from advisor.cli.render import show

        show(tool, report, details=ns.details, lang=ns.lang)


def register(app: typer.Typer) -> None:
    for command, spec in A.options()["commands"].items():
        if "tool" in spec:
            A.command(app, command, partial(_run, command=command))
