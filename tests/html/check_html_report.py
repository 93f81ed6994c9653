#!/usr/bin/python3
"""The HTML report in a real browser: `mlsize recommend --format html` rendered by headless
Chromium (Debian's `chromium`), its DOM checked for the charts' elements and its screenshot
for the charts' colours; and a catalogue overlay with markup in an offering's name rendered
as text, not run.

Usage: check_html_report.py MLSIZE OUT_DIR [SOURCE_DIR]. Exits 77 (CTest's skip) when no
chromium is installed; scripts/install-deps.sh --test installs it, so CI runs the test.
"""

import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SKIP = 77


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run_mlsize(mlsize, args, out_path):
    result = subprocess.run([mlsize] + args, capture_output=True, timeout=120)
    if result.returncode != 0:
        fail("mlsize %s exited %d: %s" % (" ".join(args), result.returncode, result.stderr.decode()))
    with open(out_path, "wb") as out:
        out.write(result.stdout)
    return result.stdout.decode("utf-8")


def chromium(browser, profile, args, html_path):
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--no-first-run", "--disable-extensions", "--user-data-dir=" + profile] + args + \
              ["file://" + os.path.abspath(html_path)]
    result = subprocess.run(command, capture_output=True, timeout=180)
    if result.returncode != 0:
        fail("%s exited %d: %s" % (" ".join(command), result.returncode, result.stderr.decode()[-2000:]))
    return result.stdout.decode("utf-8")


def decode_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA PNG, with zlib alone."""
    with open(path, "rb") as png:
        data = png.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(path + " is not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        fail("unexpected PNG layout: depth %d colour type %d interlace %d" % (depth, colour, interlace))
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else up_left
                line[i] = (line[i] + predictor) & 0xFF
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, channels)])
        previous = line
    return width, height, rows


def hex_colour(text):
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


def check_static(html):
    """What the page must hold before any browser sees it."""
    if re.search(r"https?://", html):
        fail("the page names a URL: " + re.search(r".{0,60}https?://.{0,60}", html).group(0))
    if "<script" in html.lower():
        fail("the page has a <script> element")
    # Each chart twice: laid out for a desktop and for a phone (render_html.cpp responsive_chart).
    for pattern, count in ((r'<svg class="scatter"', 2), (r'<svg class="memory"', 2)):
        found = len(re.findall(pattern, html))
        if found != count:
            fail("%d of %s in the page, expected %d" % (found, pattern, count))


def check_dom(dom):
    """The charts' elements in the DOM Chromium built: the points, the front, the bars."""
    counts = {
        "plan points": len(re.findall(r'<circle class="plan[" ]', dom)),
        "top plans": len(re.findall(r'<circle class="plan top"', dom)),
        "Pareto front": len(re.findall(r'<path class="pareto-front"', dom)),
        "memory segments": len(re.findall(r'<rect class="term ', dom)),
        "capacity lines": len(re.findall(r'<line class="capacity"', dom)),
        "rank labels": len(re.findall(r'<text class="rank"', dom)),
    }
    print("DOM: " + ", ".join("%s %d" % item for item in counts.items()))
    for what, least in (("plan points", 20), ("top plans", 10), ("Pareto front", 1), ("memory segments", 15),
                        ("capacity lines", 5), ("rank labels", 10)):
        if counts[what] < least:
            fail("%d %s in the rendered DOM, expected at least %d" % (counts[what], what, least))


def check_screenshot(path):
    """Not blank, and each chart's solid colours cover some pixels."""
    width, height, rows = decode_png(path)
    colours, ink = {}, 0
    for row in rows:
        for pixel in row:
            colours[pixel] = colours.get(pixel, 0) + 1
            if pixel != (255, 255, 255):
                ink += 1
    print("screenshot %s: %dx%d, %d distinct colours, %.1f%% not white"
          % (path, width, height, len(colours), 100.0 * ink / (width * height)))
    if len(colours) < 50 or ink < width * height // 50:
        fail("the screenshot is (nearly) blank")
    # Colours drawn solid (render_svg.cpp): the top plans, the memory terms of a training plan.
    wanted = {"top plans (#1f3a5f)": "#1f3a5f", "weights (#4e79a7)": "#4e79a7", "gradients (#f28e2b)": "#f28e2b",
              "optimizer (#e15759)": "#e15759", "activations (#76b7b2)": "#76b7b2", "overhead (#bab0ac)": "#bab0ac"}
    for what, colour in wanted.items():
        pixels = colours.get(hex_colour(colour), 0)
        print("  %s: %d pixels" % (what, pixels))
        if pixels < 100:
            fail("%d pixels of %s in the screenshot: is the chart drawn?" % (pixels, what))


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    mlsize, out_dir = sys.argv[1], sys.argv[2]
    source_dir = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__), "..", "..")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print("SKIP: no chromium (apt-get install chromium, as scripts/install-deps.sh --test does)")
        return SKIP
    os.makedirs(out_dir, exist_ok=True)

    report = os.path.join(out_dir, "recommend.html")
    html = run_mlsize(mlsize, ["recommend", "--params", "7B", "--data", "200GB", "--format", "html"], report)
    check_static(html)
    with tempfile.TemporaryDirectory() as profile:
        check_dom(chromium(browser, profile, ["--dump-dom"], report))
        screenshot = os.path.join(out_dir, "recommend.png")
        chromium(browser, profile, ["--screenshot=" + screenshot, "--window-size=1280,2600"], report)
        check_screenshot(screenshot)

        # Markup in a catalogue overlay's offering is text: nothing runs, no element is made.
        hostile = os.path.join(out_dir, "hostile.html")
        overlay = os.path.join(source_dir, "tests", "html", "hostile-catalog.yaml")
        html = run_mlsize(mlsize, ["recommend", "--params", "7B", "--data", "200GB", "--no-user-catalog",
                                   "--catalog", overlay, "--format", "html"], hostile)
        if "&lt;script&gt;" not in html:
            fail("the overlay's offering name is not in the page, escaped")
        if "<script" in html.lower() or "<img" in html.lower():
            fail("markup from the overlay reached the page unescaped")
        dom = chromium(browser, profile, ["--dump-dom"], hostile)
        if "data-pwned" in dom.split("<body", 1)[0] or "<img" in dom or "<script" in dom:
            fail("markup from the overlay ran or became an element in Chromium")
    print("ok: %s and %s render in %s" % (report, hostile, browser))
    return 0


if __name__ == "__main__":
    sys.exit(main())
