#!/usr/bin/env python3
# Decodes the $readmemh words of a `dcbkit vectors KERNEL --format memh` folder back to the JSON
# objects they were packed from, with manifest.json alone (docs/rtl.md). Python 3 standard library
# only, so a cocotb testbench can import it to compare the DUT's outputs field by field:
#
#     from decode_memh import Vectors
#     v = Vectors(".")                      # the folder with manifest.json and the .memh files
#     v.expected[12]["deficit"][3]          # line 12 of expected.memh, as the JSON line has it
#     v.decode("expected", word_int)        # any word (an int, or a hex string) of that layout
#
# Run as a script it prints one group as JSON Lines: python3 decode_memh.py [DIR] [expected|stimulus|config]
#
# Layout (manifest.json "stimulus" / "expected" / "config_word"): fields from bit 0 upwards, each
# {name, lsb, width, signed}; "enum" maps names to codes; "bits" decodes a mask to the list of its
# set bits; "json" is the value's path when it differs from the name (deficit[3], cnm.qf); a field
# with "valid_of" is the 1-bit companion of that path: 0 means the value is null ("invalid": "null")
# or the key is not in the line ("absent"), and the value's bits are then skipped.
import json
import os
import re
import sys

_PATH = re.compile(r"^([^.\[]+)(?:\[(\d+)\])?(?:\.(.+))?$")


def _set_path(obj, path, value):
    m = _PATH.match(path)
    if not m:
        raise ValueError("bad manifest path %r" % path)
    key, index, rest = m.group(1), m.group(2), m.group(3)
    if rest is not None:
        if not isinstance(obj.get(key), dict):
            obj[key] = {}
        _set_path(obj[key], rest, value)
    elif index is not None:
        arr = obj.get(key)
        if not isinstance(arr, list):
            arr = obj[key] = []
        i = int(index)
        while len(arr) <= i:
            arr.append(None)
        arr[i] = value
    else:
        obj[key] = value


def decode_word(layout, word):
    """The object packed into `word` (int or hex string) under a manifest layout {word_bits, fields}."""
    if isinstance(word, str):
        word = int(word, 16)
    out = {}
    invalid = {}
    for f in layout["fields"]:
        v = (word >> f["lsb"]) & ((1 << f["width"]) - 1)
        if "valid_of" in f:
            if v == 0:
                invalid[f["valid_of"]] = f["invalid"]
                if f["invalid"] == "null":
                    _set_path(out, f["valid_of"], None)
            else:
                invalid.pop(f["valid_of"], None)
            continue
        path = f.get("json", f["name"])
        if any(path == p or path.startswith(p + ".") or path.startswith(p + "[") for p in invalid):
            continue
        if f["signed"] and v >> (f["width"] - 1):
            v -= 1 << f["width"]
        if "enum" in f:
            names = [n for n, c in f["enum"].items() if c == v]
            value = names[0] if names else v
        elif f.get("bits"):
            value = [i for i in range(f["width"]) if (v >> i) & 1]
        else:
            value = v
        _set_path(out, path, value)
    return out


class Vectors:
    """A memh vectors folder: its manifest and every word, decoded."""

    GROUPS = {"stimulus": ("stimulus", "stimulus.memh"), "expected": ("expected", "expected.memh"), "config": ("config_word", "config.memh")}

    def __init__(self, folder="."):
        self.folder = folder
        with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as fh:
            self.manifest = json.load(fh)
        self.stimulus = self.read("stimulus")
        self.expected = self.read("expected")
        config = self.read("config")
        self.config = config[0] if config else None

    def decode(self, group, word):
        return decode_word(self.manifest[self.GROUPS[group][0]], word)

    def read(self, group):
        with open(os.path.join(self.folder, self.GROUPS[group][1]), encoding="ascii") as fh:
            return [self.decode(group, w) for w in fh.read().split()]


def main(argv):
    folder = argv[1] if len(argv) > 1 else "."
    group = argv[2] if len(argv) > 2 else "expected"
    if group not in Vectors.GROUPS:
        sys.stderr.write("group must be one of %s, got %r\n" % (", ".join(Vectors.GROUPS), group))
        return 2
    v = Vectors(folder)
    rows = v.expected if group == "expected" else v.stimulus if group == "stimulus" else [v.config]
    for row in rows:
        sys.stdout.write(json.dumps(row, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
