"""Validation on load (file, row and field in every error), the lazily read defaults and
exchange rate, and the cache keyed by file modification times."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from advisor.catalog import get_catalog, load_catalog
from advisor.datafile import read_yaml
from advisor.errors import DataError


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _error(directory: Path) -> DataError:
    with pytest.raises(DataError) as err:
        load_catalog(directory)
    assert "\n" not in str(err.value)
    return err.value


# ---------------------------------------------------------------------- broken data files
def test_bad_gpu_value_names_file_row_and_field(catalog_copy: Path) -> None:
    _edit(catalog_copy / "gpus.yaml", "memory_gb: 141", "memory_gb: lots")
    error = _error(catalog_copy)
    assert error.path.endswith("gpus.yaml") and error.row == "H200" and error.field == "memory_gb"
    assert "'lots'" in str(error)


def test_unknown_generation_is_rejected(catalog_copy: Path) -> None:
    _edit(catalog_copy / "gpus.yaml", "generation: blackwell", "generation: rubin")
    error = _error(catalog_copy)
    assert (error.row, error.field) == ("B200", "generation")


def test_missing_source_is_rejected(catalog_copy: Path) -> None:
    path = catalog_copy / "gpus.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("    source: NVIDIA L4 Tensor")
    path.write_text(text[:start] + text[text.index("\n", start) + 1 :], encoding="utf-8")
    error = _error(catalog_copy)
    assert (error.row, error.field) == ("L4", "source") and "missing" in str(error)


def test_alias_shared_by_two_cards_is_rejected(catalog_copy: Path) -> None:
    _edit(catalog_copy / "gpus.yaml", "aliases: [h200,", "aliases: [A100 80G, h200,")
    error = _error(catalog_copy)
    assert error.field == "aliases" and "A100 80G" in str(error) and "unique" in str(error)


def test_moe_active_must_be_below_total(catalog_copy: Path) -> None:
    _edit(catalog_copy / "models.yaml", "active_params_b: 12.9", "active_params_b: 50")
    error = _error(catalog_copy)
    assert (error.row, error.field) == ("mixtral-8x7b", "active_params_b")


def test_kv_heads_must_divide_heads(catalog_copy: Path) -> None:
    _edit(catalog_copy / "models.yaml", "heads: 28\n    kv_heads: 4", "heads: 28\n    kv_heads: 5")
    error = _error(catalog_copy)
    assert error.field == "kv_heads"


def test_provider_value_without_source_is_rejected(catalog_copy: Path) -> None:
    _edit(
        catalog_copy / "providers.yaml",
        "    minimum_charge_s:\n      value: 60\n      source:",
        "    minimum_charge_s:\n      value: 60\n      origin:",
    )
    error = _error(catalog_copy)
    assert (
        error.row == "aws"
        and error.field is not None
        and error.field.startswith("minimum_charge_s")
    )


def test_price_row_with_unknown_provider_is_rejected(catalog_copy: Path) -> None:
    _edit(catalog_copy / "prices" / "usd_list_prices.csv", "\nlambda,", "\nlambdda,")
    error = _error(catalog_copy)
    assert error.field == "provider" and "lambdda" in str(error)


def test_price_row_with_unknown_gpu_names_line_and_field(catalog_copy: Path) -> None:
    _edit(catalog_copy / "prices" / "usd_list_prices.csv", ",A10,1,USD,", ",A11,1,USD,")
    error = _error(catalog_copy)
    assert error.path.endswith("usd_list_prices.csv") and error.field == "gpu"
    assert isinstance(error.row, int) and error.row > 1


def test_list_sheet_requires_a_source(catalog_copy: Path) -> None:
    path = catalog_copy / "prices" / "cny_list_prices.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    assert header[-3:] == ["source", "note", "host"]
    path.write_text(
        "\n".join([lines[0], "tencent,x,,T4,1,CNY,1.5,,,,,,2026,,,\n"]), encoding="utf-8"
    )
    error = _error(catalog_copy)
    assert (error.row, error.field) == (2, "source")


def test_yaml_syntax_error_names_the_line(catalog_copy: Path) -> None:
    _edit(catalog_copy / "models.yaml", "  - id: llama-2-13b", "  - id: [llama-2-13b")
    error = _error(catalog_copy)
    assert error.path.endswith("models.yaml") and isinstance(error.row, int)


@pytest.mark.parametrize("text", ["a: 1\na: 2\n", "top:\n  note: one\n  value: 3\n  note: two\n", "- {x: 1, x: 1}\n",
                                  "base: &b {a: 1}\nother:\n  <<: *b\n  c: 1\n  c: 2\n"])
def test_a_key_written_twice_is_an_error_naming_the_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / "twice.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match="written twice") as info:
        read_yaml(path)
    assert info.value.row is not None and str(path) in str(info.value)


def test_a_merged_key_may_still_be_overridden(tmp_path: Path) -> None:
    path = tmp_path / "merge.yaml"
    path.write_text("base: &b {a: 1, b: 2}\nother:\n  <<: *b\n  a: 3\n", encoding="utf-8")
    assert read_yaml(path)["other"] == {"a": 3, "b": 2}


def test_no_data_file_of_the_project_writes_a_key_twice() -> None:
    root = Path(__file__).resolve().parents[2]
    files = [p for d in ("knowledge", "rules", "advisor", "ui") for p in (root / d).rglob("*.yaml")]
    assert len(files) > 40
    for path in files:
        read_yaml(path)  # raises DataError on a key written twice


def test_wrong_top_level_shape(catalog_copy: Path) -> None:
    (catalog_copy / "gpus.yaml").write_text("- id: A100\n", encoding="utf-8")
    assert "'gpus:' list" in str(_error(catalog_copy))


def test_fast_yaml_reader_matches_safe_load(tmp_path: Path) -> None:
    import yaml

    text = (
        "a: yes\nb: ~\nc: 1_000\nd: 0x1f\ne: .inf\nf: 2025-06-30\ng: '2025'\nh: [1, 2.5, -3]\n"
        "i: {x: null}\nj:\nk: 1e3\nl: 1:30\nm: &x [1]\nn: *x\n"
    )
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    assert read_yaml(path) == yaml.safe_load(text)
    path.write_text("a: 1\n---\nb: 2\n", encoding="utf-8")
    with pytest.raises(DataError):
        read_yaml(path)


# ---------------------------------------------------------------------- defaults and fx
def test_catalog_loads_without_defaults_and_fx(catalog_copy: Path) -> None:
    cat = load_catalog(catalog_copy)
    assert cat.gpus and cat.models
    with pytest.raises(DataError) as err:
        _ = cat.defaults
    assert "defaults.yaml" in str(err.value) and "not found" in str(err.value)
    with pytest.raises(DataError) as err2:
        _ = cat.fx
    assert "fx.yaml" in str(err2.value)


def test_defaults_and_fx_are_read_lazily(catalog_with_defaults: Path) -> None:
    cat = load_catalog(catalog_with_defaults)
    entry = cat.defaults.get("mfu.default")
    assert (entry.key, entry.value, entry.unit) == ("mfu.default", 0.4, "fraction of peak")
    assert "test fixture" in entry.source and entry.note is None
    assert cat.defaults.value("billing.spot_ratio") == 0.35  # nested keys are flattened
    assert cat.defaults.get("billing.spot_ratio").note == "nested keys are flattened"
    assert "mfu.default" in cat.defaults and len(cat.defaults) == 2
    with pytest.raises(DataError) as err:
        cat.defaults.get("mfu.defualt")
    message = str(err.value)
    assert "defaults.yaml" in message and "mfu.defualt" in message and "mfu.default" in message
    fx = cat.fx
    assert (fx.base, fx.quote, fx.rate, fx.as_of) == ("USD", "CNY", 7.1, "2025-06-30")


def test_broken_defaults_entry_names_key_and_field(catalog_with_defaults: Path) -> None:
    (catalog_with_defaults / "defaults.yaml").write_text(
        "mfu.default:\n  value: 0.4\n  source: nowhere in particular\n", encoding="utf-8"
    )
    with pytest.raises(DataError) as err:
        _ = load_catalog(catalog_with_defaults).defaults
    assert (err.value.row, err.value.field) == ("mfu.default", "unit")


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("base: USD\nquote: CNY\nrate: -1\nas_of: x\nsource: test source\n", "rate"),
        ("base: USD\nquote: EUR\nrate: 7\nas_of: x\nsource: test source\n", "quote"),
        ("base: USD\nquote: USD\nrate: 1\nas_of: x\nsource: test source\n", "quote"),
    ],
)
def test_broken_fx_names_the_field(catalog_with_defaults: Path, text: str, field: str) -> None:
    (catalog_with_defaults / "fx.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as err:
        _ = load_catalog(catalog_with_defaults).fx
    assert err.value.field == field and "fx.yaml" in str(err.value)


def test_unquoted_fx_date_becomes_text(catalog_with_defaults: Path) -> None:
    (catalog_with_defaults / "fx.yaml").write_text(
        "base: USD\nquote: CNY\nrate: 7.2\nas_of: 2025-06-30\nsource: test source\n",
        encoding="utf-8",
    )
    assert load_catalog(catalog_with_defaults).fx.as_of == "2025-06-30"


# ---------------------------------------------------------------------- caching
def test_get_catalog_is_cached_until_a_file_changes(knowledge_env: Path) -> None:
    first = get_catalog()
    assert get_catalog() is first
    assert first.directory == knowledge_env.resolve()
    gpus = knowledge_env / "gpus.yaml"
    stat = gpus.stat()
    _edit(gpus, "name: NVIDIA L4 24GB", "name: NVIDIA L4 24GB PCIe")
    os.utime(gpus, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    second = get_catalog()
    assert second is not first and second.gpu("l4").name == "NVIDIA L4 24GB PCIe"


def test_defaults_appearing_later_are_picked_up(knowledge_env: Path) -> None:
    cat = get_catalog()
    with pytest.raises(DataError):
        _ = cat.defaults
    (knowledge_env / "defaults.yaml").write_text(
        "x.y:\n  value: 1\n  unit: count\n  source: written later by the test\n", encoding="utf-8"
    )
    assert get_catalog().defaults.value("x.y") == 1
