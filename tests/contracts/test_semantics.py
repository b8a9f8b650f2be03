"""The wrong readings of issue #15, as general cases: each protection (compensation, notice,
refund, price lock, stop-billing) recognised as protective; an absent or negated protection
reported missing; a penalty never protective; reclaim without notice, Chinese billing terms,
support fees, billing granularity, unilateral changes and deletion windows found. Each case
is judged on what the user sees: the checklist status of its category. Wording and numbers
vary across the cases, in both languages."""

from __future__ import annotations

import pytest

from advisor.tools.contract import review_contract

# (category, accepted checklist statuses, clause)
CASES: list[tuple[str, str, str]] = [
    ('sla_compensation', 'ok', "Service Level. If the Services are unavailable, Provider shall credit 200 % of the downtime to the Customer's account in cash."),
    ('sla_compensation', 'ok', 'Availability. For every hour of outage the Provider compensates twice the downtime, refunded in cash.'),
    ('sla_compensation', 'ok', '第七条 服务可用性\n因乙方原因导致服务中断的，乙方按中断时长的200%以现金方式赔偿甲方。'),
    ('sla_compensation', 'ok', '第七条 故障赔偿\n服务不可用时，乙方按不可用时长的两倍向甲方退款赔偿。'),
    ('sla_compensation', 'missing', '7. Outages. The Provider gives no compensation for outages or downtime.'),
    ('sla_compensation', 'missing', '第七条 故障\n服务中断的，乙方不提供任何赔偿。'),
    ('price_lock', 'missing', '第五条 价格\n本合同没有锁价。'),
    ('price_lock', 'missing', '第五条 价格\n合同期内不提供价格锁定。'),
    ('price_lock', 'missing', '5. Pricing. There is no price lock.'),
    ('price_lock', 'missing|trap', '5. Pricing. Prices are not locked for the term and no price protection applies.'),
    ('price_lock', 'ok', '5. Pricing. Prices are fixed for the entire 12-month term.'),
    ('price_lock', 'ok', '第五条 价格\n合同期内租金单价固定不变。'),
    ('early_termination', 'trap', '第八条 提前解约\n甲方提前解约的，已预付租金不予退还，并应另行支付剩余租期租金的30%作为违约金。'),
    ('early_termination', 'trap', '8. Early termination. If Customer terminates early, prepaid fees are not refunded and Customer shall pay 30% of the fees for the remaining term as a penalty.'),
    ('early_termination', 'trap', '第八条 退租\n租期未满退租的，剩余租金不退还。'),
    ('early_termination', 'ok', '8. Early termination. Customer may end the order early; unused prepaid fees are refunded pro rata.'),
    ('early_termination', 'ok', '第八条 提前终止\n甲方提前终止的，乙方按比例退还未使用部分的预付费用，甲方无需支付违约金。'),
    ('spot_reclaim', 'trap', '第六条 实例\n乙方有权在不提前通知的情况下回收实例。'),
    ('spot_reclaim', 'trap', '6. Instances. Provider may reclaim instances at any time without notice.'),
    ('spot_reclaim', 'trap', '6. Capacity. The Provider may reclaim the GPUs without prior warning.'),
    ('spot_reclaim', 'trap', '第六条 资源回收\n平台可随时收回算力资源，无需另行通知。'),
    ('spot_reclaim', 'ok', "6. Reclaim. Provider may reclaim interruptible instances with two (2) hours' advance notice."),
    ('spot_reclaim', 'ok', '第六条 回收\n乙方回收实例须提前24小时通知甲方。'),
    ('billing_after_release', 'trap', '第四条 计费\n实例停止后仍按全价继续计费。'),
    ('billing_after_release', 'trap', '第四条 计费\n实例关机后照常按全价收费，释放后方停止计费。'),
    ('billing_after_release', 'trap', '4. Billing. Billing continues at full price after the instance is stopped.'),
    ('billing_after_release', 'trap', '4. Billing. Stopped instances are still charged the full hourly rate until released.'),
    ('billing_after_release', 'ok', '4. Billing. Billing stops when the Customer stops or releases the instance.'),
    ('billing_after_release', 'ok', '第四条 计费\n实例停机后即停止计费。'),
    ('hidden_fees', 'trap', '9. Support. Technical support is charged at USD 150 per hour on top of the rent.'),
    ('hidden_fees', 'trap', '第九条 其他费用\n技术支持费按每月2000元另计。'),
    ('hidden_fees', 'trap', '第九条 软件\n软件授权费由甲方另行支付。'),
    ('hidden_fees', 'trap', '9. Software. Software license fees are payable by Customer in addition to the fees.'),
    ('hidden_fees', 'ok', '9. Fees. The fees include software licenses and technical support; there are no other charges.'),
    ('billing_granularity', 'trap', '第三条 计费\n按小时计费，不足一小时按一小时计。'),
    ('billing_granularity', 'trap', '3. Billing. Usage is billed hourly; any part of an hour is billed as a full hour.'),
    ('billing_granularity', 'ok', '3. Billing. Usage is billed per second.'),
    ('billing_granularity', 'ok', '第三条 计费\n按秒计费。'),
    ('price_change', 'trap', '第十条 调价\n乙方可单方变更价格及本协议条款，并于官网公告后生效。'),
    ('price_change', 'trap', '10. Changes. Provider may unilaterally change the prices and these terms by posting them on its website.'),
    ('price_change', 'trap', '第十条 调价\n乙方调整价格的，提前7日通知甲方。'),
    ('price_change', 'ok', '10. Changes. Prices may only be changed by written agreement of both parties.'),
    ('storage_retention', 'trap', '第十一条 数据\n服务到期后数据保留3天，逾期自动删除且不提供导出。'),
    ('storage_retention', 'trap', '11. Data. After expiry data is retained for 3 days and then deleted; no export is provided.'),
    ('storage_retention', 'ok', '11. Data. Customer data is retained for 30 days after termination and may be exported free of charge during that period.'),
    ('storage_retention', 'ok', '第十一条 数据\n服务到期后数据保留30天，期间甲方可免费导出。'),
    ('data_egress', 'trap', '第十二条 流量\n公网流量费按0.8元/GB另行收取。'),
    ('data_egress', 'trap', '12. Bandwidth. Outbound bandwidth is charged at USD 0.09 per GB.'),
    ('sla_compensation', 'ok', 'SLA. Provider will compensate the Customer with three times the duration of any unavailability.'),
    ('sla_compensation', 'ok', '第七条 赔偿\n乙方原因造成的服务中断，按中断时间的300%补偿甲方，以退款方式支付。'),
    ('sla_compensation', 'missing', '7. Downtime. Customer is not entitled to any credit or compensation for downtime.'),
    ('sla_compensation', 'missing|trap', '第七条 服务中断\n对于服务中断，乙方不予赔偿或补偿。'),
    ('price_lock', 'missing', '第五条 价格\n乙方不承诺锁定价格。'),
    ('price_lock', 'missing', '第五条 价格\n本订单未约定价格锁定。'),
    ('price_lock', 'missing', '5. Price. The Order does not include any price protection.'),
    ('price_lock', 'ok', '5. Price. The hourly rate is locked for twelve months from the start date.'),
    ('price_lock', 'ok', '第五条 价格\n租期内价格锁定，乙方不得上调。'),
    ('early_termination', 'trap', '第八条 违约\n承租方中途退租的，应按剩余租期租金的50%支付违约金。'),
    ('early_termination', 'trap', '8. Cancellation. Upon early cancellation, Customer shall pay an early termination fee equal to 40% of the remaining fees; prepaid amounts are non-refundable.'),
    ('early_termination', 'missing|trap', '8. Refunds. Unused prepaid hours are not refunded or carried over.'),
    ('early_termination', 'missing|trap', '第八条 退款\n未使用的预付时长不予退还，也不结转。'),
    ('spot_reclaim', 'trap', "6. Preemption. Provider may preempt Customer's nodes without advance notice whenever capacity is needed."),
    ('spot_reclaim', 'trap', '第六条 抢占\n乙方可随时抢占甲方使用的GPU节点，不另行通知。'),
    ('spot_reclaim', 'ok', "6. Interruptible capacity. Provider will give 30 minutes' notice before reclaiming any instance."),
    ('spot_reclaim', 'ok', '第六条 抢占式实例\n实例被回收前，平台提前5分钟发出通知。'),
    ('billing_after_release', 'trap', '第四条 计费\n实例关机后仍然照常收费。'),
    ('billing_after_release', 'trap', '第四条 计费\n停止实例后，计算资源继续计费，只有释放实例后才停止计费。'),
    ('billing_after_release', 'trap', '4. Charges. Charges keep running while the instance is powered off.'),
    ('billing_after_release', 'ok', '第四条 计费\n实例释放后立即停止计费。'),
    ('billing_after_release', 'ok', '4. Billing. Stopped instances are not billed for GPU time.'),
    ('billing_after_release', 'missing', '4. Billing. Billing does not stop when the Customer stops the instance.'),
    ('hidden_fees', 'trap', '第九条 费用\n带宽费和流量费另行计算，不包含在租金内。'),
    ('hidden_fees', 'trap', '9. Extras. A technical support fee of USD 500 per month applies.'),
    ('hidden_fees', 'ok', '第九条 费用\n租金已包含软件授权费和技术支持费，不另收费。'),
    ('billing_granularity', 'trap', '第三条 计费\n计费粒度为按小时，不足1小时的部分按1小时计费。'),
    ('billing_granularity', 'trap', '3. Metering. Each session is rounded up to the next full hour.'),
    ('billing_granularity', 'ok', '第三条 计费\n按分钟计费，精确到分钟。'),
    ('billing_granularity', 'ok', '3. Billing. GPU time is billed by the minute.'),
    ('price_change', 'trap', '第十条 变更\n乙方有权单方变更本协议条款及价格，变更后于官网公示即生效。'),
    ('price_change', 'trap', "10. Price changes. Provider may increase the rates at any time on 15 days' notice."),
    ('price_change', 'ok', '第十条 价格调整\n价格调整须经双方书面协商一致。'),
    ('storage_retention', 'trap', '第十一条 数据\n欠费停机后数据仅保留2天，期满即删除，无法恢复。'),
    ('storage_retention', 'trap', '11. Data. Data on released instances is deleted immediately and cannot be recovered.'),
    ('storage_retention', 'ok', '第十一条 数据\n合同终止后，乙方将甲方数据保留15日，供甲方免费导出。'),
    ('early_termination', 'ok|missing', '第八条 乙方违约\n乙方提前终止本合同的，应向甲方支付剩余租期租金30%的违约金。'),
    ('early_termination', 'ok|missing', '8. Provider exit. If Provider terminates early, Provider shall pay Customer an early termination fee of 30% of the remaining fees.'),
    # an exception that hands the right back qualifies the protection away ('except', '但', 'unless')
    ('price_lock', 'ok', '第五条 价格\n合同期内租金单价固定不变，但甲方可以申请增加卡数。'),
    ('price_lock', 'ok', "5. Pricing. Prices are fixed for the entire term, except that Customer may add GPUs at the same rate."),
    ('price_lock', 'missing|trap', "5. Pricing. Prices are fixed for the entire term, except that Provider may increase them on seven (7) days' notice."),
    ('price_lock', 'missing|trap', '第五条 价格\n合同期内租金单价固定不变，但乙方有权根据市场行情调整。'),
    ('billing_after_release', 'missing|trap', '4. Billing. Billing stops when Customer releases the instance, unless Provider, at its discretion, keeps the capacity reserved for Customer.'),
    ('price_lock', 'ok', '5. Pricing. Prices are fixed for the entire term and cannot be increased except by a written amendment signed by both parties.'),
    ('early_termination', 'ok', '8. Refunds. Unused prepaid fees are refunded pro rata, except fees for hours already consumed.'),
    # a negator before "less than" affirms a floor; "less than" alone denies it
    ('spot_reclaim', 'ok', "6. Reclaim. No GPU node will be reclaimed with less than 30 minutes' notice to the Customer."),
    ('spot_reclaim', 'missing|trap', "6. Reclaim. Provider may reclaim spot nodes with less than 30 minutes' notice."),
    # a negated condition whose main clause forbids the act is a requirement ("未…通知的，不得…")
    ('spot_reclaim', 'ok', '第六条 抢占\n平台未提前30分钟告知甲方的，不得抢占其GPU节点。'),
    ('spot_reclaim', 'ok', "6. Preemption. If Provider has not given Customer 30 minutes' notice, it shall not preempt the node."),
    # notice stated as a floor on its length; a lock stated as a forbidden increase; retention as a forbidden deletion
    ('spot_reclaim', 'ok', '第六条 回收\n回收实例前，乙方给予甲方的通知时间不少于2小时。'),
    ('spot_reclaim', 'ok', "6. Reclaim. The warning before any reclaim of an instance is at least 45 minutes."),
    ('price_lock', 'ok', '第五条 价格\n乙方不会在合同期内调整本订单单价。'),
    ('price_lock', 'ok', '第五条 价格\n订单期内，乙方不能上调租金。'),
    ('storage_retention', 'ok', "11. Data. Provider will not delete the Customer's files for 30 days after termination."),
    ('storage_retention', 'ok', '第十一条 数据\n服务终止后乙方不会马上清除数据，将保留15日供甲方导出。'),
    ('sla_compensation', 'ok', "SLA. Provider credits Customer 20% of that month's fees for each outage over an hour."),
    ('billing_after_release', 'ok', '4. Billing. When Customer releases a node no further charges accrue for it.'),
]


def status(text: str, category: str) -> str:
    report = review_contract(text=text)
    return {item.category: item.status for item in report.checklist}[category]


@pytest.mark.parametrize(("category", "accepted", "text"), CASES)
def test_clause_is_read_the_right_way_round(category: str, accepted: str, text: str) -> None:
    assert status(text, category) in accepted.split("|"), text
