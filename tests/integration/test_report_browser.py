"""storebench report opened in headless Chromium (Debian's chromium, chromium-driver and
python3-selenium): no console errors, every chart drawn, the tables' figures equal to the JSON's,
hostile text shown as text, and a screenshot of each kind of report kept under the build tree
(test-artifacts/report/)."""
import base64
import concurrent.futures
import json
import os
import re
import shutil
import tempfile
import unittest

import harness
import report_fixtures as fx

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--window-size=1400,1000"]

# Draws the svg into a canvas and counts the pixels that are not white: a chart that is present
# but blank counts (almost) none.
INK_JS = """
const svg = arguments[0], done = arguments[arguments.length - 1];
const text = new XMLSerializer().serializeToString(svg);
const img = new Image();
img.onload = () => {
  const c = document.createElement('canvas');
  c.width = img.width || 760; c.height = img.height || 280;
  const g = c.getContext('2d');
  g.fillStyle = '#fff'; g.fillRect(0, 0, c.width, c.height);
  g.drawImage(img, 0, 0);
  const d = g.getImageData(0, 0, c.width, c.height).data;
  let ink = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] < 200 || d[i+1] < 200 || d[i+2] < 200) ink++;
  done(ink);
};
img.onerror = () => done(-1);
img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(text);
"""

# The length of drawn lines and the area of drawn bars inside one chart.
DRAWN_JS = """
const svg = arguments[0];
let len = 0, area = 0;
for (const p of svg.querySelectorAll('path.series')) len += p.getTotalLength();
for (const r of svg.querySelectorAll('rect.bar')) { const b = r.getBBox(); area += b.width * b.height; }
return [len, area];
"""


# Every chart of the page at once (one call instead of four per chart): its id, DRAWN_JS's
# length and area, INK_JS's inked pixels, and whether its outermost figure holds a data table.
CHARTS_JS = """
const done = arguments[arguments.length - 1];
const drawn = new Function(%s);
const ink = svg => new Promise(resolve => new Function(%s)(svg, resolve));
(async () => {
  const out = [];
  for (const svg of document.querySelectorAll('svg.chart')) {
    let fig = null;
    for (let e = svg.parentElement; e; e = e.parentElement) if (e.tagName == 'FIGURE') fig = e;
    out.push([svg.getAttribute('id'), ...drawn.call(null, svg), await ink(svg),
              fig !== null, fig !== null && fig.querySelector('table.data') !== null]);
  }
  done(out);
})();
""" % (json.dumps(DRAWN_JS), json.dumps(INK_JS))

# Elements whose content is cut off behind a scroll box.
CLIPPED_JS = """
return [...document.querySelectorAll('*')].filter(
    e => getComputedStyle(e).overflowY != 'visible' && e.scrollHeight > e.clientHeight + 1).length;
"""


def browser_installed():
    import importlib.util
    return bool(importlib.util.find_spec("selenium") and shutil.which("chromium")
                and shutil.which("chromedriver"))


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    for flag in CHROMIUM_FLAGS:
        opts.add_argument(flag)
    opts.add_argument("--user-data-dir=" + tempfile.mkdtemp(prefix="sb-chromium-"))
    opts.binary_location = shutil.which("chromium")
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=opts)


def cells(driver, table_key):
    """Rows of the table data-table=key as lists of (text, data-value)."""
    return driver.execute_script("""
      const t = document.querySelector('table[data-table="' + arguments[0] + '"]');
      if (!t) return null;
      return [...t.tBodies[0].rows].map(r => [...r.cells].map(
          c => [c.textContent, c.getAttribute('data-value')]));
    """, table_key)


class ReportBrowserTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not browser_installed():
            msg = "headless Chromium with selenium is not installed (scripts/install-deps.sh)"
            if os.environ.get("CI"):
                raise AssertionError(msg)
            raise unittest.SkipTest(msg)
        cls.artifacts = os.path.join(os.path.dirname(os.path.abspath(harness.ARGS.tmp)),
                                     "test-artifacts", "report")
        os.makedirs(cls.artifacts, exist_ok=True)
        # The storage run (8 s, the longest) goes on while the first cases, which do not read
        # it, run: the storage property waits for it.
        cls.storage_run = concurrent.futures.ThreadPoolExecutor(1).submit(
            fx.storage_run, "rb_io", "io")
        # The power case's run too (made in its case after the others before: 3 s), and the
        # browser's start beside them.
        cls.driver, cls.run_file, cls.multi, cls.power = fx.in_parallel(
            browser,
            lambda: fx.run_noop("rb_run", fx.HOSTILE),
            lambda: fx.run_noop("rb_multi", "multi", threads=1, instances=3),
            lambda: fx.run_noop("rb_power", "power", extra=("--power", "cmd:echo 150.5")))
        cls.exec_file = harness.tmp_path("rb_exec.json")
        p = harness.storebench("exec", "--label", "ex", "--json", cls.exec_file, "--",
                               "sh", "-c", "exit 0")
        assert p.returncode == 0, p.stderr
        cls.search = fx.search_file("rb_search", cls.multi)
        a = [fx.with_headline(cls.run_file, f"rb_a{i}", fx.HOSTILE, v)
             for i, v in enumerate((100, 110, 120))]
        b = [fx.with_headline(cls.run_file, f"rb_b{i}", "B", v) for i, v in enumerate((130, 140, 150))]
        cls.comparison = harness.tmp_path("rb_cmp.json")
        p = harness.storebench("compare", *a, *b, "--json", cls.comparison, "--force")
        assert p.returncode == 0, p.stderr

    @classmethod
    def tearDownClass(cls):
        cls.storage_run.exception()  # ended, whatever became of it
        cls.driver.quit()

    @property
    def storage(self):
        return self.storage_run.result()

    def open_report(self, kind, *files):
        out = harness.tmp_path(f"rb_report_{kind}.html")
        p = harness.storebench("report", *files, "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.driver.get("file://" + os.path.abspath(out))
        self.driver.get_log("browser")  # nothing before the page counts
        self.driver.refresh()
        return out

    def check_page(self, kind, min_charts):
        d = self.driver
        errors = [e for e in d.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
        self.assertEqual(errors, [], "console errors")
        charts = d.execute_async_script(CHARTS_JS)
        self.assertGreaterEqual(len(charts), min_charts)
        for cid, length, area, ink, in_figure, with_table in charts:
            self.assertGreater(length + area, 0, f"chart {cid} draws nothing")
            self.assertGreater(ink, 500, f"chart {cid} renders blank ({ink} inked pixels)")
            # Every chart sits in a figure with its table.
            self.assertTrue(in_figure, f"chart {cid} is in no figure")
            self.assertTrue(with_table, cid)
        # No script ran and none exists: the page is static and input is escaped.
        self.assertIsNone(d.execute_script("return window.__pwned"))
        self.assertEqual(d.execute_script("return document.scripts.length"), 0)
        # Self-contained: nothing is fetched (every link and source is a fragment of the page).
        outside = d.execute_script("""
          return [...document.querySelectorAll('[src],[href],link,iframe,object,embed')]
              .map(e => e.getAttribute('src') || e.getAttribute('href') || e.tagName)
              .filter(v => !v.startsWith('#'));""")
        self.assertEqual(outside, [])
        # The whole page (at most 16,000 px) in one capture of the page beyond the window
        # (Chrome DevTools Protocol, Page.captureScreenshot): resizing the window to the page's
        # height and back took longer than the capture itself (the page of every kind: 5.8 s
        # against 2.4 s).
        width, height = d.execute_script("return [document.documentElement.clientWidth, "
                                         "document.body.scrollHeight]")
        shot = d.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": min(max(height, 800), 16000),
                     "scale": 1}})
        with open(os.path.join(self.artifacts, f"{kind}.png"), "wb") as fh:
            fh.write(base64.b64decode(shot["data"]))

    def test_run_report(self):
        self.open_report("run", self.run_file)
        self.check_page("run", min_charts=5)
        with open(self.run_file) as f:
            doc = json.load(f)
        rows = cells(self.driver, "f1-headlines")
        for name, value in doc["headlines"].items():
            row = next(r for r in rows if r[0][0] == name)
            self.assertEqual(float(row[3][1]), value, name)  # metric, meaning, unit, value
        # The per-second table: each headline per second as the JSON's points give it.
        spec = doc["headline_specs"][0]
        pts = doc["time_series"]["points"]
        rows = cells(self.driver, "f1-throughput")
        self.assertEqual(len(rows), len(pts))
        start = 0  # each point covers the time since the previous one
        drawn = 0  # the chart leaves out points shorter than half a second
        for row, p in zip(rows, pts):
            count = sum(t["weight"] * p["counts"][t["index"]] for t in spec["types"])
            expected = count / (p["t"] - start) * spec["per_second"]
            drawn += p["t"] - start >= 0.5
            start = p["t"]
            self.assertAlmostEqual(float(row[2][1]), expected, delta=1e-9 * max(1, expected))
        path = self.driver.find_element(
            "css selector", "#f1-throughput-chart path.series").get_attribute("d")
        self.assertEqual(path.count("M") + path.count("L"), drawn)
        lat = cells(self.driver, "f1-latency")
        for row, op in zip(lat, doc["operations"]):
            self.assertEqual(row[0][0], op["type"])
            self.assertEqual(float(row[7][1]), op["p99_ms"])
        # The latency distribution: each bin's count is the sum of the JSON histogram's buckets
        # whose lower bound lies in the bin, and every operation is in some bin.
        dist = cells(self.driver, "f1-latency-distribution")
        self.assertTrue(dist)
        ops = [op for op in doc["operations"] if op["count"] > 0]
        self.assertTrue(ops)
        for i, op in enumerate(ops):
            buckets = op["histogram"]["buckets"]
            self.assertEqual(sum(n for _, n in buckets), op["count"])
            shown = 0
            for row in dist:
                lo, hi = round(float(row[0][1]) * 1e6), round(float(row[1][1]) * 1e6)
                n = int(row[2 + 2 * i][1])
                self.assertEqual(n, sum(c for low, c in buckets if lo <= low < hi), (op["type"], lo))
                shown += n
            self.assertEqual(shown, op["count"], op["type"])
        # Errors, retries and the other counters per second, driver CPU and the system under
        # test's CPU: every cell beside those charts is the JSON's figure.
        close = lambda a, b: self.assertAlmostEqual(a, b, delta=1e-9 * max(1.0, abs(b)))
        names = doc["time_series"]["counter_names"]
        self.assertIn("retries", names)
        rows = cells(self.driver, "f1-counters")
        self.assertEqual(len(rows), len(pts))
        for row, p in zip(rows, pts):
            close(float(row[0][1]), p["t"])
            self.assertEqual([int(c[1]) for c in row[1:]], p["counters"])
        drv = {r[0][0]: float(r[1][1]) for r in cells(self.driver, "f1-driver-cpu")}
        close(drv["CPU seconds over the measured window"], doc["driver"]["cpu_sec"])
        close(drv["CPU seconds per headline unit"], doc["driver"]["cpu_sec_per_op"])
        close(drv["share of one core"], doc["driver"]["cpu_share_of_core"])
        sut = doc["sut_cpu"]["points"]
        rows = cells(self.driver, "f1-sut-cpu")
        self.assertEqual(len(rows), len(sut["t"]))
        self.assertTrue(rows)
        for i, row in enumerate(rows):
            for col, key in enumerate(("t", "utilization_pct", "user_pct", "system_pct",
                                       "iowait_pct", "steal_pct")):
                close(float(row[col][1]), sut[key][i])
        # The full disclosure: the host and versions, and the choices, as the result records them.
        env = cells(self.driver, "disclosure-environment")
        self.assertEqual({r[0][0]: r[1][0] for r in env}, doc["environment"])
        choices = cells(self.driver, "disclosure-choices")
        self.assertEqual({r[0][0]: r[1][0] for r in choices}, doc["choices"])
        # The hostile label is shown as the text it is.
        body = self.driver.find_element("tag name", "body").text
        self.assertIn(fx.HOSTILE, body)
        # Warm-up and the window are drawn as bands, the baseline as a line.
        chart = self.driver.find_element("id", "f1-throughput-chart")
        self.assertTrue(chart.find_elements("css selector", "rect.band.warmup"))
        self.assertTrue(chart.find_elements("css selector", "rect.band.window"))
        self.assertTrue(chart.find_elements("css selector", "line.ref"))

    def test_power_in_run_report(self):
        # A run with a real power source: a command printing watts (docs/power.md).
        path = self.power
        with open(path) as f:
            doc = json.load(f)
        self.open_report("run-power", path)
        self.check_page("run-power", min_charts=6)
        rows = cells(self.driver, "f1-power")
        sums = doc["power"]["points"]["sum_w"]
        self.assertEqual(len(rows), len(sums))
        for row, w in zip(rows, sums):
            self.assertEqual(None if row[1][1] is None else float(row[1][1]), w)
        measured = next(w for w in doc["power"]["windows"] if w["label"] == "measured")
        caption = self.driver.find_element(
            "xpath", "//table[@data-table='f1-power']/ancestor::figure/figcaption").text
        self.assertIn("mean " + f"{measured['avg_w']:.3f}" + " W", caption)
        windows = cells(self.driver, "f1-power-windows")
        self.assertEqual([r[0][0] for r in windows], [w["label"] for w in doc["power"]["windows"]])
        for row, w in zip(windows, doc["power"]["windows"]):
            self.assertEqual(float(row[5][1]), w["avg_w"])
            name, per_watt = next(iter(w["per_watt"].items()))
            self.assertEqual(float(row[7][1]), per_watt, name)

    def test_consolidation_run_report(self):
        self.open_report("consolidation-run", self.multi)
        self.check_page("consolidation-run", min_charts=5)
        with open(self.multi) as f:
            doc = json.load(f)
        chart = self.driver.find_element("id", "f1-instances-chart")
        self.assertEqual(len(chart.find_elements("css selector", "path.series")),
                         len(doc["instances"]))
        rows = cells(self.driver, "f1-instances")
        for row, inst in zip(rows, doc["instances"]):
            self.assertEqual(row[0][0], inst["name"])
            self.assertEqual(float(row[2][1]), inst["headlines"]["ops_per_minute"])
        # The databases' names carry markup (fx.HOSTILE_DB): shown as text, never parsed.
        body = self.driver.find_element("tag name", "body").text
        for inst in doc["instances"]:
            self.assertIn(fx.HOSTILE_DB, inst["target"])
            self.assertIn(inst["target"], body)

    def test_storage_report(self):
        self.open_report("storage", self.storage)
        self.check_page("storage", min_charts=4)
        with open(self.storage) as f:
            doc = json.load(f)
        rows = cells(self.driver, "f1-vmtn")
        self.assertEqual(len(rows), len(doc["storage"]))
        for row, t in zip(rows, doc["storage"]):
            self.assertEqual(row[0][0], t["name"])
            self.assertAlmostEqual(float(row[1][1]), t["avg_response_ms"], places=9)
            self.assertAlmostEqual(float(row[2][1]), t["iops"], delta=1e-9 * t["iops"])
            self.assertAlmostEqual(float(row[3][1]), t["mib_per_sec"],
                                   delta=1e-9 * max(1, t["mib_per_sec"]))
            self.assertAlmostEqual(float(row[4][1]), t["cpu"]["utilization_pct"], places=9)
        head = self.driver.execute_script(
            "return [...document.querySelectorAll('table[data-table=\"f1-vmtn\"] th')]"
            ".map(h => h.textContent)")
        self.assertEqual(head, ["Test name", "Av. Resp. Time ms", "Av. IOs/sec", "Av. MB/sec",
                                "CPU util. %"])

    def test_search_report(self):
        self.open_report("consolidation-search", self.search)
        self.check_page("consolidation-search", min_charts=3)
        with open(self.search) as f:
            doc = json.load(f)
        rows = cells(self.driver, "f1-verdicts")
        for row, c in zip(rows, doc["counts"]):
            run = c["runs"][c["median_run"]]
            self.assertEqual(int(row[0][1]), c["count"])
            self.assertEqual(float(row[2][1]), run["instance_min"])
            self.assertEqual(float(row[3][1]), run["instance_median"])
            self.assertEqual(float(row[4][1]), run["aggregate"])
            self.assertEqual(row[5][0], "PASS" if c["passed"] else "FAIL")
        chart = self.driver.find_element("id", "f1-search-chart")
        self.assertTrue(chart.find_elements("css selector", "line.ref"), "baseline line")

    def test_comparison_report(self):
        self.open_report("comparison", self.comparison)
        self.check_page("comparison", min_charts=1)
        with open(self.comparison) as f:
            doc = json.load(f)
        rows = cells(self.driver, "f1-ratios")
        pairs = [(m["name"], p) for m in doc["metrics"] for p in m["pairs"]]
        self.assertEqual(len(rows), len(pairs))
        for row, (name, p) in zip(rows, pairs):
            self.assertEqual(row[0][0], name)
            self.assertEqual(float(row[2][1]), p["ratio"])
            if p["ci_low"] is not None:
                self.assertAlmostEqual(float(row[4][1]), 100 * p["ci_low"], places=9)
        bars = self.driver.find_elements("css selector", "#f1-ratio-chart path.errorbar")
        self.assertGreater(len(bars), 0)
        # The normalized table: each group's figures and its share of the reference, as the JSON.
        rows = cells(self.driver, "f1-normalized")
        groups = [(m, g) for m in doc["metrics"] for g in m["groups"]]
        self.assertEqual(len(rows), len(groups))
        for row, (m, g) in zip(rows, groups):
            self.assertTrue(row[0][0].startswith(m["name"]))
            self.assertEqual(row[1][0], g["label"])
            self.assertEqual(int(row[2][1]), g["runs"])
            for col, key in ((3, "median"), (4, "min"), (5, "max"), (6, "mean"),
                             (8, "normalized_pct")):
                self.assertAlmostEqual(float(row[col][1]), g[key], delta=1e-9 * abs(g[key]),
                                       msg=(m["name"], g["label"], key))
            self.assertEqual(row[9][0], m["reference"])
        self.assertIn(fx.HOSTILE, self.driver.find_element("tag name", "body").text)

    def test_exec_and_everything_in_one_report(self):
        self.open_report("all", self.run_file, self.multi, self.storage, self.exec_file, self.search,
                         self.comparison)
        self.check_page("all", min_charts=18)
        kinds = self.driver.execute_script(
            "return [...document.querySelectorAll('section.result')].map(s => s.dataset.kind)")
        self.assertEqual(kinds, ["run", "consolidation run", "storage run", "timed command",
                                 "consolidation search", "comparison"])
        self.assertTrue(self.driver.find_elements("id", "disclosure"))
        # Printable: on screen long tables scroll in a box; in print nothing is cut off, and each
        # result starts a page of its own.
        self.assertGreater(self.driver.execute_script(CLIPPED_JS), 0)
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        try:
            self.assertEqual(self.driver.execute_script(CLIPPED_JS), 0)
        finally:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        pdf = base64.b64decode(self.driver.print_page())
        self.assertGreater(len(re.findall(rb"/Type\s*/Page[^s]", pdf)), len(kinds))


if __name__ == "__main__":
    harness.main()
