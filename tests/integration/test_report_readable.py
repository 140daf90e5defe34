"""storebench report read and printed as a published report would be (docs/report.md), in
headless Chromium (Debian's chromium, chromium-driver, python3-selenium) and its PDF text through
pdftotext (poppler-utils): latency axes in milliseconds on log scales, reads and writes apart,
series told apart, figures with units, per-watt headlines, each instance's latency, whole
instance counts, a comparison whose headline ratio is visible, tables and headings intact on
paper, and a storage run's configuration as it ran."""
import base64
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import harness
import report_fixtures as fx
from test_report_browser import browser, cells

# The title and drawn width (user units) of every bar of a chart.
BAR_WIDTHS_JS = """
const svg = document.getElementById(arguments[0]);
return [...svg.querySelectorAll('rect.bar')].map(r => [r.querySelector('title').textContent,
                                                       r.getBBox().width]);
"""

# The text of an svg's tick labels along its x axis.
X_TICKS_JS = """
const svg = document.getElementById(arguments[0]);
return [...svg.querySelectorAll("text.xtick")].map(t => t.textContent);
"""


def is_round(v):
    """1, 2 or 5 times a power of ten."""
    m = v / 10 ** math.floor(math.log10(v) + 1e-9)
    return any(abs(m - r) < 1e-6 for r in (1, 2, 5))


class ReportReadableTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if shutil.which("pdftotext") is None:
            msg = "pdftotext is not installed (poppler-utils, scripts/install-deps.sh)"
            if os.environ.get("CI"):
                raise AssertionError(msg)
            raise unittest.SkipTest(msg)
        cls.driver = browser()
        if cls.driver is None:
            msg = "headless Chromium with selenium is not installed (scripts/install-deps.sh)"
            if os.environ.get("CI"):
                raise AssertionError(msg)
            raise unittest.SkipTest(msg)
        # The other runs side by side with the DVD Store database's load (the power run and the
        # comparison's source run were made in their cases one after another before: 6 s); the
        # DVD Store run after them, alone: its latencies' spread is what a case draws (the
        # others beside it on a loaded machine widened it).
        _, cls.multi, cls.storage, cls.power, cls.cmp_src = fx.in_parallel(
            lambda: fx.dvdstore_load("rr_ds"),
            lambda: fx.run_noop("rr_multi", "multi", threads=1, instances=3),
            lambda: fx.storage_run("rr_io", "io"),
            lambda: fx.run_noop("rr_power", "power", extra=("--power", "cmd:echo 150.5")),
            lambda: fx.run_noop("rr_cmp_src", "src"))
        cls.ds = fx.dvdstore_run("rr_ds", "ds", load=False)
        with open(cls.ds) as f:
            cls.ds_doc = json.load(f)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def open_report(self, kind, *files):
        out = harness.tmp_path(f"rr_report_{kind}.html")
        p = harness.storebench("report", *files, "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.driver.get("file://" + os.path.abspath(out))
        return out

    def svg_attr(self, chart_id, name):
        return self.driver.find_element("id", chart_id).get_attribute(name)

    def test_latency_in_milliseconds_on_log_axes(self):
        self.open_report("latency", self.ds)
        # The distribution: x in ms on a log axis (it was log10 exponents), ticks at round
        # values that span the table's bins.
        chart = "f1-latency-distribution-chart"
        self.assertEqual(self.svg_attr(chart, "data-x-scale"), "log")
        ticks = [float(t) for t in self.driver.execute_script(X_TICKS_JS, chart)]
        self.assertTrue(ticks)
        self.assertTrue(all(t > 0 and is_round(t) for t in ticks), ticks)
        rows = cells(self.driver, "f1-latency-distribution")
        lows = [float(r[0][1]) for r in rows if float(r[0][1]) > 0]
        self.assertGreaterEqual(min(lows), min(ticks))
        self.assertLessEqual(max(lows), max(ticks))
        label = self.driver.find_element(
            "css selector", f"#{chart} text.alabel").text
        self.assertIn("ms", label)
        self.assertNotIn("log10", label)
        # Percentile bars on a log axis: the fastest type's p50 is drawn at least a tenth as wide
        # as the slowest type's p99.9 (on a linear axis a 0.01 ms bar next to 30 ms was 0.03 px).
        self.assertEqual(self.svg_attr("f1-latency-chart", "data-x-scale"), "log")
        widths = dict(self.driver.execute_script(BAR_WIDTHS_JS, "f1-latency-chart"))
        ops = [o for o in self.ds_doc["operations"] if o["count"] > 0]
        fast = min(ops, key=lambda o: o["p50_ms"])
        slow = max(ops, key=lambda o: o["p999_ms"])
        self.assertGreater(slow["p999_ms"] / fast["p50_ms"], 100)  # decades apart
        self.assertGreater(widths[fast["type"] + " p50"], widths[slow["type"] + " p99.9"] / 10)
        self.assertEqual(self.svg_attr("f1-latency-series-chart", "data-y-scale"), "log")

    def test_storage_latency_reads_and_writes_in_milliseconds(self):
        with open(self.storage) as f:
            doc = json.load(f)
        self.open_report("storage", self.storage)
        # Iometer's bins on a millisecond log axis (they were bin indices 0..20).
        chart = "f1-latency-bins-chart"
        self.assertEqual(self.svg_attr(chart, "data-x-scale"), "log")
        ticks = [float(t) for t in self.driver.execute_script(X_TICKS_JS, chart)]
        self.assertIn(1.0, ticks)
        self.assertLess(min(ticks), 0.05)  # the first bin: under 50 µs
        self.assertGreaterEqual(max(ticks), 10000)  # the last: 10 s and more
        # Reads and writes apart, each as the JSON has it.
        rows = cells(self.driver, "f1-storage-latency")
        head = self.driver.execute_script(
            "return [...document.querySelectorAll('table[data-table=\"f1-storage-latency\"] th')]"
            ".map(h => h.textContent)")
        col = {h: i for i, h in enumerate(head)}
        mixed = [t for t in doc["storage"]
                 if t["totals"]["read_ios"] > 0 and t["totals"]["write_ios"] > 0]
        self.assertTrue(mixed)
        for row, t in zip(rows, doc["storage"]):
            self.assertEqual(row[0][0], t["name"])
            if t["totals"]["read_ios"] > 0:
                self.assertEqual(float(row[col["read p99 ms"]][1]),
                                 t["percentiles"]["read_p99_ms"])
            if t["totals"]["write_ios"] > 0:
                self.assertEqual(float(row[col["write p99 ms"]][1]),
                                 t["percentiles"]["write_p99_ms"])
        self.assertEqual(self.svg_attr("f1-latency-chart", "data-x-scale"), "log")
        bars = [n for n, _ in self.driver.execute_script(BAR_WIDTHS_JS, "f1-latency-chart")]
        self.assertIn(mixed[0]["name"] + " read p99", bars)
        self.assertIn(mixed[0]["name"] + " write p99", bars)

    def test_every_series_of_a_chart_looks_different(self):
        self.open_report("colours", self.ds)
        strokes = self.driver.execute_script("""
          return [...document.querySelectorAll('#f1-counters-chart path.series')].map(
              p => [p.dataset.name, p.getAttribute('stroke') + ' ' +
                    (p.getAttribute('stroke-dasharray') || '')]);""")
        looks = dict(strokes)
        self.assertGreater(len(looks), 10)  # more series than the old palette had colours
        self.assertEqual(len(set(looks.values())), len(looks), looks)
        self.assertNotEqual(looks["rollbacks"].split()[0], looks["retries"].split()[0])

    def test_figures_have_units_and_meanings(self):
        self.open_report("figures", self.ds)
        rows = {r[0][0]: r for r in cells(self.driver, "f1-figures")}
        self.assertEqual(set(rows), set(self.ds_doc["figures"]))
        for name, unit in (("et", "s"), ("n_overall", "count"), ("rt_tot_avg", "ms"),
                           ("rollback_rate", "%"), ("opm", "orders per minute"),
                           ("rt_purchase_avg_msec", "ms"), ("n_purchase_overall", "count")):
            self.assertEqual(rows[name][2][0], unit, name)
            self.assertTrue(rows[name][1][0], f"{name} has no meaning")
            self.assertEqual(float(rows[name][3][1]), self.ds_doc["figures"][name])
        head = {r[0][0]: r for r in cells(self.driver, "f1-headlines")}
        self.assertEqual(head["opm"][2][0], "per minute")

    def test_per_watt_among_the_headline_figures(self):
        path = self.power
        with open(path) as f:
            doc = json.load(f)
        self.open_report("power", path)
        measured = next(w for w in doc["power"]["windows"] if w["label"] == "measured")
        rows = {r[0][0]: r for r in cells(self.driver, "f1-headlines")}
        for name, value in measured["per_watt"].items():
            row = rows[name + "_per_w"]
            self.assertEqual(float(row[3][1]), value)
            self.assertTrue(row[2][0].endswith("per W"), row[2][0])
        # A run without power has no such row.
        self.open_report("no-power", self.ds)
        self.assertFalse([r for r in cells(self.driver, "f1-headlines")
                          if r[0][0].endswith("_per_w")])

    def test_latency_of_each_instance(self):
        with open(self.multi) as f:
            doc = json.load(f)
        self.open_report("instances", self.multi)
        rows = cells(self.driver, "f1-instance-latency")
        expected = [(i["name"], op) for i in doc["instances"] for op in i["operations"]]
        self.assertEqual(len(rows), len(expected))
        for row, (name, op) in zip(rows, expected):
            self.assertEqual(row[0][0], name)
            self.assertEqual(row[1][0], op["type"])
            self.assertEqual(int(row[2][1]), op["count"])
            self.assertEqual(float(row[6][1]), op["p99_ms"])
        chart = self.driver.find_element("id", "f1-instance-latency-chart")
        self.assertEqual(chart.get_attribute("data-x-scale"), "log")
        drawn = len(chart.find_elements("css selector", "rect.bar"))
        self.assertEqual(drawn, 2 * len([1 for _, op in expected if op["count"] > 0]))

    def test_instance_counts_tick_at_whole_numbers(self):
        search = fx.search_file("rr_search", self.multi)
        self.open_report("search", search)
        for chart in ("f1-search-chart", "f1-search-aggregate-chart"):
            ticks = self.driver.execute_script(X_TICKS_JS, chart)
            self.assertTrue(ticks, chart)
            for t in ticks:
                self.assertEqual(float(t), int(float(t)), (chart, ticks))
        # The median run at the peak (2) shows each instance's latency too.
        rows = cells(self.driver, "f1-n2-instance-latency")
        with open(self.multi) as f:
            doc = json.load(f)
        self.assertEqual(len(rows), sum(len(i["operations"]) for i in doc["instances"]))

    def test_comparison_headline_ratio_visible_beside_far_latencies(self):
        run = self.cmp_src
        a = [fx.with_headline(run, f"rr_a{i}", "A", v) for i, v in enumerate((100, 110, 120))]
        b = [fx.with_latency_scaled(fx.with_headline(run, f"rr_b{i}", "B", v), f"rr_bs{i}", "B",
                                    2000) for i, v in enumerate((130, 140, 150))]
        out = harness.tmp_path("rr_cmp.json")
        p = harness.storebench("compare", *a, *b, "--json", out, "--force")
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            doc = json.load(f)
        self.open_report("comparison", out)
        latency = [m["name"] for m in doc["metrics"] if "_ms" in m["name"]]
        self.assertTrue(latency)
        self.assertGreater(max(pp["ratio"] for m in doc["metrics"] if m["name"] in latency
                               for pp in m["pairs"]), 1000)
        # The headline's bar (about 130 %) fills a good part of its chart: latencies 2000 times
        # the first group's are on a log chart of their own.
        widths = dict(self.driver.execute_script(BAR_WIDTHS_JS, "f1-ratio-chart"))
        headline = doc["metrics"][0]["name"]
        self.assertNotIn("_ms", headline)
        self.assertFalse([n for n in widths if n.split(" · ")[0] in latency], widths)
        plot = 760 - 230 - 16  # svg_chart.cc: width less the label column and the right margin
        self.assertGreater(widths[headline + " · B"], plot / 3)
        self.assertEqual(self.svg_attr("f1-latency-ratio-chart", "data-x-scale"), "log")
        lat_bars = dict(self.driver.execute_script(BAR_WIDTHS_JS, "f1-latency-ratio-chart"))
        self.assertEqual(sorted(n.split(" · ")[0] for n in lat_bars), sorted(latency))

    def print_pdf(self, kind):
        pdf = harness.tmp_path(f"rr_{kind}.pdf")
        with open(pdf, "wb") as f:
            f.write(base64.b64decode(self.driver.print_page()))
        # -raw: the text in the order it is drawn, so a cell wrapped over two lines stays whole.
        p = subprocess.run(["pdftotext", "-raw", pdf, "-"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout

    def test_printed_tables_whole_and_headings_with_what_follows(self):
        self.open_report("print", self.ds, self.multi, self.storage)
        heads = self.driver.execute_script(
            "return [...document.querySelectorAll('table.data')].map("
            "t => [t.dataset.table, [...t.tHead.rows[0].cells].map(h => h.textContent)])")
        headings = set(self.driver.execute_script(
            "return [...document.querySelectorAll('h2,h3,h4,figcaption')]"
            ".map(h => h.textContent.trim())"))
        text = self.print_pdf("print")
        flat = "".join(text.split())
        # Every column of every table is on paper (DVD Store's latency distribution has 20
        # columns: "purchase %" was cut off at the page's edge).
        missing = [(key, h) for key, hs in heads for h in hs if "".join(h.split()) not in flat]
        self.assertEqual(missing, [])
        self.assertIn("purchase%", flat)
        # No page ends with a heading: it moves to the next page with its figure or table.
        pages = [[l.strip() for l in page.splitlines() if l.strip()] for page in text.split("\f")]
        self.assertGreater(len(pages), 3)
        for n, lines in enumerate(pages):
            if not lines:
                continue
            self.assertNotIn(lines[-1], headings, f"page {n + 1} ends with a heading")
            if len(lines) > 1:
                self.assertNotIn(lines[-2] + " " + lines[-1], headings, f"page {n + 1}")

    def test_storage_configuration_as_it_ran(self):
        # The vmtn preset keeps 64 I/Os outstanding; the option's default is 1.
        path = self.storage
        with open(path) as f:
            doc = json.load(f)
        depth = doc["storage"][0]["outstanding"]
        self.assertEqual(depth, 64)
        self.assertEqual(doc["config"]["outstanding"], depth)
        self.assertEqual(doc["config"]["workers"], doc["storage"][0]["workers"])
        # A file written before the configuration recorded it (outstanding 1) is disclosed as
        # it ran, with a note.
        old = harness.tmp_path("rr_cfg_old.json")
        doc["config"]["outstanding"] = 1
        with open(old, "w") as f:
            json.dump(doc, f)
        for name in (path, old):
            self.open_report("config", name)
            config = self.driver.find_element("css selector", "#disclosure pre.config").text
            self.assertEqual(json.loads(config)["outstanding"], depth, name)
            rows = cells(self.driver, "disclosure-storage")
            self.assertEqual([int(r[3][1]) for r in rows],
                             [t["outstanding"] for t in doc["storage"]])
        self.assertIn("outstanding 1 → 64",
                      self.driver.find_element("id", "disclosure").text)


if __name__ == "__main__":
    harness.main()
