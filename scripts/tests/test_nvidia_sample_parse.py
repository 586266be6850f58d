#!/usr/bin/env python3
"""scripts/device/nvidia_sample_parse.py, which reads the result lines of NVIDIA's multi-GPU Jacobi
sample for chapter 13's `sample` step: the lines below are built with the sample's own printf
formats (its -csv line and its default two lines); a run passes only with exit 0 and exactly one
valid result line that agrees with what the run asked for, and a malformed line is rejected."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "device", "nvidia_sample_parse.py")
sys.path.insert(0, os.path.join(HERE, "..", "device"))
import nvidia_sample_parse as sp  # noqa: E402


def csv_line(variant, nx, ny, niter, nccheck, gpus, t_gpus, t_one):
    # The sample: printf("<variant>, %d, %d, %d, %d, %d, 1, %f, %f\n", nx, ny, iter_max, nccheck, G, t, t1)
    return "%s, %d, %d, %d, %d, %d, 1, %f, %f\n" % (variant, nx, ny, niter, nccheck, gpus, t_gpus, t_one)


def human_lines(nx, ny, gpus, t_gpus, t_one):
    # The sample: printf("Num GPUs: %d.\n", G) and
    # printf("%dx%d: 1 GPU: %8.4f s, %d GPUs: %8.4f s, speedup: %8.2f, efficiency: %8.2f \n", ny, nx, ...)
    return ("Num GPUs: %d.\n" % gpus
            + "%dx%d: 1 GPU: %8.4f s, %d GPUs: %8.4f s, speedup: %8.2f, efficiency: %8.2f \n"
            % (ny, nx, t_one, gpus, t_gpus, t_one / t_gpus, t_one / (gpus * t_gpus) * 100))


def want(variant="multi_threaded_p2p", gpus=2, nx=4096, ny=4096, nccheck=1, niter=1000, exit=0):
    return {"variant": variant, "gpus": gpus, "nx": nx, "ny": ny, "nccheck": nccheck, "niter": niter,
            "exit": exit, "output": "x.txt"}


# Lines MPI and NCCL print beside the result, which are not results.
NOISE = ("[host:01234] 1 more process has sent help message help-mpi-btl-openib.txt / no device params found\n"
         "NCCL version 2.28.3+cuda13.0\n"
         "P2P access required from 0 to 1\n")


class ResultLines(unittest.TestCase):
    def test_csv_line(self):
        got = sp.parse_csv_line(csv_line("nccl", 8192, 8192, 1000, 10, 4, 0.041234, 0.137777))
        self.assertEqual((got["variant"], got["nx"], got["ny"], got["niter"], got["nccheck"], got["gpus"]),
                         ("nccl", 8192, 8192, 1000, 10, 4))
        self.assertEqual((got["t_gpus_s"], got["t_one_gpu_s"]), (0.041234, 0.137777))
        self.assertIsNone(got["efficiency_printed"])

    def test_default_form(self):
        line = human_lines(16384, 8192, 2, 0.2857, 0.5512).splitlines()[1]
        got = sp.parse_human_line(line)
        self.assertEqual((got["nx"], got["ny"], got["gpus"]), (16384, 8192, 2))  # printed as NYxNX
        self.assertAlmostEqual(got["efficiency_printed"], 96.46)

    def test_malformed_lines_are_rejected(self):
        bad = [
            "multi_threaded_p2p, 4096, 4096, 1000, 1, 2, 1, 0.05a, 0.1",  # not a number
            "nccl, 4096, 4096, 1000, 1, 2, 1, 0.052341",  # cut short
            "nccl, 4096, 4096, 1000, 1, 2, 1, 0.05, 0.1, 7",  # one field too many
            "nccl, 4096, 4096, 1000, 0, 2, 1, 0.05, 0.1",  # nccheck 0
            "nccl, 4096, 4096, 1000, 1, 2, 1, 0.000000, 0.1",  # a time of zero (%f of a tiny time)
            "nccl_overlap, 4096, 4096, 1000, 1, 2, 1, 0.05, 0.1",  # a variant the step does not build
        ]
        for line in bad:
            with self.subTest(line=line), self.assertRaises(ValueError):
                sp.parse_csv_line(line)
        with self.assertRaises(ValueError):
            sp.parse_human_line("4096x4096: 1 GPU:   0.1000 s, 2 GPUs:   nan s, speedup: 1.00, efficiency: 50.00 ")


class Runs(unittest.TestCase):
    def test_a_csv_run_passes_with_the_efficiency_the_sample_would_print(self):
        r = sp.parse_output(NOISE + csv_line("multi_threaded_p2p", 4096, 4096, 1000, 1, 2, 0.025, 0.045), want())
        self.assertEqual(r["status"], "PASS", r["reason"])
        self.assertAlmostEqual(r["efficiency_percent"], 100 * 0.045 / (2 * 0.025))  # 90%
        self.assertAlmostEqual(r["ms_per_iteration_gpus"], 0.025)
        self.assertAlmostEqual(r["ms_per_iteration_one_gpu"], 0.045)
        self.assertAlmostEqual(r["speedup"], 1.8)
        self.assertEqual(r["iterations"], 1000)
        self.assertNotEqual(r["efficiency_source"], "printed")
        self.assertEqual(r["nccl_version"], "2.28.3+cuda13.0")  # NCCL_DEBUG=VERSION's line

    def test_a_default_form_run_keeps_the_printed_efficiency(self):
        r = sp.parse_output(human_lines(4096, 4096, 4, 0.0125, 0.045), want(gpus=4))
        self.assertEqual(r["status"], "PASS", r["reason"])
        self.assertEqual(r["efficiency_source"], "printed")
        self.assertAlmostEqual(r["efficiency_percent"], 90.0)

    def test_a_malformed_result_line_fails_the_run(self):
        r = sp.parse_output("multi_threaded_p2p, 4096, 4096, 1000, 1, 2, 1, 0.025\n", want())
        self.assertEqual(r["status"], "FAIL")
        self.assertIn("malformed", r["reason"])
        self.assertIsNone(r["efficiency_percent"])

    def test_a_line_that_disagrees_with_the_run_fails_it(self):
        cases = {"nccheck": csv_line("multi_threaded_p2p", 4096, 4096, 1000, 10, 2, 0.02, 0.04),
                 "gpus": csv_line("multi_threaded_p2p", 4096, 4096, 1000, 1, 4, 0.02, 0.04),
                 "variant": csv_line("multi_threaded_copy_overlap", 4096, 4096, 1000, 1, 2, 0.02, 0.04),
                 "ny": human_lines(4096, 2048, 2, 0.02, 0.04)}
        for key, text in cases.items():
            with self.subTest(key=key):
                r = sp.parse_output(text, want())
                self.assertEqual(r["status"], "FAIL")
                self.assertIn(key, r["reason"])

    def test_no_line_two_lines_or_a_failed_exit(self):
        self.assertIn("no result line", sp.parse_output(NOISE, want())["reason"])
        two = csv_line("nccl", 4096, 4096, 1000, 1, 2, 0.02, 0.04) * 2
        self.assertIn("2 result lines", sp.parse_output(two, want(variant="nccl"))["reason"])
        r = sp.parse_output(csv_line("nccl", 4096, 4096, 1000, 1, 2, 0.02, 0.04), want(variant="nccl", exit=124))
        self.assertEqual((r["status"], r["reason"]), ("FAIL", "exit 124"))


class Summary(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)
        return os.path.join(self.dir, name)

    def run_summary(self, runs):
        rows = ["\t".join(sp.RUN_COLUMNS)]
        for i, (w, text) in enumerate(runs):
            name = f"run{i}.txt"
            self.write(name, text)
            rows.append("\t".join(str(w[c]) if c != "output" else name for c in sp.RUN_COLUMNS))
        runs_path = self.write("runs.tsv", "\n".join(rows) + "\n")
        builds = self.write("builds.tsv", "variant\tstatus\tdetail\nnccl\tbuilt\tnvcc ...\n"
                                          "mpi\tnot built\tthis MPI is not CUDA-aware\n")
        out = os.path.join(self.dir, "nvidia_sample.json")
        rc = subprocess.run([sys.executable, SCRIPT, "summary", "--runs", runs_path, "--builds", builds,
                             "--commit", "9a600f5", "--out", out, "--env", "CUDA_MODULE_LOADING=EAGER"],
                            capture_output=True, text=True).returncode
        return rc, out

    def test_the_json_and_the_table(self):
        rc, out = self.run_summary([
            (want("nccl", 2, 8192, 8192, 10), csv_line("nccl", 8192, 8192, 1000, 10, 2, 0.075, 0.140)),
            (want("nccl", 2, 8192, 8192, 1, exit=1), "ERROR on rank 1: a[...] does not match\n")])
        self.assertEqual(rc, 0)  # the failed run is the step's own failure already
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual(doc["sample"]["commit"], "9a600f5")
        self.assertIn("FP32", doc["sample"]["computes"]["precision"])
        self.assertEqual(doc["environment"], {"CUDA_MODULE_LOADING": "EAGER"})
        self.assertEqual([r["status"] for r in doc["runs"]], ["PASS", "FAIL"])
        self.assertAlmostEqual(doc["runs"][0]["efficiency_percent"], 100 * 0.140 / (2 * 0.075))
        lines = sp.table_lines(doc)
        self.assertEqual(lines[0], "nvidia_sample_g2_8192x8192_every10: nccl 0.0750 ms (93.3%)")
        self.assertIn("nccl FAIL (exit 1)", lines[1])
        self.assertIn("mpi: not built", lines[2])

    def test_a_run_that_exits_0_without_a_result_fails_the_summary(self):
        rc, out = self.run_summary([(want(), "P2P access required from 0 to 1\n")])
        self.assertEqual(rc, 1)
        with open(out) as f:
            self.assertEqual(json.load(f)["runs"][0]["status"], "FAIL")

    def test_a_runs_file_without_its_columns_is_refused(self):
        path = self.write("runs.tsv", "variant\tgpus\nnccl\t2\n")
        rc = subprocess.run([sys.executable, SCRIPT, "summary", "--runs", path, "--out", os.path.join(self.dir, "o.json")],
                            capture_output=True, text=True).returncode
        self.assertEqual(rc, 2)


if __name__ == "__main__":
    unittest.main()
