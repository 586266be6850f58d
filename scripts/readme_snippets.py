#!/usr/bin/env python3
"""Keeps the code the READMEs quote identical to the source it quotes: the one way a README (or any
Markdown page of the repository) shows code, on GitHub and in the Doxygen site alike.

    python3 scripts/readme_snippets.py check  [--drift] [FILE.md ...]
    python3 scripts/readme_snippets.py update [FILE.md ...]

Without files, both take every Markdown file of the repository (README.md, chapters/*/README.md,
exercises/*/README.md, docs/*.md, ...; hidden folders and build trees are skipped).

A source file marks a snippet with a line `//! [name]` before it and one after it (GLSL and OpenCL C
files too). The README quotes it as a fenced block right after an HTML comment that names it
(GitHub and Doxygen show the block and hide the comment):

    <!-- snippet: kernels/matrix/cuda/09_01_add_rowmajor.cu add_rowmajor -->
    ```cpp
    ...the lines between the two markers...
    ```

A NAME of `-` quotes the whole file (`<!-- snippet: kernels/jacobi/gl/02_03_rgba.comp - -->`). Marker
lines are never quoted. The fence's language follows from the file's extension (LANGUAGES below:
cpp for .cpp/.hpp/.cu/.cuh, c for OpenCL's .cl, glsl for .frag/.vert/.comp/.glsl, cmake, bash, ...).

The change from one snippet to another (or one whole file to another, with `-`) is a diff block:

    <!-- diff: kernels/matrix/cuda/09_01_add_rowmajor.cu add_rowmajor kernels/matrix/cuda/09_02_add_colmajor.cu add_colmajor -->
    ```diff
    ...every line of both, '-' only in the first, '+' only in the second, ' ' in both...
    ```

shows both snippets in full. Where that is too long, `diff -UN` gives a unified diff with N lines of
context around each change, with `--- FILE` / `+++ FILE` headers and `@@` hunk lines:

    <!-- diff -U3: kernels/jacobi/cuda/05_pitched.cu kernel kernels/jacobi/cuda/06_01_shared.cu kernel -->
    ```diff
    ...
    ```

The paths in the comments are relative to the repository root, wherever the README is. To add a quote, write the comment
line alone and run `update`: it adds the fenced block. `check` exits 1 naming every block that
differs from what its source gives now (or whose marker or file is missing, or whose fence has the
wrong language), every Doxygen `\\snippet` command (it shows as bare text on GitHub) and every image
whose alt text runs on to the next line (Doxygen shows the rest of the page as bare text); `update`
rewrites the blocks. The CTest tests docs.readme_snippets* run `check`.

`check --drift` also fails on what goes stale in prose (drift_findings): an issue number
(`issue 12`, `issue #12`) or a git commit hash (7-40 hex digits with a digit and a letter) outside
fenced code. Off by default while chapter READMEs still cite them (the disabled test
docs.readme_drift runs it over chapters/ and exercises/).
"""
import difflib
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
COMMENT = re.compile(r"<!-- (snippet|diff)(?: -U(\d+))?: (.*?) -->")
MARKER = re.compile(r"\s*//! \[([^\]]+)\]\s*")
FENCE = re.compile(r"(```|~~~)")
WHOLE_FILE = "-"
# The fence language of a quoted file, by extension (or by whole name).
LANGUAGES = {
    ".cpp": "cpp", ".hpp": "cpp", ".cc": "cpp", ".h": "cpp", ".cu": "cpp", ".cuh": "cpp",
    ".c": "c", ".cl": "c",
    ".frag": "glsl", ".vert": "glsl", ".comp": "glsl", ".geom": "glsl", ".glsl": "glsl",
    ".cmake": "cmake", "CMakeLists.txt": "cmake",
    ".sh": "bash", ".py": "python", ".json": "json",
}
# Drift guards (check --drift): prose that goes stale.
ISSUE = re.compile(r"\bissue #?\d+\b", re.I)
HASH = re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
# An image whose alt text does not close on its own line (`![text` with no `]` after it).
SPLIT_IMAGE = re.compile(r"!\[[^\]]*$")
SKIPPED_DIRS = {"out", "Testing", "_deps", "__pycache__", "node_modules", "tour-results"}  # and build*


class QuoteError(Exception):
    pass


def language(path):
    p = pathlib.PurePosixPath(path)
    lang = LANGUAGES.get(p.name) or LANGUAGES.get(p.suffix)
    if lang is None:
        raise QuoteError(f"no fence language for {path}: add its extension to LANGUAGES in scripts/readme_snippets.py")
    return lang


def snippet(path, name):
    """The lines of PATH between its two `//! [NAME]` markers, or all of them for NAME `-`; marker lines left out."""
    try:
        lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
    except OSError:
        raise QuoteError(f"no file {path}") from None
    if name != WHOLE_FILE:
        at = [i for i, line in enumerate(lines) if MARKER.fullmatch(line) and MARKER.fullmatch(line).group(1) == name]
        if len(at) != 2:
            raise QuoteError(f"{path}: expected two '//! [{name}]' lines, found {len(at)}")
        lines = lines[at[0] + 1:at[1]]
    return [line for line in lines if not MARKER.fullmatch(line)]


def full_diff(old, new):
    # Full context: every line of both snippets, '-' only in the old, '+' only in the new.
    out = []
    for line in difflib.ndiff(old, new):
        if line.startswith("? "):
            continue
        out.append(line[0] + line[2:] if line[0] in "+-" else " " + line[2:])
    return out


def unified_diff(old, new, old_path, new_path, context):
    return list(difflib.unified_diff(old, new, old_path, new_path, n=context, lineterm=""))


def expected(kind, context, args):
    """The (fence language, lines) that the comment `<!-- KIND[ -UCONTEXT]: ARGS -->` asks for."""
    parts = args.split()
    if kind == "snippet" and len(parts) == 2 and context is None:
        return language(parts[0]), snippet(*parts)
    if kind == "diff" and len(parts) == 4:
        old, new = snippet(parts[0], parts[1]), snippet(parts[2], parts[3])
        if context is None:
            return "diff", full_diff(old, new)
        return "diff", unified_diff(old, new, parts[0], parts[2], int(context))
    usage = "snippet: FILE NAME" if kind == "snippet" else "diff[ -UN]: FILE NAME FILE NAME"
    raise QuoteError(f"malformed comment (expected '<!-- {usage} -->', NAME '-' for the whole file)")


def fence_after(fence, line):
    """The fence open after LINE (None outside fenced code), given the one open before it."""
    m = FENCE.match(line.lstrip())
    if not m:
        return fence
    return None if fence == m.group(1) else (fence or m.group(1))


def drift_findings(lines):
    """(line number, text) of every issue number and commit hash outside fenced code."""
    found, fence = [], None
    for number, line in enumerate(lines, 1):
        before, fence = fence, fence_after(fence, line)
        if before or fence:
            continue
        found += [(number, f"issue reference '{x.group(0)}'") for x in ISSUE.finditer(line)]
        found += [(number, f"commit hash '{x.group(0)}'") for x in HASH.finditer(line)]
    return found


def process(path, update, drift):
    """Checks (or rewrites) one Markdown file. Returns (blocks, stale, problems), lists of messages:
    stale blocks are what `update` rewrites, problems what it cannot mend."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    out, stale, problems, blocks, i, fence = [], [], [], 0, 0, None
    while i < len(lines):
        line = lines[i]
        i += 1
        text = line.rstrip("\n")
        fence = fence_after(fence, text)  # other fenced code: an example comment inside it is no quote
        if fence or not text.startswith("<!-- "):
            if not fence and "\\snippet" in text:
                problems.append(f"{i}: Doxygen's \\snippet shows as bare text on GitHub: "
                                "quote with '<!-- snippet: FILE NAME -->' instead")
            if not fence and SPLIT_IMAGE.search(text):
                problems.append(f"{i}: an image's alt text goes on to the next line: Doxygen shows the page "
                                "from there on as bare text; keep '![...](...)' on one line")
            out.append(line)
            continue
        c = COMMENT.fullmatch(text)
        if not c:
            if re.match(r"<!-- (snippet|diff)\b", text):
                problems.append(f"{i}: malformed quote comment '{text}'")
            out.append(line)
            continue
        kind, context, args = c.groups()
        # The fenced block after the comment, if there is one: lines[i] .. lines[end] (the closing fence).
        body_start, end, lang = i, None, None
        if i < len(lines) and lines[i].startswith("```"):
            lang = lines[i].rstrip("\n")[3:]
            end = next((j for j in range(i + 1, len(lines)) if lines[j].rstrip("\n") == "```"), None)
            if end is None:
                problems.append(f"{i}: the block after '{text}' has no closing ```")
                out.append(line)
                continue
        try:
            want_lang, want = expected(kind, context, args)
        except QuoteError as e:
            problems.append(f"{i}: {text}: {e}")
            out.append(line)
            continue
        blocks += 1
        block = [f"```{want_lang}\n"] + [w + "\n" for w in want] + ["```\n"]
        if end is None:
            stale.append(f"{i}: {kind}: {args}: no fenced block after the comment")
        elif lang != want_lang:
            stale.append(f"{i}: {kind}: {args}: fence language '{lang}', expected '{want_lang}'")
        elif lines[body_start + 1:end] != block[1:-1]:
            stale.append(f"{i}: {kind}: {args}: the block differs from its source")
        out.append(line)
        out += block
        if end is not None:
            i = end + 1
    if drift:
        problems += [f"{n}: {what} (prose that goes stale)" for n, what in drift_findings(
            [x.rstrip("\n") for x in lines])]
    if update:
        new_text = "".join(out)
        if new_text != "".join(lines):
            path.write_text(new_text, encoding="utf-8")
    return blocks, stale, problems


def markdown_files():
    """Every Markdown file of the repository, hidden folders and build trees left out."""
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "build")) and d not in SKIPPED_DIRS
                         and not (pathlib.Path(folder, d) / "CMakeCache.txt").exists())
        found += [pathlib.Path(folder, f) for f in sorted(files) if f.endswith(".md")]
    return found


def main(argv):
    args = argv[1:]
    drift = "--drift" in args
    args = [a for a in args if a != "--drift"]
    if not args or args[0] not in ("check", "update") or (drift and args[0] != "check") \
            or any(a.startswith("-") for a in args[1:]):
        print(__doc__, file=sys.stderr)
        return 2
    update = args[0] == "update"
    files = [pathlib.Path(a) for a in args[1:]] or markdown_files()
    total, failed, any_stale = 0, 0, False
    for path in files:
        shown = os.path.relpath(path.resolve(), ROOT) if ROOT in path.resolve().parents else str(path)
        try:
            blocks, stale, problems = process(path, update, drift)
        except OSError as e:
            blocks, stale, problems = 0, [], [f"0: cannot read: {e}"]
        total += blocks
        if update and stale:
            print(f"{shown}: {len(stale)} block(s) rewritten")
        elif not update:
            problems = stale + problems
            any_stale = any_stale or bool(stale)
        for p in problems:
            print(f"{shown}:{p}")
        failed += bool(problems)
    if total == 0 and not args[1:]:
        print("no <!-- snippet: --> or <!-- diff: --> block in any Markdown file of the repository")
        return 1
    verb = "updated" if update else "checked"
    print(f"{verb} {total} quoted block(s) in {len(files)} file(s); {failed} file(s) with problems"
          + (" (scripts/readme_snippets.py update rewrites the stale blocks)" if any_stale else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
