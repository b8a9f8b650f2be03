"""Usage and waste analysis: telemetry and billing exports -> DuckDB SQL -> facts for the
``utilization`` rule pack (REQUIREMENTS C5, C6, E1, E2).

Modules, in the order data flows through them::

    detect      what a file is (nvidia-smi CSV, text capture, Prometheus, FOCUS, inventory)
    readers/    each format -> staging tables, with rows read = rows used + rows skipped
    engine      the embedded DuckDB connection: memory limit, spill folder, progress
    queries     the analysis as engine-neutral SQL
    fleet       telemetry: per-GPU utilization, idle stretches, forgotten cards, profiles
    billing     FOCUS exports: totals to the cent, breakdowns, chargeback, billed waste
    chargeback  inventories: cost per team/project, forgotten resources
    prices      the price of a GPU-hour for each telemetry GPU, and where it comes from
    summary     summary mode: the waste arithmetic without files
    facts       -> rules/facts/usage.yaml facts
    analysis    the orchestration of one analysis of files
    synth       a realistic synthetic fleet for scale tests and demos
    defaults    knowledge/catalog/usage_defaults.yaml: every threshold with its source

The public entry point is :func:`advisor.tools.analyze_usage`. DuckDB is imported only when
an analysis runs.
"""
