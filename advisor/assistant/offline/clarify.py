"""Clarifying questions, in Chinese and English, for what a request is missing.

One short question that names every missing input and shows how to write it, so the
next turn can answer all at once ("Llama-3-8B, 5万条, 每条800 token").
"""

from __future__ import annotations

from advisor.glossary import term

_ASK: dict[str, dict[str, str]] = {
    "task": {
        "zh": "您想让我做什么：估算一次训练/微调的费用、推荐硬件、比较计费方式、规划整个项目、审查合同，还是分析GPU利用率？",
        "en": "What would you like me to do: estimate a training or fine-tuning run, recommend hardware, "
        "compare billing modes, plan a whole project, review a contract, or analyze GPU utilization?",
    },
    "model": {
        "zh": "训练哪个模型，或者模型有多大（例如 Llama-3-8B、Qwen2.5-72B、70亿参数）？",
        "en": "Which model, or how large is it (e.g. Llama-3-8B, Qwen2.5-72B, a 7B model)?",
    },
    "model_size": {
        "zh": "这个模型用哪个尺寸（例如 8B、70B）？",
        "en": "Which size of that model (e.g. 8B or 70B)?",
    },
    "data": {
        "zh": "训练数据有多少：总token数（如 1亿token），或者样本条数和每条长度（如 5万条、每条800个token），训几个epoch？",
        "en": "How much data: total tokens (e.g. 150M tokens), or the number of samples and their "
        "length (e.g. 50k samples of ~800 tokens), and how many epochs?",
    },
    "text": {
        "zh": "请把合同条款粘贴进来，或给出合同文件路径（.pdf/.docx/.txt）。",
        "en": "Please paste the contract clauses, or give the path of the contract file (.pdf/.docx/.txt).",
    },
    "usage": {
        "zh": "请提供用量数据文件（CSV/Parquet 导出），或告诉我卡数、平均利用率、单价和统计时长（如 32张卡、利用率40%、每卡每小时10元、过去一个月）。",
        "en": "Please give a usage export (CSV/Parquet), or the GPU count, average utilization, price "
        "and period (e.g. 32 GPUs at 40% utilization, $2/GPU-hour, over the last month).",
    },
}
_LEAD = {
    "estimate_training_cost": {"zh": "为了估算费用，", "en": "To estimate the cost, "},
    "recommend_hardware": {"zh": "为了推荐硬件，", "en": "To recommend hardware, "},
    "plan_project": {"zh": "为了规划项目，", "en": "To plan the project, "},
    "review_contract": {"zh": "", "en": ""},
    "analyze_usage": {"zh": "", "en": ""},
}


def clarifying_question(missing: list[str], pending: str | None, choices: tuple[str, ...] = ()) -> dict[str, str]:
    """``{"zh": ..., "en": ...}`` asking for every item of ``missing`` (names as in
    :func:`advisor.assistant.offline.project.missing_inputs`, plus ``task``); with ``choices`` (two
    tools the question fits equally), which of those jobs is meant."""
    if choices:
        en = " or ".join(term(f"chat.job.{c}", "en") for c in choices)
        zh = "还是".join(term(f"chat.job.{c}", "zh") for c in choices)
        return {"en": f"Should I {en}? Say which and I keep what you told me.",
                "zh": f"您是想让我{zh}？说一声，我会沿用您已经给出的信息。"}
    items = [m for m in missing if m in _ASK] or ["task"]
    out: dict[str, str] = {}
    for lang in ("zh", "en"):
        lead = _LEAD.get(pending or "", {}).get(lang, "")
        parts = [_ASK[m][lang] for m in items]
        if lead and lang == "en":
            parts[0] = lead + parts[0][0].lower() + parts[0][1:]
        elif lead:
            parts[0] = lead + parts[0]
        out[lang] = (" " if lang == "en" else "").join(parts)
    return out
