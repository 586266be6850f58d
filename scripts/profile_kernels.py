#!/usr/bin/env python3
"""The SASS and register counts of the kernels a profile holds (scripts/profile.sh).

    python3 scripts/profile_kernels.py KERNELS.csv SASS.txt RES_USAGE.txt OUT_DIR

KERNELS.csv is the profiler's list of the kernels it saw: Nsight Compute's `--page details --csv`
(column "Kernel Name") or Nsight Systems' cuda_gpu_kern_sum (column "Name"). SASS.txt and
RES_USAGE.txt are `cuobjdump -sass` and `cuobjdump -res-usage` of the executable. Writes
OUT_DIR/sass.txt and OUT_DIR/registers.txt with the functions of those kernels only (matched by
their base name: `gemm_warptile` for `void ns::(anonymous namespace)::gemm_warptile<float>(Args)`),
and prints one line per kernel: its registers, stack, shared and local memory.
"""
import csv
import os
import re
import shutil
import subprocess
import sys

FUNCTION = re.compile(r"^\s*Function\s*:?\s*(\S+?):?\s*$")


def base_name(name):
    """`gemm_warptile` for `void gpgpu::blas::cuda::(anonymous namespace)::gemm_warptile<float>(...)`."""
    name = name.replace("(anonymous namespace)", "anonymous")
    depth = 0
    for i, c in enumerate(name):  # the parameter list: the first '(' outside template arguments
        # (never below 0: Nsight Compute writes an anonymous namespace `unnamed>::`, with no '<')
        depth = max(0, depth + {"<": 1, ">": -1}.get(c, 0))
        if c == "(" and depth == 0:
            name = name[:i]
            break
    name = name.strip()
    while name.endswith(">"):  # template arguments, nested ones too
        depth, i = 0, len(name) - 1
        for i in range(len(name) - 1, -1, -1):
            depth += {">": 1, "<": -1}.get(name[i], 0)
            if depth == 0:
                break
        name = name[:i].strip()
    return name.split("::")[-1].split()[-1] if name else name


def profiled_kernels(path):
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        lines = [line for line in f if line.startswith('"') or "," in line]
    rows = list(csv.DictReader(lines))
    column = next((c for c in ("Kernel Name", "Name") if rows and c in rows[0]), None)
    return sorted({base_name(r[column]) for r in rows if column and r.get(column)})


def demangle(names):
    tool = shutil.which("cu++filt") or shutil.which("c++filt")
    if tool is None and os.path.exists("/usr/local/cuda/bin/cu++filt"):
        tool = "/usr/local/cuda/bin/cu++filt"
    if tool is None or not names:
        return dict(zip(names, names))
    out = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True, text=True).stdout.split("\n")
    return {m: (d or m) for m, d in zip(names, out)}


def blocks(text):
    """(function, lines) for every function block of a cuobjdump dump, with the sm_XX it was built for."""
    arch, current, found = "", None, []
    for line in text.split("\n"):
        if line.strip().startswith("arch = "):
            arch = line.split("=", 1)[1].strip()
        m = FUNCTION.match(line)
        if m:
            current = [arch, m.group(1), [line]]
            found.append(current)
        elif line.startswith("Fatbin"):
            current = None
        elif current is not None:
            current[2].append(line)
    return found


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip().split("\n")[2].strip(), file=sys.stderr)
        return 2
    kernels_csv, sass_path, res_path, out_dir = argv
    wanted = profiled_kernels(kernels_csv)
    if not wanted:
        print("profile_kernels: the profile holds no kernel", file=sys.stderr)
        return 1
    with open(sass_path, encoding="utf-8", errors="replace") as f:
        sass = blocks(f.read())
    with open(res_path, encoding="utf-8", errors="replace") as f:
        res = blocks(f.read())
    names = demangle(sorted({b[1] for b in sass + res}))

    def keep(found):
        return [(arch, names.get(fn, fn), lines) for arch, fn, lines in found if base_name(names.get(fn, fn)) in wanted]

    with open(os.path.join(out_dir, "sass.txt"), "w", encoding="utf-8") as f:
        for arch, name, lines in keep(sass):
            f.write(f"// {name} ({arch})\n" + "\n".join(lines) + "\n\n")
    with open(os.path.join(out_dir, "registers.txt"), "w", encoding="utf-8") as f:
        for arch, name, lines in keep(res):
            usage = " ".join(line.strip() for line in lines[1:] if line.strip())
            f.write(f"{name} ({arch}): {usage}\n")
            regs = re.search(r"REG:(\d+)", usage)
            print(f"  {base_name(name)} ({arch}): {regs.group(1) if regs else '?'} registers; {usage}")
    missing = [k for k in wanted if k not in {base_name(n) for _, n, _ in keep(res)}]
    if missing:
        print(f"profile_kernels: not in the executable's SASS (another library's, cuBLAS?): {', '.join(missing)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
