"""One reading however a quantity is written (advisor/assistant/offline/text.py ``normalize`` and the number
grammar of advisor/numeric.py): Chinese numerals, English number words, 5w, "8x GPUs", a polite opening or
closing, one slip in a word, a sound-alike Chinese character, an English word glued to Chinese, colloquial
amounts (七块五, 1万5000, 俩, two dozen) and durations. Each class is checked across values and wordings against the same
question written plainly."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.assistant.offline import spelling
from advisor.assistant.offline.parse import parse_question, read
from advisor.assistant.offline.text import normalize
from advisor.catalog import get_catalog
from advisor.numerals import cn_numeral_value
from bench.variations import format_cn, misspell

EN_WORDS = {2: "two", 3: "three", 8: "eight", 12: "twelve", 16: "sixteen", 24: "twenty-four", 64: "sixty-four",
            128: "one hundred twenty-eight"}


def _read(question: str) -> tuple[str, dict[str, object]]:
    parsed = parse_question(question)
    return parsed.intent, parsed.args


@pytest.mark.parametrize("text", [
    "用十六张A100，训练 三 亿 token", "Hey, ~twenty hrs idle on eight H100s, thx", "预算15W以内，两三天，周五前，两倍",
    "Ｈ１００ ｘ 十六，ｓｅｑ ｌｅｎ 八千一百九十二", "Recmomend 4x GPUs, 5.98/GPU时", "老板问：百分之三十，十分之一张卡",
])  # fmt: skip
def test_normalizing_keeps_one_character_for_one(text: str) -> None:
    assert len(normalize(text)) == len(text)


@pytest.mark.parametrize("n", [2, 3, 8, 12, 16, 24, 64, 128])
@pytest.mark.parametrize("template", [
    "用{n}张A100全参微调Llama-3-8B，1亿token，要多少钱",
    "qwen2.5-7b lora，2亿token，H100 x {n}，估一下",
    "qwen2.5-7b lora，2亿token，{n}×H100，估一下",
    "llama-3.1-8b lora, 200M tokens, on {n} H100s, how much?",
])  # fmt: skip
def test_a_card_count_reads_the_same_in_digits_and_words(template: str, n: int) -> None:
    plain = _read(template.format(n=n))
    assert plain[1].get("gpu_count") == n
    words = EN_WORDS[n] if template.isascii() else ("两" if n == 2 else format_cn(n))
    assert _read(template.format(n=words)) == plain


@pytest.mark.parametrize("n", [1, 2, 3, 5, 12, 48, 300, 500, 2000])
@pytest.mark.parametrize(("template", "slot", "scale"), [
    ("gemma-2-27b lora，训练数据 {n} 亿 tokens，8卡H100 够吗", "tokens_b", 0.1),
    ("gemma-2-27b lora，训练数据{n}亿tokens，8卡H100 够吗", "tokens_b", 0.1),
    ("两张4090 跑 qwen3-8b 推理，一天 {n} 亿 token 扛得住吗", "tokens_per_day", 1e8),
])  # fmt: skip
def test_a_chinese_numeral_before_a_spaced_magnitude_is_read(template: str, slot: str, scale: float, n: int) -> None:
    _, args = _read(template.format(n=format_cn(n)))
    assert args.get(slot) == pytest.approx(n * scale)


@pytest.mark.parametrize(("n", "written"), [(4096, "四千零九十六"), (8192, "八千一百九十二"), (2048, "两千零四十八")])
def test_a_sequence_length_in_chinese_numerals(n: int, written: str) -> None:
    _, args = _read(f"gemma-3-27b 全参，seq len {written}，micro batch 一，开 gradient checkpointing，十六×A800，训练 2.5 亿 token，成本多少")
    assert (args.get("seq_len"), args.get("micro_batch_size"), args.get("gpu_count")) == (n, 1, 16)


@pytest.mark.parametrize(("written", "value"), [
    ("三千五", 3500), ("两万五", 25000), ("一百五", 150), ("一亿五", 1.5e8), ("一千零五", 1005), ("十五", 15),
    ("3千5", 3500), ("1万2000", 12000), ("二〇二四", 2024),
])  # fmt: skip
def test_a_digit_after_a_unit_counts_in_the_next_unit_down(written: str, value: float) -> None:
    assert cn_numeral_value(written) == value


@pytest.mark.parametrize("amount", ["5", "15", "20", "5.5", "500"])
@pytest.mark.parametrize(("template", "slot"), [
    ("Qwen3-32B 全参 SFT，2亿token，要在3天内训完，预算{a}以内，推荐卡型和卡数", "budget"),
    ("对方合同写的「甲方提前解约的，需支付剩余服务期费用的30%作为违约金」，我们月费{a}，签了12个月，这个风险大吗", "monthly_fee"),
    ("年度预算{a}，自研13B预训练2000亿token，够不够", "budget"),
])  # fmt: skip
def test_w_after_a_number_is_wan(template: str, slot: str, amount: str) -> None:
    expected = _read(template.format(a=amount + "万"))[1][slot]
    for w in ("w", "W"):
        assert _read(template.format(a=amount + w))[1][slot] == expected == pytest.approx(float(amount) * 1e4)


@pytest.mark.parametrize("n", [4, 8, 32, 128])
@pytest.mark.parametrize(("template", "slot"), [
    ("If we go with MI300X at $2.10 per GPU-hour, what does full fine-tuning llama 3.1 70B on 300M tokens cost on {n} GPUs?", "gpu_count"),
    ("Pretraining 8B on 1.5T tokens, max {n} GPUs, need it done in under 30 days. Which card + how many?", "max_gpus"),
])  # fmt: skip
def test_n_x_gpus_is_n_gpus(template: str, slot: str, n: int) -> None:
    plain = _read(template.format(n=n))
    assert plain[1][slot] == n
    for written in (f"{n}x", f"{n} x", f"{n}×"):
        assert _read(template.format(n=written)) == plain


@pytest.mark.parametrize("question", [
    "500个任务，每个20分钟，每个任务8张卡（A800），按小时计费 vs 按秒计费，差多少钱？",
    "We committed to 12 months of 128 H100 but the run finished after 8 months. What happens to the remaining 4 months?",
    "Is this a good price?", "这个报价合适吗？", "can you check our GPU setup", "帮我算算",
    "签了一年的年包，500张910B，做完预训练只用了7个月，剩余期限怎么结算？",
])  # fmt: skip
@pytest.mark.parametrize(("before", "after"), [
    ("老板问：", ""), ("同事让我问一下：", ""), ("请问", ""), ("Quick question: ", ""), ("My boss asks: ", ""),
    ("hey, ", ""), ("", " thx"), ("", "，谢谢！"), ("", " Thanks!"), ("麻烦帮我看下，", "～多谢"),
])  # fmt: skip
def test_a_polite_opening_or_closing_changes_nothing(question: str, before: str, after: str) -> None:
    assert _read(before + question + after) == _read(question)


@pytest.mark.parametrize("kind", ["swap", "drop", "double", "key"])
@pytest.mark.parametrize(("question", "word"), [
    ("Recommend the lowest-cost hardware for a full fine-tune of mistral 7b on 500M tokens, budget $5k.", "Recommend"),
    ("Pretraining 8B on 1.5T tokens, max 512 GPUs, need it done in under 30 days. Which card?", "Pretraining"),
    ("Stage costs please: validation on-demand 8 H100, pretraining monthly on 256 H100. Our model is 30B.", "validation"),
    ("We run ~500 jobs of 20 minutes each on 8 GPUs (A100), billed per hour. How much do we overpay?", "minutes"),
    ("We pay $3/GPU-hour for 128 GPUs and util hovers around 60%. What would 85% save?", "around"),
    ("8 H100 on a monthly plan for qwen2.5-7b lora, 300M tokens: total cost?", "monthly"),
])  # fmt: skip
def test_one_slip_in_a_word_is_read_as_the_word(question: str, word: str, kind: str) -> None:
    typed = question.replace(word, misspell(word, kind), 1)
    assert typed != question
    parsed = parse_question(typed)
    assert (parsed.intent, parsed.args) == _read(question)
    assert all(typed[s.start : s.end] == s.text for s in parsed.spans)  # spans stay offsets of what was typed


def test_the_spelling_vocabulary_is_data(monkeypatch: pytest.MonkeyPatch) -> None:
    """The words slips are read as come from the lexicon and the catalog, never from the package's source: the
    vocabulary builds with every .py file unreadable, and a slip of a listed word is still read as it."""
    real_read = Path.read_text

    def refuse_source(path: Path, *args: object, **kwargs: object) -> str:
        assert path.suffix != ".py", f"spelling read source {path}"
        return real_read(path, *args, **kwargs)  # type: ignore[arg-type]

    spelling._vocabulary.cache_clear()
    monkeypatch.setattr(Path, "read_text", refuse_source)
    try:
        assert {"minutes", "around", "tolerate"} <= spelling._vocabulary()[0]
        assert normalize("jobs of 20 minuets each, util aroudn 60%, we tolreate preemption") == (
            "jobs of 20 minutes each, util around 60%, we tolerate preemption")
    finally:
        spelling._vocabulary.cache_clear()


@pytest.mark.parametrize("text", [
    "a10 or a100, h20 or h200, l4 or l40s", "quite a good quote", "one experiment, then experiments", "increases",
    "preset", "the basis of it", "4090d and 3090ti",
])  # fmt: skip
def test_names_numbers_and_real_words_are_never_respelled(text: str) -> None:
    assert normalize(text) == text


@pytest.mark.parametrize(("first", "second"), [("A10", "A100"), ("H20", "H200"), ("L4", "L40S"), ("A100", "A10")])
def test_cards_that_differ_by_a_digit_stay_apart(first: str, second: str) -> None:
    _, args = _read(f"{first} or {second} for a qwen2.5-7b lora on 30M tokens, which is cheaper?")
    resolved = [get_catalog().gpu(first).id, get_catalog().gpu(second).id]
    assert args.get("gpus") == resolved and resolved[0] != resolved[1]


@pytest.mark.parametrize(("question", "right", "wrong"), [
    ("80G 显存能放下 yi-34b 的全参训练吗？", "显存", "现存"),
    ("8张4090显卡，qwen2.5-7b lora，1亿token，多少钱", "显卡", "显咔"),
    ("qwen2.5-14b 全参微调，3亿token，用A800，多少钱", "微调", "微条"),
    ("tinyllama 从零预训练 200亿 token，8张4090要多久？", "训练", "训炼"),
    ("tinyllama 从零预训练 200亿 token，8张4090要多久？", "训练", "训连"),
    ("我们64张A100上个月平均利用率才35%左右，每卡每小时8元，浪费了多少钱？", "利用率", "利用律"),
    ("按包月来算：deepseek-r1-distill-qwen-7b 全参，10亿token，8卡A800，大概多少", "包月", "包阅"),
    ("A800 8卡整机包月报价 5.2 万，要签 12 个月，合理吗", "报价", "报架"),
    ("用8张A100做竞价实例跑qwen2.5-7b lora，1亿token，多少钱", "竞价", "竟价"),
])  # fmt: skip
def test_a_sound_alike_character_is_read_as_the_lexicon_word(question: str, right: str, wrong: str) -> None:
    assert _read(question.replace(right, wrong, 1)) == _read(question)


@pytest.mark.parametrize("text", ["现在有8张卡", "条款写得清楚吗", "每条1000 token", "按比例分摊", "这里面", "连续跑几天", "组长让我问"])
def test_characters_that_make_a_word_are_kept(text: str) -> None:
    assert normalize(text) == text.lower()


@pytest.mark.parametrize(("spaced", "glued"), [
    ("A800 8卡整机包月 quote 5.2 万，要签 12 个月，合理吗", "A800 8卡整机包月quote 5.2 万，要签 12 个月，合理吗"),
    ("用 A100 跑 lora 微调 qwen2.5-7b，数据2万条，每条1000 token，多少钱", "用A100跑lora微调qwen2.5-7b，数据2万条，每条1000 token，多少钱"),
    ("H100 每卡时 2.5 刀，签 12 个月 deal 划算吗", "H100 每卡时 2.5 刀，签 12 个月deal划算吗"),
    ("qwen2.5-7b 做 fine-tuning 要多少钱，8 张 A100，1亿 token", "qwen2.5-7b 做fine-tuning要多少钱，8 张 A100，1亿 token"),
])  # fmt: skip
def test_an_english_word_glued_to_chinese_is_a_word(spaced: str, glued: str) -> None:
    assert _read(glued) == _read(spaced)


@pytest.mark.parametrize("price", [1.5, 1.1, 2.2, 7.5, 8.5, 12.5, 4.1])
@pytest.mark.parametrize("written", ["{a}块{b}", "{cn_a}块{cn_b}", "{a}块{b}毛", "{cn_a}块{cn_b}毛钱"])
def test_a_price_in_kuai_and_mao_is_one_amount(price: float, written: str) -> None:
    a, b = str(price).split(".")
    said = written.format(a=a, b=b, cn_a=format_cn(int(a)), cn_b=format_cn(int(b)))
    _, args = _read(f"有家IDC给H20 每卡时 {said}，64卡，半年起租，帮看看这报价行不行")
    assert (args.get("price"), args.get("currency")) == (price, "CNY")


@pytest.mark.parametrize(("written", "n"), [
    ("1万5000", 15000), ("1万5", 15000), ("一万五", 15000), ("2万8", 28000), ("3千5", 3500), ("1万2000", 12000),
])  # fmt: skip
def test_wan_and_qian_followed_by_the_next_digits_are_one_number(written: str, n: int) -> None:
    _, args = _read(f"qwen2.5-7b lora，数据 {written}条，每条 800 token，8张A100，多少钱")
    assert (args.get("samples"), args.get("gpu_count")) == (n, 8)


@pytest.mark.parametrize(("written", "tokens_per_day"), [("1亿5", 1.5e8), ("2亿5", 2.5e8), ("1亿5000万", 1.5e8)])
def test_yi_followed_by_a_digit_is_its_tenths(written: str, tokens_per_day: float) -> None:
    _, args = _read(f"我们的智能客服每天 {written} tokens，模型 qwen3-32b，用 8 张 A100 部署够不够？")
    assert args.get("tokens_per_day") == tokens_per_day


@pytest.mark.parametrize(("said", "n"), [("俩", 2), ("仨", 3), ("两张", 2), ("三张", 3)])
@pytest.mark.parametrize("card", ["A100", "H100", "4090"])
def test_lia_and_sa_count_cards(said: str, n: int, card: str) -> None:
    _, args = _read(f"用{said}{card}跑lora微调qwen2.5-7b，数据2万条，每条1000 token，多少钱")
    assert args.get("gpu_count") == n


@pytest.mark.parametrize(("said", "n"), [("two dozen", 24), ("a dozen", 12), ("a couple of", 2), ("a pair of", 2),
                                         ("24", 24), ("twelve", 12)])
def test_english_counts_in_dozens_and_couples(said: str, n: int) -> None:
    _, args = _read(f"lora fine-tune qwen2.5-7b on {said} A100s, half a million samples of 512 tokens, cost?")
    assert (args.get("gpu_count"), args.get("samples")) == (n, 500000)


@pytest.mark.parametrize(("said", "hours"), [
    ("一个半小时", 1.5), ("两个半小时", 2.5), ("1.5小时", 1.5), ("an hour and a half", 1.5), ("2 and a half hours", 2.5),
    ("90 minutes", 1.5),
])  # fmt: skip
def test_a_job_of_n_and_a_half_hours(said: str, hours: float) -> None:
    _, args = _read(f"Sweep of 80 runs, {said} each, 1 H100 per run, billed per minute. Total?")
    assert args.get("job_hours") == hours


@pytest.mark.parametrize("said", ["a fortnight", "14 days", "two weeks", "one fortnight"])
def test_a_fortnight_is_two_weeks(said: str) -> None:
    _, args = _read(f"8 A100s for {said}, on-demand or monthly?")
    assert (args.get("days"), args.get("billing")) == (14.0, None)


@pytest.mark.parametrize(("said", "discount"), [("打八折", 0.2), ("8折", 0.2), ("75折", 0.25), ("便宜25%", 0.25),
                                                ("打五折", 0.5), ("85折", 0.15), ("8.5折", 0.15)])
def test_an_off_peak_discount_in_zhe(said: str, discount: float) -> None:
    assert read(f"8张A100跑一个月，夜间{said}，按量还是包月").values.get("offpeak_discount") == discount


@pytest.mark.parametrize("question", ["一天一卡多少钱", "估一下", "要几天能跑完", "几张卡够", "周五前要训完", "10张卡的十分之一", "从零训练",
                                      "零基础怎么入门"])
def test_words_that_hold_a_numeral_are_not_rewritten(question: str) -> None:
    assert normalize(question) == question.lower()


@pytest.mark.parametrize(("written", "n"), [("910B", 2), ("H100", 8), ("A800", 4)])
def test_digits_apart_after_a_card_name_count_the_cards(written: str, n: int) -> None:
    _, args = _read(f"{written} {n}张，qwen2.5-7b lora，1亿token，多少钱")
    assert args.get("gpu_count") == n


def test_a_number_glued_after_letters_is_part_of_a_name() -> None:
    _, args = _read("yi-34b全参，fp8 training能省多少？数据1亿token，H100 x 16")
    assert args.get("precision") == "fp8" and "jobs" not in args


@pytest.mark.parametrize(("written", "n"), [
    ("1万5千", 15000), ("1 万 5 千", 15000), ("3千5百", 3500), ("2万", 20000), ("一万五千", 15000), ("1.5万", 15000),
])  # fmt: skip
def test_a_number_in_several_chinese_units_is_one_number(written: str, n: int) -> None:
    _, args = _read(f"qwen2.5-7b lora，数据 {written}条，每条 800 token，8张A100，多少钱")
    assert args.get("samples") == n


@pytest.mark.parametrize(("written", "billions"), [("2.4e8", 0.24), ("1e9", 1.0), ("5E7", 0.05), ("240000000", 0.24)])
def test_a_token_count_in_scientific_notation(written: str, billions: float) -> None:
    _, args = _read(f"llama-3.1-8b lora, {written} tokens on 8 H100s, cost?")
    assert args.get("tokens_b") == pytest.approx(billions)


def test_training_from_zero_stays_pretraining() -> None:
    _, args = _read("从零训练一个1.3B的小模型，用300亿token，64张A100，BF16，ZeRO-2")
    assert args.get("method") == "pretrain" and args.get("gpu_count") == 64


@pytest.mark.parametrize("unit", ["卡时", "卡·小时", "卡小时", "GPU时", "GPU小时", "GPU·小时"])
@pytest.mark.parametrize("price", ["6.2", "2.5", "12"])
def test_a_card_hour_price_reads_the_same_in_every_spelling(unit: str, price: str) -> None:
    _, args = _read(f"B200 每{unit} {price} 刀，包 3 个月，贵吗")
    assert (args.get("price"), args.get("unit"), args.get("term_months")) == (float(price), "gpu_hour", 3.0)


@pytest.mark.parametrize("n", ["5", "1.2", "30"])
@pytest.mark.parametrize("kw", ["kw", "KW", " kw"])
def test_kw_after_a_number_is_qianwan(n: str, kw: str) -> None:
    question = "qwen3-32b 部署推理，日流量 {a} token，用H20，一个月多少钱"
    assert _read(question.format(a=n + kw)) == _read(question.format(a=n + "千万"))
    assert _read(question.format(a=n + kw))[1]["tokens_per_day"] == pytest.approx(float(n) * 1e7)


@pytest.mark.parametrize(("first", "second"), [(1000, 2000), (1024, 2048), (512, 1536)])
def test_stage_card_counts_in_thousands_groups(first: int, second: int) -> None:
    question = "预训练阶段先包月租{a}张H800，跑到一半扩到{b}张，扩容部分走阶梯价，这样分阶段算一下总成本"
    grouped = _read(question.format(a=f"{first:,}", b=f"{second:,}"))
    assert grouped == _read(question.format(a=first, b=second))
    assert [s.get("gpu_count") for s in grouped[1]["stages"]] == [first, second]  # type: ignore[union-attr]


@pytest.mark.parametrize("n", [4096, 8192, 16384])
@pytest.mark.parametrize("template", ["internlm3-8b full sft，seq {n}，数据 6亿 token，16×H800，要跑几天？",
                                      "mixtral-8x22b lora 3 epoch，seq_len {n}，H100 ×16，4000万 token，估时间跟钱"])
def test_a_sequence_length_in_thousands_groups(template: str, n: int) -> None:
    assert _read(template.format(n=f"{n:,}"))[1].get("seq_len") == n == _read(template.format(n=n))[1].get("seq_len")


@pytest.mark.parametrize(("traditional", "simplified"), [
    ("H200 報價 每卡時 $3.4，簽 18 個月，合理嗎？", "H200 报价 每卡时 $3.4，签 18 个月，合理吗？"),
    ("用8張A100訓練qwen2.5-7b，lora微調，數據1億token，要多少錢", "用8张A100训练qwen2.5-7b，lora微调，数据1亿token，要多少钱"),
    ("4090 單卡每小時 2 塊，顯存夠不夠跑 qlora qwen2.5-14b", "4090 单卡每小时 2 块，显存够不够跑 qlora qwen2.5-14b"),
])  # fmt: skip
def test_traditional_chinese_reads_as_simplified(traditional: str, simplified: str) -> None:
    assert normalize(traditional) == normalize(simplified) and len(normalize(traditional)) == len(traditional)
    assert _read(traditional) == _read(simplified)
