#!/usr/bin/env python3
"""scripts/device/bandwidth_summary.py, which judges the bandwidth batch's goals and reads its
profiles: a goal is met only when the kernel ran, passed its check and reached the share (and the
peer's rate where the goal says so); Nsight Compute's raw page is read with its units and
thousands separators; the Jacobi profile gets the launch the run tuned."""
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "device"))
import bandwidth_summary as bs  # noqa: E402

RAW = os.path.join(HERE, "..", "..", "results", "h200", "ch07c", "ncu", "overlapped_unrolled_2048_s4_raw.csv")


def row(variant, gbs, share, check="PASS", launch=""):
    return {"variant": variant, "gbs_min": gbs, "limit_share": share, "check": check, "launch": launch}


class Verdict(unittest.TestCase):
    def test_share(self):
        goal = ("share", 0.98)
        self.assertEqual(bs.verdict(goal, row("a", 100, 0.98), None), "met")
        self.assertEqual(bs.verdict(goal, row("a", 100, 0.979), None), "missed")
        self.assertEqual(bs.verdict(goal, None, None), "not run")
        self.assertEqual(bs.verdict(goal, row("a", 100, 0.99, check="FAIL"), None), "check FAIL")
        self.assertEqual(bs.verdict(goal, row("a", 100, None), None), "no share")

    def test_share_and_the_peers_rate(self):
        goal = ("share_peer", 0.95)
        self.assertEqual(bs.verdict(goal, row("a", 100, 0.96), row("p", 100, 0.96)), "met")
        self.assertEqual(bs.verdict(goal, row("a", 99, 0.96), row("p", 100, 0.97)), "missed")  # below the peer
        self.assertEqual(bs.verdict(goal, row("a", 101, 0.94), row("p", 100, 0.93)), "missed")  # below the share
        self.assertEqual(bs.verdict(goal, row("a", 101, 0.96), None), "no peer")

    def test_ratio(self):
        goal = ("ratio", 0.95)
        self.assertEqual(bs.verdict(goal, row("cl", 95, None), row("cuda", 100, 0.9)), "met")
        self.assertEqual(bs.verdict(goal, row("cl", 94.9, None), row("cuda", 100, 0.9)), "missed")


class Runs(unittest.TestCase):
    def setUp(self):
        self.out = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.out, "runs"))

    def tearDown(self):
        shutil.rmtree(self.out)

    def write(self, name, rows):
        path = os.path.join(self.out, "runs", name)
        with open(path, "w") as f:
            json.dump({"results": rows}, f)
        return path

    def test_table_judges_each_kernel_beside_its_peer(self):
        self.write("ch07b_4096.json", [row("multirow", 4400, 0.995), row("symmetric", 4100, 0.94),
                                       row("symmetric_prefetch", 4150, 0.957), row("symmetric_ring", 4300, 0.985)])
        with open(os.path.join(self.out, "runs", "ch07b_8192.json"), "w") as f:
            f.write('{"results": [')  # a run stopped while writing
        lines = bs.goals_table(self.out)
        sym = [line for line in lines if line.startswith("Jacobi symmetric")]
        self.assertEqual(len(sym), 6)  # the new step and the two steps before it, at each size
        self.assertIn("symmetric_ring", sym[0])
        self.assertIn("98.5%", sym[0])
        self.assertIn("99.5%", sym[0])
        self.assertTrue(sym[0].endswith("met"))
        self.assertIn("symmetric_prefetch", sym[1])
        self.assertIn("95.7%", sym[1])
        self.assertTrue(sym[1].endswith("missed"))
        self.assertIn(" symmetric ", sym[2])
        self.assertIn("94.0%", sym[2])
        self.assertTrue(sym[2].endswith("missed"))
        self.assertTrue(all("no result" in line for line in sym[3:]))
        self.assertTrue(any("no result" in line and "ch11_384.json" in line for line in lines))

    def test_the_transpose_is_judged_beside_the_steps_before(self):
        self.write("ch09_8192_float.json", [
            row("cuda_transpose_tma", 4000, 0.952), row("cuda_transpose_persistent", 3644, 0.869),
            row("cuda_transpose_tile_panels", 3850, 0.925), row("cuda_transpose_tile_vec4", 3600, 0.860),
            row("cuda_geam_transpose", 3790, 0.903), row("cl_transpose_strip", 3700, 0.88),
            row("cl_transpose_persistent", 3650, 0.87), row("cl_transpose_tile_panels", 3900, 0.93),
            row("cl_transpose_tile_vec4", 3840, 0.924)])
        lines = [line for line in bs.goals_table(self.out) if "8192²" in line]
        kernel = lambda line: line[:20].strip()  # noqa: E731  (the table's first column)
        ours = [line for line in lines if kernel(line) == "transpose"]
        before = [line for line in lines if kernel(line) == "transpose before"]
        self.assertEqual(len(ours), 1)
        self.assertIn("cuda_transpose_tma", ours[0])
        self.assertTrue(ours[0].endswith("met"))
        # The three steps before, newest first, judged by the same goal.
        self.assertEqual(len(before), 3)
        self.assertIn("cuda_transpose_persistent", before[0])
        self.assertTrue(before[0].endswith("missed"))
        self.assertIn("cuda_transpose_tile_panels", before[1])
        self.assertIn("92.5%", before[1])
        self.assertTrue(before[1].endswith("missed"))
        self.assertIn("cuda_transpose_tile_vec4", before[2])
        self.assertTrue(before[2].endswith("missed"))
        # Step 14's port is the strip kernel, judged against the TMA kernel: 3700 / 4000.
        port = [line for line in lines if kernel(line) == "transpose (OpenCL)"]
        self.assertEqual(len(port), 1)
        self.assertIn("cl_transpose_strip", port[0])
        self.assertIn("cuda_transpose_tma", port[0])
        self.assertIn("0.925", port[0])
        self.assertTrue(port[0].endswith("missed"))
        # Each step before's port, judged against its own CUDA kernel: 3650 / 3644 = 1.002,
        # 3900 / 3850 = 1.013, 3840 / 3600 = 1.067.
        port_before = [line for line in lines if kernel(line) == "OpenCL before"]
        self.assertEqual(len(port_before), 3)
        self.assertIn("cl_transpose_persistent", port_before[0])
        self.assertIn("1.002", port_before[0])
        self.assertIn("cl_transpose_tile_panels", port_before[1])
        self.assertIn("1.013", port_before[1])
        self.assertTrue(port_before[1].endswith("met"))
        self.assertIn("cl_transpose_tile_vec4", port_before[2])
        self.assertIn("1.067", port_before[2])
        self.assertTrue(port_before[2].endswith("met"))

    def test_the_new_convolution_step_first_and_the_step_before_kept(self):
        self.write("ch12_gemv_conv.json", [row("cuda_conv2d_aligned", 3600, 0.866), row("cuda_conv2d_register", 3131, 0.753),
                                           row("npp_conv2d", 556, 0.134)])
        conv = [line for line in bs.goals_table(self.out) if line.startswith("conv k = 3")]
        self.assertEqual([line.split()[4] for line in conv], ["aligned", "register", "float4"])
        self.assertIn("cuda_conv2d_aligned", conv[0])
        self.assertIn("86.6%", conv[0])
        self.assertIn("npp_conv2d", conv[0])
        self.assertTrue(conv[0].endswith("met"))
        self.assertTrue(conv[1].endswith("missed"))  # the "before" row: judged by the same goal
        self.assertTrue(conv[2].endswith("not run"))

    def test_tlm_rows_judge_the_vector_kernels_and_keep_the_ones_before(self):
        self.write("ch11_256.json", [row("cuda_fused", 3841, 0.941), row("cuda_fused_half", 2370, 0.586),
                                     row("cuda_fused_x4", 3970, 0.972), row("cuda_fused_half_x4", 3000, 0.749),
                                     row("cuda_fused_half_loads_first", 3545, 0.878)])
        lines = [line for line in bs.goals_table(self.out) if line.startswith("TLM") and "256³" in line]
        self.assertEqual([line.split()[4] for line in lines],
                         ["cuda_fused_x4", "cuda_fused", "cuda_fused_half_loads_first", "cuda_fused_half_x4",
                          "cuda_fused_half"])
        self.assertTrue(lines[0].endswith("met"))  # 97.2% of the limit
        self.assertIn("1.034", lines[0])  # beside the kernel it replaces
        self.assertTrue(lines[1].endswith("missed"))
        self.assertTrue(lines[2].endswith("met"))  # the half kernel's loads first: 87.8%
        self.assertIn("1.496", lines[2])  # beside the one-node half kernel
        self.assertTrue(lines[3].endswith("missed"))  # 74.9% < 75%
        self.assertIn("cuda_fused_half ", lines[3])

    def test_tuned_launch_as_options(self):
        path = self.write("ch07b_4096.json", [
            row("symmetric", 1, 1, launch="block 256, 4 columns x 2 rows per thread, pitch 4096 floats; tuned: ..."),
            row("symmetric_prefetch", 1, 1, launch="block 128, 4 columns x 16 rows per thread, pitch 4096 floats"),
            row("symmetric_ring", 1, 1, launch="block 64, 4 columns x 8 rows per thread, pitch 4096 floats"),
            row("multirow", 1, 1, launch="")])
        self.assertEqual(bs.tuned_launch(path, "symmetric"), "--block 256 --rows-per-thread 2")
        self.assertEqual(bs.tuned_launch(path, "symmetric_prefetch"), "--block 128 --rows-per-thread 16")
        self.assertEqual(bs.tuned_launch(path, "symmetric_ring"), "--block 64 --rows-per-thread 8")
        self.assertEqual(bs.tuned_launch(path, "multirow"), "")
        self.assertEqual(bs.tuned_launch(path, "absent"), "")
        self.assertEqual(bs.tuned_launch(os.path.join(self.out, "none.json"), "symmetric"), "")


class NsightRawPage(unittest.TestCase):
    def test_units_and_separators(self):
        self.assertAlmostEqual(bs.scaled("104.032", "us"), 104.032e-6)
        self.assertAlmostEqual(bs.scaled("1.258808", "Tbyte/s"), 1.258808e12)
        self.assertAlmostEqual(bs.scaled("512", "Kbyte"), 512e3)
        self.assertEqual(bs.scaled("3,182", ""), 3182.0)
        self.assertIsNone(bs.scaled("no data", "%"))

    @unittest.skipUnless(os.path.exists(RAW), "the committed H200 profile is not in this checkout")
    def test_a_committed_profile(self):
        launches = bs.read_raw(RAW)
        self.assertEqual(len(launches), 2)
        k = launches[-1]
        self.assertGreater(bs.first(k, "gpu__time_duration.sum"), 50e-6)
        self.assertLess(bs.first(k, "gpu__time_duration.sum"), 200e-6)
        self.assertGreater(bs.first(k, "dram__bytes.sum.per_second"), 1e11)
        self.assertEqual(bs.first(k, "launch__registers_per_thread"), 46.0)
        top = bs.stalls(k).split(", ")
        self.assertEqual(len(top), 3)
        self.assertNotIn("selected", " ".join(s.split()[0] for s in top))

    def test_stalls_leave_out_the_issue_itself(self):
        k = {f"smsp__average_warps_issue_stalled_{n}_per_issue_active.ratio": v
             for n, v in (("selected", 9.0), ("long_scoreboard", 3.0), ("wait", 2.0), ("barrier", 0.0))}
        self.assertEqual(bs.stalls(k), "long_scoreboard 3.00, wait 2.00")

    def test_sectors_per_request(self):
        k = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 4096.0,
             "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 1024.0,
             "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": 100.0}
        self.assertEqual(bs.per_request(k, "ld"), 4.0)
        self.assertIsNone(bs.per_request(k, "st"))  # no request count: no ratio


if __name__ == "__main__":
    unittest.main()
