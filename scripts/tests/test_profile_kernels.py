#!/usr/bin/env python3
"""profile_kernels.py's name matching: the kernel names Nsight Compute and Nsight Systems print
against the demangled names of cuobjdump's functions. A kernel whose name is not matched gets no
SASS and no register count in the profile (as happened with `unnamed>::` from Nsight Compute)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import profile_kernels  # noqa: E402


class BaseName(unittest.TestCase):
    def test_names_as_the_tools_write_them(self):
        cases = {
            "unnamed>::jacobi_overlapped_columns(SymmetricArgs, int, int, int)": "jacobi_overlapped_columns",
            "gpgpu::jacobi::cuda::<unnamed>::jacobi_symmetric(gpgpu::jacobi::cuda::SymmetricArgs, int)": "jacobi_symmetric",
            "void gpgpu::blas::cuda::(anonymous namespace)::gemm_warptile<float>(Args)": "gemm_warptile",
            "void ns::k<std::pair<int, int>, 4>(const float *, int)": "k",
            "gemm_wgmma<(int)128>": "gemm_wgmma",
            "plain_kernel": "plain_kernel",
        }
        for name, want in cases.items():
            with self.subTest(name=name):
                self.assertEqual(profile_kernels.base_name(name), want)


if __name__ == "__main__":
    unittest.main()
