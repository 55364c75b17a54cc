"""CUDA policies with explicit tile parameters, compiled on first use.

A CUDA strategy's tiles are C++ template arguments: the module holds every strategy with
its default tiles, and a policy such as "cuda:pipelined<64,4,4,2>" (the C++ spelling of
tessera::cuda::pipelined<64, 4, 4, 2>) is compiled here with nvcc, for the shape and
element type it is called with, into a small shared library that rebuilds the caller's
views over the same memory. Libraries are cached on disk ($TESSERA_JIT_CACHE, else
$XDG_CACHE_HOME/tessera/jit, else ~/.cache/tessera/jit) under a hash of their source and
of the build they were made for, and in memory for the process. A compile takes seconds
the first time a (policy, shape, dtype) meets a process, and microseconds after.

_jit_config.json (written by CMake beside this file) says where nvcc, tessera's headers
and its two static libraries are.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import json
import os
import re
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any, Sequence

from . import _tessera
from ._tessera import (AliasingError, AllocationError, BackendError, Error, ExtentMismatchError, GhostWidthError,
                       InvalidArgumentError, OutOfBoundsError, UnsupportedError)


class CompileError(Error):
    """nvcc refused a policy's template arguments (the message carries the compiler's errors,
    e.g. a static_assert of the strategy saying what its tiles must be)."""


_HERE = Path(__file__).resolve().parent
_SPELLING = re.compile(r"^cuda:([a-z][a-z0-9-]*)<([^<>]*)>$")
_MAX_ARGUMENT = 1 << 16
_ERRORS = {1: InvalidArgumentError, 2: ExtentMismatchError, 3: AliasingError, 4: GhostWidthError,
           5: OutOfBoundsError, 6: UnsupportedError, 7: AllocationError, 8: BackendError, 9: Error, 10: Error}
_lock = threading.Lock()  # guards _loaded and _compiling
_compiling: dict[str, threading.Lock] = {}  # one lock a key: different policies compile side by side
_loaded: dict[str, Any] = {}  # by the hash of source and build
_by_request: dict[tuple, Any] = {}  # by (policy, kind, rank, radius, dtype, architecture)


def is_spelled(policy: str) -> bool:
    """True for a policy with template arguments, "cuda:<strategy><a,b,...>"."""
    return "<" in policy and policy.startswith("cuda:")


@functools.lru_cache(maxsize=None)  # read once a process: every spelled call parses its policy
def config() -> dict:
    path = _HERE / "_jit_config.json"
    if not path.is_file():
        raise UnsupportedError("tessera: this installation has no _jit_config.json, so CUDA policies with template "
                               "arguments cannot be compiled; use the strategy's name alone (its default tiles)")
    cfg = json.loads(path.read_text())
    base = path.parent

    def resolve(p: str) -> str:
        return str((base / p).resolve()) if not os.path.isabs(p) else p

    cfg["include_dirs"] = [resolve(p) for p in cfg["include_dirs"]]
    cfg["libraries"] = [resolve(p) for p in cfg["libraries"]]
    return cfg


def _strategy_header(strategy: str) -> Path:
    for d in config()["include_dirs"]:
        h = Path(d) / "tessera" / "cuda" / "strategies" / f"{strategy}.hpp"
        if h.is_file():
            return h
    raise UnsupportedError(f"tessera: no header tessera/cuda/strategies/{strategy}.hpp among this installation's "
                           "headers")


@functools.lru_cache(maxsize=None)
def strategies() -> tuple[str, ...]:
    """The CUDA strategies (C++ names), from the one list tessera/cuda/strategies.def."""
    for d in config()["include_dirs"]:
        listing = Path(d) / "tessera" / "cuda" / "strategies.def"
        if listing.is_file():
            return tuple(re.findall(r"^TESSERA_CUDA_STRATEGY\(([a-z][a-z0-9_]*)\)$", listing.read_text(), re.M))
    raise UnsupportedError("tessera: tessera/cuda/strategies.def is not among this installation's headers")


def _strategy(name: str) -> str:
    """The C++ identifier of a policy name ("cuda:shared-streaming" -> "shared_streaming")."""
    if not name.startswith("cuda:"):
        raise InvalidArgumentError(f"tessera: {name!r} takes no template arguments; only the cuda: strategies do")
    strategy = name[len("cuda:"):].replace("-", "_")
    known = strategies()
    if strategy not in known:
        raise InvalidArgumentError(
            f"tessera: {name!r} is not a CUDA strategy with template arguments; the strategies are "
            + ", ".join("cuda:" + s.replace("_", "-") for s in known))
    return strategy


def parameters(name: str) -> list[str]:
    """The template parameters of CUDA policy ``name``, in order (from its header): e.g.
    parameters("cuda:pipelined") == ["BlockX", "BlockY", "RowsPerThread", "Stages", "Chunk"].
    0 for a parameter means the strategy's default."""
    return list(_parameters(name))


@functools.lru_cache(maxsize=None)
def _parameters(name: str) -> tuple[str, ...]:
    strategy = _strategy(name)
    text = _strategy_header(strategy).read_text()
    # the policy's definition: template <int A = 0, ...> struct <name> : <its base> {
    m = re.search(r"template\s*<([^<>]*)>\s*struct\s+" + strategy + r"\s*:", text)
    if not m:
        raise UnsupportedError(f"tessera: cannot read the template parameters of {name} from its header")
    return tuple(re.findall(r"int\s+(\w+)\s*=\s*0", m.group(1)))


def spell(name: str, arguments: Sequence[int]) -> str:
    """"cuda:pipelined<64,4,4,2>": the policy of strategy ``name`` with these arguments."""
    return f"{name}<{','.join(str(int(a)) for a in arguments)}>"


@functools.lru_cache(maxsize=256)
def parse(policy: str) -> tuple[str, tuple[int, ...]]:
    """("pipelined", (64, 4, 4, 2)) for "cuda:pipelined<64,4,4,2>", every argument checked."""
    m = _SPELLING.match(policy.replace(" ", ""))
    if not m:
        raise InvalidArgumentError(f"tessera: policy {policy!r} is not spelled cuda:<strategy><a,b,...> "
                                   "(e.g. 'cuda:pipelined<64,4,4,2>')")
    name = "cuda:" + m.group(1)
    names = parameters(name)
    text = m.group(2)
    values = [] if text == "" else text.split(",")
    if len(values) > len(names):
        raise InvalidArgumentError(f"tessera: {policy} has {len(values)} template arguments but {name} takes "
                                   f"{len(names)}: {', '.join(names)}")
    arguments = []
    for key, v in zip(names, values):
        if not re.fullmatch(r"\d+", v) or int(v) > _MAX_ARGUMENT:
            raise InvalidArgumentError(f"tessera: {policy}: {key}={v} is not an integer in [0, {_MAX_ARGUMENT}] "
                                       "(0: the strategy's default)")
        arguments.append(int(v))
    return _strategy(name), tuple(arguments)


class _View(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("extents", ctypes.c_longlong * 3), ("strides", ctypes.c_longlong * 3),
                ("row_alignment", ctypes.c_longlong), ("pad_left", ctypes.c_longlong), ("ghost", ctypes.c_int),
                ("label", ctypes.c_char_p)]


def _view_struct(native: Any, role: str) -> _View:
    if not native.device:
        raise UnsupportedError(f"tessera: CUDA policies sweep device arrays, but the {role} {native.describe()} "
                               "is in host memory; pass CuPy arrays, or a host: policy")
    address, strides, row_alignment, pad_left = native.layout
    v = _View()
    v.data = address
    for d in range(native.rank):
        v.extents[d] = native.interior[d]
        v.strides[d] = strides[d]
    v.row_alignment, v.pad_left, v.ghost = row_alignment, pad_left, native.ghost
    v.label = (native.label or role).encode()
    return v


def _architecture(cfg: dict) -> str:
    major, minor = _tessera.cuda_capability()
    if major > 0:
        return f"sm_{major}{minor}"
    return cfg["fallback_architecture"]  # no device: compile-only (tests on a machine without a GPU)


def _cache_dir() -> Path:
    d = os.environ.get("TESSERA_JIT_CACHE")
    if d:
        return Path(d)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tessera" / "jit"


def _source(strategy: str, arguments: Sequence[int], kind: str, rank: int, radius: int, dtype: str) -> str:
    policy = f"{strategy}<{', '.join(str(a) for a in arguments)}>"
    shape = f"tessera::{kind}<{rank}, {radius}>"
    text = (_HERE / "jit_unit.cu.in").read_text()
    return (text.replace("@POLICY@", policy).replace("@SHAPE@", shape)
            .replace("@TYPE@", "float" if dtype == "float32" else "double"))


def compile(policy: str, kind: str, rank: int, radius: int, dtype: str, architecture: str | None = None) -> Any:
    """The loaded library of ``policy`` (spelled with template arguments) for this shape and
    dtype: from this process, the disk cache, or nvcc (CompileError with its messages)."""
    request = (policy, kind, rank, radius, dtype, architecture)
    lib = _by_request.get(request)
    if lib is not None:  # the common case: a call's cost is this lookup
        return lib
    if not _tessera.has_cuda:
        raise UnsupportedError(f"tessera: {policy} needs a build of the module with CUDA")
    if (kind not in ("star", "box") or dtype not in ("float32", "float64") or rank not in (1, 2, 3)
            or not 1 <= radius <= 8):
        raise InvalidArgumentError(f"tessera: no {rank}D {kind} of radius {radius} in {dtype} to compile")
    strategy, arguments = parse(policy)
    cfg = config()
    arch = architecture or _architecture(cfg)
    source = _source(strategy, arguments, kind, rank, radius, dtype)
    stamp = [(p, os.stat(p).st_mtime_ns, os.stat(p).st_size) for p in cfg["libraries"]]
    key = hashlib.sha256(json.dumps([source, cfg, arch, stamp], sort_keys=True).encode()).hexdigest()[:32]
    with _lock:
        if key in _loaded:
            _by_request[request] = _loaded[key]
            return _loaded[key]
        key_lock = _compiling.setdefault(key, threading.Lock())
    with key_lock:
        with _lock:
            if key in _loaded:
                return _loaded[key]
        cache = _cache_dir()
        cache.mkdir(parents=True, exist_ok=True)
        library = cache / f"{strategy}_{key}.so"
        if not library.is_file():
            _build(cfg, source, arch, library, policy, f"{kind}<{rank},{radius}> {dtype}")
        lib = ctypes.CDLL(str(library))
        lib.tessera_jit_apply.argtypes = [ctypes.POINTER(_View), ctypes.POINTER(_View),
                                          ctypes.POINTER(ctypes.c_double), ctypes.c_int, ctypes.c_void_p,
                                          ctypes.c_char_p, ctypes.c_int]
        lib.tessera_jit_iterate.argtypes = [ctypes.POINTER(_View), ctypes.POINTER(_View),
                                            ctypes.POINTER(ctypes.c_double), ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                            ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_double),
                                            ctypes.POINTER(ctypes.c_int), ctypes.c_char_p, ctypes.c_int]
        with _lock:
            _loaded[key] = lib
            _by_request[request] = lib
        return lib


def _nvcc(cfg: dict, policy: str) -> str:
    """$TESSERA_NVCC, else the nvcc tessera was built with, else the one on PATH."""
    from shutil import which
    for candidate in (os.environ.get("TESSERA_NVCC"), cfg["nvcc"], which("nvcc")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise UnsupportedError(f"tessera: compiling {policy} needs nvcc: {cfg['nvcc']} (the one tessera was built "
                           "with) is not there and none is on PATH; set TESSERA_NVCC")


def _build(cfg: dict, source: str, arch: str, library: Path, policy: str, what: str) -> None:
    nvcc = _nvcc(cfg, policy)
    with tempfile.TemporaryDirectory(dir=library.parent) as tmp:
        unit = Path(tmp) / "unit.cu"
        unit.write_text(source)
        exports = Path(tmp) / "exports.map"
        # Only the two entry points: the libraries' template instances stay inside (see
        # python/CMakeLists.txt on why a module must not export libstdc++'s).
        exports.write_text("{ global: tessera_jit_apply; tessera_jit_iterate; local: *; };\n")
        out = Path(tmp) / "unit.so"
        number = arch.split("_", 1)[1]
        # compute_NN: PTX alone (no device to assemble for); sm_NN: its SASS and PTX
        gencode = (f"-gencode=arch=compute_{number},code=compute_{number}" if arch.startswith("compute_")
                   else f"-arch={arch}")
        command = ([nvcc, "-O3", "-shared", "-Xcompiler=-fPIC", "-cudart=shared", gencode, "-o", str(out),
                    str(unit), f"-Xlinker=--version-script={exports}"] + cfg["flags"]
                   + [f"-I{d}" for d in cfg["include_dirs"]] + cfg["libraries"])
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=900)
        except subprocess.TimeoutExpired:
            raise CompileError(f"tessera: compiling {policy} for {what} took more than 900 s") from None
        if run.returncode != 0:
            lines = [ln for ln in (run.stderr + run.stdout).splitlines() if "error" in ln or "static assertion" in ln]
            shown = "\n".join(lines[:12]) or (run.stderr + run.stdout)[-2000:]
            raise CompileError(f"tessera: nvcc refused {policy} for {what}:\n{shown}")
        os.replace(out, library)  # atomic: another process compiling the same key loses nothing


def _check(code: int, message: Any, policy: str) -> None:
    if code != 0:
        raise _ERRORS.get(code, Error)(f"{policy}: {message.value.decode(errors='replace')}")


def _coefficients(stencil: Any) -> Any:
    c = list(stencil.coefficients)
    return (ctypes.c_double * len(c))(*c), len(c)


def _library_for(policy: str, stencil: Any, native: Any) -> Any:
    if native.rank != stencil.rank:
        raise InvalidArgumentError(f"tessera ({policy}): the stencil is {stencil.rank}D but {native.describe()} is "
                                   f"{native.rank}D; declare the stencil with rank={native.rank}")
    return compile(policy, stencil.kind, stencil.rank, stencil.radius, native.dtype)


def apply(policy: str, stencil: Any, input: Any, output: Any, stream: int) -> None:
    """tessera.apply with a spelled CUDA policy (natives: the module's views)."""
    parse(policy)  # the spelling first, then the views, then (once) the compiler
    i, o = _view_struct(input, "input"), _view_struct(output, "output")
    lib = _library_for(policy, stencil, input)
    c, n = _coefficients(stencil)
    message = ctypes.create_string_buffer(4096)
    # ctypes releases the GIL for the call, as the module does for its sweeps
    _check(lib.tessera_jit_apply(ctypes.byref(i), ctypes.byref(o), c, n, ctypes.c_void_p(stream or None), message,
                                 len(message)), message, policy)


def iterate(policy: str, stencil: Any, u: Any, scratch: Any, steps: int, kinds: Sequence[str],
            values: Sequence[float]) -> bool:
    """tessera.iterate with a spelled CUDA policy; True when the result is in u."""
    parse(policy)
    uu, ss = _view_struct(u, "field u"), _view_struct(scratch, "scratch view")
    lib = _library_for(policy, stencil, u)
    c, n = _coefficients(stencil)
    codes = {"dirichlet": 0, "periodic": 1, "neumann": 2}
    faces = len(kinds)
    k = (ctypes.c_int * max(faces, 1))(*[codes[x] for x in kinds])
    v = (ctypes.c_double * max(faces, 1))(*values)
    in_u = ctypes.c_int(1)
    message = ctypes.create_string_buffer(4096)
    _check(lib.tessera_jit_iterate(ctypes.byref(uu), ctypes.byref(ss), c, n, int(steps), faces, k, v,
                                   ctypes.byref(in_u), message, len(message)), message, policy)
    return in_u.value == 1
