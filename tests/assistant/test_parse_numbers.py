"""Numbers and units as the parser reads them: Chinese numerals, suffixes, money, time."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.assistant.offline import parse_question
from advisor.numerals import cn_numeral_value, en_number_value
from advisor.numeric import read_number
from bench.variations import format_cn


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("三十", 30), ("两", 2), ("十二", 12), ("两千", 2000), ("一百二十万", 1.2e6),
        ("一亿五千万", 1.5e8), ("十万亿", 1e13), ("千亿", 1e11), ("三百零五", 305),
        ("1.5万", 1.5e4), ("5万", 5e4), ("1亿", 1e8), ("3千5百", 3500), ("70亿", 7e9),
        ("2T", 2e12), ("7B", 7e9), ("150 million", 1.5e8), ("20k", 2e4), ("1,000,000", 1e6),
        ("5w", 5e4), ("eight", 8), ("twenty-four", 24), ("a", 1), ("a dozen", 12),
    ],
)  # fmt: skip
def test_read_number(text: str, value: float) -> None:
    assert read_number(text) == pytest.approx(value)


@given(st.integers(min_value=0, max_value=10**12 - 1))
@settings(max_examples=300, deadline=None)
def test_chinese_numerals_round_trip(n: int) -> None:
    assert cn_numeral_value(format_cn(n)) == n


_EN = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
       "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
       "eighteen", "nineteen"]  # fmt: skip
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _english(n: int) -> str:
    if n < 20:
        return _EN[n]
    tens, unit = divmod(n, 10)
    return _TENS[tens] + (f"-{_EN[unit]}" if unit else "")


@given(st.integers(min_value=0, max_value=99))
def test_english_number_words_round_trip(n: int) -> None:
    assert en_number_value(_english(n)) == n


@given(st.integers(min_value=1, max_value=9999), st.sampled_from(["万", "亿"]))
def test_arabic_with_chinese_units(n: int, unit: str) -> None:
    assert read_number(f"{n}{unit}") == n * {"万": 1e4, "亿": 1e8}[unit]


@given(st.integers(min_value=1, max_value=4096), st.sampled_from(["{n}张A100", "{n}卡A100", "{n}x A100", "{n} x A100", "A100 x {n}", "{n} A100s"]))
@settings(max_examples=150, deadline=None)
def test_gpu_counts_read_back(n: int, form: str) -> None:
    parsed = parse_question(f"LoRA微调Llama-3-8B，1亿token，用{form.format(n=n)}，多少钱")
    assert parsed.args["gpu"] == "A100-80GB"
    assert parsed.args["gpu_count"] == n


@given(st.decimals(min_value="0.1", max_value="99.99", places=2))
@settings(max_examples=100, deadline=None)
def test_prices_read_back(price) -> None:
    zh = parse_question(f"用8张H100全参微调Qwen2.5-7B，1亿token，每卡每小时{price}元")
    assert zh.args["price_per_gpu_hour"] == pytest.approx(float(price))
    assert zh.args["currency"] == "CNY"
    en = parse_question(f"Full fine-tune Qwen2.5-7B on 100M tokens with 8 H100s at ${price}/GPU-hour")
    assert en.args["price_per_gpu_hour"] == pytest.approx(float(price))
    assert en.args["currency"] == "USD"


@given(st.integers(min_value=1, max_value=90), st.sampled_from([("天内", 24), ("周内", 168), ("小时内", 1)]))
@settings(max_examples=100, deadline=None)
def test_deadlines_read_back(n: int, unit: tuple[str, int]) -> None:
    parsed = parse_question(f"LoRA微调Llama-3-8B，5万条，{n}{unit[0]}完成，多少钱")
    assert parsed.args["deadline_hours"] == pytest.approx(n * unit[1])


@given(st.integers(min_value=1, max_value=9999))
@settings(max_examples=100, deadline=None)
def test_token_counts_in_yi_read_back(n: int) -> None:
    parsed = parse_question(f"预训练一个7B模型，{n}亿token，多少钱")
    assert parsed.args["tokens_b"] == pytest.approx(n / 10)


@pytest.mark.parametrize(
    ("question", "key", "value"),
    [
        ("5万条样本，每条800个token，微调7B要多少钱", "samples", 50000),
        ("5万条样本，每条800个token，微调7B要多少钱", "tokens_per_sample", 800),
        ("pretrain 7B on 2T tokens", "tokens_b", 2000),
        ("LoRA on a 7B model with 150 million tokens", "tokens_b", 0.15),
        ("训3轮，5万条，LoRA微调7B", "epochs", 3),
        ("LoRA a 13B model, 3 epochs over 10GB of text", "dataset_tokens_b", 2.5),
        ("finetune 7B on 100M tokens with seq len 4k", "seq_len", 4096),
        ("8块钱一小时，8张4090做7B的LoRA，1亿token", "price_per_gpu_hour", 8),
        ("LoRA 7B on 1B tokens at $2/GPU-hour", "price_per_gpu_hour", 2),
        ("预算50万，预训练1B模型用100亿token", "budget", 500000),
        ("budget of $20k for a 7B LoRA on 50k samples", "budget", 20000),
        ("7B LoRA on 50k samples, must be done within 30 days", "deadline_hours", 720),
        ("一个半月内完成7B的LoRA，5万条", "deadline_hours", 1095),
        ("2 nodes of 8 H100 to pretrain 1B on 100B tokens", "gpu_count", 16),
        ("一台8卡机器微调7B，5万条", "gpu_count", 8),
        ("a 256-GPU cluster to pretrain 7B on 1T tokens", "gpu_count", 256),
        ("整机每小时80元，一台8卡4090，LoRA 7B，1亿token", "price_per_gpu_hour", 10),
    ],
)
def test_slot_examples(question: str, key: str, value: float) -> None:
    parsed = parse_question(question)
    assert parsed.args.get(key) == pytest.approx(value), parsed.args


def test_utilization_forms() -> None:
    assert parse_question("利用率只有40%，32张卡").args["avg_utilization"] == pytest.approx(0.4)
    assert parse_question("our GPUs sit at 35% utilization").args["avg_utilization"] == pytest.approx(0.35)
    assert parse_question("GPU一半时间都在闲置，16张H100").args["avg_utilization"] == pytest.approx(0.5)
    assert parse_question("百分之三十的利用率，8卡").args["avg_utilization"] == pytest.approx(0.3)


def test_bytes_to_tokens_default_matches_the_engine_default() -> None:
    """The parser's bytes-per-token default is the engine's (knowledge/catalog/defaults.yaml), noted with its value."""
    from advisor.catalog import get_catalog

    parsed = parse_question("LoRA a 13B model on 10GB of text")
    note = next(a for a in parsed.assumptions if a["name"] == "workload.bytes_per_token_dataset")
    assert note["value"] == get_catalog().defaults.value("workload.bytes_per_token_dataset")
    assert parsed.args["tokens_b"] == pytest.approx(10 / note["value"])


@given(st.integers(min_value=1, max_value=10**9))
@settings(max_examples=200, deadline=None)
def test_number_words_read_as_the_one_parser_reads_digits(n: int) -> None:
    """The offline assistant's numbers go through advisor.numeric: a Chinese numeral, the digits
    and the digits with a thousands separator are the same value; without ``words`` a numeral is
    an error (the CLI's fields take digits)."""
    from advisor.errors import InputError
    from advisor.numeric import parse_number

    assert parse_number(format_cn(n), "x", words=True) == parse_number(str(n), "x") == parse_number(f"{n:,}", "x")
    with pytest.raises(InputError):
        parse_number(format_cn(n) + "个", "x", words=True)
    if any(c in format_cn(n) for c in "一二三四五六七八九十百千"):
        with pytest.raises(InputError):
            parse_number(format_cn(n), "x")


@pytest.mark.parametrize("digits", ["3090", "4090", "5090", "910"])
@pytest.mark.parametrize(
    ("template", "key", "scale"),
    [
        ("预训练一个7B模型，{n}亿token，多少钱", "tokens_b", 0.1),
        ("pretrain a 7B model on {n} billion tokens", "tokens_b", 1.0),
        ("pretrain 7B on {n} million tokens", "tokens_b", 0.001),
        ("{n}万条样本，lora微调7B，用A100", "samples", 1e4),
    ],
)
def test_a_card_number_followed_by_a_magnitude_is_a_quantity(digits: str, template: str, key: str, scale: float) -> None:
    parsed = parse_question(template.format(n=digits))
    assert parsed.args[key] == pytest.approx(int(digits) * scale)
    assert parsed.args.get("gpu") in (None, "A100-80GB")


@pytest.mark.parametrize("question", ["用8张3090微调7B，5万条", "3090 8张 lora 7b 1亿token", "LoRA 7B on 8x 4090, 100M tokens"])
def test_a_card_number_before_a_count_or_a_verb_is_still_the_card(question: str) -> None:
    assert parse_question(question).args["gpu"] in ("RTX-3090", "RTX-4090")
