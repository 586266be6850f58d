#!/usr/bin/env python3
"""Every repository path written in the repository's Markdown or in a code comment exists.

    python3 scripts/check_paths.py [FILE ...]

Without files it reads every Markdown file and every source, CMake, Python and shell file of the
repository (build trees, hidden folders and results/ left out, below). It prints one line per path
that does not exist (FILE:LINE: PATH) and exits 1 when there is one.

What counts as a repository path (the rule is kept simple on purpose):
  - a word that starts with one of the repository's top-level folders and a slash
    (`kernels/blas/cuda/10_01_naive.cu`, `chapters/03_cuda_simple/`), in Markdown anywhere, in code
    only inside a comment (// and /* */ in C++, CUDA, OpenCL C and GLSL; # in CMake, Python, shell);
  - the target of a Markdown link, `[text](target)`, relative to the Markdown file (a URL or an
    anchor is no path).
A path with a pattern in it (`*`, `...`, `<name>`, `{a,b}`, `NN_name`, `NN_SS_name.cu`) must match at
least one file or folder.

What is allowed without a check, and why (the false positives, stated):
  - words that start elsewhere: build trees (`build/`, `build-h100/`), a run's output folders
    (`out/`, `tour-results/`, `DIR/...`), absolute paths (`/usr/local/cuda`), include paths
    (`gpgpu/cli.hpp`, `blas/cuda/launchers.hpp`): none of them starts with a top-level folder;
  - the files under results/: records of past runs, which name the files as they were then;
  - paths into a top-level folder that .gitignore names (`.peers/fast.cu`, fetched for a device run):
    a clone never has them;
  - a line that says `paths: not checked` (for a sentence that names a path on purpose as gone).
"""
import glob
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SKIPPED_DIRS = {".git", "out", "Testing", "_deps", "__pycache__", "node_modules", "tour-results", "results"}
C_LIKE = {".cpp", ".hpp", ".h", ".cu", ".cuh", ".cl", ".frag", ".vert", ".comp", ".glsl", ".geom"}
HASH_COMMENTS = {".cmake", ".py", ".sh"}
NOT_CHECKED = "paths: not checked"
PATH_CHARS = r"[A-Za-z0-9_./*{},<>+-]"
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def ignored_top_folders():
    """Top-level folders .gitignore names (`/.peers/`): fetched or made on one machine, never in a
    clone, so a path into one is no repository path (and may or may not be there)."""
    names = set()
    gitignore = ROOT / ".gitignore"
    for line in gitignore.read_text().splitlines() if gitignore.exists() else []:
        name = line.strip().strip("/")
        if line.strip().endswith("/") and name and "/" not in name and not any(c in name for c in "*?[!#"):
            names.add(name)
    return names


def top_folders():
    """The repository's top-level folders (hidden ones too: .ci/run is a path one may write), but not
    the build trees nor a folder .gitignore names."""
    ignored = ignored_top_folders()
    return sorted(p.name for p in ROOT.iterdir()
                  if p.is_dir() and p.name != ".git" and not p.name.startswith("build") and p.name not in ignored)


def source_files():
    """Every file this check reads, from git when the tree is a checkout, else by walking it."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split("\n")
        files = [ROOT / f for f in out if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(ROOT):
            dirs[:] = [x for x in dirs if x not in SKIPPED_DIRS and not x.startswith("build")]
            files += [pathlib.Path(d) / n for n in names]
    keep = []
    ignored = ignored_top_folders()
    for f in files:
        rel = f.relative_to(ROOT).parts
        if any(p in SKIPPED_DIRS or p.startswith("build") for p in rel[:-1]) or not f.is_file() or rel[0] in ignored:
            continue
        if f.suffix in C_LIKE | HASH_COMMENTS | {".md"} or f.name == "CMakeLists.txt":
            keep.append(f)
    return sorted(keep)


def comment_lines(path, text):
    """(line number, text) of what a reader reads as prose: all of a Markdown file, the comments of code."""
    lines = text.split("\n")
    if path.suffix == ".md":
        return list(enumerate(lines, 1))
    out = []
    if path.suffix in C_LIKE:
        in_block = False
        for n, line in enumerate(lines, 1):
            rest, prose = line, []
            while rest:
                if in_block:
                    end = rest.find("*/")
                    prose.append(rest if end < 0 else rest[:end])
                    if end < 0:
                        break
                    rest, in_block = rest[end + 2:], False
                    continue
                code = STRING.sub('""', rest)
                line_at, block_at = code.find("//"), code.find("/*")
                if line_at >= 0 and (block_at < 0 or line_at < block_at):
                    prose.append(code[line_at + 2:])
                    break
                if block_at < 0:
                    break
                rest, in_block = code[block_at + 2:], True
            if prose:
                out.append((n, " ".join(prose)))
        return out
    for n, line in enumerate(lines, 1):  # CMake, Python, shell: '#' outside a string
        code = STRING.sub('""', line)
        at = code.find("#")
        if at >= 0 and not code.startswith("#!"):
            out.append((n, code[at + 1:]))
    return out


def candidates(path, line, tops):
    """The repository paths a line of prose names: (path relative to the root, as written)."""
    found = []
    start = re.compile(r"(?<![A-Za-z0-9_./<>-])((?:" + "|".join(re.escape(t) for t in tops) + r")/" + PATH_CHARS + "*)")
    for m in start.finditer(line):
        found.append((m.group(1), m.group(1)))
    if path.suffix == ".md":
        for m in LINK.finditer(line):
            target = m.group(1).split("#")[0]
            if not target or re.match(r"^[a-z]+:", target) or target.startswith("/"):
                continue
            rel = os.path.relpath(os.path.normpath(path.parent / target), ROOT)
            found.append((rel, target))
    return found


def expand_braces(p):
    m = re.search(r"\{([^{}]*)\}", p)
    if not m:
        return [p]
    return [x for alt in m.group(1).split(",") for x in expand_braces(p[:m.start()] + alt + p[m.end():])]


def placeholders(part):
    """One path segment as a glob: `...` is any depth, `<name>` any text, and in a segment with NN or SS
    (`NN_name`, `NN_SS_name.cu`) each of NN, SS and name any text."""
    if part == "...":
        return "**"
    part = re.sub(r"<[^<>]*>", "*", part)
    words = re.split(r"([_.])", part)
    if "NN" in words or "SS" in words:
        words = ["*" if w in ("NN", "SS", "name") else w for w in words]
    return "".join(words)


def exists(rel):
    """True when the path, or every alternative of its braces, names something (a pattern: matches)."""
    rel = rel.rstrip(".,:;)'`\"")
    if rel.startswith("../") or rel == "..":
        return False
    for alt in expand_braces(rel):
        pattern = "/".join(placeholders(part) for part in alt.split("/"))
        if any(c in pattern for c in "*?["):
            if not glob.glob(str(ROOT / pattern), recursive=True):
                return False
        elif not (ROOT / alt).exists():
            return False
    return True


def main(argv):
    files = [pathlib.Path(a).resolve() for a in argv] if argv else source_files()
    tops = top_folders()
    missing = []
    for f in files:
        try:
            text = f.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        in_fence = False
        for n, line in comment_lines(f, text):
            if NOT_CHECKED in line:
                continue
            for rel, written in candidates(f, line, tops):
                if not exists(rel):
                    shown = f.relative_to(ROOT) if f.is_relative_to(ROOT) else f
                    missing.append(f"{shown}:{n}: {written}")
    for m in missing:
        print(m)
    print(f"check_paths: {len(files)} file(s), {len(missing)} path(s) that do not exist", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
