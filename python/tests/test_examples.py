"""The README's Python block is examples/python/heat2d.py, and that example runs: the total
heat of a periodic grid under a conservative stencil stays what it was."""
import os
import pathlib
import re
import subprocess
import sys

import tessera

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_readme_python_block_is_the_heat2d_example():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Python"):]
    block = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert block == (ROOT / "examples" / "python" / "heat2d.py").read_text()


def test_heat2d_example_conserves_heat(tmp_path):
    env = dict(os.environ)  # the example imports the tessera this test imported
    package_parent = str(pathlib.Path(tessera.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([package_parent] + [p for p in [env.get("PYTHONPATH")] if p])
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "python" / "heat2d.py")], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    total = float(re.search(r"heat after 2000 steps: ([0-9.]+)", run.stdout).group(1))
    assert abs(total - 6144.0) < 1e-6


def test_the_native_module_exports_its_init_function_alone():
    """Exported copies of the C++ library's templates would interpose on the libraries the
    module loads (Kokkos bound its libstdc++ calls to them and crashed)."""
    import shutil
    import sysconfig

    import pytest

    nm = shutil.which("nm")
    if sys.platform != "linux" or nm is None:
        pytest.skip("needs Linux and nm")
    module = pathlib.Path(tessera._tessera.__file__)
    out = subprocess.run([nm, "-D", "--defined-only", str(module)], capture_output=True, text=True, check=True).stdout
    exported = [line.split()[-1] for line in out.splitlines() if line.split() and line.split()[1] in "TtWwVvBbDdRr"]
    assert exported == ["PyInit__tessera"], exported[:10]
    assert sysconfig.get_config_var("EXT_SUFFIX") in module.name
