"""Which job a question asks for: one of the seven tools, onboarding, greeting/help, or
``clarify`` — decided from cue words and from the slots already read.

The decision is a short ordered list of rules (documents before usage before plans ...),
each a pattern of the kind of sentence, not of any one sentence. It also says whether the
intent was *stated* ("which GPU", "包月还是按量", "review this contract") or only *implied*
by the slots (a model and a token count imply an estimate): a follow-up switches tools
only on a stated intent ("spot还是按量划算?" after an estimate), not on an implied one
("what about spot?" keeps the estimate and changes its billing).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from advisor.assistant.offline.lexicon import L, R, lexicon
from advisor.assistant.offline.slots_misc import CONTRACT_NOUN
from advisor.assistant.offline.text import Scan
from advisor.assistant.offline.verdict import asks_verdict
from advisor.tools import TOOL_NAMES

DECISION_TOOLS = ("estimate_serving_cost", "check_quote", "compare_own_vs_rent")
"""The decision tools' names (issue #12's interface), known here before they are installed."""
TOOLS = tuple(dict.fromkeys((*TOOL_NAMES, *DECISION_TOOLS)))


class Decision(NamedTuple):
    intent: str
    stated: bool
    reason: str


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


GREETING = _re(r"^\s*(?:hi|hello|hey|hiya|你好|您好|嗨|哈喽|hello\s+there|good\s+(?:morning|afternoon|evening)|早上好|下午好|晚上好)(?:\s*(?:there|呀|啊|!|！|~))?[\s!！。.,，~?？]*$")
HELP = _re(
    r"^\s*(?:help|帮助|\?|？|你能做什么|你会什么|你可以做什么|你能干什么|能做什么|你能帮我(?:做)?什么|有什么功能|"
    r"what\s+can\s+you\s+do|what\s+do\s+you\s+do|how\s+do\s+i\s+use\s+(?:this|you)|what\s+are\s+you|who\s+are\s+you|你是谁|使用说明)[\s?？!！。.]*$"
)
REVIEW_VERB = _re(
    r"看看|看一下|审|检查|把关|有没有(?:坑|问题|风险|陷阱)|坑|陷阱|风险|能签|可以签|能不能签|合理吗|正常吗|有问题吗|霸王|"
    r"review|check|look\s+(?:at|over)|red\s+flags?|trap|risk|can\s+we\s+sign|should\s+we\s+sign|fair|normal|ok\s+to\s+sign|"
    r"anything\s+wrong|watch\s+out|is\s+this\s+(?:ok|okay|fine|standard)"
)
ONBOARDING = _re(
    r"onboard|teach\s+(?:me|us)|i'?m\s+new|we'?re\s+new|i\s+am\s+new|new\s+(?:to|here|hire|on\s+the\s+team|team\s+member)|"
    r"getting\s+started|get\s+started|where\s+(?:do|should|can)\s+(?:i|we)\s+start|beginner|crash\s+course|learning\s+path|"
    r"walk\s+me\s+through\s+the\s+basics|教我|教教|教一下|我是新人|新人|新手|小白|入门|刚(?:入职|接触|来|加入)|从哪(?:里|儿)?(?:开始|学|入手)|"
    r"带(?:我|我们)(?:入门|了解)|培训|学习路线|零基础|新团队|从哪几块|第一次(?:租|用|买|接触)|头一次|"
    r"(?:for\s+the|our|my)\s+first\s+time|new\s+(?:\w+\s+)?team|never\s+(?:rented|used|bought)"
)
USAGE = _re(
    r"利用率|使用率|闲置|空闲|空转|浪费|没人用|idle|utili[sz]|underus|wasted?|wasting|sitting\s+unused|unused|"
    r"usage\s+(?:report|data|export|log)|analy[sz]e\s+(?:\w+\s+){0,2}usage|billing\s+export|账单|用量|telemetry|监控数据|nvidia-smi|dcgm|" + L + r"util" + R
)
USAGE_ANALYZE = _re(r"分析|analy[sz]|浪费(?:了)?多少|waste|how\s+much\s+(?:did|do|are)\s+we|看看|check|report|诊断|找出|排查")
DEFINE = _re(
    r"什么是|是什么|什么叫|啥是|是啥|为什么|为啥|什么意思|啥意思|有什么区别|有啥区别|区别是|的区别|原理|解释一下|讲讲|讲一下|"
    r"介绍一下|(?<![a-z])why(?![a-z])|what(?:\s+is|'s|\s+are)(?!\s+(?:the\s+)?(?:best|cheapest|fastest|right|optimal|total|cost|price|"
    r"budget|bill|estimat|likely|expected|ballpark|minimum|smallest)|\s+it\s+(?:going\s+to\s+)?cost)|what\s+does|what\s+do\s+\w+\s+mean|meaning\s+of|"
    r"explain|difference\s+between|how\s+does|how\s+do\s+\w+\s+work|tell\s+me\s+about|describe"
)
HOWTO = _re(
    r"怎么|怎样|如何|要不要|需不需要|是否需要|应该注意|要注意|有哪些|哪些方法|有什么(?:技巧|建议|办法|方法|坑)|能不能|可不可以|"
    r"how\s+(?:do|can|should|to|could)|what\s+should|should\s+(?:i|we)|tips|best\s+practice|any\s+advice|ways\s+to|is\s+it\s+worth|"
    r"do\s+(?:i|we)\s+(?:really\s+)?need|when\s+(?:should|is|do|does)|which\s+parts|比较好|更好|合适吗|好吗|有必要|必要吗|"
    r"怎么办|什么时候|应该(?:用|选)|该用什么|能否|可以吗|会.{0,12}吗|能.{0,12}吗|适合(?:跑|做)什么|哪些任务|"
    r"(?<![a-z])can\s+(?:we|i)\s|what\s+(?:kind|sort)s?\s+of\s+(?:jobs|tasks|work)|aim\s+for|look\s+for|"
    r"哪些(?:条款|方面|点|问题|事项|地方)|清单|checklist|what\s+to\s+(?:check|look|watch)"
)
COST = _re(
    r"多少钱|花多少|要多少|多少费用|费用|成本|花费|价格|报价|估(?:算|计|一下|个价|价)|算(?:一下|算|下)|预估|开销|贵不贵|多贵|"
    r"多久|多长时间|几天|" + L + r"cost|price|how\s+much|budget|spend|expens|estimat|ballpark|quote|how\s+long|time\s+to\s+train|"
    r"gpu[\s-]*hours|卡时|够吗|够不够|enough"
)
RECOMMEND = _re(
    r"用什么卡|什么卡|哪(?:种|个|款|张|类|家)?(?:卡|gpu|显卡)|选(?:什么|哪)|选卡|怎么选|推荐|建议用|租什么|用什么(?:gpu|显卡|硬件|配置)|"
    r"什么(?:gpu|显卡|硬件|配置)|哪个(?:更)?(?:划算|便宜|合适|好|快)|哪个性价比|"
    r"which\s+(?:gpu|card|hardware|accelerator|instance)|what\s+(?:gpu|card|hardware|kind\s+of\s+gpu)|best\s+(?:gpu|hardware|card|option)|"
    r"recommend|suggest|what\s+should\s+(?:we|i)\s+(?:rent|use)|cheapest\s+(?:gpu|card|option|hardware|way)|right[\s-]*siz|"
    r"fastest\s+option|minimum\s+number\s+of|how\s+many\s+(?:gpus|cards)|几张卡|要几张|多少张卡|"
    r"有没有.{0,40}?(?:的卡|的gpu|的显卡|卡可以|卡能)|更便宜的(?:卡|gpu|显卡)|cheaper\s+(?:gpu|card|hardware)|(?:gpu|hardware|card|instance)\s+options?|"
    r"what\s+(?:gpus?|hardware|cards?)\s+(?:do|should|would)"
)
LOOK = _re(r"看看|看下|看一下|帮我看|评估一下|怎么样|如何|(?<![a-z])(?:check|look\s+at|thoughts|opinion|assess|evaluate|how\s+is)(?![a-z])")
BEST = _re(  # a superlative about the setup: the answer is a choice of hardware
    r"最(?:便宜|划算|省钱|省|经济|合适|快|优|佳)|性价比最高|最具性价比|性价比(?:最好|高)的|"
    r"most\s+(?:cost[\s-]*effective|economical|efficient|affordable)|cheapest|best\s+(?:value|bang|setup|config\w*|choice|option)|"
    r"optimal|(?:what|which)\s+(?:setup|config\w*|instance\s+type)"
)
BILLING = _re(
    r"计费方式|计费模式|计费|付费方式|怎么付费|billing|pricing\s+(?:plan|model|mode)|payment\s+plan|reserve|commit|"
    r"划算|值得|worth|cheaper|便宜|省钱|省多少|合适|适合|save|savings|better|beat|选哪|还是|(?<![a-z])or(?![a-z])|(?<![a-z])vs\.?(?![a-z])|compare|对比|比较"
)
PLAN = _re(
    r"规划|做(?:个|一个)?计划|计划一下|项目计划|整个项目|整体规划|全流程|全周期|各(?:个)?阶段|每个阶段|分阶段|路线图|项目预算|项目成本|"
    r"project\s+(?:plan|budget|cost)|plan\s+(?:the|our|a|costs?|out|for)|roadmap|end[\s-]to[\s-]end|whole\s+project|"
    r"entire\s+project|lifecycle|stage\s+by\s+stage|each\s+(?:stage|phase)|phases|lay\s+out|full\s+pipeline"
)
BILLING_NOUN = _re(r"计费方式|计费模式|付费方式|billing\s+(?:options?|modes?|plans?|models?)|pricing\s+(?:plans?|models?|options?)|payment\s+plans?")
TOPIC = _re(  # concepts the guides explain: a question about one is a knowledge question
    r"电费|能耗|功耗|electricity|energy|power\s+draw|pue|显存|memory|混合精度|mixed\s+precision|量化|quantiz|"
    r"并行|parallelism|梯度检查点|checkpointing|zero(?![\s_-]*\d)|deepspeed|隐性成本|hidden\s+costs?|besides|除了|"
    r"other\s+costs|其他费用|存储|storage|带宽|bandwidth|egress|流量|licen[cs]e|授权|技术支持|support\s+fees?|"
    r"tiered\s+pricing|阶梯价|price\s+lock|锁价|chargeback|分摊|审批|approval|own\s+(?:gpus|servers|hardware)|自建|买卡"
)
SETTLE = _re(r"结算|剩余期限|剩下的?(?:几个月|期限)|提前(?:结束|完成|退租)|退款|finished\s+(?:after|early)|remaining\s+\d+\s+months|refund|carry[\s-]over|"
             r"penalt|临时|加急|急租|short\s+notice|last[\s-]minute|booking\s+(?:a\s+)?(?:month|week)s?\s+ahead|提前一个月规划|提前规划|分阶段|per[\s-]stage|stage\s+costs")
REQUEST = _re(r"(?<![a-z])(?:write|create|make|build|generate|translate|draft|book|order)(?![a-z])|写|生成|翻译|订|帮我做")
BILLING_WORD = _re(r"billing|计费|付费|怎么付|pay\\s+(?:by|for|per)|pricing\\s+plan|plan\\s+should")
DEMONSTRATIVE = _re(r"这份|这个|这条|这段|以下|下面|如下|this|these|the\s+following|attached|below|i'?m\s+about\s+to|i'?ll\s+paste")
RENT = _re(r"租|rent|lease|reserve|包")
QUESTION = _re(r"[?？]|吗|呢|么|(?<![a-z])(?:what|how|why|which|when|should|can|could|is|are|do|does)(?![a-z])")


_CUES = lexicon()["intent_cues"]
SERVING = _re(_CUES["serving"])
TRAINING = _re(_CUES["training"])
QUOTE = _re(_CUES["quote"])
OWN = _re(_CUES["own"])
DOMAIN = _re(_CUES["domain"])
GENERIC = _re(_CUES["generic"])
_WORDS = _re(r"[a-z][a-z0-9'-]*|[\u4e00-\u9fff]")


def has_topic(t: str) -> bool:
    """Whether the question names something (other than generic words) to talk about."""
    rest = GENERIC.sub(" ", t)
    words = _WORDS.findall(rest)
    latin = [w for w in words if w.isascii()]
    cjk = len(words) - len(latin)
    return len(latin) >= 2 or cjk >= 4 or (len(latin) == 1 and cjk >= 2)  # "什么是MFU？"


def _new_tools(t: str, v: dict) -> Decision | None:
    """Serving, quote checks and own-vs-rent: the jobs of the decision tools."""
    data = any(k in v for k in ("tokens", "samples"))
    gpu = "gpu" in v or "gpu_count" in v
    if OWN.search(t) and gpu and not data:
        return Decision("compare_own_vs_rent", True, "owning against renting")
    serving_load = any(k in v for k in ("tokens_per_day", "requests_per_day"))
    training = bool(TRAINING.search(t)) or data
    if serving_load and not training and not PLAN.search(t):
        return Decision("estimate_serving_cost", True, "a serving load per day")
    if SERVING.search(t) and any(k in v for k in ("model", "params_b")) and not training and not PLAN.search(t):
        return Decision("estimate_serving_cost", True, "serving a model")
    if any(k in v for k in ("jobs", "increment")) and gpu and not data:
        return Decision("compare_billing", True, "many short jobs or a billing increment")
    if "gpu" in v and _has_duration(v) and BILLING_WORD.search(t) and not (data or "model" in v or "params_b" in v):
        return Decision("compare_billing", True, "which billing for GPUs over a time")
    priced = any(k in v for k in ("price_per_gpu_hour", "budget", "monthly_fee", "quoted_amount"))
    workload = training or any(k in v for k in ("model", "params_b", "text"))
    if (QUOTE.search(t) or "term_months" in v) and priced and "gpu" in v and not workload:
        return Decision("check_quote", True, "a quoted price to check")
    rate = any(k in v for k in ("price_per_gpu_hour", "monthly_fee", "quoted_amount"))
    if rate and "gpu" in v and (_asks_verdict(t) or LOOK.search(t)) and not (workload or _has_duration(v) or len(v.get("billing_modes", [])) >= 2
                                                          or any(k in v for k in ("jobs", "avg_utilization"))):
        return Decision("check_quote", True, "a yes/no question about a price for a card")
    return None


def _asks_verdict(t: str) -> bool:
    return asks_verdict(t)


def classify(scan: Scan) -> Decision:
    """The intent of one question on its own (follow-ups are handled by :mod:`.followup`).
    A knowledge question with no topic ("这个报价合适吗？", "is this a good price?") is unclear."""
    decision = _classify(scan)
    if decision.intent == "search_knowledge" and not has_topic(scan.question) and not scan.values:
        return Decision("clarify", False, "no topic to look up")
    return decision


def _classify(scan: Scan) -> Decision:
    t, v = scan.question, scan.values
    question = scan.norm[: v["_document_start"]] if "_document_start" in v else t
    workload = any(k in v for k in ("model", "params_b", "tokens", "samples"))
    modes = v.get("billing_modes", [])
    stages = v.get("stage_names", [])
    data = any(k in v for k in ("tokens", "samples"))
    usage_numbers = any(k in v for k in ("gpu_count", "max_gpus", "price_per_gpu_hour", "wall_hours",
                                         "duration_hours", "deadline_hours", "hours_per_day", "interruptible",
                                         "offpeak_share", "urgent", "period_hours"))  # fmt: skip
    has_numbers = any(k in v for k in ("gpu_count", "max_gpus", "price_per_gpu_hour", "budget", "avg_utilization",
                                       "tokens", "samples", "params_b", "model"))  # fmt: skip
    if GREETING.search(t):
        return Decision("greeting", True, "greeting")
    if HELP.search(t):
        return Decision("help", True, "asks what the assistant can do")
    howto = bool(HOWTO.search(t) or DEFINE.search(t))
    if "text" in v or (
        CONTRACT_NOUN.search(question)
        and REVIEW_VERB.search(question)
        and not (howto and not DEMONSTRATIVE.search(question))
    ):
        return Decision("review_contract", True, "contract text or a request to review one")
    if any(str(f).lower().endswith((".pdf", ".docx", ".md", ".txt")) for f in v.get("files", [])) and CONTRACT_NOUN.search(question):
        return Decision("review_contract", True, "a contract document")
    if ONBOARDING.search(t) and not (workload and data):  # "刚来…全参微调0.5B，200万token，用什么卡": a job
        if (HOWTO.search(t) or DEFINE.search(t)) and (TOPIC.search(t) or v.get("billing_modes")) and not PLAN.search(t):
            return Decision("search_knowledge", True, "a newcomer's question about one topic")
        return Decision("onboarding", True, "new to the subject")
    decided = _new_tools(t, v)
    if decided is not None:
        return decided
    usage_file = any(not str(f).lower().endswith((".pdf", ".docx", ".md", ".txt")) for f in v.get("files", []))
    if usage_file or "avg_utilization" in v:
        return Decision("analyze_usage", True, "usage data or a utilization figure")
    if USAGE.search(t) and not data:
        if howto and not USAGE_ANALYZE.search(t) and not any(k in v for k in ("gpu_count", "price_per_gpu_hour")):
            return Decision("search_knowledge", True, "a question about utilization practice")
        return Decision("analyze_usage", True, "idle or under-used GPUs")
    if DEFINE.search(t) and not (workload and (COST.search(t) or data)):
        return Decision("search_knowledge", True, "asks what something is or why")
    if workload and data and RECOMMEND.search(t) and "gpu" not in v:
        return Decision("recommend_hardware", True, "asks which hardware for a workload")
    if workload and data and BEST.search(t) and ("gpu" not in v or len(v.get("gpus", [])) >= 2):
        return Decision("recommend_hardware", True, "asks for the best setup for a workload, no card chosen")
    if any(k in v for k in ("jobs", "increment")) and ("gpu" in v or "gpu_count" in v) and not data:
        return Decision("compare_billing", True, "many short jobs or a billing increment")
    if SETTLE.search(t) and ("gpu" in v or "gpu_count" in v) and not data:
        return Decision("plan_project", True, "a committed term, settled or bought at short notice")
    if PLAN.search(t) and (workload or not HOWTO.search(t)):
        return Decision("plan_project", True, "a project plan")
    if len(stages) >= 2 and (workload or COST.search(t)) and not HOWTO.search(t):
        return Decision("plan_project", True, "several project stages")
    gpus = v.get("gpus", [])
    if TOPIC.search(t) and not (data or (usage_numbers and "gpu_count" not in v) or any(k in v for k in ("price_per_gpu_hour", "wall_hours", "deadline_hours"))) and (howto or QUESTION.search(t)) and not RECOMMEND.search(t):
        return Decision("search_knowledge", True, "asks about a cost concept")
    if len(gpus) >= 2 and not v.get("gpu_changed_from") and _choice(t):
        return Decision("recommend_hardware", True, "weighs GPUs against each other")
    billing_question = len(modes) >= 2 or (
        modes and BILLING.search(t) and not (workload and len(modes) == 1 and not _choice(t))
    )
    if (billing_question or BILLING_NOUN.search(t)) and howto and not (workload or usage_numbers or "gpu" in v):
        return Decision("search_knowledge", True, "a question about billing practice")
    if billing_question:
        return Decision("compare_billing", True, "weighs billing modes")
    if BILLING_NOUN.search(t) and not workload:
        return Decision("compare_billing", True, "asks about billing options")
    if RECOMMEND.search(t) and (workload or "gpu" not in v):
        return Decision("recommend_hardware", True, "asks which hardware")
    if HOWTO.search(t) and not workload:
        return Decision("search_knowledge", True, "a how-to question")
    if workload and not data and "gpu" in v and howto and not COST.search(t):
        return Decision("recommend_hardware", True, "asks whether a GPU fits the model")
    if workload:
        return Decision("estimate_training_cost", bool(COST.search(t)), "a workload to price")
    if modes:
        return Decision("compare_billing", False, "a billing mode without a workload")
    if "gpu" in v and _has_duration(v) and BILLING_WORD.search(t) and not workload:
        return Decision("compare_billing", True, "which billing for GPUs over a time")
    if "gpu" in v and COST.search(t) and (RENT.search(t) or _has_duration(v)):
        return Decision("compare_billing", True, "renting GPUs for a time")
    if not DOMAIN.search(t) and not has_numbers and has_topic(t) and (QUESTION.search(t) or COST.search(t) or REQUEST.search(t)):
        return Decision("out_of_scope", True, "not about compute cost")
    if COST.search(t) or (has_numbers and not QUESTION.search(t)):
        return Decision("estimate_training_cost", bool(COST.search(t)), "asks for a cost")
    if QUESTION.search(t) and len(t.strip()) > 8 and has_topic(t):
        return Decision("search_knowledge", False, "a general question")
    return Decision("clarify", False, "no job recognized")


_CHOICE = _re(
    r"还是|(?<![a-z])or(?![a-z])|(?<![a-z])vs\.?(?![a-z])|versus|compare|对比|比较|选哪|哪个|哪款|哪张|which|替代|instead|"
    r"better|更好|相比|compared|enough|够不够|够用|difference|区别|差多少|差别|差距|比(?!例|较少)"
)


def _choice(t: str) -> bool:
    return bool(_CHOICE.search(t))


def _has_duration(v: dict) -> bool:
    return any(k in v for k in ("wall_hours", "duration_hours", "deadline_hours", "hours_per_day"))
