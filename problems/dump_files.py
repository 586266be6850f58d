"""What the problems' check_dump.py scripts share: their options, the dump's file list, and .npy files
checked before NumPy reads them. Bad input gets one line on stderr and exit code 2, never a traceback.

The files of the dump are those its manifest lists, when the chapter wrote one: dump_manifest.json
(common/include/gpgpu/dump.hpp: "files", this run's files in the order written). A folder used by an
earlier dump holds only this run's files once the run completed, but a stopped run can leave the
earlier one's beside them; the manifest names which are whose. Without it, every file that matches.
"""
import json
import argparse
import fnmatch
import math
import pathlib
import sys

import numpy as np
import numpy.lib.format as npy_format

PROGRAM = "check_dump.py"


def refuse(message):
    """Bad input: one line on stderr, exit code 2."""
    print(f"{PROGRAM}: error: {message}", file=sys.stderr)
    sys.exit(2)


class Parser(argparse.ArgumentParser):
    """argparse with its usage errors on one line."""

    def __init__(self, **kwargs):
        super().__init__(prog=PROGRAM, **kwargs)

    def error(self, message):
        refuse(f"{message} (see --help)")


def positive_int(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expects an integer of at least 1, got '{text}'")
    return value


def weight(text):
    """A Jacobi weight: a finite number strictly between 0 and 2, as the chapters take it."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value < 2):
        raise argparse.ArgumentTypeError(f"expects a number strictly between 0 and 2, got '{text}'")
    return value


def checked(path):
    """The path of a complete .npy file of numbers; refuses a missing, truncated or foreign file."""
    path = pathlib.Path(path)
    headers = {(1, 0): npy_format.read_array_header_1_0, (2, 0): npy_format.read_array_header_2_0}
    try:
        with open(path, "rb") as f:
            version = npy_format.read_magic(f)
            if version not in headers:  # a later format: NumPy reads it whole
                np.load(f, allow_pickle=False)
                return path
            shape, _, dtype = headers[version](f)
            data_at = f.tell()
        size = path.stat().st_size
    except FileNotFoundError:
        refuse(f"{path} is missing")
    except (OSError, ValueError, EOFError) as e:  # unreadable, no .npy header, or cut short
        refuse(f"{path} is not a readable .npy file: {e}")
    if dtype.hasobject:
        refuse(f"{path} holds Python objects, not numbers")
    expected = data_at + math.prod(shape) * dtype.itemsize
    if size != expected:
        refuse(f"{path} is {size} bytes, its header promises {expected} ({'truncated' if size < expected else 'extra bytes'})")
    return path


def dump_folder(*names):
    """An argparse type: the dump's folder, which must hold each named file, a complete .npy file."""

    def folder(text):
        path = pathlib.Path(text)
        if not path.is_dir():
            refuse(f"{text} is not a folder")
        for name in names:
            checked(path / name)
        return path

    return folder


MANIFEST = "dump_manifest.json"  # the chapters' DumpFolder writes it


def current_files(folder, pattern):
    """The dump's files that match `pattern`, each checked: the ones dump_manifest.json lists when
    there is one (a file it lists must be there), else every match in the folder."""
    folder = pathlib.Path(folder)
    manifest = folder / MANIFEST
    if manifest.exists():
        try:
            about = json.loads(manifest.read_text(encoding="utf-8"))
            names = about["files"]
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise ValueError("'files' is not a list of names")
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as e:
            refuse(f"{manifest} cannot be read: {e}")
        if about.get("complete") is not True:
            refuse(f"{manifest}: the run that wrote this dump did not complete (run it again)")
        paths = [folder / n for n in sorted(set(names)) if fnmatch.fnmatchcase(n, pattern)]
    else:
        paths = sorted(folder.glob(pattern))
    return [checked(p) for p in paths]
