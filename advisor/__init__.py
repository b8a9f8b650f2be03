"""Compute Cost Advisor: what GPU training and fine-tuning should cost, and why.

Layers, top to bottom (imports only point down)::

    advisor.cli, ui/          thin faces
    advisor.assistant         LLM agent and offline assistant
    advisor.tools             the one public API (request model -> report model)
    advisor.contracts/usage   documents and telemetry -> facts
    advisor.rules             durable-rules host, rule packs, findings
    advisor.engine            numpy cost engine
    advisor.catalog           knowledge/ data: GPUs, models, prices, defaults
    advisor.errors/units/money/config   base modules
"""

__version__ = "0.1.0"
