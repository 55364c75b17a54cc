# Loops of a kernel's SASS that contain a barrier, with their instructions per barrier (a
# fused pass: per step) by opcode, from `cuobjdump -sass <binary> | python3 sass_loops.py`
# (cuobjdump is on the GPU hosts, not on the build VM). Behind perf/log/run-42.md.
import re, sys, collections
txt = sys.stdin.read().split('Function : ')
for f in txt[1:]:
    name = f.split('\n')[0].strip()
    ins = []
    for l in f.split('\n'):
        m = re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;', l)
        if m: ins.append((int(m.group(1), 16), m.group(2)))
    print(name[:110], 'instructions', len(ins))
    for i, (a, t) in enumerate(ins):
        m = re.search(r'BRA\s.*?(0x[0-9a-f]+)', t)
        if m and int(m.group(1), 16) < a:
            tgt = int(m.group(1), 16)
            js = [k for k, (aa, _) in enumerate(ins) if aa == tgt]
            if not js: continue
            body = ins[js[0]:i + 1]
            nb = sum('BAR.SYNC' in x for _, x in body)
            if nb == 0: continue
            c = collections.Counter(re.sub(r'^@!?U?P\w+\s+', '', x).split()[0].split('.')[0] for _, x in body)
            print(f'  loop {js[0]}-{i}: {len(body)} instr, {nb} bars, per step {len(body)/nb:.1f}:', dict(c.most_common(16)))
