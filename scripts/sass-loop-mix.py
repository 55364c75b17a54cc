#!/usr/bin/env python3
"""The instruction mix of each kernel's main loop, from `cuobjdump -sass` output.

For every function in the listing, the loop is the longest backward branch's range; the
script prints its length, its FMAs (FFMA + DFMA), their share of the loop (the issue-bound
ceiling of an FMA-bound kernel: every other instruction takes an FMA's issue slot) and the
other opcodes by count. Shared-memory loads keep their width (LDS.128), which says whether
vector loads were emitted. Static counts: predicated-off and unrolled-away work are not
told apart, and a kernel whose hot loop is not its longest needs a look at the listing.

  cuobjdump -sass kernels.cubin > kernels.sass
  scripts/sass-loop-mix.py kernels.sass [name-filter]
"""
import re
import sys
from collections import Counter


def instructions(function_text):
    out = []
    for line in function_text.split("\n"):
        m = re.match(r"\s+/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
        if m:
            out.append((int(m.group(1), 16), m.group(2)))
    return out


def main_loop(ins):
    best = None
    for address, text in ins:
        m = re.search(r"BRA (0x[0-9a-f]+)", text)
        if m:
            target = int(m.group(1), 16)
            if target < address and (best is None or address - target > best[1] - best[0]):
                best = (target, address)
    return [text for address, text in ins if best and best[0] <= address <= best[1]]


def opcode(text):
    op = re.sub(r"^@!?U?P\S+ ", "", text).split()[0]
    return op if op.startswith(("LDS", "LDL", "STL", "LDG", "STG")) else op.split(".")[0]


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 2
    name_filter = sys.argv[2] if len(sys.argv) > 2 else ""
    text = open(sys.argv[1]).read()
    for function in text.split("Function : ")[1:]:
        name = function.split("\n")[0].strip()
        if name_filter not in name:
            continue
        body = main_loop(instructions(function))
        if not body:
            continue
        counts = Counter(opcode(t) for t in body)
        fma = counts.get("FFMA", 0) + counts.get("DFMA", 0)
        others = ", ".join(f"{k} {v}" for k, v in counts.most_common() if k not in ("FFMA", "DFMA"))
        print(f"{name}\n  loop {len(body)} instructions, {fma} FMA ({fma / len(body):.3f}); {others}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
