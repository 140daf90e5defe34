"""The Order Entry workload on the PostgreSQL and MariaDB servers of scripts/services.sh
(database sbtest_soe): load, a short run of the VMware FT paper's Swingbench configuration,
the server cross-check and verify. Without a reachable server the tests skip, unless
STOREBENCH_REQUIRE_SERVICES=1, when they fail."""
import json
import os
import unittest

import harness
from harness import require_server, server_url, storebench, tmp_path


class SoeServerMixin:
    url = None

    def test_load_run_paper_configuration_verify(self):
        require_server(self, self.url)
        common = ["--workload", "soe", "--db", self.url]
        r = storebench("oltp", "load", *common, "--soe_scale", "0.002", "--force")
        self.assertEqual(r.returncode, 0, r.stderr)
        xml = os.path.join(harness.ARGS.source, "docs", "examples", "soe_vmware_ft.xml")
        out = tmp_path(f"it-soe-server-{type(self).__name__}.json")
        r = storebench("oltp", "run", *common, "--config_file", xml, "--n_threads", "8",
                       "--warmup_time", "0", "--run_time", "3s", "--min_delay", "1",
                       "--max_delay", "5", "--weight_op", "40", "--json", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        fig = doc["figures"]
        self.assertGreater(fig["completed_transactions"], 0)
        self.assertEqual(fig["failed_transactions"], 0)
        self.assertGreater(fig["n_OP"], 0)
        self.assertTrue(all(c["passed"] for c in doc["verify"]), doc["verify"])
        names = {c["name"]: c for c in doc["server_check"]["comparisons"]}
        for n in ("new_orders_vs_table_rows", "new_customers_vs_table_rows"):
            self.assertTrue(names[n]["passed"], names[n])
        self.assertIn("60 s: the server cancels", doc["choices"]["query_timeout"])
        r = storebench("oltp", "verify", *common)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


class SoePostgresTest(SoeServerMixin, unittest.TestCase):
    url = server_url("STOREBENCH_PG_URL", "sbtest_soe")


class SoeMariaDbTest(SoeServerMixin, unittest.TestCase):
    url = server_url("STOREBENCH_MYSQL_URL", "sbtest_soe")


if __name__ == "__main__":
    harness.main()
