"""Words the offline parser recognizes: GPUs, model families, methods, billing modes, providers.

Everything here is matched against normalized text (lower case, half-width; see
:mod:`.text`). Entries are ``(pattern, value)`` pairs tried in order, so longer or more
specific names come first (``a100 80g`` before ``a100``, ``h200`` before ``h20``). Names
are emitted in the catalog's spelling (DESIGN.md "Canonical GPU ids"); the catalog resolves
them, and a variant left open (plain ``A100``) is the catalog's choice.
"""

from __future__ import annotations

# Left/right guards: a name is not part of a longer ASCII token ("a1000", "xh100").
L = r"(?<![a-z0-9])"
R = r"(?![a-z0-9])"

_VENDOR = r"(?:(?:英伟达|nvidia|nv|amd|华为|huawei)\s*-?\s*(?:geforce\s*)?)?"
_PLURAL = r"(?:s|'s)?"

GPU_NAMES: list[tuple[str, str]] = [
    (r"(?:昇腾|升腾|ascend|华为)\s*-?\s*910\s*-?\s*b", "Ascend-910B"),
    (r"(?:昇腾|升腾|ascend|华为)\s*-?\s*910\s*-?\s*c", "Ascend-910C"),
    (r"910b", "Ascend-910B"),
    (r"a100\s*-?\s*(?:sxm4?\s*-?\s*)?80\s*g(?:b|ib)?", "A100-80GB"),
    (r"a100\s*-?\s*(?:pcie\s*-?\s*)?40\s*g(?:b|ib)?", "A100-40GB"),
    (r"a100", "A100"),
    (r"a800\s*-?\s*80\s*g(?:b|ib)?", "A800-80GB"),
    (r"a800", "A800"),
    (r"h100\s*-?\s*sxm5?", "H100-SXM"),
    (r"h100\s*-?\s*pcie", "H100-PCIe"),
    (r"h100\s*-?\s*nvl", "H100-NVL"),
    (r"h100", "H100"),
    (r"h800", "H800"),
    (r"h200", "H200"),
    (r"h20", "H20"),
    (r"gb200", "GB200"),
    (r"b200", "B200"),
    (r"b100", "B100"),
    (r"l40s", "L40S"),
    (r"l40", "L40"),
    (r"l20", "L20"),
    (r"l4", "L4"),
    (r"a10g", "A10G"),
    (r"a10", "A10"),
    (r"a40", "A40"),
    (r"(?:rtx\s*-?\s*)?a6000", "A6000"),
    (r"t4", "T4"),
    (r"v100", "V100"),
    (r"p100", "P100"),
    (r"(?:rtx\s*-?\s*)?4090\s*d?", "RTX-4090"),
    (r"(?:rtx\s*-?\s*)?3090", "RTX-3090"),
    (r"(?:rtx\s*-?\s*)?5090", "RTX-5090"),
    (r"mi300x", "MI300X"),
    (r"mi250x?", "MI250X"),
]
GPU_PATTERN = (
    r"(?:(?<![a-z0-9])|(?<=\dx)|(?<=\d×))" + _VENDOR + "(?:" + "|".join(f"(?P<g{i}>{p})" for i, (p, _) in enumerate(GPU_NAMES)) + ")"
    + _PLURAL + R
)
"""One alternation over every GPU name; the named group that matched gives the id."""
GPU_BY_GROUP = {f"g{i}": name for i, (_, name) in enumerate(GPU_NAMES)}

# --- models ------------------------------------------------------------------------------
# family key -> regex of the family word. Versions and sizes are read by slots.models.
MODEL_FAMILIES: list[tuple[str, str]] = [
    ("llama", r"(?:meta[\s-]*)?llama|lama(?=[\s-]*\d)|羊驼"),
    ("qwen", r"通义千问|千问|qwen|qwq"),
    ("deepseek", r"deepseek|深度求索"),
    ("chatglm", r"chatglm"),
    ("glm", r"glm|智谱"),
    ("baichuan", r"baichuan|百川"),
    ("mixtral", r"mixtral"),
    ("mistral", r"mistral"),
    ("gemma", r"gemma"),
    ("internlm", r"internlm|书生\s*[·.]?\s*浦语|浦语|书生"),
    ("yi", r"yi(?=[\s-]*\d)|零一万物"),
    ("phi", r"phi(?=[\s-]*\d)"),
    ("falcon", r"falcon"),
    ("bloom", r"bloom"),
    ("gpt", r"gpt(?=[\s-]*(?:2|3|j|neox))"),
]

# How each family writes a catalog-ish id; {v} version, {s} size ("8b", "8x7b").
MODEL_FORMATS: dict[str, tuple[str, str, str]] = {
    # family: (with version and size, size only, version only)
    "llama": ("llama-{v}-{s}", "llama-{v}-{s}", "llama-{v}"),
    "qwen": ("qwen{v}-{s}", "qwen{v}-{s}", "qwen{v}"),
    "deepseek": ("deepseek-{v}-{s}", "deepseek-llm-{s}", "deepseek-{v}"),
    "chatglm": ("chatglm{v}-{s}", "chatglm-{s}", "chatglm{v}"),
    "glm": ("glm-{v}-{s}", "glm-{s}", "glm-{v}"),
    "baichuan": ("baichuan{v}-{s}", "baichuan2-{s}", "baichuan{v}"),
    "mixtral": ("mixtral-{s}", "mixtral-{s}", "mixtral"),
    "mistral": ("mistral-{s}", "mistral-{s}", "mistral"),
    "gemma": ("gemma-{v}-{s}", "gemma-{s}", "gemma-{v}"),
    "internlm": ("internlm{v}-{s}", "internlm2-{s}", "internlm{v}"),
    "yi": ("yi-{s}", "yi-{s}", "yi"),
    "phi": ("phi-{v}-{s}", "phi-{s}", "phi-{v}"),
    "falcon": ("falcon-{s}", "falcon-{s}", "falcon"),
    "bloom": ("bloom-{s}", "bloom-{s}", "bloom"),
    "gpt": ("gpt-{v}-{s}", "gpt-{s}", "gpt-{v}"),
}

# A Llama size named without a version ("llama 70b"): the release that has that size
# (Meta release notes: Llama 2 7/13/70B, Llama 3 8/70B, Llama 3.1 405B, Llama 3.2 1/3B);
# the architectures of one size differ little across releases. Other families keep the
# name as written ("qwen-14b"), and the catalog (or params_b) decides.
DEFAULT_VERSION_BY_SIZE: dict[str, dict[str, str]] = {
    "llama": {"7b": "2", "13b": "2", "8b": "3", "70b": "3", "405b": "3.1", "1b": "3.2", "3b": "3.2"},
}

# Versions that name one model of a known size (no size needed to estimate).
SIZED_VERSIONS = {("deepseek", "v3"), ("deepseek", "r1"), ("deepseek", "v2"), ("deepseek", "v2.5")}

# --- methods -----------------------------------------------------------------------------
METHODS: list[tuple[str, str]] = [
    (r"q\s*-?\s*lora|4\s*-?\s*bit\s*lora|lora\s*\(?\s*4\s*-?\s*bit|int4\s*lora", "qlora"),
    (r"lora|低秩适配|peft|adapter(?:s)?(?=\s*(?:tuning|微调|训练))", "lora"),
    (r"全参(?:数)?(?:量)?(?:微调|训练|sft)?|全量(?:参数)?(?:微调|训练)?|full[\s-]*(?:parameter|param)?[\s-]*"
     r"(?:fine[\s-]*tun\w*|ft|sft|training)|fully\s+fine[\s-]*tun\w*|" + L + r"fft" + R, "full"),
    (r"预训练|pre[\s-]?train\w*|from\s+scratch|从头(?:开始)?(?:训练?|训)|从零(?:开始)?(?:训练?|训)", "pretrain"),
]  # fmt: skip

# --- billing -----------------------------------------------------------------------------
BILLING_MODES: list[tuple[str, str]] = [
    (r"竞价|抢占式|可抢占|spot|preempt\w*|interruptible\s+instances?", "spot"),
    (r"夜间|晚上|闲时|错峰|谷时|off[\s-]*peak|at\s+night|overnight|nights?\b", "off_peak"),
    (r"按任务|按次|per[\s-]*(?:task|job)|按作业", "per_task"),
    (r"包年|按年|年付|年包|年度套餐|annual(?:ly)?|yearly|1[\s-]*year\s+(?:reserved|commit\w*|plan|term)|reserved", "yearly"),
    (r"包月|按月|月付|月包|monthly|month[\s-]*to[\s-]*month|per\s+month\s+plan", "monthly"),
    (r"包天|按天|日租|daily|per[\s-]*day\s+(?:billing|plan|rate)", "daily"),
    (r"按量|按需|按小时|按小时计费|小时计费|on[\s-]*demand|pay[\s-]*as[\s-]*you[\s-]*go|hourly|by\s+the\s+hour|paygo", "on_demand"),
]

# --- providers (emitted as the catalog's provider ids) -------------------------------------
PROVIDERS: list[tuple[str, str]] = [
    (r"阿里云|aliyun|alibaba\s*cloud", "aliyun"),
    (r"腾讯云|tencent\s*cloud", "tencent"),
    (r"华为云|huawei\s*cloud", "huawei"),
    (r"百度智能云|百度云|baidu\s*cloud", "baidu"),
    (r"火山引擎|volcengine|volcano\s*engine", "volcengine"),
    (r"autodl", "autodl"),
    (L + r"aws" + R + r"|amazon\s*web\s*services|ec2", "aws"),
    (L + r"gcp" + R + r"|google\s*cloud", "gcp"),
    (r"azure", "azure"),
    (r"lambda\s*(?:labs|cloud)?", "lambda"),
    (r"runpod", "runpod"),
    (r"coreweave", "coreweave"),
    (r"vast\.?ai", "vastai"),
]

# --- project stages (plan_project) -------------------------------------------------------
STAGES: list[tuple[str, str]] = [
    (r"验证|试跑|可行性|小规模测试|feasibility|validat\w*|pilot|" + L + r"poc" + R + r"|proof\s+of\s+concept|"
     r"prototyp\w*|smoke\s+test", "validation"),
    (r"预训练|pre[\s-]?train\w*", "pretrain"),
    (r"微调|精调|fine[\s-]*tun\w*|" + L + r"sft" + R + r"|rlhf|对齐", "finetune"),
    (r"上线|部署|推理服务|线上推理|serving|serve|inference|deploy\w*|production|launch\w*|go[\s-]+live", "serving"),
]  # fmt: skip

PRECISIONS: list[tuple[str, str]] = [
    (L + r"(?:bf16|bfloat16)" + R, "bf16"),
    (L + r"(?:fp16|float16)" + R + r"|半精度", "fp16"),
    (L + r"fp8" + R, "fp8"),
    (L + r"(?:fp32|float32)" + R + r"|单精度", "fp32"),
]

FILE_EXTENSIONS = ("csv", "parquet", "json", "jsonl", "xlsx", "xls", "txt", "md", "pdf", "docx")
