"""The offline assistant's turn: parsed question -> tool call -> the report's short form.

:func:`offline_turn` is the embedded default (no model needed) and the fallback of the
LLM path. An answer is the "what I understood" line, the verdict sentence for a yes/no
question, then :func:`explain`: each report's view (advisor.present) as
:func:`advisor.present.markdown.short` — the same figures and words as the CLI, the UI and the
export; the UI folds the view's details and assumptions under it. :func:`explain` is also how
an LLM answer that failed the grounding check is replaced. A refused call becomes a reply
that names what to change, in the user's language — never a traceback.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import advisor.tools as tools
from advisor.assistant.guides import cite_for
from advisor.assistant.offline.clarify import clarifying_question
from advisor.assistant.offline.parse import Parsed, parse_question
from advisor.assistant.offline.understood import assumed, label, understood
from advisor.assistant.offline.verdict import mark, memory_verdict, undecided, verdict
from advisor.assistant.result import Citation, ToolCall
from advisor.errors import AdvisorError
from advisor.findings import Finding, sort_findings
from advisor.glossary import has, term
from advisor.knowledge.onboarding import describe_path, next_module
from advisor.present import PRESENTERS, markdown, present
from advisor.present.errors import say

_log = logging.getLogger("advisor.assistant")

__all__ = ["Turn", "explain", "offline_turn", "run_tool"]

_PARSER_NEED = {"tokens_b": "data", "model": "model", "params_b": "model", "text": "text", "avg_utilization": "usage"}


JUDGEMENT_TOOLS = ("check_quote", "review_contract", "analyze_usage", "compare_own_vs_rent")
"""Tools whose answer is a judgement (is the price good, can we sign, are the cards wasted, does owning
pay): their verdict line heads the answer whether or not the question was worded as a yes/no."""


@dataclass
class Turn:
    """One offline turn, before it is wrapped into an AskResult."""

    answer: str
    intent: str
    lang: str
    parsed: Parsed | None = None
    tool_calls: list[ToolCall] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)


def run_tool(name: str, args: dict[str, Any], lang: str, defaults: dict[str, Any] | None = None) -> ToolCall:
    """Call tool ``name``; a refusal (AdvisorError) is kept as the call's one-line error.

    ``args`` use the argument names of INTERNALS.md "Tool requests" and are recorded as
    given (plus ``lang`` and the caller's ``defaults`` for fields the question left open);
    :func:`_adapt` maps them onto the tool where it differs."""

    recorded = dict(args)
    try:
        func = getattr(tools, name)
        # lazy: loads openai only when this runs (cold start)
        from advisor.tools.langchain import request_model

        fields = request_model(name).model_fields
    except (ImportError, AttributeError):
        return ToolCall(name=name, args=recorded, error=f"tool {name} is not installed")
    if "lang" in fields and "lang" not in recorded:
        recorded["lang"] = lang
    for key, value in (defaults or {}).items():
        if key in fields and recorded.get(key) is None and value is not None:
            recorded[key] = value
    try:
        report = func(**_adapt(name, dict(recorded)))
    except AdvisorError as exc:
        return ToolCall(name=name, args=recorded, error=exc.one_line(), problem=exc.parts())
    except (TypeError, ValueError, KeyError, ArithmeticError) as exc:  # a tool bug must not reach the user as a traceback
        _log.warning("tool %s failed on %s: %s: %s", name, sorted(recorded), type(exc).__name__, exc)
        return ToolCall(name=name, args=recorded, error=f"the {name} tool could not handle this request ({type(exc).__name__})")
    return ToolCall(name=name, args=recorded, result=report.model_dump(mode="json"))


def _adapt(name: str, args: dict[str, Any]) -> dict[str, Any]:
    """Arguments as the tool takes them. The parser reads a project as one ``tokens_b`` and a
    list of stage names; the plan tool takes per-stage fields (``pretrain_tokens_b``,
    ``finetune_tokens_b``, ``serving_tokens_per_day``)."""
    if name != "plan_project":
        return args
    stages = args.get("stages") or []
    bare = bool(stages) and all(isinstance(s, dict) and set(s) <= {"stage", "method", "tokens_per_day"} for s in stages)
    if "tokens_b" not in args and not bare:
        return args
    tokens = args.pop("tokens_b", None)
    if bare:
        args.pop("stages")
    names = [s.get("stage") for s in stages if isinstance(s, dict)]
    per_day = next((s.get("tokens_per_day") for s in stages if isinstance(s, dict) and s.get("tokens_per_day")), None)
    method = next((s.get("method") for s in stages if isinstance(s, dict) and s.get("method")), None)
    if tokens is not None:
        args.setdefault("finetune_tokens_b" if "finetune" in names and "pretrain" not in names else "pretrain_tokens_b", tokens)
    if "finetune" in names and method in ("full", "lora", "qlora"):
        args.setdefault("finetune_method", method)
    if per_day:
        args.setdefault("serving_tokens_per_day", per_day)
    return args


def explain(calls: list[ToolCall], lang: str, *, understood: bool = True) -> str:
    """Each successful call's short form (failures say what to fix). ``understood``: include
    the view's own "understood" line (off when the answer opens with "What I understood")."""
    parts = []
    for call in calls:
        if call.result is not None:
            parts.append(render(call.name, call.result, lang, understood=understood))
        elif call.error:
            parts.append(refusal(call, lang))
    return "\n\n".join(p for p in parts if p)


def render(tool: str, result: dict[str, Any], lang: str, *, understood: bool = True) -> str:
    """One report as the chat shows it: the view's short form, or the guide sections found."""
    if tool in PRESENTERS:
        return markdown.short(present(tool, result, lang), understood=understood).strip()
    if tool == "search_knowledge":
        return guides(result, lang)
    return ""


def guides(r: dict[str, Any], lang: str) -> str:
    """The best guide sections, each with a snippet and where to read on."""
    hits = r.get("hits", [])
    if not hits:
        return term("chat.guides_none", lang)
    lines = [f"- **{h['title']} › {h['section']}**: {h['snippet']} ({h['path']})" for h in hits[:3]]
    return f"**{term('chat.guides', lang)}**\n" + "\n".join(lines)


def refusal(call: ToolCall, lang: str) -> str:
    """A refused call as a reply: what is missing or wrong, and how to say it."""
    job = term(f"chat.job.{call.name}", lang)
    missing = _missing_field(call)
    if missing in _PARSER_NEED:
        return clarifying_question([_PARSER_NEED[missing]], call.name)[lang]
    if has(f"chat.need.{missing}"):
        return term("chat.refusal_need", lang, job=job, need=term(f"chat.need.{missing}", lang))
    return term("chat.refusal", lang, job=job, error=say(call.problem or call.error or "", lang))


def cannot_say(call: ToolCall, lang: str) -> str:
    """The verdict line of a yes/no question the tool refused: no yes or no, and what it lacks."""
    job = term(f"chat.job.{call.name}", lang)
    missing = _missing_field(call)
    if has(f"chat.need.{missing}"):
        return mark(lang) + term("chat.no_verdict_need", lang, job=job, need=term(f"chat.need.{missing}", lang))
    return mark(lang) + term("chat.no_verdict", lang, job=job, error=say(call.problem or call.error or "", lang))


def _missing_field(call: ToolCall) -> str | None:
    """The field a refusal names when its value was never given (its structured ``problem``)."""
    p = call.problem or {}
    name = str(p.get("field") or "")
    return name if "accepted" in p and (p.get("value") is None or call.args.get(name.split(".")[0]) is None) else None


def findings_of(calls: list[ToolCall], lang: str) -> list[Finding]:
    out = []
    for call in calls:
        for f in (call.result or {}).get("findings", []):
            finding = Finding.model_validate(f)
            out.append(finding.in_language(lang) if lang in finding.text else finding)  # type: ignore[arg-type]
    return sort_findings(out)


def sources_block(citations: list[Citation], lang: str) -> str:
    """The citations as a short "Read more" list under an answer: the guide and section a user
    opens on the Learn page (``advisor learn``), not the file behind it."""
    if not citations:
        return ""
    return f"**{term('chat.read_more', lang)}**\n" + "\n".join(f"- {t}" for t in dict.fromkeys(c.title for c in citations))


def offline_turn(question: str, previous: Parsed | None = None, lang: str | None = None,
                 defaults: dict[str, Any] | None = None) -> Turn:
    """Answer one question without a model. ``defaults``: tool arguments the caller's
    settings supply (currency, budget, price sheet) where the question does not say."""
    parsed = parse_question(question, previous)
    lang = lang or parsed.language
    intent = parsed.intent
    if intent == "clarify":
        text = (parsed.clarify_text or {}).get(lang) or parsed.clarify_question or term("chat.help", lang)
        so_far = understood(parsed.pending or ("bill" if "bill" in parsed.missing else "clarify"), parsed.args, None, lang)
        said = undecided("needs", lang, parsed.missing) if parsed.asks_verdict else ""
        foreign = "" if "price_currency" in parsed.missing else _foreign_currency(parsed, lang)
        return Turn(answer=_join(so_far, foreign, said, text), intent=intent, lang=lang, parsed=parsed)
    if intent in ("greeting", "help"):
        text = term("chat.greeting" if intent == "greeting" else "chat.help", lang)
        return Turn(answer=text, intent=intent, lang=lang, parsed=parsed)
    if intent == "onboarding":
        return _onboarding(question, parsed, lang)

    if intent == "out_of_scope" or intent not in tools.TOOL_NAMES:
        return Turn(answer=_join(understood("search_knowledge", {"query": question}, None, lang),
                                 term("chat.out_of_scope", lang)), intent=intent, lang=lang, parsed=parsed)
    defaults = dict(defaults or {})
    if lang == "zh":
        defaults.setdefault("currency", "CNY")  # a Chinese question is priced in yuan unless it names a currency
    call = run_tool(intent, parsed.args, lang, defaults)
    if call.error and call.error.startswith("invalid provider") and parsed.args.get("provider"):
        # a provider that does not list the card: price it on the market instead, and say so
        provider = parsed.args["provider"]
        call = run_tool(intent, {k: v for k, v in parsed.args.items() if k != "provider"}, lang, defaults)
        parsed.assumptions.append({"name": "provider.not_listed", "value": provider, "unit": "",
                                   "source": "the catalog has no offer for this card from that provider; priced on the market"})
    calls = [call]
    judged = bool(parsed.context.get("asks_verdict")) or intent in JUDGEMENT_TOOLS
    if call.error:
        said = cannot_say(call, lang) if judged else ""
        answer = _join(understood(intent, call.args, None, lang), said, refusal(call, lang))
        citations = cite_for(question, intent, lang, [])
        return Turn(answer=_join(answer, sources_block(citations, lang)), intent=intent, lang=lang, parsed=parsed,
                    tool_calls=calls, citations=citations)
    findings = findings_of(calls, lang)
    if intent == "search_knowledge":
        citations = Citation.of_hits(call.result.get("hits", [])[:3])  # type: ignore[union-attr]
        said = undecided("guides", lang) if parsed.asks_verdict else ""
        return Turn(answer=_join(understood(intent, call.args, call.result, lang), said, explain(calls, lang)), intent=intent,
                    lang=lang, parsed=parsed, tool_calls=calls, findings=findings, citations=citations)
    citations = cite_for(question, intent, lang, findings)
    if parsed.context.get("memory_only"):
        return _memory_check(parsed, call, lang, citations, findings)
    said = verdict(intent, call.args, call.result, parsed.question.lower(), lang) if judged else ""
    if judged and not said:
        said = undecided("figures", lang)
    answer = _join(understood(intent, call.args, call.result, lang), assumed(call.args, call.result, parsed.assumptions, lang),
                   _foreign_currency(parsed, lang, _priced_in(call)), said, _followup_line(parsed, lang), explain(calls, lang, understood=False),
                   _plan_gaps(parsed.args, call, lang),
                   sources_block(citations, lang))
    return Turn(answer=answer, intent=intent, lang=lang, parsed=parsed, tool_calls=calls, findings=findings,
                citations=citations)


def _memory_check(parsed: Parsed, call: ToolCall, lang: str, citations: list[Citation],
                  findings: list[Finding]) -> Turn:
    """A memory-only question: what was understood, the fit verdict, and what else it needs —
    never the time or cost of the nominal data amount the estimate ran with."""
    args = {k: v for k, v in call.args.items() if k not in ("tokens_b", "dataset_tokens_b")}
    said = memory_verdict(call.result or {}, lang, with_time=False)
    notes = [n for n in parsed.assumptions if n.get("name") != "memory.nominal"]
    answer = _join(understood("estimate_training_cost", args, None, lang), assumed(args, None, notes, lang),
                   mark(lang) + said if said else "", term("chat.memory_only", lang), sources_block(citations, lang))
    return Turn(answer=answer, intent="estimate_training_cost", lang=lang, parsed=parsed, tool_calls=[call],
                findings=[], citations=citations)


def _followup_line(parsed: Parsed, lang: str) -> str:
    if not parsed.is_followup or not parsed.changed:
        return ""

    return term("chat.followup", lang, changed=term("chat.list_sep", lang).join(label(k, lang) for k in parsed.changed))


def _plan_gaps(args: dict[str, Any], call: ToolCall, lang: str) -> str:
    """Stages the question named that the plan could not price, and what each needs."""
    if call.name != "plan_project" or not call.result:
        return ""
    asked = [s.get("stage") for s in args.get("stages") or [] if isinstance(s, dict)]
    priced = {s.get("stage") for s in call.result.get("stages", [])}
    gaps = [term(f"chat.stage_needs.{st}", lang) for st in asked if st not in priced and has(f"chat.stage_needs.{st}")]
    return term("chat.plan_gaps", lang, items=term("chat.list_sep", lang).join(gaps)) if gaps else ""


def _foreign_currency(parsed: Parsed, lang: str, used: str | None = None) -> str:
    """A currency asked for that the price data does not hold ("show it in euros"): said so, with the one priced in."""
    code = next((s.value for s in parsed.spans if s.slot == "currency_unsupported"), None)
    if not code:
        return ""
    return term("chat.currency_unsupported", lang, code=code) + (term("chat.currency_used", lang, used=used) if used else "")


def _priced_in(call: ToolCall) -> str | None:
    result = call.result or {}
    return call.args.get("currency") or result.get("currency") or (result.get("inputs") or {}).get("currency")


def _join(*parts: str) -> str:
    return "\n\n".join(p for p in parts if p)


def _onboarding(question: str, parsed: Parsed, lang: str) -> Turn:
    try:
        path_text = describe_path(lang)  # type: ignore[arg-type]
        module = next_module(lang)  # type: ignore[arg-type]
    except (AdvisorError, ImportError):  # no onboarding path installed: the best guide sections instead
        call = run_tool("search_knowledge", {"query": question, "lang": lang, "k": 3}, lang)
        return Turn(answer=explain([call], lang), intent="onboarding", lang=lang, parsed=parsed, tool_calls=[call])
    citations = []
    if module is not None:
        citations.append(Citation(title=module.guide_title, path=module.guide_path))
    return Turn(answer=_join(understood("onboarding", {}, None, lang), onboarding(path_text, module, lang)), intent="onboarding", lang=lang, parsed=parsed,
                citations=citations)


def onboarding(path_text: str, module: Any, lang: str) -> str:
    """The onboarding path and its first module's goals and checklist."""
    if module is None:
        return path_text
    goals = "\n".join(f"- {g}" for g in module.goals)
    checklist = "\n".join(f"- [ ] {c}" for c in module.checklist)
    first = (f"**{term('chat.first_module', lang, n=module.number, title=module.title)}** ({module.guide_path})\n"
             f"{module.summary}\n\n{term('chat.goals', lang)}:\n{goals}\n\n{term('chat.checklist', lang)}:\n{checklist}\n\n"
             + term("chat.open_module", lang, id=module.id))
    return f"{path_text}\n\n{first}"
