"""The GPU catalog: ids, aliases, sources, and the hardware table of CALIBRATION.md."""

from __future__ import annotations

import pytest

from advisor.catalog import Catalog, normalize_name
from advisor.errors import InputError, UnknownNameError

DESIGN_IDS = [
    "A100-80GB",
    "A100-40GB",
    "A800-80GB",
    "H100-SXM",
    "H100-PCIe",
    "H800",
    "H200",
    "H20",
    "B200",
    "L40S",
    "L4",
    "A10G",
    "T4",
    "RTX-4090",
    "MI300X",
    "Ascend-910B",
    "A6000",
    "V100",
    "RTX-3090",
    "L20",
    "A10",
]

# CALIBRATION.md "Hardware" table, transcribed: (bf16 or None, fp8 or None, memory GB, TDP W).
# Ranges (Ascend 910B) are (low, high) tuples; "≈" rows must be marked uncertain.
CALIBRATION = {
    "T4": (None, None, 16, 70),
    "L4": (121, 242, 24, 72),
    "A10": (125, None, 24, 150),
    "A10G": (125, None, 24, 150),
    "L40S": (362, 733, 48, 350),
    "A100-40GB": (312, None, 40, 400),
    "A100-80GB": (312, None, 80, 400),
    "H100-SXM": (989, 1979, 80, 700),
    "H100-PCIe": (756, 1513, 80, 350),
    "H200": (989, 1979, 141, 700),
    "H800": (989, 1979, 80, 700),
    "H20": (148, 296, 96, 400),
    "B200": (2250, 4500, 192, 1000),
    "MI300X": (1307, 2615, 192, 750),
    "RTX-4090": (165, 330, 24, 450),
    "Ascend-910B": ((256, 320), None, 64, (310, 400)),
}
CALIBRATION_UNCERTAIN = {"H800", "RTX-4090", "Ascend-910B"}


def _close(actual: float | None, expected: object) -> bool:
    if expected is None:
        return actual is None
    if isinstance(expected, tuple):
        low, high = expected
        return actual is not None and low <= actual <= high
    return actual is not None and abs(actual - float(expected)) <= 0.01 * float(expected) + 0.5


def test_every_design_id_is_present(catalog: Catalog) -> None:
    ids = {g.id for g in catalog.gpus}
    assert set(DESIGN_IDS) <= ids


@pytest.mark.parametrize("gpu_id", sorted(CALIBRATION))
def test_calibration_hardware_figures_match(catalog: Catalog, gpu_id: str) -> None:
    bf16, fp8, memory, tdp = CALIBRATION[gpu_id]
    gpu = catalog.gpu(gpu_id)
    assert _close(gpu.bf16_tflops, bf16), (gpu_id, "bf16", gpu.bf16_tflops)
    assert _close(gpu.fp8_tflops, fp8), (gpu_id, "fp8", gpu.fp8_tflops)
    assert _close(gpu.memory_gb, memory), (gpu_id, "memory", gpu.memory_gb)
    assert _close(gpu.tdp_w, tdp), (gpu_id, "tdp", gpu.tdp_w)
    if gpu_id in CALIBRATION_UNCERTAIN:
        assert gpu.uncertain, f"{gpu_id} is marked ≈ or as a range in CALIBRATION.md"


def test_t4_fp16_is_65_and_ascend_fp16_in_published_range(catalog: Catalog) -> None:
    assert catalog.gpu("T4").fp16_tflops == 65
    assert 256 <= catalog.gpu("Ascend-910B").fp16_tflops <= 320


def test_every_gpu_has_a_source_and_sane_figures(catalog: Catalog) -> None:
    for gpu in catalog.gpus:
        assert len(gpu.source) > 20, gpu.id
        assert gpu.fp16_tflops > 0 and gpu.memory_gb > 0 and gpu.tdp_w > 0
        # FP8 doubles the 16-bit rate where it exists; BF16 never beats FP16 on these parts.
        if gpu.fp8_tflops is not None:
            assert gpu.fp8_tflops == pytest.approx(2 * gpu.fp16_tflops, rel=0.02), gpu.id
        if gpu.bf16_tflops is not None:
            assert gpu.bf16_tflops <= gpu.fp16_tflops, gpu.id


def test_no_bf16_on_turing_and_volta(catalog: Catalog) -> None:
    for gpu in catalog.gpus:
        if gpu.generation in ("turing", "volta"):
            assert gpu.bf16_tflops is None, gpu.id


def test_aliases_are_unique_across_cards(catalog: Catalog) -> None:
    owner: dict[str, str] = {}
    for gpu in catalog.gpus:
        for name in (gpu.id, *gpu.aliases):
            key = normalize_name(name)
            assert owner.setdefault(key, gpu.id) == gpu.id, f"{name!r}: {owner[key]} and {gpu.id}"


def test_every_alias_resolves_to_its_card(catalog: Catalog) -> None:
    for gpu in catalog.gpus:
        for name in (gpu.id, *gpu.aliases):
            assert catalog.gpu(name).id == gpu.id


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("a100", "A100-80GB"),
        ("A100 80G", "A100-80GB"),
        ("a100-80gb", "A100-80GB"),
        ("NVIDIA A100 80GB", "A100-80GB"),
        ("A100 80GB SXM", "A100-80GB"),
        ("a100 40g", "A100-40GB"),
        ("h100", "H100-SXM"),
        ("英伟达H100", "H100-SXM"),
        ("H100 PCIe", "H100-PCIe"),
        ("4090", "RTX-4090"),
        ("RTX 4090", "RTX-4090"),
        ("昇腾910B", "Ascend-910B"),
        ("昇腾 910B", "Ascend-910B"),
        ("910b", "Ascend-910B"),
        ("ＡＳＣＥＮＤ　９１０Ｂ", "Ascend-910B"),
        ("v100", "V100"),
        ("V100 16G", "V100-16GB"),
        ("a800", "A800-80GB"),
        ("mi300x", "MI300X"),
        ("rtx a6000", "A6000"),
        ("3090", "RTX-3090"),
        ("l20", "L20"),
        ("a10", "A10"),
        ("A10G", "A10G"),
    ],
)
def test_names_resolve(catalog: Catalog, name: str, expected: str) -> None:
    assert catalog.gpu(name).id == expected


def test_unknown_gpu_suggests_close_matches(catalog: Catalog) -> None:
    with pytest.raises(UnknownNameError) as err:
        catalog.gpu("a1000")
    assert err.value.suggestions and err.value.suggestions[0].startswith("A100")
    message = str(err.value)
    assert "a1000" in message and "did you mean" in message and "\n" not in message
    with pytest.raises(UnknownNameError) as err2:
        catalog.gpu("h10o")
    assert "H100-SXM" in err2.value.suggestions


def test_peak_tflops(catalog: Catalog) -> None:
    h100 = catalog.gpu("h100")
    assert h100.peak_tflops("bf16") == 989.0
    assert h100.peak_tflops("FP8") == 1979.0
    assert type(h100.peak_tflops("fp16")) is float
    assert catalog.gpu("t4").peak_tflops("fp16") == 65.0


def test_peak_tflops_missing_precision_names_the_ones_available(catalog: Catalog) -> None:
    with pytest.raises(InputError) as err:
        catalog.gpu("t4").peak_tflops("bf16")
    assert "fp16" in str(err.value) and "fp32" in str(err.value) and "T4" in str(err.value)
    with pytest.raises(InputError) as err2:
        catalog.gpu("a100").peak_tflops("fp8")
    assert "bf16" in str(err2.value)
    with pytest.raises(InputError):
        catalog.gpu("a100").peak_tflops("int4")


def test_tier_and_generation_vocabulary(catalog: Catalog) -> None:
    assert catalog.gpu("H100-SXM").tier == "flagship"
    assert catalog.gpu("RTX-4090").tier == "consumer"
    assert catalog.gpu("Ascend-910B").tier == "npu"
    assert catalog.gpu("B200").generation == "blackwell"
