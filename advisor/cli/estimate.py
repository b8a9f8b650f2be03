"""``advisor estimate | recommend | billing | plan | serve | quote | own | usage``: the cost,
decision and usage commands. Their flags are listed in ``options.yaml`` (parsed by :mod:`advisor.cli.args`).

Each prints the report's view (advisor.present): the short form, ``--details`` for every table
and assumption, ``--json`` for the report itself; bad input exits 2 with one line on stderr,
like every command.
"""

from __future__ import annotations

import typer

from advisor.cli import args as A
from advisor.cli.common import emit_json

_PASS = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []}


def _run(ctx: typer.Context, command: str) -> None:
    """Parse the flags, call the command's tool and print its report; with a ``progress``
    title, the tool's steps are drawn on a bar when stderr is a terminal (never with --json)."""
    spec = A.options()["commands"][command]
    tool, progress = spec["tool"], spec.get("progress")
    p = A.parser(command)
    if any(a in ("-h", "--help") for a in ctx.args):
        p.print_help()
        return
    ns = p.parse_args(ctx.args)
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
        # lazy: cold start of the CLI (each command loads only what it runs)
        from advisor.cli.render import show

        show(tool, report, details=ns.details, lang=ns.lang)


def register(app: typer.Typer) -> None:
    for command, spec in A.options()["commands"].items():
        def run(ctx: typer.Context, _command: str = command) -> None:
            _run(ctx, _command)

        app.command(command, context_settings=_PASS, add_help_option=False, help=spec["help"])(run)
