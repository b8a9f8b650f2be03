"""The requirement ids of REQUIREMENTS.md with short titles, so that guides, rules and tests
can name them and a coverage map can be checked without reading the requirements document."""

from __future__ import annotations

REQUIREMENTS: dict[str, dict[str, str]] = {
    "A1": {"en": "Transparent core cost", "zh": "核心成本透明"},
    "A2": {"en": "Cost by stage", "zh": "按阶段拆分成本"},
    "A3": {"en": "Hidden costs", "zh": "隐性成本"},
    "A4": {"en": "Cheap unit price, expensive total", "zh": "单价不高、总成本很高"},
    "B1": {"en": "Billing granularity", "zh": "多维度计费"},
    "B2": {"en": "Tiered pricing", "zh": "阶梯定价"},
    "B3": {"en": "Elastic changes of billing", "zh": "弹性计费调整"},
    "B4": {"en": "Off-peak capacity", "zh": "闲时低价算力"},
    "B5": {"en": "Spot / preemptible instances", "zh": "竞价实例"},
    "C1": {"en": "Right-sizing", "zh": "算力配置精准匹配"},
    "C2": {"en": "Measure before scaling", "zh": "先测后扩"},
    "C3": {"en": "Mixed fleets", "zh": "混搭算力"},
    "C4": {"en": "Fractional cards", "zh": "单卡细粒度拆分"},
    "C5": {"en": "Utilization", "zh": "资源利用率"},
    "C6": {"en": "Idle and forgotten resources", "zh": "闲置与遗忘的资源"},
    "C7": {"en": "Technical savings", "zh": "技术手段降本"},
    "D1": {"en": "No contract traps", "zh": "无隐藏消费陷阱"},
    "D2": {"en": "Downtime compensation", "zh": "故障成本兜底"},
    "D3": {"en": "Long-term discounts", "zh": "长周期价格优惠"},
    "D4": {"en": "Price lock and price alerts", "zh": "锁价与价格预警"},
    "D5": {"en": "Early completion", "zh": "提前完成的租期结算"},
    "E1": {"en": "Budget, approval, attribution", "zh": "预算、审批与成本归属"},
    "E2": {"en": "Data-driven tuning", "zh": "基于数据持续优化"},
    "E3": {"en": "Choose the platform for the workload", "zh": "按业务特性选择平台"},
    "E4": {"en": "Own + rent", "zh": "自建 + 租赁"},
    "E5": {"en": "Plan ahead", "zh": "提前规划"},
    "F": {"en": "Who uses the advisor, and how", "zh": "谁在用顾问、怎么用"},
}

REQUIREMENT_IDS: tuple[str, ...] = tuple(REQUIREMENTS)
