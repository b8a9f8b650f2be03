"""Build the shipped price sheets from the public source tables. A build tool kept out of
the runtime package; run it by hand from the repository root::

    python scripts/build_prices.py /path/to/shared/data/prices

It reads ``gpu_prices_skypilot_catalog.csv`` (USD) and ``cny_gpu_prices.csv`` (CNY), maps
every GPU name to a catalog id with the explicit tables below (each unmapped name has a
reason), and writes ``knowledge/catalog/prices/{usd,cny}_list_prices.csv`` plus
``build_report.md``: offers per card and currency, the market medians and any card-tier
inversion among them, and every dropped row and why. Provenance is kept per row: the source
file and line, and the upstream source/commit the row cites. ``as_of`` is a date as the
source gives it (``2026-08-22``, ``2026-08``) or ``unknown``; the source's own wording of
the date goes to ``note``.
"""

from __future__ import annotations

import csv
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from advisor.catalog import load_catalog
from advisor.catalog.gpus import Gpu, load_gpus
from advisor.catalog.market import NoMarketError, market_for
from advisor.catalog.prices import SHEET_COLUMNS, as_of_label
from advisor.config import catalog_dir

SKY_FILE = "gpu_prices_skypilot_catalog.csv"
CNY_FILE = "cny_gpu_prices.csv"
# CNY rows found through public search after the shared tables were written (same columns as
# CNY_FILE; each row cites its URL and date). See scripts/price_sources/README.md.
FOUND_FILE = Path(__file__).resolve().parent / "price_sources" / "cny_found_prices.csv"
MEMORY_TOLERANCE = 0.12  # listed GiB vs catalog GB: usable memory is reported a little lower
def heavy_limits() -> dict[str, float]:
    """The CPU/RAM-heavy host thresholds (defaults.yaml ``market.heavy_host``, with its source)."""
    import yaml

    data = yaml.safe_load((catalog_dir() / "defaults.yaml").read_text(encoding="utf-8"))
    return {k: float(v) for k, v in data["market.heavy_host"]["value"].items()}


def host_kind(vcpus: float | None, ram_gib: float | None, count: int, gpu_memory_gb: float = 80) -> tuple[str, str]:
    """("heavy", note) for a CPU/RAM-heavy instance (defaults ``market.heavy_host``), else ("", "")."""
    limits = heavy_limits()
    per_cpu = vcpus / count if vcpus else 0.0
    per_ram = ram_gib / count if ram_gib else 0.0
    ram_limit = max(limits["ram_gib_per_gpu"], limits["ram_per_gpu_memory"] * gpu_memory_gb)
    if per_cpu > limits["vcpu_per_gpu"] or per_ram > ram_limit:
        return "heavy", (f"CPU/RAM-heavy host ({per_cpu:g} vCPU, {per_ram:g} GiB per GPU; limits "
                         f"{limits['vcpu_per_gpu']:g} vCPU, {ram_limit:g} GiB, defaults market.heavy_host)")
    return "", ""

# ---------------------------------------------------------------- SkyPilot names (USD)
SKY_NAMES = {
    "A10": "A10",
    "A10G": "A10G",
    "A6000": "A6000",
    "RTXA6000": "A6000",
    "A800": "A800-80GB",
    "A100-80GB": "A100-80GB",
    "A100-80G": "A100-80GB",
    "A100-80GB-SXM": "A100-80GB",
    "B200": "B200",
    "H200": "H200",
    "H200-SXM": "H200",
    "H100-SXM": "H100-SXM",
    "L4": "L4",
    "L40S": "L40S",
    "MI300X": "MI300X",
    "RTX3090": "RTX-3090",
    "RTX4090": "RTX-4090",
    "T4": "T4",
    "V100-32G": "V100",
}
# Names whose memory size decides the card (the catalog mixes parts under one name).
SKY_BY_MEMORY = {"A100": {40: "A100-40GB", 80: "A100-80GB"}, "V100": {16: "V100-16GB", 32: "V100"}}
SKY_NOT_IN_CATALOG = "card not in the GPU catalog"

# ---------------------------------------------------------------- CNY sheet names
CNY_NAMES: dict[str, tuple[str, str]] = {  # source name -> (catalog id, note)
    "NVIDIA A100 NVLink 40GB": ("A100-40GB", ""),
    "NVIDIA A100 40GB": ("A100-40GB", ""),
    "A100 40GB": ("A100-40GB", ""),
    "NVIDIA A100 80GB": ("A100-80GB", ""),
    "NVIDIA V100 NVLink 32GB": ("V100", ""),
    "NVIDIA V100 32GB": ("V100", ""),
    "V100 32GB": ("V100", ""),
    "NVIDIA V100 16GB": ("V100-16GB", ""),
    "NVIDIA T4 16GB": ("T4", ""),
    "T4 16GB": ("T4", ""),
    "NVIDIA A10 24GB": ("A10", ""),
    "RTX 4090 24GB": ("RTX-4090", ""),
    "RTX 3090 24GB": ("RTX-3090", ""),
    "RTX A6000 48GB": ("A6000", ""),
    "A800 80GB": ("A800-80GB", "per-card listing, likely the A800 PCIe card"),
    "H800 80GB": ("H800", ""),
    "NVIDIA H800 80GB": ("H800", ""),
    "NVIDIA H100 80GB": ("H100-SXM", "8-card server; form factor not stated, HGX (SXM) assumed"),
    "NVIDIA H200 141GB": ("H200", ""),
    "NVIDIA B200": ("B200", ""),
    "NVIDIA H20 141GB": ("H20", "141 GB HBM3e variant; the catalog H20 is the 96 GB part"),
    "H20 96GB": ("H20", ""),
    "NVIDIA L40S 48GB": ("L40S", ""),
    "L40S 48GB": ("L40S", ""),
    "NVIDIA L20 48GB": ("L20", ""),
    "NVIDIA L4 24GB": ("L4", ""),
    "H20 (memory not stated)": ("H20", "memory not stated; the 96 GB part (the catalog H20) assumed"),
    "NVIDIA H100 (form factor not stated)": ("H100-SXM", "form factor not stated; SXM assumed"),
    "L20 48GB": ("L20", ""),
    "华为 昇腾 910B": ("Ascend-910B", ""),
    "华为 昇腾 910B2": ("Ascend-910B", "910B2 bin"),
    "Ascend 910B1 64GB": ("Ascend-910B", "910B1 bin"),
    "Ascend 910B2C 64GB": ("Ascend-910B", "910B2C bin"),
}
CNY_REASONS = {
    "NVIDIA A100": "A100 memory size not stated",
    "A100 PCIE (memory not stated)": "A100 memory size not stated (40 and 80 GB PCIe parts exist)",
    "RTX 4090D 24GB": "RTX 4090 D (China-market cut-down 4090) is not in the GPU catalog",
    "华为 Ascend 910": "original Ascend 910 (not 910B) is not in the GPU catalog",
    "(none)": "no GPU (CPU-only mode)",
}
CNY_UNITS = {  # unit -> (period, price is per card)
    "元/小时": ("hour", False),
    "元/时": ("hour", False),
    "元/卡/时": ("hour", True),
    "元/月": ("month", False),
    "元/卡/月": ("month", True),
    "元/台/月": ("month", False),
    "元/台/30天": ("month", False),
}
CNY_PROVIDERS = {
    "腾讯云": "tencent",
    "阿里云": "alibaba",
    "AutoDL": "autodl",
    "共绩算力": "gongjiyun",
    "模力方舟 (Gitee AI)": "gitee-ai",
    "云擎天下 (omniyq.com)": "omniyq",
    "算力租赁市场 (SMM 上海有色网)": "smm-market",
    "天翼云": "ctyun",
    "胜算云": "shengsuanyun",
    "算家云": "suanjiayun",
    "恒源云": "gpushare",
    "极智算 (jygpu.com)": "jygpu",
    "矩池云": "matpool",
    "晨涧云": "chenjianyun",
    "优云智算 (UCloud CompShare)": "compshare",
    "火山引擎": "volcengine",
    "华为云": "huaweicloud",
}
# Alibaba bills small pay-as-you-go instances in coarser periods (按量付费.md, 2021-07).
ALIBABA_PERIOD_S = {1: 600, 2: 300, 4: 120}


@dataclass
class Report:
    """What the build kept, moved and dropped, for build_report.md."""

    kept: Counter = field(default_factory=Counter)
    dropped: list[tuple[str, int, str, str]] = field(default_factory=list)
    moved: list[tuple[str, int, str]] = field(default_factory=list)

    def drop(self, file: str, line: int, what: str, reason: str) -> None:
        self.dropped.append((file, line, what, reason))


def _fmt(value: float | None) -> str:
    if value is None:
        return ""
    return f"{round(value, 4):g}" if abs(value) < 1e6 else f"{round(value, 2)}"


def _memory_ok(gpu: Gpu, mib: str) -> bool:
    if not mib.strip():
        return True
    gib = float(mib) / 1024
    return abs(gib - gpu.memory_gb) / gpu.memory_gb <= MEMORY_TOLERANCE


def _map_sky(row: dict[str, str]) -> tuple[str | None, str]:
    """(catalog id, note) or (None, reason)."""
    name, instance, mib = row["accelerator"], row["instance_type"].lower(), row["gpu_memory_mib"]
    if name in SKY_NAMES:
        return SKY_NAMES[name], ""
    if name in SKY_BY_MEMORY:
        if not mib:
            return None, f"{name} memory size not given (the group mixes sizes)"
        size = round(float(mib) / 1024)
        found = SKY_BY_MEMORY[name].get(size)
        return (found, "") if found else (None, f"{name} with {size} GiB is not in the GPU catalog")
    if name in ("H100", "H100-NVL"):
        if "nvl" in instance or name == "H100-NVL":
            return None, "H100 NVL (94 GB) is not in the GPU catalog"
        if "pcie" in instance:
            return "H100-PCIe", ""
        if row["cloud"] == "runpod":
            return "H100-PCIe", "RunPod's plain 'H100' is its H100 PCIe (SXM is listed as H100-SXM)"
        if "sxm" in instance or "nvlink" in instance:
            return "H100-SXM", ""
        if row["cloud"] == "aws" and instance.startswith("p5."):
            return "H100-SXM", "AWS p5 instances carry H100 SXM5 cards"
        return "H100-SXM", "form factor not in the catalog row; SXM assumed"
    return None, SKY_NOT_IN_CATALOG


def build_usd(source: Path, gpus: dict[str, Gpu], report: Report) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    with source.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        for raw in reader:
            line = reader.line_num
            what = f"{raw['cloud']} {raw['accelerator']} x{raw['accelerator_count']}"
            gpu_id, note = _map_sky(raw)
            if gpu_id is None:
                report.drop(SKY_FILE, line, what, note)
                continue
            if not _memory_ok(gpus[gpu_id], raw["gpu_memory_mib"]):
                report.drop(
                    SKY_FILE,
                    line,
                    what,
                    f"{raw['gpu_memory_mib']} MiB per GPU does not match {gpu_id}",
                )
                continue
            on_demand = float(raw["price_min_usd_per_hour"])
            spot = float(raw["spot_min_usd_per_hour"]) if raw["spot_min_usd_per_hour"] else None
            notes = [note] if note else []
            count = int(raw["accelerator_count"])
            placeholder = raw["cloud"] == "vast"  # vCPU/RAM are placeholders on every Vast row
            host, host_note = ("", "") if placeholder else host_kind(
                float(raw["vcpus"] or 0), float(raw["memory_gib"] or 0), count, gpus[gpu_id].memory_gb)
            if host_note:
                notes.append(host_note)
            if spot is not None and spot > on_demand:
                on_demand, spot = spot, on_demand
                notes.append(
                    "source SpotPrice was above Price (columns swapped upstream); swapped back"
                )
            notes.append(
                f"cheapest on-demand over {raw['regions']} region(s); median "
                f"{raw['price_median_usd_per_hour']} USD/h; undated catalog snapshot (likely 2025)"
            )
            rows.append(
                {
                    "provider": raw["cloud"],
                    "sku": raw["instance_type"],
                    "region": "",
                    "gpu": gpu_id,
                    "gpu_count": raw["accelerator_count"],
                    "currency": "USD",
                    "on_demand_per_hour": _fmt(on_demand),
                    "spot_per_hour": _fmt(spot),
                    "daily": "",
                    "monthly": "",
                    "yearly": "",
                    "billing_increment_s": "",
                    "as_of": "unknown",
                    "source": (
                        f"shared/data/prices/{SKY_FILE} line {line}; skypilot-org/skypilot-catalog:"
                        f"{raw['source_path']}@{raw['source_commit']}"
                    ),
                    "note": "; ".join(notes),
                    "host": host,
                }
            )
            report.kept[(raw["cloud"], "USD")] += 1
    return rows


def _price(text: str) -> tuple[float, str]:
    """A number, or the midpoint of a ``low-high`` range with a note."""
    parts = [p.strip() for p in text.split("-")]
    if len(parts) == 2:
        low, high = float(parts[0]), float(parts[1])
        return (low + high) / 2, f"source gives a range {low:g}-{high:g}; midpoint used"
    return float(text), ""


def _column(mode: str, period: str) -> str | None:
    if "预留实例券" in mode:
        return None
    if "抢占" in mode or "竞价" in mode:
        return "spot_per_hour" if period == "hour" else None
    if mode.startswith(("按量", "按需")):
        return "on_demand_per_hour" if period == "hour" else None
    if "包月" in mode or "按月" in mode or "长租" in mode:
        return "monthly" if period == "month" else None
    return None


def build_cny(
    source: Path, gpus: dict[str, Gpu], report: Report, label: str = f"shared/data/prices/{CNY_FILE}"
) -> list[dict[str, str]]:
    """CNY offers of one source table (``label`` names it in each row's provenance)."""
    name = Path(label).name
    merged: dict[tuple[str, ...], dict[str, str]] = {}
    order: list[tuple[str, ...]] = []
    with source.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        for raw in reader:
            line = reader.line_num
            what = (
                f"{raw['provider']} {raw['gpu']} x{raw['gpu_count'] or '-'} {raw['billing_mode']}"
            )
            if raw["unit"].startswith("折扣系数"):
                report.moved.append(
                    (name, line, f"{raw['provider']} {raw['product']} = {raw['price']}")
                )
                continue
            mapped = CNY_NAMES.get(raw["gpu"])
            if mapped is None:
                reason = CNY_REASONS.get(raw["gpu"], "card not in the GPU catalog")
                report.drop(name, line, what, reason)
                continue
            if raw["unit"] not in CNY_UNITS:
                report.drop(
                    name, line, what, f"price unit {raw['unit']!r} does not state the period"
                )
                continue
            period, per_card = CNY_UNITS[raw["unit"]]
            column = _column(raw["billing_mode"], period)
            if column is None:
                reason = (
                    "reserved-instance coupon per-hour equivalent; commitment term not stated"
                    if "预留实例券" in raw["billing_mode"]
                    else f"billing mode {raw['billing_mode']!r} does not fit unit {raw['unit']!r}"
                )
                report.drop(name, line, what, reason)
                continue
            gpu_id, gpu_note = mapped
            count = int(raw["gpu_count"])
            value, range_note = _price(raw["price"])
            if per_card:
                value *= count
            provider = CNY_PROVIDERS[raw["provider"]]
            key: tuple[str, ...] = (provider, raw["product"], gpu_id, str(count), raw["source"])
            if key in merged and merged[key][column]:
                key = (*key, str(line))
            if key not in merged:
                order.append(key)
                merged[key] = _cny_row(raw, provider, gpus[gpu_id], count, gpu_note)
            row = merged[key]
            row[column] = _fmt(value)
            row["_lines"] += f"+{line}" if row["_lines"] else str(line)
            for extra in (
                range_note,
                f"{column}: {raw['billing_mode']}"
                if column == "monthly" and raw["billing_mode"] != "包月"
                else "",
            ):
                if extra and extra not in row["note"]:
                    row["note"] = f"{row['note']}; {extra}" if row["note"] else extra
            report.kept[(provider, "CNY")] += 1
    rows = []
    for key in order:
        row = merged[key]
        lines = row.pop("_lines")
        upstream = row.pop("_upstream")
        row["source"] = f"{label} line {lines}; {upstream}"
        rows.append(row)
    return rows


def _as_of(text: str) -> str:
    """The price date of a source's wording: a leading date, else a document's modification
    date ("doc … modified 2025-10-29"); "undated …" stays unknown even when it quotes a date."""
    text = text.strip()
    if not text or text.lower().startswith("undated"):
        return "unknown"
    label = as_of_label(text)
    if label == "unknown":
        found = re.search(r"modified (\d{4}-\d{2}-\d{2})", text)
        return found[1] if found else "unknown"
    return label


def _cny_row(
    raw: dict[str, str], provider: str, gpu: Gpu, count: int, gpu_note: str
) -> dict[str, str]:
    gpu_id = gpu.id
    product = raw["product"].replace("[doc gives range]", "").strip()
    region = re.search(r"\bcn-[a-z]+\d?\b", product)
    notes = [n for n in (gpu_note, f"verified: {raw['verified']}") if n]
    increment = ""
    size = re.search(r"(\d+)\s*(?:vCPU|核)\s*/\s*(\d+)\s*G", product)
    host, host_note = host_kind(float(size[1]), float(size[2]), count, gpu.memory_gb) if size else ("", "")
    if host_note:
        notes.append(host_note)
    vcpu = re.search(r"\((\d+)vCPU", product)
    if provider == "alibaba" and vcpu and int(vcpu.group(1)) in ALIBABA_PERIOD_S:
        period = ALIBABA_PERIOD_S[int(vcpu.group(1))]
        increment = str(period)
        notes.append(
            f"billing period {period} s for {vcpu.group(1)} vCPU (Alibaba 按量付费.md, 2021-07)"
        )
    return {
        "provider": provider,
        "sku": product,
        "region": region.group(0) if region else "",
        "gpu": gpu_id,
        "gpu_count": str(count),
        "currency": "CNY",
        "on_demand_per_hour": "",
        "spot_per_hour": "",
        "daily": "",
        "monthly": "",
        "yearly": "",
        "billing_increment_s": increment,
        "as_of": _as_of(raw["as_of"]),
        "source": "",
        "note": "; ".join([*notes, f"as of (source's words): {raw['as_of'] or 'not given'}"]),
        "host": host,
        "_lines": "",
        "_upstream": raw["source"],
    }


def write_sheet(path: Path, rows: list[dict[str, str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(SHEET_COLUMNS), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


TIER_ORDER = ("flagship", "datacenter", "inference", "workstation", "consumer")  # npu: no rank


def market_lines(catalog_path: Path) -> list[str]:
    """Offers per card and currency, on-demand medians, and card-tier inversions."""
    catalog = load_catalog(catalog_path)
    lines = [
        "## Offers per card and currency",
        "",
        "Own offers only (no pooling); `median` is the market model's on-demand median per",
        "GPU-hour (`advisor prices`), which pools converted or equivalent-card offers when a",
        "market has fewer providers than `market.min_offers`.",
        "",
        "| card | tier | USD offers | USD providers | USD median | CNY offers | CNY providers | CNY median |",
        "|---|---|---|---|---|---|---|---|",
    ]
    medians: dict[str, dict[str, float]] = {"USD": {}, "CNY": {}}
    for gpu in catalog.gpus:
        cells = []
        for cur in ("USD", "CNY"):
            own = [o for o in catalog.offers(gpu=gpu.id, currency=cur) if not o.negotiated]
            try:
                m = market_for(gpu.id, cur, catalog=catalog)
                medians[cur][gpu.id] = m.median
                median = f"{m.median:.2f}" + (" (pooled)" if m.fallback else "")
            except NoMarketError:
                median = "-"
            cells += [str(len(own)), str(len({o.provider for o in own})), median]
        lines.append(f"| {gpu.id} | {gpu.tier} | " + " | ".join(cells) + " |")
    tiers = {g.id: g.tier for g in catalog.gpus}
    lines += ["", "## Card-tier order of on-demand medians", "",
              "A card of a higher tier (flagship > datacenter > inference > workstation > consumer)",
              "priced below a card of a lower tier. Inversions can be real (an old datacenter card",
              "against a new inference card); they are listed so that they are seen.", ""]
    for cur in ("USD", "CNY"):
        found = inversions(medians[cur], tiers)
        lines.append(f"- **{cur}**: {len(found)} inversion(s)")
        lines += [f"  - {a} ({tiers[a]}) {medians[cur][a]:.2f} < {b} ({tiers[b]}) {medians[cur][b]:.2f}"
                  for a, b in found]
    return lines


def inversions(medians: dict[str, float], tiers: dict[str, str]) -> list[tuple[str, str]]:
    """Pairs (higher-tier card, lower-tier card) where the higher tier's median is lower."""
    rank = {t: i for i, t in enumerate(TIER_ORDER)}
    ranked = [g for g in medians if tiers.get(g) in rank]
    return [
        (a, b) for a in ranked for b in ranked
        if rank[tiers[a]] < rank[tiers[b]] and medians[a] < medians[b]
    ]


def write_report(path: Path, report: Report, usd: int, cny: int) -> None:
    lines = [
        "# Price sheet build report",
        "",
        "Generated by `python scripts/build_prices.py`; do not edit by hand.",
        "",
        f"Offers written: {usd} USD, {cny} CNY (CNY rows for the same instance merged).",
        "",
        *market_lines(path.parent.parent),
        "",
        "## Source rows kept, by provider",
        "",
        "| provider | currency | source rows |",
        "|---|---|---|",
    ]
    lines += [f"| {p} | {c} | {n} |" for (p, c), n in sorted(report.kept.items())]
    reasons = Counter(r for *_, r in report.dropped)
    lines += ["", f"## Dropped rows: {len(report.dropped)}", "", "| reason | rows |", "|---|---|"]
    lines += [f"| {r} | {n} |" for r, n in reasons.most_common()]
    lines += ["", "| file | line | row | reason |", "|---|---|---|---|"]
    lines += [f"| {f} | {n} | {w} | {r} |" for f, n, w, r in report.dropped]
    lines += [
        "",
        f"## Discount-ratio rows moved to providers.yaml: {len(report.moved)}",
        "",
        "| file | line | row |",
        "|---|---|---|",
    ]
    lines += [f"| {f} | {n} | {w} |" for f, n, w in report.moved]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python scripts/build_prices.py SOURCE_PRICES_DIR", file=sys.stderr)
        return 2
    source = Path(args[0])
    out = catalog_dir() / "prices"
    out.mkdir(parents=True, exist_ok=True)
    gpus = {g.id: g for g in load_gpus(catalog_dir() / "gpus.yaml")}
    report = Report()
    usd = build_usd(source / SKY_FILE, gpus, report)
    cny = build_cny(source / CNY_FILE, gpus, report)
    cny += build_cny(FOUND_FILE, gpus, report, label=f"scripts/price_sources/{FOUND_FILE.name}")
    write_sheet(out / "usd_list_prices.csv", usd)
    write_sheet(out / "cny_list_prices.csv", cny)
    write_report(out / "build_report.md", report, len(usd), len(cny))
    print(
        f"wrote {len(usd)} USD and {len(cny)} CNY offers; dropped {len(report.dropped)} rows; "
        f"moved {len(report.moved)} discount rows",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
