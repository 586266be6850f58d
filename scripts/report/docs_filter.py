#!/usr/bin/env python3
"""Doxygen input filter for the Markdown pages: a chapter's page gets the report's plots of the committed
results appended (the GitHub README stays as it is: its tables are enough there), and the diagrams and
README plots that a page links by a relative path (../../docs/plots/NAME.svg, which GitHub shows) are
linked by file name, which Doxygen finds on its IMAGE_PATH and copies into the site.

    docs_filter.py REPORT_DIR FILE     (Doxygen appends FILE; REPORT_DIR holds plots.json and the PNG)

Every other file passes through unchanged.
"""
from __future__ import annotations

import json
import os
import re
import sys


def plots_section(chapter: str, report_dir: str) -> str:
    try:
        with open(os.path.join(report_dir, "plots.json"), encoding="utf-8") as f:
            figures = json.load(f).get(chapter, [])
    except (OSError, ValueError):
        return ""
    figures = [(name, caption) for name, caption in figures if os.path.exists(os.path.join(report_dir, name))]
    if not figures:
        return ""
    lines = ["", "", "## Plots of the committed results", "",
             "Drawn by `scripts/report.sh` from `results/h100_lecture/` (the lecture run on the H100) when the documentation was built.", ""]
    for name, caption in figures:
        lines += [f"![{caption}]({name})", "", f"*{caption}*", ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    report_dir, path = argv[0], argv[1]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"\]\((?:\.\./)*docs/(?:plots|diagrams)/([^)/]+\.svg)\)", r"](\1)", text)
    m = re.search(r"chapters/(\d\d[a-z]?)_[^/]+/README\.md$", path.replace(os.sep, "/"))
    if m:
        text = text.rstrip("\n") + plots_section(m.group(1), report_dir) + "\n"
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
