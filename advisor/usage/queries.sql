-- The usage analysis as engine-neutral SQL (advisor/usage/queries.py reads it; see its docstring).
-- Each query starts with a `-- name: NAME` line; the comment lines right after it say what it does.

-- --- Telemetry ---------------------------------------------------------------------------

-- name: GPUS
-- One row per GPU (a GPU is a gpu_id on an instance). interval_s: its usual sample spacing;
-- peak_mem_share: the highest memory.used / memory.total seen.
CREATE TABLE gpus AS
SELECT k.gid, k.instance, k.gpu_id, k.model, s.src, s.samples, s.t_min, s.t_max,
       CASE WHEN s.samples > 1 AND s.t_max > s.t_min
            THEN (s.t_max - s.t_min) / (s.samples - 1) ELSE $default_interval_s END AS interval_s,
       s.peak_mem_share, s.mem_samples
FROM (
    SELECT gid, MIN(src) AS src, COUNT(*) AS samples, MIN(t) AS t_min, MAX(t) AS t_max,
           MAX(mem_used_mib / NULLIF(mem_total_mib, 0)) AS peak_mem_share,
           COUNT(mem_used_mib) AS mem_samples
    FROM samples WHERE skip IS NULL GROUP BY gid
) s
JOIN gpu_keys k ON k.gid = s.gid

-- name: TIMED
-- Every sample with the time it stands for (dt): the gap to the next sample, or one usual
-- interval when the gap is too long (missing data is not billed idle time) or it is the last.
-- island: the GPU's samples at or above the idle cutoff so far, the same for each sample of
-- one stretch of consecutive near-idle samples (gaps-and-islands in the same sorted pass).
CREATE TABLE timed AS
SELECT gid, t, util, rn, island,
       CASE WHEN gap_after IS NULL OR gap_after > $gap_factor * interval_s
            THEN interval_s ELSE gap_after END AS dt
FROM (
    SELECT s.gid, s.t, s.util, g.interval_s,
           (LEAD(s.t) OVER w) - s.t AS gap_after,
           ROW_NUMBER() OVER w AS rn,
           SUM(CASE WHEN s.util < $idle_cutoff THEN 0 ELSE 1 END) OVER (PARTITION BY s.gid ORDER BY s.t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS island
    FROM samples s
    JOIN gpus g ON g.gid = s.gid
    WHERE s.skip IS NULL
    WINDOW w AS (PARTITION BY s.gid ORDER BY s.t)
) x

-- name: IDLE_RUNS
-- Stretches of consecutive near-idle samples per GPU (one island each). A gap in the data
-- does not end a stretch (the gap itself is not counted: dt is capped).
CREATE TABLE idle_runs AS
SELECT gid, MIN(t) AS start_t, MAX(t + dt) AS end_t, SUM(dt) AS seconds, MAX(rn) AS last_rn
FROM timed
WHERE util < $idle_cutoff
GROUP BY gid, island
HAVING SUM(dt) >= $min_idle_seconds

-- name: GPU_STATS
-- Per GPU: time, busy time, time below the low-use line and near idle, memory peak, cost.
SELECT g.gid, g.instance, g.gpu_id, g.model, g.samples, g.t_min, g.t_max,
       SUM(s.dt) AS seconds,
       SUM(s.util * s.dt) AS busy_seconds,
       SUM(CASE WHEN s.util < $low_use THEN s.dt ELSE 0 END) AS low_seconds,
       SUM(CASE WHEN s.util >= $low_use THEN s.dt ELSE 0 END) AS steady_seconds,
       MAX(g.peak_mem_share) AS peak_mem_share,
       MAX(g.mem_samples) AS mem_samples,
       MAX(CASE WHEN s.rn = g.samples THEN s.dt END) AS last_dt,
       MAX(p.price) AS price
FROM gpus g
JOIN timed s ON s.gid = g.gid
LEFT JOIN gpu_price p ON p.gid = g.gid
GROUP BY g.gid, g.instance, g.gpu_id, g.model, g.samples, g.t_min, g.t_max
ORDER BY g.gid

-- name: GPU_PERCENTILES
-- Sample percentiles per GPU from a histogram of utilization in 0.1-point buckets (exact for
-- nvidia-smi's whole percents) - cheaper than sorting every sample.
WITH h AS (
    SELECT gid, FLOOR(util * 1000 + 0.5) AS b, COUNT(*) AS n
    FROM timed GROUP BY gid, FLOOR(util * 1000 + 0.5)
), c AS (
    SELECT gid, b,
           SUM(n) OVER (PARTITION BY gid ORDER BY b ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cum,
           SUM(n) OVER (PARTITION BY gid) AS total
    FROM h
)
SELECT gid,
       MIN(CASE WHEN cum >= 0.5 * total THEN b END) / 1000.0 AS median_util,
       MIN(CASE WHEN cum >= $percentile * total THEN b END) / 1000.0 AS high_util
FROM c GROUP BY gid

-- name: GPU_IDLE
-- Idle stretches per GPU, with whether the stretch runs to the GPU's last sample ("open").
SELECT r.gid, COUNT(*) AS stretches, SUM(r.seconds) AS idle_seconds,
       SUM(CASE WHEN r.last_rn = g.samples THEN r.seconds ELSE 0 END) AS open_seconds
FROM idle_runs r JOIN gpus g ON g.gid = r.gid
GROUP BY r.gid

-- name: TOP_IDLE_RUNS
SELECT g.instance, g.gpu_id, g.model, r.start_t, r.end_t, r.seconds,
       CASE WHEN r.last_rn = g.samples THEN 1 ELSE 0 END AS open_run,
       r.seconds / 3600.0 * p.price AS cost
FROM idle_runs r
JOIN gpus g ON g.gid = r.gid
LEFT JOIN gpu_price p ON p.gid = r.gid
ORDER BY r.seconds DESC, g.instance, g.gpu_id, r.start_t
LIMIT $top

-- name: UTIL_HISTOGRAM
-- How the fleet's GPU time spreads over utilization, in tenths (0-10 %, ..., 90-100 %).
SELECT CASE WHEN util >= 1 THEN 9 ELSE CAST(FLOOR(util * 10) AS INTEGER) END AS bucket,
       SUM(dt) / 3600.0 AS gpu_hours
FROM timed GROUP BY CASE WHEN util >= 1 THEN 9 ELSE CAST(FLOOR(util * 10) AS INTEGER) END
ORDER BY bucket

-- name: BY_HOUR
-- Fleet utilization by hour of day and by day of week (0 = Monday; day 0 was a Thursday).
SELECT MOD(CAST(FLOOR(t / 3600) AS BIGINT), 24) AS hour,
       SUM(util * dt) / SUM(dt) AS avg_util, SUM(dt) / 3600.0 AS gpu_hours
FROM timed GROUP BY MOD(CAST(FLOOR(t / 3600) AS BIGINT), 24) ORDER BY hour

-- name: BY_WEEKDAY
SELECT MOD(CAST(FLOOR(t / 86400) AS BIGINT) + 3, 7) AS weekday,
       SUM(util * dt) / SUM(dt) AS avg_util, SUM(dt) / 3600.0 AS gpu_hours
FROM timed GROUP BY MOD(CAST(FLOOR(t / 86400) AS BIGINT) + 3, 7) ORDER BY weekday

-- name: TELEMETRY_TREND
SELECT CAST(FLOOR(t / 86400) AS BIGINT) AS day,
       SUM(util * dt) / SUM(dt) AS avg_util, SUM(dt) / 3600.0 AS gpu_hours,
       COUNT(DISTINCT gid) AS gpus
FROM timed GROUP BY CAST(FLOOR(t / 86400) AS BIGINT) ORDER BY day

-- name: PEAK_OFFPEAK
-- Utilization inside and outside the off-peak window (hours are the samples' own clock).
SELECT CASE WHEN MOD(CAST(FLOOR(t / 3600) AS BIGINT), 24) >= $offpeak_start
              OR MOD(CAST(FLOOR(t / 3600) AS BIGINT), 24) < $offpeak_end THEN 1 ELSE 0 END AS offpeak,
       SUM(util * dt) / 3600.0 AS busy_gpu_hours, SUM(dt) / 3600.0 AS gpu_hours,
       SUM(util * dt / 3600.0 * p.price) AS busy_cost
FROM timed s LEFT JOIN gpu_price p ON p.gid = s.gid
GROUP BY CASE WHEN MOD(CAST(FLOOR(t / 3600) AS BIGINT), 24) >= $offpeak_start
               OR MOD(CAST(FLOOR(t / 3600) AS BIGINT), 24) < $offpeak_end THEN 1 ELSE 0 END

-- --- Billing (FOCUS) ---------------------------------------------------------------------

-- name: BILLING_TOTALS
SELECT currency, COUNT(*) AS rows_n,
       SUM(billed_cost) AS billed, SUM(effective_cost) AS effective, SUM(list_cost) AS list_cost,
       MIN(start_t) AS start_t, MAX(end_t) AS end_t
FROM billing GROUP BY currency ORDER BY currency

-- name: BILLING_BY_SERVICE
SELECT currency, COALESCE(service_category, '(none)') AS category, COALESCE(service_name, '(none)') AS name,
       COUNT(*) AS rows_n, SUM(billed_cost) AS billed, SUM(effective_cost) AS effective
FROM billing
GROUP BY currency, COALESCE(service_category, '(none)'), COALESCE(service_name, '(none)')
ORDER BY billed DESC, name

-- name: BILLING_BY_RESOURCE
SELECT currency, COALESCE(resource_id, '(no resource id)') AS resource_id,
       MAX(resource_name) AS resource_name, MAX(resource_type) AS resource_type,
       MAX(service_name) AS service_name,
       COUNT(*) AS rows_n, SUM(billed_cost) AS billed, SUM(effective_cost) AS effective
FROM billing
GROUP BY currency, COALESCE(resource_id, '(no resource id)')
ORDER BY billed DESC, resource_id

-- name: BILLING_BY_OWNER
SELECT b.currency, COALESCE(o.team, '(untagged)') AS team, COALESCE(o.project, '(untagged)') AS project,
       COUNT(*) AS rows_n, SUM(b.billed_cost) AS billed, SUM(b.effective_cost) AS effective
FROM billing b LEFT JOIN tag_owner o ON o.tags = b.tags
GROUP BY b.currency, COALESCE(o.team, '(untagged)'), COALESCE(o.project, '(untagged)')
ORDER BY billed DESC, team, project

-- name: BILLING_DISTINCT_TAGS
SELECT DISTINCT tags FROM billing WHERE tags IS NOT NULL

-- name: BILLING_UNUSED_COMMITMENT
SELECT currency, COUNT(*) AS rows_n, SUM(effective_cost) AS effective, SUM(billed_cost) AS billed
FROM billing WHERE UPPER(commitment_status) = 'UNUSED'
GROUP BY currency

-- name: BILLING_STORAGE_AFTER_COMPUTE
-- Storage charged after the last compute charge of the same sub-account (unused commitments
-- are not compute activity), when compute stopped well before the end of the export.
WITH compute_end AS (
    SELECT COALESCE(sub_account_id, '(none)') AS account, MAX(end_t) AS last_compute_t
    FROM billing
    WHERE UPPER(service_category) = 'COMPUTE' AND UPPER(charge_category) = 'USAGE' AND effective_cost > 0
      AND UPPER(COALESCE(commitment_status, '')) <> 'UNUSED'  -- an unused reservation is not activity
    GROUP BY COALESCE(sub_account_id, '(none)')
), export_end AS (SELECT MAX(end_t) AS end_t FROM billing)
SELECT b.currency, c.account, MAX(c.last_compute_t) AS last_compute_t, COUNT(*) AS rows_n,
       SUM(b.effective_cost) AS effective, SUM(b.billed_cost) AS billed
FROM billing b
JOIN compute_end c ON c.account = COALESCE(b.sub_account_id, '(none)')
CROSS JOIN export_end e
WHERE UPPER(b.service_category) = 'STORAGE'
  AND b.start_t >= c.last_compute_t
  AND e.end_t - c.last_compute_t >= $min_after_seconds
GROUP BY b.currency, c.account
ORDER BY billed DESC

-- name: BILLING_STEADY_ON_DEMAND
-- On-demand compute resources billed for most of the export window: candidates for a
-- monthly or yearly commitment.
WITH w AS (SELECT MIN(start_t) AS start_t, MAX(end_t) AS end_t FROM billing),
r AS (
    SELECT currency, resource_id, SUM(effective_cost) AS effective,
           SUM(CASE WHEN UPPER(consumed_unit) LIKE 'HOUR%' THEN consumed_quantity ELSE 0 END) AS hours
    FROM billing
    WHERE UPPER(service_category) = 'COMPUTE' AND UPPER(charge_category) = 'USAGE'
      AND UPPER(COALESCE(pricing_category, 'STANDARD')) IN ('STANDARD', 'ON-DEMAND', 'ONDEMAND')
      AND commitment_id IS NULL AND resource_id IS NOT NULL
    GROUP BY currency, resource_id
)
SELECT r.currency, COUNT(*) AS resources, SUM(r.effective) AS effective, SUM(r.hours) AS hours
FROM r CROSS JOIN w
WHERE r.hours >= $steady_coverage * (w.end_t - w.start_t) / 3600.0 AND r.effective > 0
GROUP BY r.currency

-- name: BILLING_TREND
SELECT currency, CAST(FLOOR(start_t / 86400) AS BIGINT) AS day,
       SUM(billed_cost) AS billed, SUM(effective_cost) AS effective
FROM billing GROUP BY currency, CAST(FLOOR(start_t / 86400) AS BIGINT) ORDER BY currency, day

-- --- Inventory ---------------------------------------------------------------------------

-- name: INVENTORY_RESOURCES
-- Each rented resource: billed hours up to its end (or the as-of time), its cost, the hours
-- billed after its project ended, and whether telemetry shows it at all.
SELECT i.src, i.row_no, i.resource, i.gpu_type, i.gpu_count, i.price_per_gpu_hour, i.currency,
       i.team, i.project, i.start_t, i.end_t, i.project_end_t,
       GREATEST(COALESCE(i.end_t, $as_of) - i.start_t, 0) / 3600.0 AS hours,
       CASE WHEN i.project_end_t IS NOT NULL
            THEN GREATEST(COALESCE(i.end_t, $as_of) - GREATEST(i.project_end_t, i.start_t), 0) / 3600.0
            ELSE 0 END AS hours_after_project_end,
       COALESCE(seen.gpus, 0) AS telemetry_gpus,
       GREATEST(LEAST(COALESCE(i.end_t, $as_of), $tel_end) - GREATEST(i.start_t, $tel_start), 0) / 3600.0
           AS hours_in_telemetry_window
FROM inventory i
LEFT JOIN (
    SELECT r.src, r.row_no, COUNT(*) AS gpus
    FROM inventory r JOIN gpus g ON g.instance = r.resource OR g.gpu_id = r.resource
    GROUP BY r.src, r.row_no
) seen ON seen.src = i.src AND seen.row_no = i.row_no
ORDER BY i.src, i.row_no

-- --- Staging (advisor/usage/readers; table names as in their modules) ---------------

-- name: TELEMETRY_STAGE_DDL
CREATE TABLE IF NOT EXISTS tel_raw (
    src INTEGER,            -- input file number
    instance VARCHAR,       -- host name, or the file name when the log has none
    gpu_id VARCHAR,         -- uuid, else "index N", else the PCI bus id
    model VARCHAR,          -- GPU name as reported
    t DOUBLE,               -- sample time, epoch seconds of the log's own clock
    util DOUBLE,            -- utilization.gpu as a fraction 0..1
    mem_used_mib DOUBLE,
    mem_total_mib DOUBLE,
    skip VARCHAR,           -- why the row is not a sample (NULL: it is one)
    bad VARCHAR             -- the column whose value is malformed (NULL: none)
)

-- name: GPU_KEYS_DDL
CREATE TABLE IF NOT EXISTS gpu_keys (gid BIGINT, instance VARCHAR, gpu_id VARCHAR, model VARCHAR)

-- name: SAMPLES_DDL
CREATE TABLE IF NOT EXISTS samples (
    src INTEGER, gid BIGINT, t DOUBLE, util DOUBLE, mem_used_mib DOUBLE, mem_total_mib DOUBLE,
    skip VARCHAR, bad VARCHAR
)

-- name: BILLING_DDL
-- FOCUS rows (readers/focus.py); money as DECIMAL(38, 18), that module's MONEY_SQL_TYPE.
CREATE TABLE IF NOT EXISTS billing (
    src INTEGER,
    billed_cost DECIMAL(38, 18), effective_cost DECIMAL(38, 18),
    list_cost DECIMAL(38, 18), contracted_cost DECIMAL(38, 18),
    currency VARCHAR, start_t DOUBLE, end_t DOUBLE,
    charge_category VARCHAR, charge_frequency VARCHAR,
    service_name VARCHAR, service_category VARCHAR, provider VARCHAR,
    sub_account_id VARCHAR, sub_account_name VARCHAR,
    resource_id VARCHAR, resource_name VARCHAR, resource_type VARCHAR,
    commitment_status VARCHAR, commitment_id VARCHAR, pricing_category VARCHAR,
    consumed_quantity DOUBLE, consumed_unit VARCHAR, sku_id VARCHAR, tags VARCHAR, row_id VARCHAR,
    bad VARCHAR
)

-- name: INVENTORY_DDL
-- Rented resources (readers/inventory.py), checked in Python and staged as they are.
CREATE TABLE IF NOT EXISTS inventory (
    src INTEGER, row_no INTEGER, resource VARCHAR, gpu_type VARCHAR, gpu_count INTEGER,
    price_per_gpu_hour DOUBLE, currency VARCHAR, team VARCHAR, project VARCHAR,
    start_t DOUBLE, end_t DOUBLE, project_end_t DOUBLE
)

-- name: PROM_OBS_DDL
CREATE TABLE IF NOT EXISTS prom_obs (
    host VARCHAR, gpu_id VARCHAR, t DOUBLE, kind VARCHAR, pref INTEGER, line_no BIGINT,
    value DOUBLE            -- in our unit; NULL when the exporter sent NaN
)

-- name: PROM_STAGE
-- One telemetry row per GPU and time that has a utilization: per kind the preferred metric
-- (first line among equals); memory.total from used + free (+ reserved) when not sent.
INSERT INTO tel_raw
SELECT $src, p.host, p.gpu_id, m.model, p.t, p.util, p.mem_used,
       COALESCE(p.mem_total, CASE WHEN p.mem_used IS NOT NULL AND p.mem_free IS NOT NULL
                                  THEN p.mem_used + p.mem_free + COALESCE(p.mem_reserved, 0) END),
       NULL, NULL
FROM (
    SELECT host, gpu_id, t,
           MAX(CASE WHEN kind = 'util' THEN value END) AS util,
           MAX(CASE WHEN kind = 'mem_used_mib' THEN value END) AS mem_used,
           MAX(CASE WHEN kind = 'mem_total_mib' THEN value END) AS mem_total,
           MAX(CASE WHEN kind = 'mem_free_mib' THEN value END) AS mem_free,
           MAX(CASE WHEN kind = 'mem_reserved_mib' THEN value END) AS mem_reserved
    FROM (
        SELECT host, gpu_id, t, kind, value,
               ROW_NUMBER() OVER (PARTITION BY host, gpu_id, t, kind ORDER BY pref, line_no) AS pick
        FROM prom_obs WHERE value IS NOT NULL
    ) o
    WHERE pick = 1
    GROUP BY host, gpu_id, t
) p
LEFT JOIN prom_models m ON m.host = p.host AND m.gpu_id = p.gpu_id
WHERE p.util IS NOT NULL

-- name: PROM_COUNTS
-- Lines of GPU-and-time keys without any utilization value, and second metrics of one kind.
SELECT COALESCE(SUM(CASE WHEN has_util = 0 THEN lines ELSE 0 END), 0) AS no_util,
       COALESCE(SUM(superseded), 0) AS superseded,
       COUNT(CASE WHEN has_util = 1 THEN 1 END) AS keys,
       COUNT(CASE WHEN has_util = 1 AND t <> $default_t THEN 1 END) AS timed
FROM (
    SELECT host, gpu_id, t, COUNT(*) AS lines,
           MAX(CASE WHEN kind = 'util' AND value IS NOT NULL THEN 1 ELSE 0 END) AS has_util,
           SUM(CASE WHEN value IS NOT NULL THEN 1 ELSE 0 END)
             - COUNT(DISTINCT CASE WHEN value IS NOT NULL THEN kind END) AS superseded
    FROM prom_obs GROUP BY host, gpu_id, t
) k

-- name: TIME_SEGMENTS
WITH tt AS (SELECT src, t, COUNT(*) AS n FROM samples WHERE skip IS NULL GROUP BY src, t),
o AS (SELECT src, t, n, t - LAG(t) OVER (PARTITION BY src ORDER BY t) AS gap FROM tt),
s AS (SELECT src, t, n, SUM(CASE WHEN gap IS NULL OR gap > $gap THEN 1 ELSE 0 END)
                   OVER (PARTITION BY src ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS seg FROM o)
SELECT src, seg, MIN(t) AS t0, MAX(t) AS t1, SUM(n) AS n FROM s GROUP BY src, seg ORDER BY src, seg

-- name: PLAUSIBLE_SOURCES
SELECT DISTINCT src FROM samples WHERE skip IS NULL AND t >= $lo AND t <= $hi

-- name: MARK_OUTSIDE
UPDATE samples SET skip = $reason WHERE skip IS NULL AND src = $src AND (t < $lo OR t > $hi)

-- name: OUTLIER_COUNTS
SELECT skip, COUNT(*) AS n FROM samples WHERE skip LIKE $p GROUP BY skip ORDER BY skip

-- name: OUTLIER_EXAMPLES
-- the first ten excluded rows, by time
SELECT s.src, k.instance, k.gpu_id, s.t, s.skip FROM samples s
LEFT JOIN gpu_keys k ON k.gid = s.gid WHERE s.skip LIKE $p ORDER BY s.t LIMIT 10

-- name: OUTLIER_REASON
UPDATE samples SET skip = $reason WHERE skip LIKE $p
