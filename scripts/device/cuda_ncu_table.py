#!/usr/bin/env python3
"""cuda.sh's Nsight Compute table: every ncu_<chapter>_<variant>_<size>.csv in a folder (ncu --csv --page raw)
becomes one row per launch of cuda_ncu.csv: size, launch (counted per kernel), kernel (its jacobi_* name,
whole: jacobi_symmetric_ring apart from jacobi_symmetric), sectors per request of global loads, stores and
texture fetches, L2 read sectors, DRAM bytes read and written, time.

Usage: cuda_ncu_table.py FOLDER DEST.csv
"""
import csv, glob, os, re, sys
tmp, dest = sys.argv[1], sys.argv[2]
m = {"ld_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "ld_req": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
     "st_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "st_req": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
     "tex_sec": "l1tex__t_sectors_pipe_tex_mem_texture.sum", "tex_req": "l1tex__t_requests_pipe_tex_mem_texture.sum",
     "l2_read_sec": "lts__t_sectors_srcunit_tex_op_read.sum", "dram_read": "dram__bytes_read.sum",
     "dram_write": "dram__bytes_write.sum", "time": "gpu__time_duration.sum"}
out = [["size", "launch", "kernel", "ld_sectors_per_request", "st_sectors_per_request", "tex_sectors_per_request",
        "l2_read_sectors", "dram_read_bytes", "dram_write_bytes", "time_ns"]]
def num(v):
    try: return float(v.replace(",", ""))
    except ValueError: return float("nan")
def ratio(a, b): return "%.2f" % (a / b) if b > 0 else "-"
for path in sorted(glob.glob(os.path.join(tmp, "ncu_*.csv"))):
    size = path.rsplit("_", 1)[1][:-4]
    rows = [r for r in csv.reader(open(path)) if r]
    head = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
    if head is None: continue
    cols = rows[head]
    launch = {}
    for r in rows[head + 1:]:
        if len(r) != len(cols) or not r[0].strip().isdigit(): continue  # skip the units row
        d = dict(zip(cols, r))
        found = re.search(r"jacobi_[a-z0-9_]+", d["Kernel Name"])
        name = found.group(0) if found else d["Kernel Name"][:30]
        launch[name] = launch.get(name, 0) + 1
        v = {k: num(d.get(c, "nan")) for k, c in m.items()}
        out.append([size, launch[name], name, ratio(v["ld_sec"], v["ld_req"]), ratio(v["st_sec"], v["st_req"]),
                    ratio(v["tex_sec"], v["tex_req"]), "%.0f" % v["l2_read_sec"], "%.0f" % v["dram_read"],
                    "%.0f" % v["dram_write"], "%.0f" % v["time"]])
csv.writer(open(dest, "w")).writerows(out)
