#!/usr/bin/env python3
"""Keeps the code a chapter README quotes identical to the source it quotes.

    python3 scripts/readme_snippets.py check  chapters/09_matrix_add_transpose/README.md
    python3 scripts/readme_snippets.py update chapters/09_matrix_add_transpose/README.md

A source file marks a snippet with Doxygen's markers, a line `//! [name]` before and after it. The
README quotes it as a fenced block right after a comment that names it:

    <!-- snippet: kernels/matrix/cuda/09_add_rowmajor.cu add_rowmajor -->
    ```cpp
    ...the lines between the markers...
    ```

and shows the change from one snippet to another as a diff with every line as context:

    <!-- diff: kernels/matrix/cuda/09_add_rowmajor.cu add_rowmajor kernels/matrix/cuda/09_add_colmajor.cu add_colmajor -->
    ```diff
    ...
    ```

`check` exits 1 naming every block that differs from what its source gives now (a test runs it);
`update` rewrites those blocks. Paths are relative to the repository root.
"""
import difflib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
COMMENT = re.compile(r"<!-- (snippet|diff): ([^>]*?) -->\n```(\w+)\n(.*?)```\n", re.S)


def snippet(path, name):
    lines = (ROOT / path).read_text().splitlines()
    marker = f"//! [{name}]"
    at = [i for i, line in enumerate(lines) if line.strip() == marker]
    if len(at) != 2:
        raise SystemExit(f"{path}: expected two '{marker}' lines, found {len(at)}")
    return lines[at[0] + 1:at[1]]


def diff(old, new):
    # Full context: every line of both snippets, '-' only in the old, '+' only in the new.
    out = []
    for line in difflib.ndiff(old, new):
        if line.startswith("? "):
            continue
        out.append(line[0] + line[2:] if line[0] in "+-" else " " + line[2:])
    return out


def expected(kind, args):
    parts = args.split()
    if kind == "snippet" and len(parts) == 2:
        return snippet(*parts)
    if kind == "diff" and len(parts) == 4:
        return diff(snippet(parts[0], parts[1]), snippet(parts[2], parts[3]))
    raise SystemExit(f"malformed '<!-- {kind}: {args} -->'")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("check", "update"):
        raise SystemExit(__doc__)
    mode, readme = sys.argv[1], pathlib.Path(sys.argv[2])
    text = readme.read_text()
    stale, blocks = [], 0

    def replace(m):
        nonlocal blocks
        blocks += 1
        kind, args, lang, body = m.groups()
        want = "\n".join(expected(kind, args)) + "\n"
        if body != want:
            stale.append(f"{kind}: {args}")
        return f"<!-- {kind}: {args} -->\n```{lang}\n{want}```\n"

    new_text = COMMENT.sub(replace, text)
    if mode == "update":
        readme.write_text(new_text)
        print(f"{readme}: {blocks} block(s), {len(stale)} rewritten")
        return 0
    for s in stale:
        print(f"{readme}: the block of '{s}' differs from its source (run scripts/readme_snippets.py update)")
    print(f"{readme}: {blocks} quoted block(s), {len(stale)} stale")
    return 1 if stale or blocks == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
