"""Text with pages -> clauses and sentences, each with its location (section, page, line).

A clause starts at a numbered heading ("3.2", "Section 4", "Article IV", "第五条", "一、",
"（一）", "(a)") or after a blank line. Its ``section`` is the number path a reader would
cite: "3.2", "4(a)", "第五条（一）"; unnumbered contracts fall back to the nearest heading in
capitals ("TERM AND TERMINATION"). Sentences are what the detectors read; each keeps the page
and the line (counted on its page) where it starts, so every quote can be found again.

A document in Traditional characters is split and read in Simplified ones (simplified.py: one
character for one, so "第五條" is an article and "終止" a termination), while every sentence
keeps its words as the contract wrote them for quoting.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from advisor.contracts.reader import Document
from advisor.contracts.simplified import to_simplified
from advisor.glossary import term

_CN = "一二三四五六七八九十百零〇两"
_ARTICLE_RE = re.compile(
    rf"^\s*(?:#+\s*)?(?P<label>第[{_CN}\d]+[条章节](?:之[{_CN}\d]+)?"
    rf"|[{_CN}]+、"
    r"|(?:Section|SECTION|Article|ARTICLE|Clause|CLAUSE|Schedule|SCHEDULE|Annex|ANNEX|Exhibit|EXHIBIT)\s+[\dIVXLivxl]+[A-Za-z]?(?:\.\d+)*\.?"
    r"|\d{1,2}(?:\.\d{1,2}){0,3}(?:[.．、]|\s(?=\S)))"
)
_SUB_RE = re.compile(
    rf"^\s*(?:[-*•]\s*)?(?P<label>[（(](?:[{_CN}]+|\d{{1,2}}|[a-z]{{1,3}}|[A-Z])[)）]|(?:\d{{1,2}}|[a-z])[)）])\s*"
)
_BULLET_RE = re.compile(r"^\s*(?:[-*•·]|\d+\.)\s+")
_CAPS_HEADING_RE = re.compile(r"^\s*(?:#+\s*)?([A-Z][A-Z0-9 ,;&'/()\-]{3,80})\s*$")
_MD_HEADING_RE = re.compile(r"^\s*#+\s*(.+?)\s*$")

# Sentence ends: Chinese full stops and semicolons, or ". " before a capital / opening mark.
_ABBREV = r"(?<!\bNo)(?<!\bSec)(?<!\bInc)(?<!\bLtd)(?<!\bCo)(?<!\bCorp)(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)(?<!\bU\.S)(?<!\bArt)(?<!\bPara)"
_SENTENCE_END_RE = re.compile(
    rf"(?<=[。；！？!?])\s*|(?<=[.;]){_ABBREV}\s+(?=[\"“(\[A-Z]|\d+\.\s)"  # the stop first: the abbreviations are tried only after one
)
_NEWLINE_RE = re.compile("\n")
MAX_SENTENCE_CHARS = 1200  # longer runs are cut at ", " so that one quote stays readable


@dataclass(frozen=True)
class Location:
    """Where a quote stands: the section number path, the page and the line on that page."""

    section: str | None
    page: int
    line: int

    def label(self, lang: str = "en") -> str:
        mark = "§" if self.section and self.section[:1].isascii() and self.section[:1].isdigit() else ""
        head = term("where.section", lang, mark=mark, section=self.section) if self.section else ""
        return head + term("where.page_line", lang, page=self.page, line=self.line)

    def as_dict(self) -> dict[str, object]:
        return {"section": self.section, "page": self.page, "line": self.line}


@dataclass
class Sentence:
    """``text`` is what the detectors read (Simplified characters); ``own`` the same words in the
    document's own characters, when they differ."""

    text: str
    location: Location
    clause: int
    own: str = ""

    @property
    def quote(self) -> str:
        """The sentence as the contract writes it."""
        return self.own or self.text


@dataclass
class Clause:
    index: int
    section: str | None
    heading: str | None
    text: str
    location: Location
    sentences: list[Sentence] = field(default_factory=list)


class _Splitter:
    """Walks the lines of a document, keeping the current article, sub-item and heading."""

    def __init__(self) -> None:
        self.clauses: list[Clause] = []
        self.article: str | None = None
        self.sub: str | None = None
        self.heading: str | None = None
        self.buf: list[str] = []
        self.own: list[str] = []  # the lines of buf in the document's own characters
        self.start_line = 1

    def flush(self, page: int) -> None:
        if any(s.strip() for s in self.buf):
            section = _join_label(self.article, self.sub) or self.heading
            _add_clause(self.clauses, (self.buf, self.own), page, self.start_line, section, self.heading)
        self.buf, self.own = [], []

    def line(self, page: int, no: int, raw: str, own: str) -> None:
        line = raw.rstrip()
        if not line.strip():
            self.flush(page)
            self.start_line = no + 1
            return
        m_art = _ARTICLE_RE.match(line)
        m_sub = None if m_art else _SUB_RE.match(line)
        caps = None if (m_art or m_sub) else _CAPS_HEADING_RE.match(line)
        md = _MD_HEADING_RE.match(line) if line.lstrip().startswith("#") else None
        if m_art or m_sub or caps or md or _BULLET_RE.match(line):
            self.flush(page)
            self.start_line = no
        if m_art:
            label = _norm_label(m_art.group("label"))
            if label.isdigit() and self.article and not self.article[:1].isdigit():
                self.sub = label  # "1." items under "第五条" or "Section 4"
            else:
                self.article, self.sub = label, None
                self.heading = _heading_text(line[m_art.end() :]) or self.heading
        elif m_sub:
            self.sub = _norm_label(m_sub.group("label"))
        elif md:
            self.heading = md.group(1).strip("# ").strip()
        elif caps and len(line.split()) <= 10:
            self.heading = caps.group(1).strip().title()
            if self.article is None:
                self.sub = None
        self.buf.append(line)
        self.own.append(own.rstrip())


def split_clauses(doc: Document) -> list[Clause]:
    """All clauses of ``doc`` in order, each with its sentences."""
    walker = _Splitter()
    for page in doc.pages:
        walker.start_line = 1
        own = page.text.split("\n")
        for no, (raw, own_line) in enumerate(zip(to_simplified(page.text).split("\n"), own, strict=True), start=1):
            walker.line(page.number, no, raw, own_line)
        walker.flush(page.number)
    _join_broken_sentences(walker.clauses)
    return walker.clauses


_TERMINAL_RE = re.compile(r"[.;:!?。；：！？)\]）\"”]\s*$")
_RUNNING_HEADER_RE = re.compile(r"^\s*(?:[A-Za-z0-9][A-Z0-9 ,.&'\-]{2,60}|\d{1,4}|(?i:page)\s+\d+(?:\s+of\s+\d+)?)\s*$")


def _join_broken_sentences(clauses: list[Clause]) -> None:
    """A page break (often with a running header between) can cut a sentence in two:
    "...the nonbreaching party" / "HOSTING AGREEMENT" / "may terminate this Agreement ...".
    The cut sentence is completed with the start of the next paragraph when that starts in
    lower case; both halves keep their own location."""
    for i, clause in enumerate(clauses):
        if not clause.sentences or _TERMINAL_RE.search(clause.sentences[-1].text):
            continue
        j = i + 1
        while j < len(clauses) and j <= i + 3 and _RUNNING_HEADER_RE.match(clauses[j].text) and "\n" not in clauses[j].text.strip():
            j += 1
        if j >= len(clauses) or not clauses[j].sentences:
            continue
        nxt = clauses[j].sentences[0]
        if not re.match(r"[a-z(]", nxt.text) or re.match(r"\(?[a-z]{1,3}\)", nxt.text):
            continue
        last = clause.sentences[-1]
        last.text = f"{last.text} {nxt.text}"
        if last.own or nxt.own:
            last.own = f"{last.quote} {nxt.quote}"
        clauses[j].sentences.pop(0)


def _add_clause(
    clauses: list[Clause], lines: tuple[list[str], list[str]], page: int, start_line: int, section: str | None,
    heading: str | None,
) -> None:
    text, own = ("\n".join(buf) for buf in lines)
    loc = Location(section, page, start_line)
    clause = Clause(len(clauses), section, heading, text, loc)
    clause.sentences = _sentences(text, own, clause.index, page, start_line, section)
    clauses.append(clause)


def _sentences(text: str, own: str, clause_index: int, page: int, start_line: int, section: str | None) -> list[Sentence]:
    """The sentences of a clause's ``text``; ``own`` is the same text in the document's own
    characters (as long, character for character), cut at the same places."""
    line_starts = [0] + [m.end() for m in _NEWLINE_RE.finditer(text)]
    out: list[Sentence] = []
    pos = 0
    pieces: list[tuple[int, int]] = []
    first = text.split("\n", 1)[0]
    if "\n" in text and _heading_text(_ARTICLE_RE.sub("", first, count=1)) is not None and not re.search(r"[。；;.:：]\s*$", first):
        pieces.append((0, len(first)))  # a heading line is a sentence of its own
        pos = len(first) + 1
    for m in _SENTENCE_END_RE.finditer(text, pos):
        if m.end() > pos:
            pieces.append((pos, m.start() if m.start() > pos else m.end()))
            pos = m.end()
    pieces.append((pos, len(text)))
    for a, b in pieces:
        for a2, b2 in _cut_long(text, a, b):
            chunk = normalize_space(text[a2:b2])
            if len(chunk) < 2:
                continue
            lead = len(text[a2:b2]) - len(text[a2:b2].lstrip())
            line = start_line + bisect_right(line_starts, a2 + lead) - 1
            written = normalize_space(own[a2:b2])
            out.append(Sentence(chunk, Location(section, page, line), clause_index, written if written != chunk else ""))
    return out


def _cut_long(text: str, a: int, b: int) -> list[tuple[int, int]]:
    if b - a <= MAX_SENTENCE_CHARS:
        return [(a, b)]
    out: list[tuple[int, int]] = []
    while b - a > MAX_SENTENCE_CHARS:
        cut = max(text.rfind(", ", a, a + MAX_SENTENCE_CHARS), text.rfind("，", a, a + MAX_SENTENCE_CHARS))
        cut = cut + 1 if cut > a + MAX_SENTENCE_CHARS // 3 else a + MAX_SENTENCE_CHARS
        out.append((a, cut))
        a = cut
    out.append((a, b))
    return out


_CJK = r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]"
_CJK_BREAK_RE = re.compile(rf"(?<={_CJK})\s*\n\s*(?={_CJK})")


def normalize_space(text: str) -> str:
    """Join wrapped lines: no space between two CJK characters, one space elsewhere."""
    return " ".join((_CJK_BREAK_RE.sub("", text) if "\n" in text else text).split())  # str.split() splits at what \s matches


def _norm_label(label: str) -> str:
    label = label.strip().rstrip("、.．").strip()
    label = label.replace("(", "（").replace(")", "）") if re.search(rf"[{_CN}]", label) else label
    return re.sub(r"\s+", " ", label)


def _join_label(article: str | None, sub: str | None) -> str | None:
    if article and sub:
        if sub.startswith(("(", "（")):
            return f"{article}{sub}"
        bare = sub.rstrip(")）")
        return f"{article}（{bare}）" if re.search(rf"[{_CN}条章节]", article) else f"{article}({bare})"
    return article or sub


def _heading_text(rest: str) -> str | None:
    rest = rest.strip(" .:：、-—#")
    if 0 < len(rest) <= 40 and not re.search(r"[。；;.]\s*\S", rest):
        return rest
    return None
