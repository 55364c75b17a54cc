#!/usr/bin/env python3
"""The Python module's per-call cost beside the same C++ call (perf/call_time.cpp).

    PYTHONPATH=build/python python3 perf/python_call_time.py build/perf/tessera-call-time

Times tessera.apply on the cases tessera-call-time times (same sizes, dtypes, policies,
packed C-ordered arrays with a ghost layer of 1, and tessera.zeros' padded rows beside
views tessera allocates), runs tessera-call-time, and prints one
table: case, C++ microseconds a call, Python microseconds a call, Python - C++, ratio.
Host cases by wall clock (median of 7 blocks); device cases with CUDA events around a
block of calls on the default stream, as the C++ program does. Not a test.
"""
import subprocess
import sys
import time

import numpy as np

import tessera as ts


def host_case(policy, n, calls, repeats=7):
    u = np.ones((n + 2,) * 3)
    v = np.zeros_like(u)
    U, V = ts.wrap(u, 1), ts.wrap(v, 1)
    lap = ts.fd.laplacian(3, 2, 1.0)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(calls):
            ts.apply(policy, lap, U, V)
        times.append((time.perf_counter() - t0) / calls * 1e6)
    return sorted(times)[len(times) // 2]


def device_case(n, calls, repeats=7, padded=False, policy="cuda:automatic"):
    """padded: arrays from tessera.zeros (rows on 128-byte boundaries), else plain CuPy arrays."""
    import cupy as cp

    if padded:
        U, V = ts.zeros((n,) * 3, 1, cp.float32, device=True), ts.zeros((n,) * 3, 1, cp.float32, device=True)
        U.array[...] = 1
    else:
        u = cp.ones((n + 2,) * 3, dtype=cp.float32)
        v = cp.zeros_like(u)
        U, V = ts.wrap(u, 1), ts.wrap(v, 1)
    lap = ts.fd.laplacian(3, 2, 1.0)
    ts.apply(policy, lap, U, V)
    cp.cuda.Device().synchronize()
    e0, e1 = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(repeats):
        e0.record()
        for _ in range(calls):
            ts.apply(policy, lap, U, V)
        e1.record()
        e1.synchronize()
        times.append(cp.cuda.get_elapsed_time(e0, e1) * 1000 / calls)
    return sorted(times)[len(times) // 2]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python_call_time.py <path of tessera-call-time>")
    cpp = {}
    for line in subprocess.run([sys.argv[1]], check=True, capture_output=True, text=True).stdout.splitlines()[1:]:
        case, us = line.rsplit(",", 1)
        cpp[case] = float(us)
    py = {
        "host:serial 8^3 float64": host_case("host:serial", 8, 2000),
        "host:parallel 8^3 float64": host_case("host:parallel", 8, 2000),
        "host:parallel 128^3 float64": host_case("host:parallel", 128, 10),
    }
    if "cuda:automatic 512^3 float32" in cpp:
        py["cuda:automatic 8^3 float32"] = device_case(8, 2000)
        py["cuda:automatic 512^3 float32"] = device_case(512, 51)
        py["cuda:automatic 512^3 float32 padded rows"] = device_case(512, 51, padded=True)
    print(f"{'case':44} {'C++ us':>10} {'Python us':>10} {'Py - C++':>10} {'ratio':>7}")
    for case, p in py.items():
        c = cpp[case]
        print(f"{case:44} {c:10.2f} {p:10.2f} {p - c:10.2f} {p / c:7.3f}")
    for case, c in cpp.items():
        if case not in py:
            print(f"{case}: {c:.2f} us (C++ only)")
    if "cuda:automatic 512^3 float32" in cpp:
        template_policies()


def template_policies():
    """A policy spelled with template arguments (compiled on first use, called through
    ctypes) beside the module's own with the same tiles: cuda:pipelined<0,0,0,0,0> is
    cuda:pipelined's default tile, the same kernel."""
    import os
    import tempfile

    from tessera import _jit

    with tempfile.TemporaryDirectory() as cache:
        os.environ["TESSERA_JIT_CACHE"] = cache
        t0 = time.perf_counter()
        _jit.compile("cuda:pipelined<0,0,0,0,0>", "star", 3, 1, "float32")
        print(f"first use of cuda:pipelined<0,0,0,0,0> (nvcc, empty cache): {time.perf_counter() - t0:.1f} s")
        print(f"{'case':44} {'named us':>10} {'spelled us':>10} {'ratio':>7}")
        for n, calls in ((8, 2000), (512, 51)):
            named = device_case(n, calls, padded=True, policy="cuda:pipelined")
            spelled = device_case(n, calls, padded=True, policy="cuda:pipelined<0,0,0,0,0>")
            print(f"{f'cuda:pipelined {n}^3 float32 padded rows':44} {named:10.2f} {spelled:10.2f} "
                  f"{spelled / named:7.3f}")


if __name__ == "__main__":
    main()
