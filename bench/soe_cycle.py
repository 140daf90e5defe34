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

The mix a run realizes is a sample of the weights (each user's picks come from its seeded
stream), and Browse Products' 1-23 look-ups make the cycle's spread wide: a few thousand
transactions give a realized mix some percent off the weights. So each case prints the cycle of
the weights and the cycle of the mix it realized (the same formula with the run's transaction
counts as P(tx)); the exit status is 1 when the measured TPS is off the realized mix's cycle by
more than --tolerance (1 %). The cases run side by side (null:// costs little CPU).

  bench/soe_cycle.py [--bin build/storebench] [--seconds 120] [--warmup 5]
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


def expected_tps(config, weights=None):
    variant = config["soe_variant"]
    weights = weights or {t: config["weight_" + t] for t in TXS}
    total = sum(weights.values())
    lo, hi = config["min_delay"], config["max_delay"]
    guard = variant != "jdbc" and (lo == 0 or hi == 0)
    think = 0.0 if guard or hi == 0 else (lo + hi) / 2.0
    inter = (config["inter_min_delay"] + config["inter_max_delay"]) / 2.0
    thinks = thinks_without_rows(variant)
    cycle_ms = sum(weights[t] / total * thinks[t] for t in TXS) * think + inter
    users = config["soe_users"] or config["n_threads"]
    return users * 1000.0 / cycle_ms, users, cycle_ms


def start(binary, args, seconds, warmup, out):
    # The case's options first: a configuration file's RunTime would override a --run_time
    # before it.
    cmd = [binary, "oltp", "run", "--workload=soe", "--db", "null://"] + args + [
        f"--warmup_time={warmup}s", f"--run_time={seconds}s", "--server_check=N",
        "--progress=none", "--json", out]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/storebench")
    ap.add_argument("--seconds", type=int, default=120)
    ap.add_argument("--warmup", type=int, default=5)
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
        ("V2 default mix, 200 users, plsql21", ["--n_threads=200"] + delays),
        ("V2 default mix, 200 users, plsql20", ["--n_threads=200", "--soe_variant=plsql20"]
         + delays),
        ("V2 default mix, 200 users, jdbc", ["--n_threads=200", "--soe_variant=jdbc"] + delays),
        ("every transaction, 200 users, plsql21, inter 10-30 ms",
         ["--n_threads=200", "--weight_ucd=10", "--weight_sq=10", "--weight_wq=10",
          "--weight_wa=10", "--inter_min_delay=10", "--inter_max_delay=30"] + delays),
    ]
    print(f"{'case':54} {'variant':8} {'users':>5} {'tx':>6} {'weights':>8} {'ratio':>7} "
          f"{'realized':>8} {'measured':>9} {'ratio':>7}")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        outs = [os.path.join(tmp, f"{i}.json") for i in range(len(cases))]
        procs = [start(a.bin, args, a.seconds, a.warmup, out)
                 for (_, args), out in zip(cases, outs)]
        for p in procs:
            if p.wait() != 0:
                raise SystemExit(f"storebench failed: {p.args}")
        for (name, _), out in zip(cases, outs):
            with open(out) as f:
                d = json.load(f)
            want, users, _ = expected_tps(d["config"])
            counts = {o["type"].lower(): o["count"] for o in d["operations"]}
            realized, _, _ = expected_tps(d["config"], {t: counts.get(t, 0) for t in TXS})
            got = d["headlines"]["tps"]
            ratio = got / realized
            ok = abs(ratio - 1) <= a.tolerance
            failed = failed or not ok
            print(f"{name:54} {d['config']['soe_variant']:8} {users:5d} "
                  f"{counts.get('transaction', 0):6d} {want:8.1f} {got / want:7.4f} "
                  f"{realized:8.1f} {got:9.1f} {ratio:7.4f}{'' if ok else '  OFF'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
