"""tessera: declarative structured-grid stencils on NumPy and CuPy arrays, without copies.

    import numpy as np, tessera as ts
    u = np.random.rand(66, 66, 66).astype(np.float32)   # 64^3 interior, ghost layer of 1
    v = np.zeros_like(u)
    lap = ts.fd.laplacian(rank=3, order=2, h=1.0)       # the 7-point star
    ts.apply("host:parallel", lap, ts.wrap(u, ghost=1), ts.wrap(v, ghost=1))
    # v[1:-1, 1:-1, 1:-1] now holds the Laplacian of u; v's ghost cells are untouched

An array passed to tessera holds its ghost layer: its interior is array[g:-g] on every
axis. wrap() makes a View of the array's memory (no copy); numpy.asarray(view) and
cupy.asarray(view) give the array back (no copy). CuPy arrays (or any array with DLPack
or __cuda_array_interface__ in device memory) run on the GPU with the cuda: policies or
"automatic".
"""

from __future__ import annotations

from typing import Any, Sequence

from . import _jit, _tessera
from ._jit import CompileError  # noqa: F401  (re-exported)
from ._tessera import (  # noqa: F401  (re-exported)
    AliasingError,
    AllocationError,
    BackendError,
    Error,
    ExtentMismatchError,
    GhostWidthError,
    InvalidArgumentError,
    OutOfBoundsError,
    UnsupportedError,
)

__all__ = [
    "View", "Stencil", "Policy", "policy_parameters", "wrap", "zeros", "stencil", "shape_points", "apply", "iterate", "validate",
    "norm_max", "norm_l2", "dot", "multigrid_solve", "policies", "fd", "physics", "has_cuda", "has_kokkos", "cuda_devices",
    "Error", "InvalidArgumentError", "ExtentMismatchError", "AliasingError", "GhostWidthError",
    "OutOfBoundsError", "UnsupportedError", "BackendError", "AllocationError", "CompileError",
]

has_cuda: bool = _tessera.has_cuda
has_kokkos: bool = _tessera.has_kokkos


def cuda_devices() -> int:
    """Number of CUDA devices this process sees (0 in a build without CUDA)."""
    return _tessera.cuda_devices()


def policies(device: bool = False) -> list[str]:
    """The policy names apply() and iterate() take for host (NumPy) or device arrays.

    The cuda: strategies also take template arguments, as in C++:
    "cuda:pipelined<64,4,4,2>" (see policy_parameters and Policy).
    """
    return list(_tessera.policies(device))


def policy_parameters(name: str) -> list[str]:
    """The template parameters of a cuda: strategy, in order, e.g. ["BlockX", "BlockY",
    "RowsPerThread", "Stages", "Chunk"] for "cuda:pipelined" (0 for any: its default)."""
    return _jit.parameters(name)


class View:
    """A tessera view of an array's memory: ghost layer inside, no copy.

    The view keeps the array alive. ``array`` is the array itself, ``interior`` the slice
    without the ghosts (a view of the same memory), ``ghost`` the ghost width.
    """

    __slots__ = ("array", "ghost", "_native")

    def __init__(self, array: Any, ghost: int, label: str = "array", _native: Any = None):
        if _native is not None:  # zeros(): the array and its native view, made together
            self.array, self.ghost, self._native = array, ghost, _native
            return
        if isinstance(array, View):
            raise InvalidArgumentError("tessera.View: already a View; pass the array itself")
        flags = getattr(array, "flags", None)
        if flags is not None and hasattr(flags, "writeable") and not flags.writeable:
            raise InvalidArgumentError(
                f"tessera.wrap: array '{label}' is read-only; tessera may write into it "
                "(pass a writeable array, e.g. array.copy())")
        if not isinstance(ghost, int) or isinstance(ghost, bool):
            raise InvalidArgumentError(f"tessera.wrap: ghost must be an int, not {type(ghost).__name__}")
        try:
            native = _tessera.wrap(array, ghost, label)
        except TypeError as e:
            raise InvalidArgumentError(
                f"tessera.wrap: '{label}' ({type(array).__module__}.{type(array).__name__}) is not an array "
                "tessera can read without a copy: pass a NumPy array, a CuPy array, or any array with "
                f"__dlpack__ or __cuda_array_interface__ ({e})") from None
        self.array = array
        self.ghost = ghost
        self._native = native

    @property
    def device(self) -> bool:
        """True for device memory (CuPy and other CUDA arrays)."""
        return self._native.device

    @property
    def dtype(self) -> str:
        return self._native.dtype

    @property
    def shape(self) -> tuple[int, ...]:
        """The interior extents (the array's shape less two ghost layers per axis)."""
        return tuple(self._native.interior)

    @property
    def interior(self) -> Any:
        """array[g:-g, ...]: the interior as a view of the same array (no copy)."""
        g = self.ghost
        if g == 0:
            return self.array
        return self.array[(slice(g, -g),) * self._native.rank]

    def describe(self) -> str:
        return self._native.describe()

    def __repr__(self) -> str:
        return f"tessera.View({self.describe()})"

    # numpy.asarray(view), cupy.asarray(view), DLPack consumers: the array itself.
    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        if self.device:
            raise TypeError(f"tessera: {self.describe()} is in device memory; use cupy.asarray(view)")
        import numpy as np

        if copy:
            return np.array(self.array, dtype=dtype, copy=True)
        return np.asarray(self.array, dtype=dtype)

    @property
    def __cuda_array_interface__(self) -> dict:
        if not self.device:
            raise AttributeError("a host view has no __cuda_array_interface__")
        return self.array.__cuda_array_interface__

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:
        return self.array.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self) -> Any:
        return self.array.__dlpack_device__()


def wrap(array: Any, ghost: int, label: str = "array") -> View:
    """A View of ``array``'s memory (NumPy, CuPy, DLPack or __cuda_array_interface__), no copy.

    The array holds a ghost layer of width ``ghost`` on every side: its interior is
    array[ghost:-ghost] on every axis. The last axis must be contiguous; other strides may
    leave gaps (a slice of a larger array), which tessera never writes.
    """
    return View(array, ghost, label)


def zeros(shape: Sequence[int], ghost: int, dtype: Any = "float64", device: bool = False,
          label: str = "array") -> View:
    """A new zero-filled grid of interior extents ``shape`` and ghost width ``ghost``, laid out
    as tessera lays out its own views: every row's interior starts on a 128-byte boundary.

    Returns its View; ``view.array`` is the NumPy (device=False) or CuPy (device=True) array
    of shape ``shape + 2 * ghost`` (a strided view of a padded buffer). Every policy serves
    it, the 16-byte-vector strategies (cuda:vector-streaming, cuda:pipelined) included, which
    wrapped arrays of arbitrary rows do not get.
    """
    import numpy as np

    shape = [int(n) for n in shape]
    if any(n < 0 for n in shape) or not isinstance(ghost, int) or ghost < 0:
        raise InvalidArgumentError(f"tessera.zeros: shape {shape} and ghost {ghost} must be >= 0")
    dt = np.dtype(dtype)
    span, row, pad, align = _tessera.padded_plan(shape, ghost, dt.itemsize)
    xp = np
    if device:
        import cupy as xp  # noqa: F811
    slack = align // dt.itemsize
    raw = xp.zeros(span + slack, dtype=dt)
    start = (-(raw.data.ptr if device else raw.ctypes.data) % align) // dt.itemsize
    buffer = raw[start:start + span]
    padded = [n + 2 * ghost for n in shape]
    rows = buffer.reshape(padded[:-1] + [row]) if len(shape) > 1 else buffer
    array = rows[..., pad:pad + padded[-1]]
    return View(array, ghost, label, _native=_tessera.wrap_padded(buffer, shape, ghost, label))


class Stencil:
    """A built-in shape with one coefficient per point (see shape_points for their order)."""

    __slots__ = ("_native",)

    def __init__(self, native: Any):
        self._native = native

    kind = property(lambda self: self._native.kind)
    rank = property(lambda self: self._native.rank)
    radius = property(lambda self: self._native.radius)
    coefficients = property(lambda self: list(self._native.coefficients))

    @property
    def points(self) -> list[tuple[int, ...]]:
        """The offsets of the points, slowest axis first, in coefficient order."""
        return shape_points(self.kind, self.rank, self.radius)

    def __repr__(self) -> str:
        return (f"tessera.Stencil({self.kind}, rank={self.rank}, radius={self.radius}, "
                f"coefficients={self.coefficients})")


def stencil(kind: str, rank: int, radius: int, coefficients: Sequence[float]) -> Stencil:
    """A stencil of built-in shape ``kind`` ("star" or "box") with these coefficients.

    star: the centre, then axis 0's offsets -1, +1, -2, +2, ..., then axis 1's, ...;
    box: every offset of [-radius, radius]^rank in row-major order.
    """
    return Stencil(_tessera.stencil(kind, int(rank), int(radius), [float(c) for c in coefficients]))


def shape_points(kind: str, rank: int, radius: int) -> list[tuple[int, ...]]:
    """The offsets of a built-in shape's points, in the order coefficients are given."""
    return [tuple(p) for p in _tessera.shape_points(kind, int(rank), int(radius))]


class _FiniteDifferences:
    """tessera.fd: central finite-difference stencils of order 2, 4, 6 or 8."""

    @staticmethod
    def first_derivative(rank: int, order: int, axis: int, h: float) -> Stencil:
        return Stencil(_tessera.fd_stencil(0, int(rank), int(order), int(axis), float(h)))

    @staticmethod
    def second_derivative(rank: int, order: int, axis: int, h: float) -> Stencil:
        return Stencil(_tessera.fd_stencil(1, int(rank), int(order), int(axis), float(h)))

    @staticmethod
    def laplacian(rank: int, order: int, h: float) -> Stencil:
        return Stencil(_tessera.fd_stencil(2, int(rank), int(order), 0, float(h)))


fd = _FiniteDifferences()


def _view(x: Any, role: str) -> View:
    if isinstance(x, View):
        return x
    raise InvalidArgumentError(
        f"tessera: the {role} is a {type(x).__name__}, not a tessera.View; wrap it first: "
        f"tessera.wrap(array, ghost=g) (the array holds the ghost layer)")


def _stencil(s: Any) -> Any:
    if isinstance(s, Stencil):
        return s._native
    raise InvalidArgumentError(
        f"tessera: the stencil is a {type(s).__name__}; build one with tessera.stencil(...) or tessera.fd.*")


class Policy:
    """A policy with settings: run-time members, e.g. Policy("host:parallel", num_threads=4,
    fuse=4) or Policy("kokkos:mdrange", tile=(4, 8, 64)), or a CUDA strategy's template
    arguments, e.g. Policy("cuda:pipelined", tile=(64, 4, 4, 2)) (all of them, in C++
    order) or Policy("cuda:pipelined", BlockX=64, Stages=2) (by name, the others 0: the
    strategy's defaults; policy_parameters lists them). Its ``name``
    ("host:parallel(fuse=4,num_threads=4)", "cuda:pipelined<64,0,0,2>") is what apply,
    iterate and the others take. A CUDA policy with template arguments is compiled with
    nvcc the first time it meets a shape and dtype (seconds), then cached on disk.
    """

    __slots__ = ("base", "settings")

    def __init__(self, name: str, **settings: Any):
        if not isinstance(name, str) or "(" in name:
            raise InvalidArgumentError(f"tessera.Policy: {name!r} is not a policy name such as 'host:parallel'")
        for key, value in settings.items():
            values = value if isinstance(value, (tuple, list)) else (value,)
            if not values or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                raise InvalidArgumentError(f"tessera.Policy: {key}={value!r} is not an integer or a tuple of them")
        self.base = name
        self.settings = dict(sorted(settings.items()))
        if self._templated():
            self._template_arguments()  # refuses unknown parameters now, not at the first sweep

    def _templated(self) -> bool:
        return self.base.startswith("cuda:") and self.base != "cuda:automatic" and bool(self.settings)

    def _template_arguments(self) -> list[int]:
        names = _jit.parameters(self.base)
        if "tile" in self.settings:
            if len(self.settings) > 1:
                raise InvalidArgumentError(f"tessera.Policy: {self.base}: pass tile=(...) or the parameters by name "
                                           f"({', '.join(names)}), not both")
            tile = self.settings["tile"]
            return list(tile) if isinstance(tile, (tuple, list)) else [tile]
        unknown = [k for k in self.settings if k not in names]
        if unknown:
            raise InvalidArgumentError(f"tessera.Policy: {self.base} has no parameter {unknown[0]!r}; its template "
                                       f"parameters are {', '.join(names)} (or tile=(...) for all of them in order)")
        last = max(names.index(k) for k in self.settings)
        return [self.settings.get(k, 0) for k in names[:last + 1]]

    @property
    def name(self) -> str:
        if self._templated():
            return _jit.spell(self.base, self._template_arguments())
        if not self.settings:
            return self.base
        items = ",".join(f"{k}={'x'.join(str(v) for v in val) if isinstance(val, (tuple, list)) else val}"
                         for k, val in self.settings.items())
        return f"{self.base}({items})"

    def __repr__(self) -> str:
        return f"tessera.Policy({self.name})"


def _policy(p: Any, templates: str | None = None) -> str:
    """The policy's name. ``templates``: None where spelled CUDA policies (template
    arguments) serve, else the name of the call that refuses them."""
    name = p if isinstance(p, str) else getattr(p, "name", None)
    if not isinstance(name, str):
        raise InvalidArgumentError(f"tessera: a policy is a name such as 'host:parallel' or 'cuda:automatic', "
                                   f"not a {type(p).__name__}; tessera.policies() lists them")
    if templates is not None and _jit.is_spelled(name):
        raise UnsupportedError(f"tessera.{templates}: {name} has template arguments, which apply and iterate "
                               f"compile; {templates} takes the policies of tessera.policies(device=True)")
    return name


def _stream_handle(stream: Any) -> int:
    if stream is None:
        return 0
    if isinstance(stream, int):
        return stream
    ptr = getattr(stream, "ptr", None)  # cupy.cuda.Stream
    if isinstance(ptr, int):
        return ptr
    raise InvalidArgumentError(f"tessera.apply: stream must be None, an int handle or a CuPy stream, "
                               f"not {type(stream).__name__}")


def apply(policy: Any, stencil: Stencil, input: View, output: View, stream: Any = None) -> View:
    """One sweep: output = stencil applied to input, interior points only (ghosts never written).

    ``policy``: a name as on the command line ("host:serial", "host:parallel",
    "kokkos:mdrange", "cuda:pipelined", "cuda:automatic", "automatic"; policies() lists
    them). ``stream`` (device arrays): a CuPy stream or a cudaStream_t handle to launch on;
    None launches on the default stream, the one CuPy uses unless told otherwise.
    Returns ``output``.
    """
    i, o = _view(input, "input"), _view(output, "output")
    name = _policy(policy)
    if _jit.is_spelled(name):
        _jit.apply(name, _stencil(stencil), i._native, o._native, _stream_handle(stream))
    else:
        _tessera.apply(name, _stencil(stencil), i._native, o._native, _stream_handle(stream))
    return o


_FACE_KINDS = ("periodic", "neumann", "dirichlet")


def _faces(boundary: Any) -> tuple[list[str], list[float]]:
    if boundary is None:
        return [], []
    faces = [boundary] if isinstance(boundary, (str, int, float)) else list(boundary)
    kinds, values = [], []
    for f in faces:
        if isinstance(f, bool):
            raise InvalidArgumentError("tessera.iterate: a boundary face is a kind or a number, not a bool")
        if isinstance(f, (int, float)):
            kinds.append("dirichlet")
            values.append(float(f))
        elif isinstance(f, str) and f in _FACE_KINDS:
            kinds.append(f)
            values.append(0.0)
        else:
            raise InvalidArgumentError(
                f"tessera.iterate: boundary face {f!r} is not 'periodic', 'neumann', 'dirichlet' or a number "
                "(the Dirichlet value)")
    return kinds, values


def _boundary(boundary: Any, rank: int) -> Any:
    return _tessera.boundary(*_faces(boundary))


def iterate(policy: Any, stencil: Stencil, u: View, scratch: View, steps: int,
            boundary: Any = None) -> View:
    """``steps`` sweeps, alternating between u and scratch; returns the View holding the result.

    ``boundary``: None (ghosts keep what they hold), one kind for every face ("periodic",
    "neumann", "dirichlet" or a number, the Dirichlet value), or one per face: low and high
    side of axis 0, then of axis 1, ... (2 * rank entries).
    """
    uu, ss = _view(u, "field u"), _view(scratch, "scratch view")
    if not isinstance(steps, int) or isinstance(steps, bool):
        raise InvalidArgumentError(f"tessera.iterate: steps must be an int, not {type(steps).__name__}")
    name = _policy(policy)
    if _jit.is_spelled(name):
        kinds, values = _faces(boundary)
        rank = uu._native.rank
        if len(kinds) not in (0, 1, 2 * rank):
            raise InvalidArgumentError(
                f"tessera.iterate: boundary has {len(kinds)} faces but a {rank}D grid has {2 * rank} (low and high "
                "side of each axis, slowest axis first); pass one kind for every face or one per face")
        in_u = _jit.iterate(name, _stencil(stencil), uu._native, ss._native, steps, kinds, values)
    else:
        in_u = _tessera.iterate(name, _stencil(stencil), uu._native, ss._native, steps,
                                _boundary(boundary, uu._native.rank))
    return uu if in_u else ss


def validate(policy: Any, stencil: Stencil, input: View, tolerance: float | None = None) -> dict:
    """Sweeps ``input`` with ``policy`` and with the Kokkos reference and compares.

    Returns a dict: passed, scaled_error, tolerance, max_abs_error, message, policy,
    shape, reference. Needs a build with Kokkos (has_kokkos).
    """
    i = _view(input, "input")
    return _tessera.validate(_policy(policy, "validate"), _stencil(stencil), i._native, -1.0 if tolerance is None
                             else float(tolerance))


class _Physics:
    """tessera.physics: ready-made point functions (each output point from several fields).

    Policies: host:serial, host:parallel, kokkos:mdrange, automatic (host arrays);
    cuda:automatic, automatic (device arrays). Each returns ``out``.
    """

    @staticmethod
    def _run(kernel: str, policy: Any, parameter: float, fields: Sequence[View], out: View) -> View:
        natives = [_view(f, f"input field {i}")._native for i, f in enumerate(fields)]
        o = _view(out, "output")
        _tessera.physics(_policy(policy, "physics"), kernel, float(parameter), natives, o._native)
        return o

    def acoustic_step(self, policy: Any, u_prev: View, u: View, c2: View, out: View, dt2_h2: float) -> View:
        """3D leapfrog step of u_tt = c^2 lap u, 8th order: out = 2u - u_prev + c2 (dt/h)^2 lap8(u)."""
        return self._run("acoustic_step", policy, dt2_h2, [u_prev, u, c2], out)

    def damped_acoustic_step(self, policy: Any, u_prev: View, u: View, c2: View, s: View, out: View,
                             dt2_h2: float) -> View:
        """acoustic_step with a sponge: out = (2u - (1 - s) u_prev + c2 (dt/h)^2 lap8(u)) / (1 + s)."""
        return self._run("damped_acoustic_step", policy, dt2_h2, [u_prev, u, c2, s], out)

    def div_k_grad(self, policy: Any, u: View, k: View, out: View, inv_h2: float) -> View:
        """3D div(k grad u), faces' k the arithmetic mean: sum (k_nb + k) / 2 (u_nb - u) / h^2."""
        return self._run("div_k_grad", policy, inv_h2, [u, k], out)

    def upwind_advection(self, policy: Any, q: View, vy: View, vx: View, out: View, dt_h: float) -> View:
        """2D first-order upwind step of q_t + v . grad q = 0 (dt_h = dt / h)."""
        return self._run("upwind_advection", policy, dt_h, [q, vy, vx], out)


physics = _Physics()


def multigrid_solve(policy: Any, f: View, u: View, boundary: Any, L: Stencil | None = None, *,
                    a: float = 0.0, b: float = -1.0, k: View | None = None, h: Any = None,
                    cycle: str = "V", smoother: str = "rbgs", pre_smooth: int = 2, post_smooth: int = 2,
                    max_cycles: int = 100, tol: float = 1e-10, fmg: bool = False) -> dict:
    """Solves a u - b L u = f by geometric multigrid; u is the initial guess and the answer.

    L: a radius-1 star (tessera.fd.laplacian(rank, 2, h) for the Poisson problem L u = f,
    the default a = 0, b = -1), or, with ``k`` (a View of the conductivity, ghost >= 1) and
    ``h`` (the spacing: one number or one per axis), div(k grad u) with each face's k the
    harmonic mean of its two points (the solver mirrors k into its ghost cells, writing
    them). ``boundary``: as for
    iterate (Dirichlet values are the walls' values). cycle "V", "W" or "F"; smoother
    "rbgs" (red-black Gauss-Seidel), "jacobi" or "chebyshev"; fmg: one full-multigrid
    pass first. Policies: host:serial, host:parallel, automatic (host arrays),
    cuda:automatic, automatic (device arrays). Returns a dict: converged, cycles,
    residuals (max norm, before the first cycle and after each), convergence_factor,
    stop_reason, levels, level_extents, singular, precision_floor.
    """
    ff, uu = _view(f, "right-hand side f"), _view(u, "solution u")
    if (L is None) == (k is None):
        raise InvalidArgumentError("tessera.multigrid_solve: pass the operator as L (a radius-1 star) or as k "
                                   "(the conductivity of div(k grad u)) with h, one of the two")
    if k is not None and h is None:
        raise InvalidArgumentError("tessera.multigrid_solve: div(k grad u) needs the spacing h")
    hs = [] if h is None else ([float(h)] if isinstance(h, (int, float)) else [float(x) for x in h])
    return _tessera.multigrid_solve(_policy(policy, "multigrid_solve"), float(a), float(b), None if L is None else _stencil(L), hs,
                                    None if k is None else _view(k, "conductivity k")._native, ff._native,
                                    uu._native, _boundary(boundary, uu._native.rank), cycle, smoother,
                                    int(pre_smooth), int(post_smooth), int(max_cycles), float(tol), bool(fmg))


def norm_max(a: View) -> float:
    """max |a| over the interior."""
    return _tessera.reduce(0, _view(a, "view")._native, None)


def norm_l2(a: View) -> float:
    """sqrt(sum a^2) over the interior."""
    return _tessera.reduce(1, _view(a, "view")._native, None)


def dot(a: View, b: View) -> float:
    """sum a * b over the interiors."""
    return _tessera.reduce(2, _view(a, "first view")._native, _view(b, "second view")._native)
