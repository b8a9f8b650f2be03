"""Build tests/fixtures/contracts/min_commitment/cuad.yaml: CUAD v1 clauses for developing the
minimum-commitment detector, kept apart from the LegalBench clause sets.

    python scripts/contract_sources/build_min_commitment.py MASTER_CLAUSES_CSV LEGALBENCH_DIR OUT

Rules:
* positives: every clause the CUAD experts quoted under "Minimum Commitment";
* negatives: clauses quoted under other labels that read close to a commitment (volumes,
  prices, revenue shares, damages, insurance, exclusivity, audits, service periods, caps,
  renewals), one per label in turn, in SHA-1 order, as many as there are positives;
* dropped: any clause sharing an 8-word run with any text of the LegalBench cuad_*.tsv files
  (so no LegalBench clause, dev or held-out, is in this set), or, for a negative, with any
  Minimum Commitment clause; clauses under 6 words; duplicates.
"""

from __future__ import annotations

import ast
import csv
import hashlib
import re
import sys
from pathlib import Path

import yaml

NEGATIVE_LABELS = [
    "Volume Restriction", "Price Restrictions", "Revenue/Profit Sharing", "Liquidated Damages",
    "Insurance", "Exclusivity", "Audit Rights", "Post-Termination Services", "Warranty Duration",
    "Cap On Liability", "Renewal Term", "Termination For Convenience", "Most Favored Nation",
    "Uncapped Liability", "License Grant",
]


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def runs(text: str, k: int = 8) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i : i + k]) for i in range(max(1, len(w) - k + 1))}


def sha(text: str) -> str:
    return hashlib.sha1(" ".join(text.split()).lower().encode("utf-8")).hexdigest()


def main(master: str, legalbench: str, out: str) -> None:
    csv.field_size_limit(10**9)
    seen_lb: set[tuple[str, ...]] = set()
    for tsv in sorted(Path(legalbench).glob("cuad_*.tsv")):
        with tsv.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                seen_lb |= runs(row["text"])
    with open(master, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    mc_runs: set[tuple[str, ...]] = set()
    positives: dict[str, dict[str, str]] = {}
    for row in rows:
        for clause in ast.literal_eval(row["Minimum Commitment"]):
            mc_runs |= runs(clause)
            if len(words(clause)) >= 6 and not runs(clause) & seen_lb:
                positives.setdefault(sha(clause), {"label": "yes", "cuad": "Minimum Commitment", "file": row["Filename"], "text": " ".join(clause.split())})
    pools: dict[str, list[tuple[str, dict[str, str]]]] = {}
    for label in NEGATIVE_LABELS:
        pool = {}
        for row in rows:
            for clause in ast.literal_eval(row[label]):
                r = runs(clause)
                if len(words(clause)) >= 6 and not r & seen_lb and not r & mc_runs:
                    pool.setdefault(sha(clause), {"label": "no", "cuad": label, "file": row["Filename"], "text": " ".join(clause.split())})
        pools[label] = sorted(pool.items())
    negatives: dict[str, dict[str, str]] = {}
    while len(negatives) < len(positives) and any(pools.values()):
        for label in NEGATIVE_LABELS:
            if pools[label] and len(negatives) < len(positives):
                key, item = pools[label].pop(0)
                negatives.setdefault(key, item)
    items = [positives[k] for k in sorted(positives)] + [negatives[k] for k in sorted(negatives)]
    parts = (__doc__ or "").split("\n\n")
    header = parts[0] + "\n\n" + parts[2]
    doc = {
        "source": "CUAD v1 master_clauses.csv (The Atticus Project, CC BY 4.0), copy in "
        "maastrichtlawtech/law3027-advanced-legal-analytics data/CUAD_v1/ at 77c8f5a3cc2e6e5e3793b43f84a3bc097a414f9e",
        "split": "dev/test by bench.eval_contracts.half_of (SHA-1 of the normalized text, even = dev); tune on dev only",
        "items": items,
    }
    text = "# " + header.strip().replace("\n", "\n# ") + "\n" + yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=100)
    Path(out).write_text(text, encoding="utf-8")
    print(f"{len(positives)} positives, {len(negatives)} negatives -> {out}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
