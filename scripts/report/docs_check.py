#!/usr/bin/env python3
"""Checks in a real browser (headless Chromium) that the docs' chapter pages render with their plots.

    docs_check.py HTML_DIR PLOTS_JSON [EXPECTED]

HTML_DIR is Doxygen's output (build/docs/html), PLOTS_JSON the report's list of plots per chapter
(build/docs/report/plots.json). Every plot listed must be referenced by a page, and on every page that
shows one, Chromium must load every image (complete, with a width): a missing or broken file fails.
EXPECTED (comma-separated file names, e.g. ch10_gemm_gflops.png) are plots the committed results must
give: one that the report stopped drawing (a renamed JSON key, a plot that broke) fails too.
The pages are served over HTTP from this process, so the check page can look into them (same origin).
Exit 0: all pages render their images; 1: something is missing or broken; 77: no Chromium here.
"""
from __future__ import annotations

import functools
import glob
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import urllib.parse

CHECK_PAGE = """<!doctype html><html><body><pre id="out">pending</pre><script>
const pages = %s;
const results = {};
let left = pages.length;
function done() { document.getElementById('out').textContent = 'RESULT ' + JSON.stringify(results) + ' END'; }
function settle(page, frame) {
  const imgs = Array.from(frame.contentDocument.images);
  const wait = imgs.filter(i => !i.complete).map(i => new Promise(r => { i.onload = r; i.onerror = r; }));
  Promise.all(wait).then(() => {
    results[page] = imgs.map(i => ({src: i.getAttribute('src'), ok: i.complete && i.naturalWidth > 0,
                                    width: i.naturalWidth}));
    if (--left === 0) done();
  });
}
if (!pages.length) done();
for (const page of pages) {
  const frame = document.createElement('iframe');
  frame.onload = () => settle(page, frame);
  frame.src = page;
  document.body.appendChild(frame);
}
</script></body></html>"""


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def serve(html_dir: str, pages: list[str]) -> tuple[http.server.ThreadingHTTPServer, int]:
    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the http.server interface
            if urllib.parse.urlparse(self.path).path == "/__check.html":
                body = (CHECK_PAGE % json.dumps(pages)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            super().do_GET()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=html_dir))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    html_dir, plots_json = argv[:2]
    expected = [name for name in (argv[2].split(",") if len(argv) == 3 else []) if name]
    browser = chromium()
    if browser is None:
        print("GPGPU_SKIP: no Chromium (apt install chromium)")
        return 77
    try:
        with open(plots_json, encoding="utf-8") as f:
            plots = json.load(f)
    except (OSError, ValueError) as e:
        print(f"docs_check: cannot read {plots_json}: {e}")
        return 1
    # Which page shows which plot, from the HTML itself.
    pages: dict[str, set[str]] = {}
    for path in sorted(glob.glob(os.path.join(html_dir, "*.html"))):
        with open(path, encoding="utf-8", errors="replace") as f:
            found = set(re.findall(r'<img src="(ch\d\d[a-z]?_[a-z_]+\.png)"', f.read()))
        if found:
            pages[os.path.basename(path)] = found
    problems = []
    shown = set().union(*pages.values()) if pages else set()
    listed = {name for figures in plots.values() for name, _ in figures}
    for name in expected:
        if name not in listed:
            problems.append(f"{name}: expected from the committed results, but the report did not draw it")
    for chapter, figures in sorted(plots.items()):
        for name, _ in figures:
            if name not in shown:
                problems.append(f"chapter {chapter}: {name} is on no page")
    server, port = serve(html_dir, sorted(pages))
    try:
        proc = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                               "--virtual-time-budget=20000", "--dump-dom", f"http://127.0.0.1:{port}/__check.html"],
                              capture_output=True, text=True, timeout=180)
    finally:
        server.shutdown()
    m = re.search(r"<pre id=\"out\">RESULT (.*?) END</pre>", proc.stdout, re.DOTALL)
    if not m:
        print(f"docs_check: Chromium gave no result (exit {proc.returncode}): {proc.stderr.strip()[-500:]}")
        return 1
    results = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    for page in sorted(pages):
        images = results.get(page)
        if images is None:
            problems.append(f"{page}: did not load")
            continue
        loaded = {i["src"] for i in images if i["ok"]}
        for name in sorted(pages[page]):
            if name not in loaded:
                problems.append(f"{page}: {name} did not render")
        broken = [i["src"] for i in images if not i["ok"]]
        if broken:
            problems.append(f"{page}: broken images: {', '.join(broken)}")
        print(f"{page}: {len(loaded)} image(s) rendered, {len(pages[page])} plot(s)")
    if problems:
        print("docs_check: FAIL\n  " + "\n  ".join(problems))
        return 1
    print(f"docs_check: PASS: {len(pages)} chapter page(s), {len(shown)} plot(s) rendered in {os.path.basename(browser)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
