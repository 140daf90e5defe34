#!/usr/bin/env python3
"""Order Entry's think-time cycle: storebench's TPS per user against the analytical cycle of the
Swingbench original each --soe_variant follows (docs/soe.md "storebench vs the 2.1 package vs
2.0 vs jdbc").

On the null back end (null://, every statement 0 ms and no rows) a user's transaction takes only
its think times, so a user completes 1 / E[cycle] transactions per second, where

    E[cycle] = sum over transactions of P(tx) * thinks(tx) * mean think + mean inter delay,

P(tx) = weight / sum of weights, the mean think (min + max) / 2 (0 when the package's sleep
guard says none: min or max is 0), and thinks(tx) the sleeps the original makes in tx when
the database returns no rows (as null:// does): the package (2.1 and 2.0, the ORDERENTRY body's
browseProducts, newOrder, ...) and the orderentryjdbc classes sleep where docs/soe.md cites.
New Order on data it finds (orders with lines) sleeps inside its transaction too; the unit test
soe_session_test checks those on SQLite, since null:// finds nothing to order.

Each case runs storebench for --seconds after --warmup seconds and prints expected and measured
TPS; the exit status is 1 when any case is off by more than --tolerance (1 %).

  bench/soe_cycle.py [--bin build/storebench] [--seconds 15] [--warmup 3]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

TXS = ["ncr", "ucd", "bp", "op", "po", "bo", "sq", "wq", "wa"]
# Each variant's largest count of products looked up (BP) and category browses (OP), both drawn
# uniformly from 1: the package's floor(dbms_random.value(1, MAX_BROWSE_CATEGORY)).
MAX_DRAW = {"plsql21": 23, "plsql20": 5, "jdbc": 23}


def thinks_without_rows(variant):
    """Expected sleeps per transaction when every query returns no row."""
    bp_mean = (1 + MAX_DRAW[variant]) / 2
    op_mean = (1 + MAX_DRAW[variant]) / 2
    if variant == "jdbc":
        # NewCustomerProcess: before the inserts and after the commit; BrowseProducts: after
        # the customer and each product; NewOrderProcess: after the details and each browse
        # (no products: no order); BrowseAndUpdateOrders and the three queries: none.
        return {"ncr": 2, "ucd": 1, "bp": 1 + bp_mean, "op": 1 + op_mean, "po": 1, "bo": 0,
                "sq": 0, "wq": 0, "wa": 0}
    # The package: newCustomer sleeps once (after its commit); browseProducts after the
    # customer, the logon and each product; newOrder after the details, the logon, each
    # browse and once more (then no customer: the insert fails and it returns);
    # browseAndUpdateOrders after the details and the logon; one sleep in the others.
    return {"ncr": 1, "ucd": 1, "bp": 2 + bp_mean, "op": 3 + op_mean, "po": 1, "bo": 2,
            "sq": 1, "wq": 1, "wa": 1}


def expected_tps(config):
    variant = config["soe_variant"]
    weights = {t: config["weight_" + t] for t in TXS}
    total = sum(weights.values())
    lo, hi = config["min_delay"], config["max_delay"]
    guard = variant != "jdbc" and (lo == 0 or hi == 0)
    think = 0.0 if guard or hi == 0 else (lo + hi) / 2.0
    inter = (config["inter_min_delay"] + config["inter_max_delay"]) / 2.0
    thinks = thinks_without_rows(variant)
    cycle_ms = sum(weights[t] / total * thinks[t] for t in TXS) * think + inter
    users = config["soe_users"] or config["n_threads"]
    return users * 1000.0 / cycle_ms, users, cycle_ms


def run(binary, args, seconds, warmup, out):
    # The case's options first: a configuration file's RunTime would override a --run_time
    # before it.
    cmd = [binary, "oltp", "run", "--workload=soe", "--db", "null://"] + args + [
        f"--warmup_time={warmup}s", f"--run_time={seconds}s", "--server_check=N",
        "--progress=none", "--json", out]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/storebench")
    ap.add_argument("--seconds", type=int, default=15)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--tolerance", type=float, default=0.01)
    a = ap.parse_args()
    paper = "docs/examples/soe_vmware_ft.xml"
    delays = ["--min_delay=50", "--max_delay=250"]
    cases = [
        ("VMware paper config (its classes: plsql20)", ["--config_file", paper]),
        ("VMware paper config, --soe_variant=plsql21", ["--config_file", paper,
                                                        "--soe_variant=plsql21"]),
        ("VMware paper config, --soe_variant=jdbc", ["--config_file", paper,
                                                     "--soe_variant=jdbc"]),
        ("V2 default mix, 40 users, plsql21", ["--n_threads=40"] + delays),
        ("V2 default mix, 40 users, plsql20", ["--n_threads=40", "--soe_variant=plsql20"]
         + delays),
        ("V2 default mix, 40 users, jdbc", ["--n_threads=40", "--soe_variant=jdbc"] + delays),
        ("every transaction, 40 users, plsql21, inter 10-30 ms",
         ["--n_threads=40", "--weight_ucd=10", "--weight_sq=10", "--weight_wq=10",
          "--weight_wa=10", "--inter_min_delay=10", "--inter_max_delay=30"] + delays),
    ]
    print(f"{'case':56} {'variant':8} {'users':>5} {'cycle ms':>9} {'expected':>9} "
          f"{'measured':>9} {'ratio':>7}")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, args) in enumerate(cases):
            d = run(a.bin, args, a.seconds, a.warmup, os.path.join(tmp, f"{i}.json"))
            want, users, cycle = expected_tps(d["config"])
            got = d["headlines"]["tps"]
            ratio = got / want
            ok = abs(ratio - 1) <= a.tolerance
            failed = failed or not ok
            print(f"{name:56} {d['config']['soe_variant']:8} {users:5d} {cycle:9.1f} "
                  f"{want:9.1f} {got:9.1f} {ratio:7.4f}{'' if ok else '  OFF'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
