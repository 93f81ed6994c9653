#!/usr/bin/python3
"""The HTML reports at a phone's width and a desktop's (issue 51): each page is loaded by
headless Chromium (Debian's `chromium`) in a frame 390 and 1280 CSS pixels wide, and a
script in the harness page measures what a reader would meet:

- the page never scrolls sideways: no element passes the frame's right edge unless a box
  that scrolls by itself holds it (the tables');
- each chart shown is drawn at its own width, not shrunk (its 12 px text stays 11 px or
  more) and one chart of each pair shows (desktop or phone);
- no text of a chart shown falls outside the chart (a legend or a label cut off).

Screenshots at both widths are left in OUT_DIR for a person to look at.

Usage: check_html_widths.py MLSIZE OUT_DIR. Exits 77 (CTest's skip) without chromium.
"""

import html as html_lib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
WIDTHS = {"phone": 390, "desktop": 1280}
PAGES = {
    "recommend": ["recommend", "--params", "7B", "--data", "200GB"],
    "serving": ["recommend", "--model", "llama-3-70b", "--task", "inference", "--rate", "20", "--tpot", "50ms"],
    "estimate": ["estimate", "--model", "llama-3-8b", "--task", "qlora", "--data", "1GB", "--gpus", "rtx-4090:1",
                 "--explain"],
    "estimate-no-fit": ["estimate", "--model", "llama-3-70b", "--task", "inference", "--gpus", "rtx-4090:1"],
}

# Runs in the harness once the report has loaded in its frame; writes what it measured
# into the harness's body, which --dump-dom prints.
MEASURE = r"""
document.getElementById('report').addEventListener('load', function () {
  var out = {overflowing: [], clipped: [], small: [], pairs: []};
  var d = this.contentDocument, view = d.documentElement.clientWidth;
  out.scrollWidth = d.documentElement.scrollWidth;
  out.clientWidth = view;
  function scrolls(el) {
    for (var p = el.parentElement; p && p !== d.body; p = p.parentElement) {
      var x = d.defaultView.getComputedStyle(p).overflowX;
      if (x === 'auto' || x === 'scroll') return true;
    }
    return false;
  }
  function name(el) {
    var c = el.getAttribute('class');
    return el.tagName.toLowerCase() + (c ? '.' + c.replace(/ /g, '.') : '') + ' "' +
        (el.textContent || '').trim().slice(0, 40) + '"';
  }
  d.querySelectorAll('body *').forEach(function (el) {
    var r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return;
    if (r.right > view + 1 && !scrolls(el)) out.overflowing.push(name(el) + ' right ' + Math.round(r.right));
  });
  d.querySelectorAll('svg').forEach(function (svg) {
    var s = svg.getBoundingClientRect();
    if (s.height === 0) return;
    var scale = s.width / svg.viewBox.baseVal.width;
    if (12 * scale < 11) out.small.push(svg.getAttribute('class') + ' text at ' + (12 * scale).toFixed(1) + ' px');
    svg.querySelectorAll('text').forEach(function (t) {
      var r = t.getBoundingClientRect();
      if (r.left < s.left - 1 || r.right > s.right + 1 || r.top < s.top - 1 || r.bottom > s.bottom + 1)
        out.clipped.push(svg.getAttribute('class') + ' "' + t.textContent + '"');
    });
  });
  d.querySelectorAll('figure').forEach(function (f) {
    var shown = 0;
    f.querySelectorAll('div.chart').forEach(function (b) { if (b.getBoundingClientRect().height > 0) shown++; });
    out.pairs.push(shown);
  });
  document.body.setAttribute('data-result', JSON.stringify(out));
});
"""


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def chromium(browser, profile, args, url):
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
               "--disable-extensions", "--allow-file-access-from-files", "--virtual-time-budget=10000",
               "--user-data-dir=" + profile] + args + [url]
    result = subprocess.run(command, capture_output=True, timeout=180)
    if result.returncode != 0:
        fail("%s exited %d: %s" % (" ".join(command), result.returncode, result.stderr.decode()[-2000:]))
    return result.stdout.decode("utf-8")


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    mlsize, out_dir = sys.argv[1], os.path.abspath(sys.argv[2])
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print("SKIP: no chromium (apt-get install chromium, as scripts/install-deps.sh --test does)")
        return SKIP
    os.makedirs(out_dir, exist_ok=True)
    failures = []
    with tempfile.TemporaryDirectory() as profile:
        for page, args in PAGES.items():
            report = os.path.join(out_dir, page + ".html")
            run = subprocess.run([mlsize, *args, "--format", "html", "--output", report], capture_output=True, timeout=120)
            if run.returncode not in (0, 3):
                fail("mlsize %s exited %d: %s" % (" ".join(args), run.returncode, run.stderr.decode()))
            for device, width in WIDTHS.items():
                harness = os.path.join(out_dir, "%s-%s-harness.html" % (page, device))
                with open(harness, "w", encoding="utf-8") as out:
                    out.write('<!DOCTYPE html><html><body style="margin:0">'
                              '<iframe id="report" src="%s" style="width:%dpx;height:2400px;border:0"></iframe>'
                              "<script>%s</script></body></html>\n" % (os.path.basename(report), width, MEASURE))
                dom = chromium(browser, profile, ["--dump-dom"], "file://" + harness)
                found = re.search(r'data-result="([^"]*)"', dom)
                if not found:
                    fail("%s at %d px: the harness measured nothing (is the frame's page readable?)" % (page, width))
                got = json.loads(html_lib.unescape(found.group(1)))
                where = "%s at %d px" % (page, width)
                print("%s: page %d of %d px wide, %d charts shown, %d overflowing, %d clipped, %d shrunk" % (
                    where, got["scrollWidth"], got["clientWidth"], sum(got["pairs"]), len(got["overflowing"]),
                    len(got["clipped"]), len(got["small"])))
                if got["scrollWidth"] > got["clientWidth"]:
                    failures.append("%s: the page scrolls sideways (%d px of %d)" % (
                        where, got["scrollWidth"], got["clientWidth"]))
                failures += ["%s: passes the right edge: %s" % (where, e) for e in got["overflowing"][:5]]
                failures += ["%s: chart text outside its chart: %s" % (where, e) for e in got["clipped"][:5]]
                failures += ["%s: chart shrunk: %s" % (where, e) for e in got["small"]]
                failures += ["%s: figure %d shows %d charts, not 1" % (where, i + 1, n)
                             for i, n in enumerate(got["pairs"]) if n != 1]
                screenshot = os.path.join(out_dir, "%s-%s.png" % (page, device))
                chromium(browser, profile, ["--screenshot=" + screenshot, "--window-size=%d,4200" % width],
                         "file://" + report)
                if os.path.getsize(screenshot) < 10000:
                    failures.append("%s: the screenshot is (nearly) empty" % where)
    for failure in failures:
        print("FAIL: " + failure)
    if failures:
        return 1
    print("ok: %d pages at %s px; screenshots in %s" % (
        len(PAGES), " and ".join(str(w) for w in WIDTHS.values()), out_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
