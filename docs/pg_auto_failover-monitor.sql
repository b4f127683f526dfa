-- How fast pg_auto_failover's monitor acts (run on the monitor, in its pg_auto_failover
-- database, as a superuser; the test suite's cloud of two nodes runs this file). With its
-- defaults (checks every 5 s, unhealthy after 20 s, 30 s for the old primary to demote itself)
-- the standby took writes 36 s after the primary was lost, here; with these about 13 s.
--
-- Check each node every second, answer within a second, retry once after half a second.
ALTER SYSTEM SET pgautofailover.health_check_period = 1000;
ALTER SYSTEM SET pgautofailover.health_check_timeout = 1000;
ALTER SYSTEM SET pgautofailover.health_check_max_retries = 1;
ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500;
-- A node is unhealthy when its keeper has not reported for 5 s (and it fails its checks).
ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 5000;
-- The old primary is given 8 s to demote itself before the standby takes writes. Each node's
-- keeper must be set to demote itself sooner when it is cut off from the monitor and the
-- standby (`pg_autoctl config set timeout.network_partition_timeout 5`): never two primaries.
ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 8000;
SELECT pg_reload_conf();
