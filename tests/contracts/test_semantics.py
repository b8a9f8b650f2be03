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
    # a change in force on publication is the provider's own (a notice period or consent is not); a price lock
    # denied after it is named ("锁价：无", "does not apply"); only the used part kept, a refund cut by a penalty
    ('price_change', 'trap', '第五条 资费\n新的资费标准自乙方在官网发布之日起执行。'),
    ('price_change', 'trap', '第五条 价格\n乙方有权调整收费标准，并于官网公告，公告之日即生效。'),
    ('price_change', 'trap', '第五条 价格\n单价如有调整，以乙方发布的最新价格为准，发布即生效。'),
    ('price_change', 'trap', '5. Prices. Provider may update prices, which apply from the date they are posted on the website.'),
    ('price_change', 'trap', "5. Prices. Updated prices become effective upon publication on Provider's website."),
    ('price_change', 'ok', '第五条 价格\n乙方调整价格的，须经甲方书面同意，否则不生效。'),
    ('price_change', 'trap|ok', '第五条 价格\n乙方调整价格的，应提前30日在官网公布，新价格自公布之日起满30日后生效。'),
    ('price_change', 'trap|ok', '5. Prices. Price changes take effect 30 days after they are published.'),
    ('price_change', 'ok', "5. Prices. Any price change requires Customer's written consent."),
    ('price_lock', 'missing|trap', '第五条 价格\n价格保护不适用于本合同。'),
    ('price_lock', 'missing|trap', '第五条 价格\n锁价：无。'),
    ('price_lock', 'missing|trap', '第五条 价格\n价格锁定：不适用。'),
    ('price_lock', 'missing|trap', '5. Prices. Price lock does not apply.'),
    ('price_lock', 'missing|trap', '5. Prices. Price protection is not available for monthly plans.'),
    ('price_lock', 'missing|trap', '5. Prices. Price lock: none.'),
    ('price_lock', 'missing|trap', '第五条 价格\n单价随行就市。'),
    ('price_lock', 'ok', '5. Prices. Provider will keep the rates fixed.'),
    ('price_lock', 'ok', '第五条 价格\n乙方承诺保持单价不变。'),
    ('price_lock', 'missing|trap', '第五条 价格\n乙方不承诺保持单价不变。'),
    ('price_lock', 'missing|trap', '5. Prices. Provider does not lock the rates.'),
    ('price_change', 'trap', '第五条 价格\n单价随行就市。'),
    ('price_change', 'trap', '第五条 价格\n租金按市场行情浮动。'),
    ('early_termination', 'ok', '第八条 提前终止\n甲方提前解约的，乙方扣除已使用部分的费用后，将剩余预付款全额退还甲方。'),
    ('early_termination', 'ok', '8. Early termination. Provider will deduct fees for the days used and refund the remaining prepayment to Customer.'),
    ('early_termination', 'ok', '8. Early termination. Customer may terminate early, in which case Provider refunds the prepaid fees less the fees for services actually used.'),
    ('early_termination', 'trap', '第八条 提前终止\n甲方提前终止的，已预付款项归乙方所有。'),
    ('early_termination', 'trap', '8. Early termination. Provider keeps all prepaid fees and refunds nothing if Customer terminates early.'),
    ('early_termination', 'trap', '8. Early termination. Provider will refund prepaid fees less a termination fee equal to 50% of the remaining fees.'),
    ('early_termination', 'ok', '第八条 提前终止\n甲方提前终止的，已使用期间的费用不予退还，未使用部分按比例退还。'),
    ('early_termination', 'ok', '第八条 提前终止\n已消耗的费用概不退还；剩余未使用的预付款按天折算退还甲方。'),
    ('early_termination', 'ok', '8. Early termination. Fees for the period already used are non-refundable; fees for the unused period are refunded pro rata.'),
    ('early_termination', 'ok', '8. Early termination. Fees already consumed are not refunded, but the unused prepaid balance is refunded pro rata.'),
    ('early_termination', 'ok', '8. Early termination. Customer is not charged for the remaining term and receives a pro-rata refund.'),
    ('early_termination', 'ok', '第八条 提前终止\n乙方不得扣留甲方已预付但未使用的费用。'),
    ('early_termination', 'ok', '8. Early termination. Provider shall not keep the prepayment for the unused months.'),
    ('early_termination', 'trap', '第八条 提前终止\n甲方提前终止的，乙方扣除违约金后退还剩余预付款。'),
    ('early_termination', 'trap', '8. Early termination. If Customer terminates early, all prepaid fees become the property of Provider.'),
    ('early_termination', 'ok', '第八条 提前终止\n甲方无需支付剩余租期的租金，并获得按比例退款。'),
    ('price_lock', 'missing|trap', '第五条 价格\n本合同不适用价格保护。'),
    # session 8: a notice verb in any inflection protects ("notifies", "notified")
    ('spot_reclaim', 'ok', '6. Spot. Provider notifies Customer at least two hours before reclaiming a spot instance.'),
    ('spot_reclaim', 'ok', '6. Spot. Customer is notified 30 minutes before a spot instance is reclaimed.'),
    ('spot_reclaim', 'trap', '第六条 包月GPU\n乙方可因自身需要收回包月GPU，不提前告知。'),
    ('spot_reclaim', 'trap', '第六条 资源\n乙方可回收实例，且不事先告知甲方。'),
    # an Oxford comma before the last item keeps the negation on the whole list
    ('hidden_fees', 'ok|not_applicable', '3. Fees. Provider charges no setup, support, or licence fees.'),
    ('hidden_fees', 'ok|not_applicable', '3. Fees. Customer pays no installation, maintenance, or software fees.'),
    ('hidden_fees', 'ok|not_applicable', '第三条 费用\n乙方不收取开通费、技术支持费或授权费。'),
    ('hidden_fees', 'trap', '3. Fees. Customer pays setup, support, and licence fees on top of the rent.'),
    ('data_egress', 'ok|not_applicable', '12. Network. Provider charges no fees for ingress, egress, or transfers between regions.'),
    # consent to a change protects though the sentence also says from when an agreed change applies
    ('price_change', 'ok', '第六条 调价\n乙方调整价格须经甲方书面同意，调整自通知发出之日起生效。'),
    ('price_change', 'ok', "6. Pricing. Any price change requires Customer's written consent and takes effect on the date the notice is sent."),
    ('price_change', 'trap', '第六条 调价\n乙方调价无须征得甲方同意，新价格于控制台公告当日生效。'),
    ('price_change', 'trap', "6. Pricing. A price change does not require Customer's consent and takes effect on publication."),
    ('price_change', 'ok', "7. Pricing. Prices may change only from the start of a renewal term, with Customer's written agreement."),
    ('price_change', 'ok', '7. Rates. Rates can be adjusted only once a year, by a written amendment signed by both parties.'),
    # "停止对该实例的计费": the charge after 停止 may carry its object
    ('billing_after_release', 'missing|trap', '第四条 计费\n停止实例并不会停止对该实例的计费。'),
    ('billing_after_release', 'missing|trap', '第四条 计费\n关机不会停止对GPU的计费。'),
    ('billing_after_release', 'missing|trap', '4. Billing. Stopping an instance does not stop its billing.'),
    # reserved capacity billed for the term whether used or not is a commitment
    ('minimum_commitment', 'trap', '4. Reserved capacity. The 8 reserved GPUs are billed at the full hourly rate for every hour of the term, whether or not Customer runs workloads on them.'),
    ('minimum_commitment', 'trap', '4. Capacity. Committed nodes are charged for the whole term regardless of actual use.'),
    ('minimum_commitment', 'trap', '第四条 预留资源\n预留的8张GPU在整个租期内每小时均按全价计费，无论甲方是否在其上运行任务。'),
    ('minimum_commitment', 'trap', '第四条 预留\n无论是否使用，预留的服务器均按月足额收费。'),
    # a per-GB price with its unit first, and data moved out of the platform
    ('data_egress', 'trap', '第十二条 导出\n将数据集或模型检查点迁出平台的，按每TB 50美元计费。'),
    ('data_egress', 'trap', '第十二条 网络\n出网流量每GB 0.5元。'),
    ('data_egress', 'trap', '12. Export. Moving datasets or model checkpoints out of the platform is billed at USD 50 per TB.'),
    ('data_egress', 'trap', '12. Export. Copying snapshots out of the cloud costs USD 20 per TB.'),
    # a trap negated in one part of a sentence and stated in the next
    ('data_egress', 'trap', '第十二条 流量\n小时单价不含出网流量，出网流量另行计费。'),
    # a mandatory add-on, and an amount stated before the fee it names
    ('hidden_fees', 'trap', '3. Bandwidth. Each server must carry a bandwidth package of USD 100 per month, payable whether or not the bandwidth is used.'),
    ('hidden_fees', 'trap', '3. Support. A compulsory support subscription applies to every Order.'),
    ('hidden_fees', 'trap', '第三条 带宽\n每台服务器须搭配每月100美元的带宽包，无论是否使用均需支付。'),
    ('hidden_fees', 'trap', '第三条 技术支持\n每份订单在整个租期内均须附加每月300美元的强制技术支持费。'),
    # a renewal only on a new order protects
    ('auto_renewal', 'ok', '2. Renewal. The Order ends on its end date; it continues only if Customer signs a new order.'),
    ('auto_renewal', 'ok', '2. Term. The subscription is extended only upon a new order from Customer.'),
    # a floor the customer is billed for, an annual spend commitment
    ('minimum_commitment', 'trap', '5. Usage. Each month Customer is billed for no fewer than 300 GPU-hours.'),
    ('minimum_commitment', 'trap', '5. Usage. Customer is invoiced for at least USD 4,000 every quarter.'),
    ('minimum_commitment', 'trap', '5. Commitment. Customer commits to an annual spend of USD 1,000,000 over the Term.'),
    ('minimum_commitment', 'trap', '5. Commitment. Customer agrees to a monthly spend of USD 30,000.'),
    # reclaim "at any time" and "不作事先通知"
    ('spot_reclaim', 'trap', '第六条 竞价实例\n乙方可在任何时候回收竞价实例，不作事先通知。'),
    ('spot_reclaim', 'trap', '第六条 抢占\n抢占式实例可能随时被回收，乙方不另行通知。'),
    ('spot_reclaim', 'ok', '第六条 竞价实例\n乙方将在回收前至少提前两小时通知甲方。'),
    # early exit: remaining fees due, a cancellation fee, no early exit at all
    ('early_termination', 'trap', '8. Cancellation. If Customer cancels before the end of the term, all remaining fees for the term are payable immediately.'),
    ('early_termination', 'trap', '8. Cancellation. Outstanding charges for the rest of the reservation become due on cancellation.'),
    ('early_termination', 'trap', '8. Cancellation. Early cancellation incurs a fee equal to three months of charges.'),
    ('early_termination', 'trap', '8. Exit. A break fee of two months of charges applies if Customer leaves early.'),
    ('early_termination', 'trap', '第八条 解约\n预留实例不支持提前退订，已付费用不退。'),
    ('early_termination', 'trap', '第八条 退订\n包年实例不允许中途退订。'),
    ('early_termination', 'ok', '8. Cancellation. Customer may cancel at any time without a cancellation fee, and the unused prepaid months are refunded in full.'),
    # an alert "each time" spend passes a limit; a credit for GPU-hours after the failure is named
    ('usage_alerts', 'ok', '7. Alerts. Provider sends Customer an e-mail each time daily spend exceeds the limit Customer configured.'),
    ('usage_alerts', 'ok', '7. Alerts. Every time the budget is reached, Provider notifies Customer by SMS.'),
    ('failure_recompute', 'ok', "9. Faults. Where a job fails because of Provider's hardware, Provider credits the GPU-hours the job consumed."),
    ('failure_recompute', 'ok', '9. Faults. After a node crash, Provider refunds the GPU hours lost.'),
    # a notice period and a right to leave without a penalty
    ('price_change', 'ok', "6. Pricing. Provider may raise prices only with ninety (90) days' written notice, and Customer may then terminate without penalty."),
    ('price_change', 'ok', '第六条 调价\n乙方调价须提前90日书面通知，甲方可在调价生效前无责解约。'),
    # a stopped machine still billed, named after its noun or "keeps accruing"
    ('billing_after_release', 'trap', '4. Billing. Instances that are stopped but not released are still charged at the full hourly rate.'),
    ('billing_after_release', 'trap', '4. Billing. A stopped pod keeps accruing GPU charges until it is deleted.'),
    ('billing_after_release', 'trap', '4. Billing. Servers which have been powered off are also billed for their GPUs.'),
    # a licence billed at a price; deletion when the account is closed; a cap "为上限"; the customer bears re-runs
    ('hidden_fees', 'trap', '3. Licences. Operating system licences are billed at USD 20 per server per month.'),
    ('hidden_fees', 'trap', '3. Support. Premium support is charged at $400 a month.'),
    ('storage_retention', 'trap', "11. Data. Customer's data is permanently deleted 48 hours after the account is closed."),
    ('storage_retention', 'trap', '11. Data. On cancellation of the subscription, all volumes are wiped.'),
    ('sla_compensation', 'trap', '第十条 赔偿\n乙方的赔偿总额以当月服务费的10%为上限。'),
    ('sla_compensation', 'trap', '第十条 赔偿\n每月补偿以月服务费的百分之五为最高限。'),
    ('failure_recompute', 'trap', '9. Faults. Customer bears the cost of re-running jobs lost to hardware failures.'),
    ('failure_recompute', 'trap', '9. Faults. The Customer pays for any rerun of training interrupted by a node fault.'),
    # "charges for <kind of fee>", denied or stated; "不存在/没有任何额外费用"
    ('hidden_fees', 'ok|not_applicable', '3. Fees. There are no charges for setup, support or software.'),
    ('hidden_fees', 'trap', '3. Fees. Customer pays fees for installation and maintenance on top of the rent.'),
    ('hidden_fees', 'ok|not_applicable', '第三条 费用\n不存在任何额外费用。'),
    ('hidden_fees', 'ok|not_applicable', '第三条 费用\n本订单没有其他任何费用。'),
    # commitments in wordings of their own; floors on other things are none
    ('minimum_commitment', 'trap', '5. Volume. The Customer guarantees a usage volume of 400 GPU-hours per week.'),
    ('minimum_commitment', 'trap', '5. Volume. Customer undertakes a consumption of 2,000 GPU-hours a month.'),
    ('minimum_commitment', 'trap', '5. Capacity. Customer must keep at least 8 GPUs rented at all times during the Term.'),
    ('minimum_commitment', 'trap', '5. Capacity. Customer shall maintain no fewer than 4 servers under contract.'),
    ('minimum_commitment', 'trap', "5. Minimum. A floor of USD 5,000 per month applies to Customer's bill."),
    ('minimum_commitment', 'ok|not_applicable', '5. Availability. Provider guarantees at least 99.9% availability.'),
    ('minimum_commitment', 'ok|not_applicable', '5. SLA. The service runs at no less than 99.5 percent uptime.'),
    ('minimum_commitment', 'ok|not_applicable', '5. Hardware. Each server has at least 512 GB of memory.'),
]


def status(text: str, category: str) -> str:
    report = review_contract(text=text)
    return {item.category: item.status for item in report.checklist}[category]


@pytest.mark.parametrize(("category", "accepted", "text"), CASES)
def test_clause_is_read_the_right_way_round(category: str, accepted: str, text: str) -> None:
    assert status(text, category) in accepted.split("|"), text


@pytest.mark.parametrize(("text", "months"), [
    ("1. Term. This Agreement has a term of twelve (12) months.", 12),
    ("1. Term. The Order has an initial term of 24 months.", 24),
    ("1. Term. The lease has a fixed period of six (6) months.", 6),
    ("第一条 期限\n本合同期限为12个月。", 12),
    ("第一条 期限\n本订单租期24个月。", 24),
])
def test_the_term_is_read_however_it_is_introduced(text: str, months: int) -> None:
    from advisor.contracts.detectors import detect_text
    from advisor.contracts.facts import build_facts

    assert build_facts(detect_text(text))["term_months"] == months
