"""Tests of the lecture report and the README tables on good, failed, skipped, old and broken input.

Run: python3 -m unittest discover -s scripts/report/tests (CTest: report_tests). The good input is
a real H100 result from results/h100/ or results/h100_lecture/ plus small results written here; every bad input is made
here from them (truncated, emptied, an older schema, a failed verification, a skipped run).
"""
from __future__ import annotations

import copy
import glob
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "report"))

import readme_tables  # noqa: E402
import report  # noqa: E402
import results  # noqa: E402

HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None


def result_doc(chapter="01", variants=(("separate", "PASS", 0.5),), nx=64):
    """A small schema-2 result with one row per (variant, check, share of the limit)."""
    rows = []
    for name, check, share in variants:
        rows.append({"variant": name, "backend": "cpu", "device": "CPU, 1 thread", "ms_per_step": 1.25,
                     "gbs_min": 12.5, "gbs_all": 20.0, "gflops": 3.0, "limit": {"name": "stream 11:1", "gbs": 25.0},
                     "limit_share": share, "rel_error_l2": 1e-7 if check == "PASS" else 0.5, "check": check})
    return {"schema": "gpgpu-then-and-now/result", "schema_version": 2,
            "chapter": {"id": chapter, "program": f"ch{chapter}_test", "title": "A test chapter"},
            "problem": {"nx": nx, "ny": nx}, "results": rows,
            "then_now": {"columns": [{"header": "s/1000 it.", "unit": "seconds"}],
                         "rows": [{"when": "then", "machine": "Old GPU", "implementation": "CUDA Simple",
                                   "values": [2.0], "source": "paper 000"},
                                  *({"when": "now", "machine": "CPU", "implementation": r["variant"],
                                     "values": [1.25], "source": "this run"} for r in rows)]}}


def width_sweep_doc():
    points = [{"width": w, "height": 512, "variant": v, "iters": 100, "seconds": 0.01 + w * 1e-6,
               "gbs_min": 10.0, "limit_share": 0.5, "check": "FAIL" if (v == "aligned" and w == 513) else "PASS",
               "rel_error_l2": 1e-7} for v in ("simple", "aligned") for w in (508, 511, 512, 513, 516)]
    return {"schema": "gpgpu-then-and-now/width-sweep", "schema_version": 2,
            "chapter": {"id": "04", "program": "ch04_cuda_aligned", "mode": "paper"}, "points": points}


def matrix_sweep_doc():
    points, ratios = [], []
    for n in (16, 32, 64):
        for v, b in (("cuda_add", "cuda"), ("cl_add", "opencl")):
            points.append({"n": n, "variant": v, "backend": b, "op": "add", "ms_kernel": 0.01, "ms_with_copies": 0.1,
                           "gbs_kernel": n * 1.0, "gbs_with_copies": n / 10, "limit": {"name": "x", "gbs": 100.0},
                           "limit_share": n / 100, "check": "PASS", "paper_ms": None, "paper_table": ""})
        ratios.append({"n": n, "variant": "cl_add", "original": "cuda_add", "kernel_ratio": 1.1,
                       "with_copies_ratio": 1.0, "paper_ratio": 1.5, "paper_table": "Tab. 8"})
    return {"schema": "gpgpu-then-and-now/matrix-sweep", "schema_version": 2,
            "chapter": {"id": "09", "program": "ch09_matrix_add_transpose", "mode": "add"},
            "points": points, "port_ratios": ratios}


def roofline_doc(fail=None, ceilings=True):
    """A chapter-12 result with the "roofline" key (plots_roofline.py's format): two backends, a
    routine per intensity, cuBLAS beside the CUDA kernels; `fail` names a variant that failed."""
    routines = []
    for routine, intensity in (("saxpy", 1 / 6), ("sgemv", 0.5), ("conv2d", 4.5), ("sgemm", 500.0)):
        for backend, bw, fma in (("cuda", 3000.0, 50000.0), ("cpu", 100.0, 2000.0)):
            variant = f"{backend}_{routine}"
            routines.append({"routine": routine, "variant": variant, "backend": backend, "flop_per_byte": intensity,
                             "gflops": 0.8 * min(fma, bw * intensity), "check": "FAIL" if variant == fail else "PASS"})
        routines.append({"routine": routine, "variant": f"cublas_{routine}", "backend": "cuda", "library": True,
                         "flop_per_byte": intensity, "gflops": 0.85 * min(50000.0, 3000.0 * intensity), "check": "PASS"})
    doc = result_doc(chapter="12", variants=(("cuda_saxpy", "PASS", 0.8),))
    doc["roofline"] = {"ceilings": {"cuda": {"device": "GPU", "bandwidth_gbs": 3000.0, "fma_gflops": 50000.0},
                                    "cpu": {"bandwidth_gbs": 100.0, "fma_gflops": 2000.0}} if ceilings else {},
                       "routines": routines}
    return doc


class Folder:
    """A temporary result folder."""

    def __init__(self, test: unittest.TestCase, name="machine"):
        self.base = tempfile.mkdtemp(prefix="gpgpu_report_test_")
        test.addCleanup(shutil.rmtree, self.base, True)
        self.path = os.path.join(self.base, name)
        os.makedirs(self.path)

    def write(self, name: str, content) -> str:
        path = os.path.join(self.path, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(content if isinstance(content, str) else json.dumps(content))
        return path

    def runs_tsv(self, lines: list[str]) -> None:
        self.write("runs.tsv", "file\tchapter\ttarget\trun\texit\tstatus\tseconds\tmessage\n" + "".join(
            line + "\n" for line in lines))


def make_report(test: unittest.TestCase, *folders: str, plots=False) -> str:
    out = tempfile.mkdtemp(prefix="gpgpu_report_out_")
    test.addCleanup(shutil.rmtree, out, True)
    index = report.build_report(list(folders), out, with_plots=plots)
    with open(index, encoding="utf-8") as f:
        return f.read()


def read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def real_result(pattern="ch08_opencl_port_1024.json") -> dict:
    # The focused batches (results/h100) and the lecture run (results/h100_lecture) are both committed:
    # a file missing from both is a broken checkout, not a reason to skip.
    paths = sorted(glob.glob(os.path.join(ROOT, "results", "h100", pattern)) +
                   glob.glob(os.path.join(ROOT, "results", "h100_lecture", pattern)))
    if not paths:
        raise AssertionError(f"results/h100*/{pattern} is not committed")
    with open(paths[0], encoding="utf-8") as f:
        return json.load(f)


class ReadingResults(unittest.TestCase):
    def test_a_good_result_is_read(self):
        d = Folder(self)
        d.write("ch01_test_64.json", result_doc())
        (run,) = results.read_folder(d.path)
        self.assertEqual((run.status, run.chapter, run.kind), ("ok", "01", "result"))
        self.assertEqual(run.size_label(), "64²")

    def test_truncated_file_is_unreadable_with_the_reason(self):
        d = Folder(self)
        text = json.dumps(real_result(), indent=2)
        d.write("ch08_opencl_port_1024.json", text[: len(text) // 2])
        (run,) = results.read_folder(d.path)
        self.assertEqual(run.status, "unreadable")
        self.assertIn("truncated", run.message)
        self.assertEqual(run.chapter, "08")  # from the file's name: the report files it under its chapter

    def test_empty_and_non_object_files(self):
        d = Folder(self)
        d.write("ch01_a.json", "")
        d.write("ch01_b.json", "[1, 2]")
        d.write("ch01_c.json", json.dumps({**result_doc(), "results": {"not": "a list"}}))
        self.assertEqual([r.status for r in results.read_folder(d.path)], ["unreadable"] * 3)

    def test_older_and_unknown_schemas(self):
        d = Folder(self)
        old = result_doc()
        del old["schema"], old["schema_version"]
        d.write("ch01_v0.json", old)
        d.write("ch01_v1.json", {**result_doc(), "schema_version": 1})
        d.write("ch01_v3.json", {**result_doc(), "schema_version": 3})
        d.write("ch01_other.json", {**result_doc(), "schema": "someone-else/result"})
        statuses = {r.name: r.status for r in results.read_folder(d.path)}
        self.assertEqual(statuses, {"ch01_v0.json": "old schema", "ch01_v1.json": "old schema",
                                    "ch01_v3.json": "unknown schema", "ch01_other.json": "unknown schema"})

    def test_failed_verification_marks_the_run(self):
        d = Folder(self)
        d.write("ch01_test.json", result_doc(variants=(("separate", "PASS", 0.5), ("interleaved", "FAIL", 0.7))))
        (run,) = results.read_folder(d.path)
        self.assertEqual(run.status, "failed")
        self.assertIn("interleaved", run.message)

    def test_runs_tsv_gives_skipped_broken_and_unbuilt_runs(self):
        d = Folder(self)
        d.write("ch01_test_64.json", result_doc())
        d.runs_tsv(["ch01_test_64.json\t01\tch01_test\t64\t0\tok\t1.0\tPASS",
                    "-\t03\tch03_cuda_simple\t1024\t77\tskipped\t0.1\tno CUDA device: cudaErrorNoDevice",
                    "-\t08\tch08_opencl_port\t1024\t1\tfailed\t0.1\tFAIL: 1 variant",
                    "-\t02\tch02_glsl_pingpong\t1024\t139\terror\t0.1\tSegmentation fault",
                    "-\t09\tch09_matrix\t-\t-\tnot built\t0\tnot built: no CUDA compiler"])
        by_chapter = {r.chapter: r for r in results.read_folder(d.path)}
        self.assertEqual(by_chapter["01"].status, "ok")
        self.assertEqual(by_chapter["03"].status, "skipped")
        self.assertIn("cudaErrorNoDevice", by_chapter["03"].message)
        self.assertEqual(by_chapter["08"].status, "error")  # exit 1 but no JSON: nothing to show
        self.assertEqual(by_chapter["02"].status, "error")
        self.assertEqual(by_chapter["09"].status, "not built")

    def test_exit_code_overrides_a_clean_looking_file(self):
        d = Folder(self)
        d.write("ch01_test_64.json", result_doc())
        d.runs_tsv(["ch01_test_64.json\t01\tch01_test\t64\t134\terror\t1.0\tAborted"])
        (run,) = results.read_folder(d.path)
        self.assertEqual(run.status, "error")

    def test_missing_folder(self):
        (run,) = results.read_folder("/nonexistent/gpgpu/report/folder")
        self.assertEqual(run.status, "unreadable")


class TheReport(unittest.TestCase):
    def test_every_bad_input_gets_one_clear_line_and_the_good_ones_tables(self):
        d = Folder(self)
        d.write("ch01_good.json", result_doc())
        d.write("ch01_cut.json", json.dumps(result_doc())[:40])
        d.write("ch01_old.json", {**result_doc(), "schema_version": 1})
        d.runs_tsv(["-\t03\tch03_cuda_simple\t1024\t77\tskipped\t0.1\tno CUDA device"])
        text = make_report(self, d.path)
        self.assertIn("## Chapter 01: A test chapter", text)
        self.assertIn("## Chapter 03", text)
        self.assertRegex(text, r"`ch01_cut.json`: \*\*unreadable\*\*: truncated")
        self.assertRegex(text, r"`ch01_old.json`: \*\*older schema\*\*: .*version 1")
        self.assertRegex(text, r"ch03_cuda_simple 1024`: skipped .*no CUDA device")
        self.assertIn("| machine | 64² | separate | cpu | CPU, 1 thread | 1.2500 | 12.5 | 3.0 | 25.0 | 50.0 |", text)

    def test_a_failed_variant_shows_fail_and_no_speed(self):
        d = Folder(self)
        d.write("ch01_test.json", result_doc(variants=(("good", "PASS", 0.5), ("wrong", "FAIL", 0.7))))
        text = make_report(self, d.path)
        (row,) = [line for line in text.splitlines() if line.startswith("| machine | 64² | wrong")]
        self.assertEqual(row.count("FAIL"), 6)  # ms, GB/s, GFLOP/s, limit, share, verdict
        self.assertNotIn("1.2500", row)
        self.assertNotIn("70.0", row)
        self.assertIn("**FAIL**", text)
        # Nor in the then-and-now table: the failed variant's figures are FAIL, the other's stay.
        self.assertIn("| now | CPU | wrong | FAIL | this run |", text)
        self.assertIn("| now | CPU | good | 1.25 | this run |", text)

    def test_a_share_above_the_limit_is_flagged_and_null_is_a_dash(self):
        d = Folder(self)
        doc = result_doc(variants=(("fast", "PASS", 1.8), ("odd", "PASS", None)))
        d.write("ch01_test.json", doc)
        text = make_report(self, d.path)
        self.assertIn("| 180.0 ! |", text)
        (row,) = [line for line in text.splitlines() if line.startswith("| machine | 64² | odd")]
        self.assertIn("| - |", row)

    def test_sweeps_get_their_tables(self):
        d = Folder(self)
        d.write("ch04_cuda_aligned_sweep.json", width_sweep_doc())
        d.write("ch09_matrix_sweep.json", matrix_sweep_doc())
        text = make_report(self, d.path)
        self.assertIn("### Width sweep", text)
        self.assertIn("| machine | aligned | 513 | 512 | FAIL | FAIL | FAIL | FAIL |", text)
        self.assertIn("### Matrix sweep", text)

    def test_folders_side_by_side_and_csv(self):
        a, b = Folder(self, "laptop"), Folder(self, "h100")
        a.write("ch01_test.json", result_doc())
        b.write("ch01_test.json", result_doc(nx=4096))
        out = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, out, True)
        report.build_report([a.path, b.path], out, with_plots=False)
        with open(os.path.join(out, "ch01_result.csv"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0].split(",")[:3], ["machine", "size", "variant"])
        self.assertEqual(sorted(line.split(",")[0] for line in lines[1:]), ["h100", "laptop"])

    def test_a_folder_of_machine_folders_gives_its_machines(self):
        # scripts/lecture.sh --out DIR writes DIR/<machine>/: the report of DIR finds and names them.
        base = tempfile.mkdtemp(prefix="gpgpu_report_machines_")
        self.addCleanup(shutil.rmtree, base, True)
        for machine in ("h100", "laptop"):
            os.makedirs(os.path.join(base, machine))
            with open(os.path.join(base, machine, "ch01_test.json"), "w", encoding="utf-8") as f:
                json.dump(result_doc(), f)
        os.makedirs(os.path.join(base, "empty"))  # no runs: not a machine folder
        machines = [os.path.join(base, "h100"), os.path.join(base, "laptop")]
        self.assertEqual(report.machine_folders(base), machines)
        self.assertEqual(report.machine_folders(machines[0]), machines[:1])  # a machine folder as it is
        out = tempfile.mkdtemp(prefix="gpgpu_report_out_")
        self.addCleanup(shutil.rmtree, out, True)
        printed = io.StringIO()
        with redirect_stdout(printed):
            self.assertEqual(report.main(["--no-plots", "--out", out, base]), 0)
        self.assertIn("machine folders: " + ", ".join(machines), printed.getvalue())
        text = read(os.path.join(out, "index.md"))
        for m in machines:
            self.assertIn(f"| `{m}` |", text)
        self.assertNotIn("No runs found", text)

    def test_no_runs_says_so(self):
        d = Folder(self)
        self.assertIn("No runs found", make_report(self, d.path))

    def test_usage_errors_exit_2(self):
        with redirect_stdout(io.StringIO()), self.assertRaises(SystemExit) as e:
            report.main(["--bogus"])
        self.assertEqual(e.exception.code, 2)
        with redirect_stdout(io.StringIO()):
            self.assertEqual(report.main(["/nonexistent/gpgpu/folder"]), 2)


@unittest.skipUnless(HAVE_MATPLOTLIB, "python3-matplotlib is not installed")
class ThePlots(unittest.TestCase):
    def test_real_results_give_every_plot_they_have_data_for(self):
        d = Folder(self, "h100")
        for n in ("1024", "2048"):
            d.write(f"ch08_opencl_port_{n}.json", real_result(f"ch08_opencl_port_{n}.json"))
        d.write("ch04_cuda_aligned_sweep.json", width_sweep_doc())
        d.write("ch09_matrix_sweep.json", matrix_sweep_doc())
        out = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, out, True)
        text = read(report.build_report([d.path], out))
        for png in ("ch08_then_now.png", "ch08_limit_share.png", "ch08_opencl_over_cuda.png",
                    "ch04_width_sweep.png", "ch09_matrix_gbs.png", "ch09_opencl_over_cuda.png"):
            self.assertIn(f"]({png})", text)
            with open(os.path.join(out, png), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        self.assertNotIn("plot ", text.replace("plots", ""))  # no "plot X failed" line

    def test_plots_survive_failed_and_odd_rows(self):
        d = Folder(self)
        doc = result_doc(variants=(("wrong", "FAIL", 0.7), ("nan", "PASS", None)))
        doc["then_now"]["rows"].append({"when": "now", "values": "not a list"})
        d.write("ch01_test.json", doc)
        text = make_report(self, d.path, plots=True)
        self.assertNotRegex(text, r"plot \w+ failed")
        self.assertIn("](ch01_limit_share.png)", text)


@unittest.skipUnless(HAVE_MATPLOTLIB, "no matplotlib (python3-matplotlib)")
class TheChapterPlots(unittest.TestCase):
    """Chapters 09-12's plots from the committed H100 results (and a synthetic roofline), side by
    side with a second machine, and on inputs that lack what a plot needs."""

    def report_of(self, *folders: str) -> tuple[str, str]:
        out = tempfile.mkdtemp(prefix="gpgpu_report_out_")
        self.addCleanup(shutil.rmtree, out, True)
        return read(report.build_report(list(folders), out)), out

    def assert_png(self, text: str, out: str, *names: str) -> None:
        for png in names:
            self.assertIn(f"]({png})", text)
            with open(os.path.join(out, png), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        self.assertNotRegex(text, r"plot \w+ failed")

    def test_committed_results_give_the_gemm_tlm_and_matrix_plots(self):
        a, b = Folder(self, "h100"), Folder(self, "other")
        for name in ("ch09_sweep_int.json", "ch09_sweep_wide.json", "ch10_sweep_float.json", "ch11_cavity.json",
                     "ch11_waveguide.json", "ch11_filter.json"):
            a.write(name, real_result(name))
        slower = real_result("ch10_sweep_float.json")  # a second machine at half the rate
        for p in slower["points"]:
            p["gflops"] = p["gflops"] / 2 if isinstance(p.get("gflops"), (int, float)) else p.get("gflops")
        b.write("ch10_sweep_float.json", slower)
        b.write("ch11_filter.json", real_result("ch11_filter.json"))
        text, out = self.report_of(a.path, b.path)
        self.assert_png(text, out, "ch09_matrix_gbs.png", "ch09_opencl_over_cuda.png", "ch10_gemm_gflops.png",
                        "ch10_opencl_over_cuda.png", "ch11_tlm_rates.png", "ch11_tlm_spectrum.png")
        self.assertIn("### Gemm sweep", text)
        with open(os.path.join(out, "plots.json"), encoding="utf-8") as f:
            drawn = {name for figures in json.load(f).values() for name, _ in figures}
        self.assertIn("ch11_tlm_spectrum.png", drawn)

    def test_int_and_float_sweeps_never_share_a_line(self):
        import plots
        d = Folder(self)
        int_sweep, float_sweep = matrix_sweep_doc(), matrix_sweep_doc()
        int_sweep["problem"], float_sweep["problem"] = {"type": "int"}, {"type": "float"}
        d.write("ch09_sweep_int.json", int_sweep)
        d.write("ch09_sweep_float.json", float_sweep)
        runs = results.read_folder(d.path)
        panels = {(p[0], p[2]) for p in plots._port_points(runs)}
        self.assertEqual(panels, {("int", "cl_add / cuda_add"), ("float", "cl_add / cuda_add")})

    def test_the_roofline_from_its_json_key(self):
        a, b = Folder(self, "gpu"), Folder(self, "laptop")
        a.write("ch12_gpu_friendly.json", roofline_doc())
        b.write("ch12_gpu_friendly.json", roofline_doc(fail="cuda_sgemv"))
        text, out = self.report_of(a.path, b.path)
        self.assert_png(text, out, "ch12_roofline.png")
        import plots_roofline
        ceilings, routines = plots_roofline.roofline_of(results.read_folder(b.path)[0])
        self.assertEqual(set(ceilings), {"cuda", "cpu"})
        self.assertEqual(len(routines), 12)

    def test_plots_survive_missing_and_odd_keys(self):
        import plots_roofline
        d = Folder(self)
        odd = [roofline_doc(ceilings=False), roofline_doc()]
        odd[1]["roofline"]["ceilings"]["cuda"] = {"bandwidth_gbs": None, "fma_gflops": "fast"}
        odd[1]["roofline"]["routines"] += [{"routine": "x"}, "not a point", {"flop_per_byte": 0, "gflops": -1}]
        odd.append(dict(roofline_doc(), roofline={"ceilings": "none", "routines": {"not": "a list"}}))
        tlm = real_result("ch11_cavity.json")
        tlm["physics"][1]["lines"][0].pop("f_measured_hz")  # a line without its peak: left out
        tlm["physics"].append({"name": "odd", "lines": "not a list"})
        tlm["results"][0]["check"] = "FAIL"
        gemm = real_result("ch10_sweep_float.json")
        gemm["points"][5]["check"] = "FAIL"
        gemm["points"].append({"variant": "cuda_naive", "n": "big", "gflops": None})
        gemm["port_ratios"].append({"n": None})
        for i, doc in enumerate(odd):
            d.write(f"ch12_odd{i}.json", doc)
        d.write("ch11_cavity.json", tlm)
        d.write("ch10_sweep_float.json", gemm)
        text, out = self.report_of(d.path)
        self.assertNotRegex(text, r"plot \w+ failed")
        for png in ("ch12_roofline.png", "ch11_tlm_rates.png", "ch11_tlm_spectrum.png", "ch10_gemm_gflops.png"):
            self.assertIn(f"]({png})", text)
        self.assertEqual(plots_roofline.roofline_of(results.read_folder(d.path)[-1]), ({}, []))

    def test_the_dumped_spectrum_beside_the_json_is_drawn(self):
        import numpy
        import plots_tlm
        d = Folder(self)
        d.write("ch11_cavity.json", real_result("ch11_cavity.json"))
        d.write("ch11_waveguide.json", real_result("ch11_waveguide.json"))
        table = numpy.stack([numpy.linspace(0, 7.5e10, 64), numpy.linspace(1, 2, 64)], axis=1)
        numpy.save(os.path.join(d.path, "ch11_cavity.spectrum.npy"), table)
        os.makedirs(os.path.join(d.path, "ch11_waveguide_dump"))
        d.write(os.path.join("ch11_waveguide_dump", "spectrum.npy"), "not a NumPy file")
        runs = {r.name: r for r in results.read_folder(d.path)}
        ghz, magnitude = plots_tlm.spectrum_beside(runs["ch11_cavity.json"])
        self.assertEqual((len(ghz), ghz[-1], magnitude[0]), (64, 75.0, 1.0))
        self.assertIn("unreadable", plots_tlm.spectrum_beside(runs["ch11_waveguide.json"]))
        text, out = self.report_of(d.path)
        self.assert_png(text, out, "ch11_tlm_spectrum.png")

    def test_a_chapter_without_the_data_gets_none_of_these_plots(self):
        d = Folder(self)
        d.write("ch12_plain.json", result_doc(chapter="12"))
        d.write("ch11_plain.json", result_doc(chapter="11"))
        text, _ = self.report_of(d.path)
        for png in ("ch12_roofline.png", "ch11_tlm_rates.png", "ch11_tlm_spectrum.png"):
            self.assertNotIn(png, text)


class ReadmeTables(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="gpgpu_readme_test_")
        self.addCleanup(shutil.rmtree, self.root, True)
        os.makedirs(os.path.join(self.root, "results", "h100"))
        for n in ("1024", "4096"):
            self.put(f"ch08_opencl_port_{n}.json", real_result(f"ch08_opencl_port_{n}.json"))

    def put(self, name, doc):
        with open(os.path.join(self.root, "results", "h100", name), "w", encoding="utf-8") as f:
            f.write(doc if isinstance(doc, str) else json.dumps(doc))

    def readme(self, body: str) -> str:
        path = os.path.join(self.root, "README.md")
        with open(path, "w", encoding="utf-8") as f:
            f.write(body)
        return path

    def run_main(self, *args) -> tuple[int, str]:
        buf = io.StringIO()
        with redirect_stdout(buf):
            code = readme_tables.main(["--root", self.root, *args])
        return code, buf.getvalue()

    BLOCK = "intro\n<!-- results:opencl_vs_cuda chapter=08 source=h100 -->\n<!-- /results -->\nafter\n"

    def test_generate_then_check_agrees(self):
        path = self.readme(self.BLOCK)
        self.assertEqual(self.run_main(path)[0], 0)
        text = read(path)
        self.assertIn("| `local` | `06_shared.cu` |", text)
        self.assertTrue(text.startswith("intro\n") and text.endswith("<!-- /results -->\nafter\n"))
        self.assertEqual(self.run_main("--check", path)[0], 0)

    def test_a_hand_edited_number_fails_the_check(self):
        path = self.readme(self.BLOCK)
        self.run_main(path)
        text = read(path)
        edited = text.replace("| `simple` | `03_simple.cu` | 0.", "| `simple` | `03_simple.cu` | 9.", 1)
        self.assertNotEqual(text, edited)
        self.readme(edited)
        code, out = self.run_main("--check", path)
        self.assertEqual(code, 1)
        self.assertIn("disagree", out)
        self.assertIn("-| `simple` | `03_simple.cu` | 9.", out)  # the diff shows the stale line

    def test_new_results_change_the_table(self):
        path = self.readme(self.BLOCK)
        self.run_main(path)
        doc = real_result("ch08_opencl_port_4096.json")
        doc["opencl_port"]["cuda_comparison"][0]["opencl_over_cuda"] = 1.5
        self.put("ch08_opencl_port_4096.json", doc)
        self.assertEqual(self.run_main("--check", path)[0], 1)

    def test_failed_variant_is_fail_in_the_table(self):
        doc = real_result("ch08_opencl_port_4096.json")
        for r in doc["results"]:
            if r["variant"] == "local":
                r["check"] = "FAIL"
        self.put("ch08_opencl_port_4096.json", doc)
        path = self.readme(self.BLOCK)
        self.run_main(path)
        (row,) = [line for line in read(path).splitlines(True) if line.startswith("| `local`")]
        self.assertIn("| FAIL | FAIL |", row)

    def test_missing_broken_and_unknown(self):
        self.put("ch08_opencl_port_2048.json", "{\"schema\": \"gpgpu-then")
        path = self.readme("<!-- results:results chapter=12 source=h100 -->\n<!-- /results -->\n"
                           "<!-- results:nosuch chapter=08 -->\n<!-- /results -->\n"
                           + self.BLOCK)
        self.assertEqual(self.run_main(path)[0], 0)
        text = read(path)
        self.assertIn("*No results for this table in `results/h100/` yet", text)
        self.assertIn("**Unknown results table 'nosuch'**", text)
        self.assertIn("`results/h100/ch08_opencl_port_2048.json`: unreadable: truncated", text)

    def test_then_now_rows_and_columns(self):
        path = self.readme('<!-- results:then_now chapter=08 source=h100 size=1024 rows="CUDA Shared,local" '
                           'columns="s/1000 it.,% limit" -->\n<!-- /results -->\n')
        self.run_main(path)
        lines = [line for line in read(path).splitlines(True) if line.startswith("| ")]
        self.assertEqual(lines[0].strip(), "| when | machine | implementation | s/1000 it. | % limit |")
        self.assertEqual({line.split(" | ")[2] for line in lines[2:]}, {"CUDA Shared", "local"})

    def test_jacobi_variants_and_width_sweep(self):
        self.put("ch07b_cuda_past_the_paper_4096.json", real_result("ch07b_cuda_past_the_paper_4096.json"))
        failed = copy.deepcopy(real_result("ch07b_cuda_past_the_paper_4096.json"))
        failed["problem"].update(nx=2048, ny=2048)
        failed["results"][1]["check"] = "FAIL"
        self.put("ch07b_cuda_past_the_paper_2048.json", failed)
        sweep = width_sweep_doc()
        sweep["chapter"]["id"] = "07b"
        self.put("ch07b_sweep.json", sweep)
        path = self.readme("<!-- results:jacobi_variants chapter=07b source=h100 size=4096 variants=symmetric,readonly,nosuch launch=1 -->\n"
                           "<!-- /results -->\n<!-- results:jacobi_variants chapter=07b source=h100 size=2048 -->\n"
                           "<!-- /results -->\n<!-- results:width_sweep chapter=07b source=h100 -->\n<!-- /results -->\n"
                           "<!-- results:width_sweep chapter=08 source=h100 -->\n<!-- /results -->\n")
        self.run_main(path)
        text = read(path)
        rows = [line for line in text.splitlines() if line.startswith("| `")]
        self.assertTrue(rows[0].startswith("| `symmetric` | block 256") and rows[1].startswith("| `readonly` |"))
        symmetric = next(r for r in real_result("ch07b_cuda_past_the_paper_4096.json")["results"] if r["variant"] == "symmetric")
        self.assertIn("| %.4f |" % symmetric["ms_per_step"], rows[0])  # ms/iter, from the committed JSON
        self.assertIn("stream 7:1", text)  # the symmetric storage's own limit, named under the table
        broken = next(line for line in rows if "FAIL" in line)
        self.assertEqual(broken.count("FAIL"), 11)  # every figure of the failed variant, and its check
        self.assertRegex(text, r"\| 513 \| [0-9.]+ \| FAIL \|")  # the sweep's failed point has no time
        self.assertIn("*No results for this table", text.split("chapter=08")[-1])
        self.assertEqual(self.run_main("--check", path)[0], 0)

    def test_check_cost_pairs_the_overlap_and_names_the_sample(self):
        committed = os.path.join(ROOT, "results", "h200x2", "ch13", "check")
        names = [f"ch13_check_g2_4096x4096_every1_overlap_{o}.json" for o in ("on", "off")]
        for n in names:
            self.put(n, read(os.path.join(committed, n)))
        on = json.loads(read(os.path.join(committed, names[0])))
        nccl_on = next(r for r in on["results"] if r["variant"] == "nccl")["extra"]["efficiency"]
        sample = {"schema": "gpgpu-then-and-now/nvidia-sample", "runs": [
            {"variant": "a", "gpus": 2, "nx": 4096, "ny": 4096, "nccheck": 1, "status": "PASS", "efficiency_percent": 50.0},
            {"variant": "b", "gpus": 2, "nx": 4096, "ny": 4096, "nccheck": 1, "status": "PASS", "efficiency_percent": 60.0},
            {"variant": "c", "gpus": 2, "nx": 4096, "ny": 4096, "nccheck": 1, "status": "FAIL", "efficiency_percent": 99.0},
            {"variant": "d", "gpus": 2, "nx": 4096, "ny": 4096, "nccheck": 10, "status": "PASS", "efficiency_percent": 98.0}]}
        self.put("sample.json", json.dumps(sample))  # not a result: read_folder skips its schema
        unchecked = copy.deepcopy(on)  # the same grid with no check: its best variant in its own column
        unchecked["problem"]["convergence"]["check_every"] = None
        for r in unchecked["results"]:
            if "efficiency" in r.get("extra", {}):
                r["extra"]["efficiency"] = 0.5 if r["variant"] != "overlap" else 0.75
        self.put("ch13_check_g2_4096x4096_none.json", unchecked)
        path = self.readme("<!-- results:check_cost chapter=13 source=h100 sample=h100/sample.json -->\n<!-- /results -->\n")
        self.assertEqual(self.run_main(path)[0], 0)
        (row,) = [line for line in read(path).splitlines() if line.startswith("| G=2, 4096², every 1 |")]
        self.assertIn(f"| {100 * nccl_on:.1f} / ", row)  # the overlapped run first
        self.assertTrue(row.endswith("| 75.0 (`overlap`) | 60.0 (`b`) |"))  # no check; the sample's best that passed
        self.assertIn("results/h100/sample.json", read(path))
        os.remove(os.path.join(self.root, "results", "h100", names[1]))  # a run with no partner
        code, out = self.run_main("--check", path)
        self.assertEqual(code, 1)
        self.assertIn("to pair with", out)

    def test_matrix_sweep_and_startup(self):
        doc = matrix_sweep_doc()
        doc["problem"] = {"type": "int"}
        doc["points"][0].update(paper_ms=0.0763, paper_table="Tab. 8 (int)")
        doc["points"][2]["check"] = "FAIL"  # cuda_add at n = 32
        self.put("ch09_sweep_int.json", doc)
        stopped = copy.deepcopy(doc)
        stopped["problem"]["type"], stopped["complete"] = "float", False
        self.put("ch09_sweep_wide.json", stopped)
        result = result_doc(chapter="09")
        result["startup"] = {"opencl": {"discovery_s": 0.5, "context_s": 0.25, "queue_s": 0.0,
                                        "builds": [{"source": "a.cl", "seconds": 0.5}, {"source": "b.cl", "seconds": 0.25}],
                                        "total_s": 1.5}}
        self.put("ch09_matrix_add_transpose_default.json", result)
        path = self.readme("<!-- results:matrix_sweep chapter=09 source=h100 file=ch09_sweep_int.json "
                           "rows=cuda_add,cl_add -->\n<!-- /results -->\n"
                           "<!-- results:matrix_sweep chapter=09 source=h100 type=float rows=cl_add -->\n<!-- /results -->\n"
                           "<!-- results:startup chapter=09 source=h100 -->\n<!-- /results -->\n")
        self.assertEqual(self.run_main(path)[0], 0)
        text = read(path)
        self.assertIn("| int, n = (ms kernel / with copies) | 16 | 32 | 64 |", text)
        self.assertIn("| `cuda_add` now | 0.0100 / 0.100 | FAIL | 0.0100 / 0.100 |", text)
        self.assertIn("| its namesake then, Tab. 8 (int) | 0.0763 | - | - |", text)
        self.assertIn("| `cl_add` / `cuda_add` now | 1.10 / 1.00 | 1.10 / 1.00 | 1.10 / 1.00 |", text)
        self.assertIn("| OpenCL / CUDA then | 1.50 | 1.50 | 1.50 |", text)
        self.assertIn("| float, n = (ms kernel / with copies) |", text)
        self.assertIn("stopped before its end", text)
        self.assertIn("| opencl | building the 2 `.cl` files | 0.7500 |", text)
        self.assertIn("| opencl | total | 1.5000 |", text)
        self.assertIn("| paper 003 | OpenCL initialisation, all of it | about 1.3 |", text)
        self.assertEqual(self.run_main("--check", path)[0], 0)

    @staticmethod
    def gemm_doc(m=4096, type_="float", rows=()):
        """A chapter-10 result: rows of (variant, backend, arithmetic, library, GFLOP/s, extra)."""
        results = [{"variant": v, "backend": b, "check": "PASS", "gflops": g, "rel_error_max": 1e-7,
                    "extra": {"arithmetic": a, "library": lib, "peak_gflops": 100.0, "error_over_bound": 0.01, **extra}}
                   for v, b, a, lib, g, extra in rows]
        return {"schema": "gpgpu-then-and-now/result", "schema_version": 2, "chapter": {"id": "10"},
                "problem": {"m": m, "n": m, "k": m, "type": type_}, "results": results,
                "port_ratios": [{"variant": "cl_warptile", "original": "cuda_warptile"}]}

    def test_gemm_shares_by_arithmetic_and_none_on_tensor_cores(self):
        self.put("ch10_4096_float.json", self.gemm_doc(rows=[
            ("cuda_warptile", "cuda", "FP32", False, 40.0, {}),
            ("cuda_tf32_wmma", "cuda", "TF32", False, 60.0, {}),
            ("cublas_sgemm", "cuda", "FP32", True, 80.0, {}),
            ("cublas_sgemm_tf32", "cuda", "TF32", True, 600.0, {}),
            ("cl_warptile", "opencl", "FP32", False, 38.0, {"peak_gflops": None})]))
        self.put("ch10_4096_double.json", self.gemm_doc(type_="double", rows=[
            ("cuda_warptile", "cuda", "FP64", False, 30.0, {}),
            ("cublas_dgemm", "cuda", "FP64", True, 190.0, {}),  # before extra.tensor_cores: DGEMM counts as tensor
            ("cuda_fake_fp64", "cuda", "FP64", False, 50.0, {"tensor_cores": False})]))
        path = self.readme("<!-- results:gemm_steps chapter=10 source=h100 file=ch10_4096_float.json -->\n<!-- /results -->\n"
                           "<!-- results:gemm_steps chapter=10 source=h100 file=ch10_4096_double.json -->\n<!-- /results -->\n"
                           "<!-- results:gemm_goals chapter=10 source=h100 file=ch10_4096_float.json -->\n<!-- /results -->\n")
        self.assertEqual(self.run_main(path)[0], 0)
        text = read(path)
        self.assertIn("| `cuda_tf32_wmma` | TF32 | 60 | 10.0 | `cublas_sgemm_tf32` | - (tensor cores) |", text)
        self.assertIn("| `cublas_sgemm_tf32` | TF32 | 600 | 100.0 | `cublas_sgemm_tf32` | - (tensor cores) |", text)
        self.assertIn("| `cuda_warptile` | FP32 | 40 | 50.0 | `cublas_sgemm` | 40.0 |", text)
        self.assertIn("| `cl_warptile` | FP32 | 38 | 47.5 | `cublas_sgemm` | - |", text)
        self.assertIn("| `cublas_dgemm` | FP64 | 190 | 100.0 | `cublas_dgemm` | - (tensor cores) |", text)
        self.assertIn("| `cuda_fake_fp64` | FP64 | 50 | 26.3 | `cublas_dgemm` | 50.0 |", text)
        self.assertNotIn(" !", text)  # no share above its limit
        self.assertIn("`cuda_warptile`: 50.0% | missed by 40.0% of cuBLAS", text)
        self.assertIn("`cl_warptile` / `cuda_warptile`: 95.0% | met", text)
        self.assertIn("`cuda_tf32_wmma` / `cuda_warptile`: 1.50x", text)
        self.assertIn("missed: 75% of the goal", text)
        self.assertEqual(self.run_main("--check", path)[0], 0)

    def put_matrix_runs(self, *sizes):
        """Chapter 09 result runs (rows = cols = n, no nx) made from the committed 8192² one; the first
        figure of each then-and-now table is n / 4096 ms, so a table says which run it shows."""
        for n in sizes:
            doc = copy.deepcopy(real_result("ch09_8192_float.json"))
            doc["problem"].update(rows=n, cols=n)
            doc["then_now"]["rows"][0]["values"][0] = n / 4096
            self.put(f"ch09_{n}_float.json", doc)

    def test_a_marker_picks_one_of_two_matrix_runs_by_size(self):
        self.put_matrix_runs(4096, 8192)
        first = real_result("ch09_8192_float.json")["then_now"]["rows"][0]["implementation"]
        path = self.readme("<!-- results:then_now chapter=09 source=h100 size=4096 -->\n<!-- /results -->\n"
                           "<!-- results:then_now chapter=09 source=h100 size=8192 -->\n<!-- /results -->\n")
        self.assertEqual(self.run_main(path)[0], 0)
        at_4096, at_8192 = read(path).split("<!-- results:then_now")[1:]
        self.assertIn(f"| {first} | 1 |", at_4096)
        self.assertIn(f"| {first} | 2 |", at_8192)
        self.assertEqual(self.run_main("--check", path)[0], 0)

    def test_an_ambiguous_marker_fails_with_the_candidates(self):
        self.put_matrix_runs(4096, 8192)
        marker = "<!-- results:then_now chapter=09 source=h100 -->"
        path = self.readme(f"{marker}\nold table\n<!-- /results -->\n")
        for args in ((path,), ("--check", path)):
            code, out = self.run_main(*args)
            self.assertEqual(code, 1)
            (line,) = [x for x in out.splitlines() if "matches 2 runs" in x]
            self.assertIn(f"{path}: {marker}", line)
            self.assertIn("ch09_4096_float.json (size=4096), ch09_8192_float.json (size=8192)", line)
        self.assertIn("old table", read(path))  # update left the README alone

    def test_a_marker_matching_nothing_fails(self):
        self.put_matrix_runs(8192)
        for marker in ("<!-- results:then_now chapter=09 source=h100 size=2048 -->",
                       "<!-- results:gemm_sizes chapter=09 source=h100 file=ch09_8192_float.json,nosuch.json -->"):
            path = self.readme(f"{marker}\n<!-- /results -->\n")
            for args in ((path,), ("--check", path)):
                code, out = self.run_main(*args)
                self.assertEqual(code, 1)
                (line,) = [x for x in out.splitlines() if "matches none" in x]
                self.assertIn(f"{path}: {marker}", line)
                self.assertIn("ch09_8192_float.json (size=8192)", line)

    def test_the_repository_readmes_agree_with_results(self):
        # The same check as the CTest test readme_results_tables, on the real tree.
        buf = io.StringIO()
        with redirect_stdout(buf):
            code = readme_tables.main(["--root", ROOT, "--check"])
        self.assertEqual(code, 0, buf.getvalue())


FAKE_CHAPTER = """#!/usr/bin/env bash
# A stand-in for a chapter: writes RESULT to the path after --json (when given), prints MESSAGE and
# exits with CODE.
out=""
while (($#)); do [ "$1" = --json ] && out=$2; shift; done
[ -n "$out" ] && [ -n "{result}" ] && cp "{result}" "$out"
echo "{message}" >&2
exit {code}
"""


class TheLectureScript(unittest.TestCase):
    """scripts/lecture.sh on stand-in chapters: one passes, one is skipped (77), one fails its
    verification (1), one breaks (2), one was not built; then the report of what it wrote."""

    def fake_lecture(self, *args):
        """Runs lecture.sh over stand-in chapters; returns the process and its runs.tsv by target."""
        work = tempfile.mkdtemp(prefix="gpgpu_lecture_test_")
        self.addCleanup(shutil.rmtree, work, True)
        good, bad = os.path.join(work, "good.json"), os.path.join(work, "bad.json")
        with open(good, "w", encoding="utf-8") as f:
            json.dump(result_doc(), f)
        with open(bad, "w", encoding="utf-8") as f:
            json.dump(result_doc(chapter="08", variants=(("simple", "FAIL", 0.9),)), f)
        chapters = [("01", "ch01_test", good, "PASS", 0), ("03", "ch03_test", "", "no CUDA device", 77),
                    ("08", "ch08_test", bad, "FAIL: 1 variant", 1), ("02", "ch02_test", "", "bad size", 2)]
        manifest = os.path.join(work, "chapters.tsv")
        with open(manifest, "w", encoding="utf-8") as m:
            for cid, target, result, message, code in chapters:
                exe = os.path.join(work, target)
                with open(exe, "w", encoding="utf-8") as f:
                    f.write(FAKE_CHAPTER.format(result=result, message=message, code=code))
                os.chmod(exe, 0o755)
                m.write(f"{cid}\t{target}\tcpu\t{exe}\tA stand-in\n")
            m.write("09\tch09_test\tcuda\t-\tnot built: no CUDA compiler\n")
        out = os.path.join(work, "lecture")
        env = {**os.environ, "GPGPU_LECTURE_MANIFEST": manifest}
        proc = subprocess.run(["bash", os.path.join(ROOT, "scripts", "lecture.sh"), "--no-build", "--out", out, *args],
                              env=env, capture_output=True, text=True, timeout=120)
        (folder,) = [os.path.join(out, d) for d in os.listdir(out)]
        with open(os.path.join(folder, "runs.tsv"), encoding="utf-8") as f:
            statuses = {row[2]: (row[4], row[5]) for row in (line.rstrip("\n").split("\t") for line in f)}
        return proc, folder, statuses

    def test_lecture_records_every_outcome_and_the_report_shows_them(self):
        proc, folder, statuses = self.fake_lecture("--quick")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)  # a failure and a broken run
        self.assertEqual(statuses["ch01_test"], ("0", "ok"))
        self.assertEqual(statuses["ch03_test"], ("77", "skipped"))
        self.assertEqual(statuses["ch08_test"], ("1", "failed"))
        self.assertEqual(statuses["ch02_test"], ("2", "error"))
        self.assertEqual(statuses["ch09_test"], ("-", "not built"))
        self.assertIn("[03] ch03_test", proc.stdout)  # a progress line per run
        text = make_report(self, folder)
        self.assertIn("| 64² | separate | cpu |", text)
        self.assertRegex(text, r"ch03_test quick`: skipped .*no CUDA device")
        self.assertRegex(text, r"`ch08_test_quick.json`: \*\*FAIL\*\*")
        self.assertRegex(text, r"ch02_test quick`: \*\*broke\*\*: exit 2: bad size")
        self.assertRegex(text, r"ch09_test`: not built: no CUDA compiler")
        self.assertNotIn("| now | CPU | simple | 1.25", text)  # chapter 08 failed: no speed anywhere

    def test_only_the_chapters_asked_for_and_usage_errors(self):
        proc, _, statuses = self.fake_lecture("--quick", "--chapters", "01,03")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)  # a skip is no failure
        self.assertEqual(sorted(statuses), ["ch01_test", "ch03_test", "target"])
        proc = subprocess.run(["bash", os.path.join(ROOT, "scripts", "lecture.sh"), "--bogus"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("unknown option", proc.stderr)


@unittest.skipUnless(HAVE_MATPLOTLIB, "python3-matplotlib is not installed")
class ReadmePlots(unittest.TestCase):
    """readme_plots.py check fails on a stale CSV, a missing file, an unshown plot and a stray file."""

    def setUp(self):
        import readme_plots
        self.rp = readme_plots
        self.saved = dict(readme_plots.READMEPLOTS)
        readme_plots.READMEPLOTS.clear()
        self.values = [1.0, 2.0]

        @readme_plots.readme_plot("test_line")
        def _line(root):
            import matplotlib.pyplot as plt
            fig, ax = plt.subplots()
            ax.plot([1, 2], self.values)
            return fig, [{"x": i + 1, "y": v} for i, v in enumerate(self.values)]

        self.root = tempfile.mkdtemp()

    def tearDown(self):
        self.rp.READMEPLOTS.clear()
        self.rp.READMEPLOTS.update(self.saved)
        shutil.rmtree(self.root)

    def check(self):
        out = io.StringIO()
        with redirect_stdout(out):
            rc = self.rp.check(self.root)
        return rc, out.getvalue()

    def test_missing_then_fresh_then_stale(self):
        rc, text = self.check()
        self.assertEqual(rc, 1)
        self.assertIn("test_line.svg is missing", text)
        with redirect_stdout(io.StringIO()):
            self.assertEqual(self.rp.update(self.root, []), 0)
        rc, text = self.check()
        self.assertEqual(rc, 1)
        self.assertIn("shown by no Markdown file", text)
        with open(os.path.join(self.root, "README.md"), "w") as f:
            f.write("![line](docs/plots/test_line.svg)\n")
        self.assertEqual(self.check()[0], 0)
        self.values[1] = 3.0  # a result changed, the plot was not redrawn
        rc, text = self.check()
        self.assertEqual(rc, 1)
        self.assertIn("test_line.csv differs", text)

    def test_a_stray_file_is_reported(self):
        os.makedirs(os.path.join(self.root, "docs", "plots"))
        open(os.path.join(self.root, "docs", "plots", "old.svg"), "w").close()
        rc, text = self.check()
        self.assertEqual(rc, 1)
        self.assertIn("old.svg belongs to no registered plot", text)


if __name__ == "__main__":
    unittest.main()
