#!/usr/bin/env python3
"""Counts the SASS instructions of chosen kernels in an sm_90 cubin, without cuobjdump.

    python3 scripts/report/sass_opcodes.py FILE.cubin [NAME_PART ...]

A cubin is an ELF file; each kernel's code is a section `.text.<mangled name>` of 16-byte
instructions whose opcode sits in the low 12 bits of the first 8 bytes (Volta to Hopper). For every
kernel whose mangled name contains each NAME_PART, prints its instruction count (NOPs included:
ptxas pads the code with them) and how many of the opcodes below it holds. Where cuobjdump is at hand,
`cuobjdump -sass FILE | grep -c OPCODE` gives the same counts; this script serves a machine that has
nvcc and ptxas but not the binary utilities. Chapter 12's CONVOLUTION.md quotes its counts for the
register-tile kernels (results/h100/ch12_conv_sass.txt).
"""
import struct
import sys

# Opcode (low 12 bits) -> the mnemonic cuobjdump prints, for the instructions the chapter counts.
OPCODES = {
    0x223: "FFMA",     # FFMA R, R, R, R
    0x823: "FFMA",     # ... an immediate operand
    0xA23: "FFMA",     # ... a constant-bank operand, c[bank][offset]
    0xC23: "FFMA",     # ... a uniform-register operand, UR
    0x984: "LDS",      # load from shared memory
    0x388: "STS",      # store to shared memory
    0x983: "LDL",      # load from local memory (a spilled value)
    0x387: "STL",      # store to local memory (a spill)
    0xB82: "LDC",      # load from the constant bank into a register
    0xAB9: "ULDC",     # load from the constant bank into a uniform register
    0x981: "LDG",      # load from global memory
    0x986: "STG",      # store to global memory
    0xB1D: "BAR",      # barrier
    0x230: "HADD2",    # half-precision add; HADD2.F32 R, -RZ, R.H0_H0 is how a half becomes a float
    0x23E: "F2FP",     # F2FP.F16.F32.PACK_AB: two floats rounded into one pair of halves
    0x918: "NOP",
}
SHOWN = ["FFMA", "LDS", "STS", "LDL", "STL", "LDC", "ULDC", "LDG", "STG", "BAR", "HADD2", "F2FP"]


def text_sections(data: bytes):
    """(name, bytes) of every .text.<kernel> section of an ELF64 little-endian file."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise ValueError("not a 64-bit ELF file (a cubin from nvcc -cubin)")
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names_at = headers[shstrndx][4]
    for name_offset, _type, _flags, _addr, offset, size in headers:
        start = names_at + name_offset
        name = data[start:data.index(b"\0", start)].decode()
        if name.startswith(".text."):
            yield name[len(".text."):], data[offset:offset + size]


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(argv[1], "rb") as f:
        data = f.read()
    for kernel, code in text_sections(data):
        if not all(part in kernel for part in argv[2:]):
            continue
        counts: dict[str, int] = {}
        for at in range(0, len(code), 16):
            mnemonic = OPCODES.get(struct.unpack_from("<Q", code, at)[0] & 0xFFF, "other")
            counts[mnemonic] = counts.get(mnemonic, 0) + 1
        print(kernel)
        print(f"  instructions {len(code) // 16} ({counts.get('NOP', 0)} of them NOP); "
              + ", ".join(f"{m} {counts.get(m, 0)}" for m in SHOWN))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
