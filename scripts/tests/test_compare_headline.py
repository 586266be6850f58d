#!/usr/bin/env python3
"""scripts/device/compare_headline.py, which judges check.sh's headline runs against the committed
ones: a GPU variant more than 5% slower on the same GPU fails, as does a failed check; a run from
another GPU is shown, not judged. The GPU is the CUDA device, else the OpenCL device, else the GL
renderer (chapter 02 opens OpenGL alone); two results that name no GPU are never the same GPU."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "device", "compare_headline.py")


def result(backends, ms, check="PASS", backend="cuda"):
    return {"backends": backends,
            "results": [{"variant": "v", "ms_per_step": ms, "limit_share": 0.5, "gflops": None,
                         "check": check, "backend": backend}]}


def cuda(name):
    return {"cuda": {"device": {"name": name}}}


def gl(renderer):
    return {"gl": {"device": {"gl_renderer": renderer}}}


def compare(new, old):
    """Exit code and output of the script on one run file now and one then."""
    with tempfile.TemporaryDirectory() as d:
        for sub, doc in (("new", new), ("old", old)):
            os.mkdir(os.path.join(d, sub))
            with open(os.path.join(d, sub, "run.json"), "w") as f:
                json.dump(doc, f)
        p = subprocess.run([sys.executable, SCRIPT, os.path.join(d, "new"), os.path.join(d, "old")],
                           capture_output=True, text=True)
        return p.returncode, p.stdout


class CompareHeadline(unittest.TestCase):
    def test_same_gpu_within_noise_passes(self):
        self.assertEqual(compare(result(cuda("NVIDIA H200"), 1.04), result(cuda("NVIDIA H200"), 1.0))[0], 0)

    def test_same_gpu_slower_fails(self):
        rc, out = compare(result(cuda("NVIDIA H200"), 1.06), result(cuda("NVIDIA H200"), 1.0))
        self.assertEqual(rc, 1)
        self.assertIn("slower", out)

    def test_failed_check_fails(self):
        self.assertEqual(compare(result(cuda("NVIDIA H200"), 1.0, "FAIL"), result(cuda("NVIDIA H200"), 1.0))[0], 1)

    def test_other_gpu_is_shown_not_judged(self):
        rc, out = compare(result(cuda("NVIDIA H200"), 2.0), result(cuda("NVIDIA H100 80GB HBM3"), 1.0))
        self.assertEqual(rc, 0)
        self.assertIn("another GPU", out)

    def test_gl_renderer_names_the_gpu(self):
        h200, h100 = gl("NVIDIA H200/PCIe/SSE2"), gl("NVIDIA H100 80GB HBM3/PCIe/SSE2")
        self.assertEqual(compare(result(h200, 2.0, backend="gl"), result(h100, 1.0, backend="gl"))[0], 0)
        self.assertEqual(compare(result(h200, 2.0, backend="gl"), result(h200, 1.0, backend="gl"))[0], 1)

    def test_no_gpu_named_is_not_judged(self):
        rc, out = compare(result({}, 2.0), result({}, 1.0))
        self.assertEqual(rc, 0)
        self.assertIn("names no GPU", out)

    def test_cpu_variants_are_not_judged(self):
        self.assertEqual(compare(result(cuda("NVIDIA H200"), 2.0, backend="cpu"),
                                 result(cuda("NVIDIA H200"), 1.0, backend="cpu"))[0], 0)


if __name__ == "__main__":
    unittest.main()
