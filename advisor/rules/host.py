"""The durable-rules host: the one place that talks to the engine.

How the engine is used, and why (durable-rules 2.0.28; see /work/shared/notes/durable-rules.md):

- One host per process, kept on the ``durable.engine`` module so that a module reload
  (Streamlit re-running scripts) finds the same host, lock and rulesets instead of
  registering them twice.
- The host starts no dispatcher threads: durable's ``Host`` polls every ruleset from two
  background threads that call the C core without our lock and can pick up a pending action
  of an evaluation in flight. The host drives the C core itself: it asserts the fact, takes
  the names of the rules that fired from the pending actions and completes them; the
  findings are built in Python afterwards (no action closures, no state written back).
- Every engine call happens under one process-wide lock; the C core takes none.
- Every evaluation asserts one fact (the pack's facts as one message) under the one ``sid``
  of the host and retracts it in ``finally``: a fresh ``sid`` per evaluation cost a new
  engine state each time (a third of the engine's work), and a ruleset holds at most 1024
  live ``sid``\\ s (the 1025th corrupts the engine). If the retraction fails, the state goes.
- Every ruleset has a catch-all rule on a marker field, so no fact is ever "not handled":
  durable keeps the state of an unhandled fact (it counts toward the 1024) and deleting that
  state crashes the process. ``MessageNotHandledException`` still means "no findings"; the
  catch-all's action shows the engine ran the evaluation's actions.
- A rule whose ``any`` has several true branches fires once per branch; the host keeps one
  finding per rule and evaluation.
- Rulesets are registered once per process under a name holding the pack's content hash.
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import durable.engine as _engine
import durable_rules_engine as _core
from pydantic_core import to_json

from advisor.errors import InputError, RuleError
from advisor.findings import Finding, sort_findings
from advisor.rules.loader import MARKER, Pack, Rule, combine, get_pack
from advisor.rules.render import build_finding

_SLOT = "_compute_cost_advisor_process"
_HEARTBEAT = "_evaluated"
_SID = "advisor"  # the one engine session every evaluation asserts its fact in
_NO_STATE = "error code: 309"


class _QuietHost(_engine.Host):
    """durable's Host without the background dispatcher and timer threads."""

    def _run(self) -> None:
        return None


@dataclass
class _Session:
    """One evaluation: the rules that fired (first firing only) and the findings built from them."""

    pack: Pack
    facts: dict[str, Any]
    raw: dict[str, Any]
    lang: str
    build: Callable[[Rule, dict[str, Any], dict[str, Any], str], Finding]
    findings: list[Finding] = field(default_factory=list)
    errors: list[tuple[str, BaseException]] = field(default_factory=list)
    fired: dict[str, None] = field(default_factory=dict)
    seen: bool = False


class _Process:
    """Everything that must exist once per process."""

    def __init__(self) -> None:
        self.host = _QuietHost()
        self.lock = threading.RLock()
        self.registered: dict[str, Pack] = {}
        self.sessions: dict[str, _Session] = {}
        self.evaluations = 0
        self.unhandled = 0


def _process() -> _Process:
    found = getattr(_engine, _SLOT, None)
    if found is None:
        found = _engine.__dict__.setdefault(_SLOT, _Process())
    return found


def _never(c: Any) -> None:
    """The registered action of every rule: the host reads the fired rules itself (never called)."""


def _register(proc: _Process, pack: Pack) -> str:
    name = pack.ruleset_name
    if name not in proc.registered:
        definition: dict[str, Any] = {rule.id: {"all": [{"m": rule.engine_condition()}], "run": _never}
                                      for rule in pack.rules}
        definition[_HEARTBEAT] = {"all": [{"m": {MARKER: 1}}], "run": _never}
        proc.host.set_rulesets({name: copy.deepcopy(definition)})
        proc.registered[name] = pack
    return name


def _delete(proc: _Process, name: str, sid: str) -> None:
    try:
        proc.host.delete_state(name, sid)
    except _core.error as exc:
        if _NO_STATE not in str(exc):  # no state: the fact never reached the engine
            raise


def _fire(ruleset: Any, text: str, message: dict[str, Any], session: _Session) -> dict[str, Any] | None:
    """Assert the evaluation's fact and complete its pending actions, noting each rule that
    fired; the engine's state (None when no action was pending)."""
    state_handle = ruleset._handle_result(_core.assert_fact(ruleset._handle, text), message)
    pending = _core.start_action_for_state(ruleset._handle, state_handle)
    state = json.loads(pending[0]) if pending else None
    action = pending[1] if pending else None
    while action:  # '{"<rule id>":{"m":{...the fact...}}}': the id is read without parsing the fact
        rule_id = action[2:action.index('"', 2)]
        if rule_id == _HEARTBEAT:
            session.seen = True
        else:
            session.fired.setdefault(rule_id)
        action = _core.complete_and_start_action(ruleset._handle, state_handle)
    return state


def _retract(proc: _Process, name: str, ruleset: Any, text: str) -> None:
    try:
        _core.retract_fact(ruleset._handle, text)
    except _core.error:
        _delete(proc, name, _SID)


def _run(pack: Pack, normalized: dict[str, Any], facts: dict[str, Any], lang: str) -> list[Finding]:
    proc = _process()
    session = _Session(pack, normalized, facts, lang, build_finding)
    with proc.lock:
        name = _register(proc, pack)
        ruleset = proc.host.get_ruleset(name)
        message = pack.message(normalized, _SID)
        text = to_json(message).decode()  # shortest digits; engine_number left no bare-exponent number
        proc.sessions[_SID] = session
        proc.evaluations += 1
        handled = True
        state: dict[str, Any] | None = None
        try:
            state = _fire(ruleset, text, message, session)
        except _engine.MessageNotHandledException:
            # Cannot happen with the catch-all rule; if it does, there are no findings and
            # the state is left alone (deleting an unhandled fact's state crashes 2.0.28).
            handled = False
            proc.unhandled += 1
        except _core.error as exc:
            raise RuleError(pack.path, f"the rules engine rejected the facts ({exc})") from exc
        finally:
            proc.sessions.pop(_SID, None)
            if handled:
                _retract(proc, name, ruleset, text)
    for rule_id in session.fired if handled else ():
        try:
            session.findings.append(session.build(pack.by_id[rule_id], normalized, facts, lang))
        except Exception as exc:  # noqa: BLE001 - raised below as the rule's error
            session.errors.append((rule_id, exc))
            break
    _raise_failures(pack, session, state, handled)
    return session.findings if handled else []


def _raise_failures(pack: Pack, session: _Session, state: dict[str, Any] | None, handled: bool) -> None:
    if session.errors:
        rule_id, exc = session.errors[0]
        raise RuleError(pack.path_of(rule_id), f"rule action failed: {type(exc).__name__}: {exc}", rule=rule_id) from exc
    if state and state.get("exception"):
        raise RuleError(pack.path, f"rule action failed: {str(state['exception'])[:300]}")
    if handled and not session.seen:
        raise RuleError(pack.path, "the rules engine did not run this evaluation's actions")


def _check(facts: Any, lang: str) -> None:
    if lang not in ("en", "zh"):
        raise InputError("lang", lang, "en or zh")
    if not isinstance(facts, dict):
        raise InputError("facts", type(facts).__name__, "a dict of fact name -> value")


def evaluate(pack: str, facts: dict[str, Any], *, lang: str = "en") -> list[Finding]:
    """Findings of one pack for ``facts``, most severe first."""
    _check(facts, lang)
    found = get_pack(pack)
    return sort_findings(_run(found, found.normalize(facts), facts, lang))


def evaluate_packs(packs: Iterable[str], facts: dict[str, Any], *, lang: str = "en") -> list[Finding]:
    """Findings of several packs for the same ``facts``, most severe first."""
    _check(facts, lang)
    chosen = [get_pack(name) for name in dict.fromkeys(packs)]
    # Packs of one domain share a registry: check the facts once and evaluate them as one
    # ruleset (one engine round trip instead of one per pack; the same findings).
    by_registry: dict[str, list[Pack]] = {}
    for pack in chosen:
        by_registry.setdefault(pack.registry.digest, []).append(pack)
    found: list[Finding] = []
    for group in by_registry.values():
        pack = combine(group)
        found.extend(_run(pack, pack.normalize(facts), facts, lang))
    return sort_findings(found)


def stats() -> dict[str, Any]:
    """Counters for tests and diagnostics: evaluations, live sessions, rulesets."""
    proc = _process()
    with proc.lock:
        return {
            "evaluations": proc.evaluations,
            "live_sessions": len(proc.sessions),
            "unhandled": proc.unhandled,
            "rulesets": sorted(proc.registered),
        }
