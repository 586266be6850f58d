#!/usr/bin/env python3
"""Checks a multiply chapter's --dump folder with NumPy alone, independently of the C++ code.

    python3 problems/blas/check_dump.py DIR --m M --n N --k K

a.npy must be M x K and b.npy K x N (float32, or float64 for --type double); every
result_<variant>.npy must be M x N of the same type and within the bound of a K-term dot product of
A·B computed by NumPy in float64: |C - AB| <= g |A||B| element by element, where g is the bound of the
variant's own arithmetic, which the chapter records in arithmetic.json beside the results:
    FP32, FP64   g = gamma_K(u), u = 2^-24 or 2^-53: K products and sums rounded to nearest
    TF32, BF16   g = (1 + u_in)^2 (1 + gamma_K(2^-23)) - 1: each input rounded once to nearest
                 (u_in = 2^-11 for TF32's 11 significant bits, 2^-8 for BF16's 8), the product exact
                 in FP32, the tensor cores' FP32 sums taken as a directed rounding (u = 2^-23)
    BF16_BF16C   the same times (1 + 2^-8): C rounded to nearest bfloat16 at the end
    FP8, FP8_BF16C   judged against the product of A and B dequantised from E4M3 with one scale per
                 tensor (s = amax / 448 in float32, each x as s * e4m3(x / s), rounded to nearest even,
                 saturating at 448), so the inputs' rounding is in the reference; then element by element
                 |C - AB| <= (1 + e) d (1 + d)^(S-1) (Q + |A||B|) + e |A||B|: the tensor cores' FP8
                 accumulator adds a k-step of 32 products with every addend (the products and the running
                 sum) aligned to the largest and cut to p = 14 bits there, and the result cut: d =
                 34 u (1 + u), u = 2^(1-p), per k-step, S = ceil(K/32) k-steps; Q = the sum over k-steps
                 of the exact running sum's magnitude at each 32 of k (computed here by slabs of 32);
                 e = (1 + 2^-24)^3 (1 + u_out) - 1 for the scales' product, the epilogue's and, for
                 FP8_BF16C, u_out = 2^-8
    FP8_BLOCKS, FP8_BLOCKS_BF16C   judged against A and B dequantised with one scale per 1 x 128
                 block of A and 128 x 128 block of B (s the smallest power of two with amax / s <= 448,
                 at least 2^-126, 1 for zeros); then the same with S = min(ceil(K/32), 4) (the
                 accumulator restarts from 0 every 128 of k, and Q's running sums with it) and
                 e = (1 + gamma_ceil(K/128)(2^-24))(1 + u_out) - 1 for the FP32 sum of the blocks
with gamma_K(u) = K u / (1 - K u), plus 2 gamma_K(2^-53) for the float64 reference itself (the same
derivation as problems/blas/src/gemm.cpp's error_bound and element_bound; for FP8 also
2 (ceil(K/32) + 1) gamma_K(2^-53) of the accumulator's |A||B| term for Q's own error). A result with no entry in arithmetic.json is
judged by its element type's own arithmetic, and the check says so. At least one result must be there.
"""
import json
import pathlib
import sys
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from dump_files import Parser, current_files, dump_folder, positive_int, refuse  # noqa: E402

import numpy as np

# Unit roundoff of the sums and of the inputs' rounding, per arithmetic (u_in 0: inputs used as they are).
FP8_ACCUMULATOR_BITS = 14  # gemm.hpp's kFp8AccumulatorBits
FP8_K_STEP = 32
FP8_BLOCK_K = 128  # gemm.hpp's kFp8BlockK
FP8_U = 2.0**(1 - FP8_ACCUMULATOR_BITS)
FP8_CUTS_PER_STEP = FP8_K_STEP + 2  # gemm.hpp's kFp8CutsPerStep: the products, the running sum, the normalisation
SUMS = {"FP32": 2.0**-24, "FP64": 2.0**-53, "TF32": 2.0**-23, "BF16": 2.0**-23, "BF16_BF16C": 2.0**-23,
        "FP8": FP8_U, "FP8_BF16C": FP8_U, "FP8_BLOCKS": FP8_U, "FP8_BLOCKS_BF16C": FP8_U}
INPUTS = {"FP32": 0.0, "FP64": 0.0, "TF32": 2.0**-11, "BF16": 2.0**-8, "BF16_BF16C": 2.0**-8, "FP8": 0.0, "FP8_BF16C": 0.0,
          "FP8_BLOCKS": 0.0, "FP8_BLOCKS_BF16C": 0.0}
OUTPUTS = {"BF16_BF16C": 2.0**-8, "FP8_BF16C": 2.0**-8, "FP8_BLOCKS_BF16C": 2.0**-8}  # C rounded to nearest bfloat16
BLOCK_SCALED = ("FP8_BLOCKS", "FP8_BLOCKS_BF16C")
DEQUANTISED = ("FP8", "FP8_BF16C") + BLOCK_SCALED  # judged against the dequantised inputs' product
E4M3_MAX = 448.0


def round_to_e4m3(x):
    """float32 x to the nearest E4M3 value (ties to even), beyond +-448 to +-448, as float32."""
    x = np.asarray(x, dtype=np.float32)
    magnitude = np.abs(x)
    _, e = np.frexp(magnitude)  # magnitude = f 2^e with f in [0.5, 1): the binade is 2^(e - 1)
    spacing = np.ldexp(np.float32(1), np.maximum(e - 1, -6) - 3).astype(np.float32)
    rounded = (np.rint(x / spacing) * spacing).astype(np.float32)  # rint: to nearest even
    return np.where(magnitude >= E4M3_MAX, np.copysign(np.float32(E4M3_MAX), x), rounded).astype(np.float32)


def dequantised_e4m3(x):
    """float32 x as the FP8 rows use it: s * e4m3(x / s), s = amax / 448 (1 for zeros), in float64."""
    x = x.astype(np.float32)
    amax = np.float32(np.max(np.abs(x))) if x.size else np.float32(0)
    s = np.float32(amax / np.float32(E4M3_MAX)) if amax > 0 else np.float32(1)
    return round_to_e4m3(x / s).astype(np.float64) * np.float64(s)


def e4m3_block_scale(amax):
    """The power of two a block is scaled by: the smallest s with amax / s <= 448, at least 2^-126."""
    if not amax > 0:
        return np.float32(1)
    mantissa, e = np.frexp(np.float32(amax))  # amax = mantissa 2^e, mantissa in [0.5, 1)
    return np.float32(np.ldexp(np.float32(1), max(e - 9 if mantissa <= 0.875 else e - 8, -126)))


def dequantised_e4m3_blocks(x, block_rows, block_cols):
    """float32 x with one power-of-two scale per block_rows x block_cols block, in float64."""
    x = x.astype(np.float32)
    out = np.zeros(x.shape, dtype=np.float64)
    for r0 in range(0, x.shape[0], block_rows):
        for c0 in range(0, x.shape[1], block_cols):
            block = x[r0:r0 + block_rows, c0:c0 + block_cols]
            s = e4m3_block_scale(np.max(np.abs(block)) if block.size else 0)
            out[r0:r0 + block_rows, c0:c0 + block_cols] = round_to_e4m3(block / s).astype(np.float64) * np.float64(s)
    return out


def gamma(k, u):
    return k * u / (1 - k * u)


def bound(arithmetic, k):
    """g such that |C - AB| <= g |A||B| holds for a K-term product in `arithmetic` (not FP8: fp8_bound)."""
    reference = 2 * gamma(k, 2.0**-53)
    u_in = INPUTS[arithmetic]
    sums = gamma(k, SUMS[arithmetic])
    return ((1 + u_in) ** 2 * (1 + sums) * (1 + OUTPUTS.get(arithmetic, 0.0)) - 1 if u_in else sums) + reference


def fp8_bound(arithmetic, k):
    """(g, g_q): |C - AB| <= g |A||B| + g_q Q element by element for the FP8 arithmetics."""
    steps = -(-k // FP8_K_STEP)
    delta = FP8_CUTS_PER_STEP * FP8_U * (1 + FP8_U)
    if arithmetic not in BLOCK_SCALED and (1 + delta) ** (steps - 1) > 4:
        # gemm.cpp's max_k: past a compounding of 4 the per-tensor bound says little, and the chapter
        # refuses such k; a dump of one cannot be judged.
        raise ValueError(f"k = {k} is past the FP8 bound's max_k (the compounding (1 + delta)^(steps - 1) above 4)")
    if arithmetic in BLOCK_SCALED:
        accumulator = delta * (1 + delta) ** (min(steps, FP8_BLOCK_K // FP8_K_STEP) - 1)
        outside = 1 + gamma(-(-k // FP8_BLOCK_K), 2.0**-24)
    else:
        accumulator = delta * (1 + delta) ** (steps - 1)
        outside = (1 + 2.0**-24) ** 3
    eta = outside * (1 + OUTPUTS.get(arithmetic, 0.0)) - 1
    reference = 2 * gamma(k, 2.0**-53)
    partial_sums_error = 2 * (steps + 1) * gamma(k, 2.0**-53)
    return (1 + eta) * accumulator * (1 + partial_sums_error) + eta + reference, (1 + eta) * accumulator


def fp8_products(a64, b64, block_scaled):
    """AB, |A||B| and Q: the running sum of the FP8 accumulator in magnitude at every 32 of k after
    each run's first (a run: all of k per tensor, each block of 128 with block scales), summed."""
    k = a64.shape[1]
    run = FP8_BLOCK_K if block_scaled else k
    c = np.zeros((a64.shape[0], b64.shape[1]))
    q = np.zeros_like(c)
    for r0 in range(0, k, run):
        r1 = min(r0 + run, k)
        running = np.zeros_like(c)
        for p0 in range(r0, r1, FP8_K_STEP):
            if p0 > r0:
                q += np.abs(running)
            p1 = min(p0 + FP8_K_STEP, r1)
            running += a64[:, p0:p1] @ b64[p0:p1, :]
        c += running
    return c, np.abs(a64) @ np.abs(b64), q


def arithmetics(folder):
    """arithmetic.json's map from result file to arithmetic name; {} when the file is absent."""
    path = folder / "arithmetic.json"
    if not path.exists():
        return {}
    try:
        names = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        refuse(f"{path}: not a readable JSON map of result file to arithmetic ({e})")
    if not isinstance(names, dict):
        refuse(f"{path}: not a JSON map of result file to arithmetic")
    unknown = {f: a for f, a in names.items() if a not in SUMS}
    if unknown:
        refuse(f"{path}: unknown arithmetic {unknown} (known: {', '.join(SUMS)})")
    return names


def main():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=dump_folder("a.npy", "b.npy"))
    parser.add_argument("--m", type=positive_int, required=True)
    parser.add_argument("--n", type=positive_int, required=True)
    parser.add_argument("--k", type=positive_int, required=True)
    args = parser.parse_args()
    a, b = np.load(args.dir / "a.npy"), np.load(args.dir / "b.npy")
    ok = (a.shape == (args.m, args.k) and b.shape == (args.k, args.n) and a.dtype == b.dtype
          and a.dtype in (np.float32, np.float64))
    if not ok:
        print(f"a.npy {a.shape} {a.dtype}, b.npy {b.shape} {b.dtype}: expected float32 or float64 "
              f"{args.m}x{args.k}, {args.k}x{args.n}")
        return 1
    native = "FP64" if a.dtype == np.float64 else "FP32"
    recorded = arithmetics(args.dir)
    products = {}  # per kind of input: the float64 product and |A||B|, made when first needed

    def inputs(kind):
        if kind == "blocks":
            return dequantised_e4m3_blocks(a, 1, FP8_BLOCK_K), dequantised_e4m3_blocks(b, FP8_BLOCK_K, FP8_BLOCK_K)
        if kind == "tensor":
            return dequantised_e4m3(a), dequantised_e4m3(b)
        return a.astype(np.float64), b.astype(np.float64)

    def product(kind):
        if kind not in products:
            a64, b64 = inputs(kind)
            if kind == "floats":
                products[kind] = (a64 @ b64, np.abs(a64) @ np.abs(b64), None)
            else:
                products[kind] = fp8_products(a64, b64, kind == "blocks")
        return products[kind]

    results = current_files(args.dir, "result_*.npy")
    if not results:
        print("no result_*.npy")
        return 1
    for path in results:
        c = np.load(path)
        if c.shape != (args.m, args.n) or c.dtype != a.dtype:
            print(f"{path.name}: {c.shape} {c.dtype}, expected {a.dtype} {args.m}x{args.n}")
            ok = False
            continue
        arithmetic = recorded.get(path.name)
        note = ""
        if arithmetic is None:
            arithmetic, note = native, " (not in arithmetic.json: judged as its element type)"
        exact, scale, partial_sums = product("blocks" if arithmetic in BLOCK_SCALED else "tensor" if arithmetic in DEQUANTISED else "floats")
        err = np.abs(c.astype(np.float64) - exact)
        finite = bool(np.all(np.isfinite(c)))

        def worst_over(allowed):
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.where(allowed > 0, err / np.where(allowed > 0, allowed, 1), np.where(err > 0, np.inf, 0))
            return float(np.max(ratio)) if finite else float("inf")

        relative = worst_over(scale)
        if partial_sums is None:
            g = bound(arithmetic, args.k)
            print(f"{path.name}: {arithmetic}, max |C - AB| / |A||B| = {relative:.3g} (bound {g:.3g}){note}")
            ok = ok and relative <= g
        else:
            try:
                g, g_q = fp8_bound(arithmetic, args.k)
            except ValueError as e:
                print(f"{path.name}: {arithmetic}: {e}")
                ok = False
                continue
            share = worst_over(g * scale + g_q * partial_sums)
            print(f"{path.name}: {arithmetic}, max |C - AB| / |A||B| = {relative:.3g}; worst element {share:.3g} "
                  f"of its own bound (|C - AB| <= {g:.3g} |A||B| + {g_q:.3g} Q){note}")
            ok = ok and share <= 1
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
