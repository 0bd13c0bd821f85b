"""Before _core is loaded: does this CPU have the vector instructions the build compiled in?

The build writes the CPU features its code may use (as /proc/cpuinfo names them) beside the
extension, in _core_cpu_flags.txt (cpp/CMakeLists.txt). A CPU without one of them would die of an
illegal instruction (SIGILL) while loading or running _core; this turns that into an ImportError
that says what is missing and how to build for this CPU (docs/building.md, "Vector instructions").
"""

import importlib.machinery  # not importlib.util: `import graphfn` need not load it
import os

REQUIREMENTS_FILE = "_core_cpu_flags.txt"
# Tests set this to a space-separated feature list to stand in for /proc/cpuinfo's.
CPU_FLAGS_OVERRIDE = "GRAPHFN_TEST_CPU_FLAGS"

_NAMES = {"pni": "SSE3", "abm": "LZCNT", "bmi1": "BMI"}


def required_flags():
    """The features _core was built for, or None when no requirements file is found (an old build)."""
    package_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spec = importlib.machinery.PathFinder.find_spec("graphfn._core", [package_dir])
    if spec is None or not spec.origin:
        return None
    # The dev recipe symlinks the build folder's _core into python/graphfn: the file is beside
    # the real one.
    path = os.path.join(os.path.dirname(os.path.realpath(spec.origin)), REQUIREMENTS_FILE)
    try:
        with open(path) as f:
            return f.read().split()
    except OSError:
        return None


def cpu_flags():
    """This CPU's features (Linux's names), or None when they cannot be read."""
    override = os.environ.get(CPU_FLAGS_OVERRIDE)
    if override is not None:
        return set(override.split())
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:  # the first processor's line is enough
                if line.startswith("flags"):
                    return set(line.partition(":")[2].split())
    except OSError:
        pass
    return None


def missing_flags(required, available):
    return [flag for flag in required if flag not in available]


def check():
    required = required_flags()
    if not required:
        return
    available = cpu_flags()
    if available is None:
        return  # not Linux, or no /proc: nothing to compare with
    missing = missing_flags(required, available)
    if missing:
        names = ", ".join(_NAMES.get(flag, flag.upper()) for flag in missing)
        raise ImportError(
            "graphfn's C++ core was built for CPUs with %s, which this CPU does not have "
            "(it would stop with an illegal instruction). Build graphfn for this CPU from source: "
            "`pip install . -Ccmake.define.GRAPHFN_NATIVE=ON`, or with "
            "`-Ccmake.define.GRAPHFN_SIMD=avx` (TensorFlow's requirement) or "
            "`-Ccmake.define.GRAPHFN_SIMD=baseline` (any x86-64 CPU)." % names)
