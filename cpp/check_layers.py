"""Checks that the C++ sources include only what their layer may (cpp/layers.txt): a folder of
cpp/graphfn may include its own headers and those of the layers before it, never a later one.
The build runs it before compiling (cpp/CMakeLists.txt), so a wrong-way include fails the build;
tests/python/test_cpp_layers.py runs it too.

    python3 cpp/check_layers.py [ROOT] [--stamp FILE]

ROOT is the checkout (default: this file's parent's parent). Prints one line per wrong-way
include and exits 1; exits 0 (and touches FILE, for the build) when there is none."""

import os
import re
import sys

_INCLUDE = re.compile(r'^\s*#\s*include\s*"graphfn/([A-Za-z0-9_]+)/[^"]*"')


def read_layers(root):
    """The layer names of cpp/layers.txt, lowest first."""
    with open(os.path.join(root, "cpp", "layers.txt"), encoding="utf-8") as f:
        lines = [line.split("#", 1)[0].strip() for line in f]
    return [line for line in lines if line]


def _sources(folder):
    for dirpath, _, files in os.walk(folder):
        for name in sorted(files):
            if name.endswith((".h", ".cc", ".cpp", ".hpp")):
                yield os.path.join(dirpath, name)


def wrong_way_includes(root):
    """(file, line number, included layer, why) for every include that breaks the layer order."""
    layers = read_layers(root)
    rank = {name: i for i, name in enumerate(layers)}
    problems = []
    graphfn_dir = os.path.join(root, "cpp", "graphfn")
    for folder in sorted(os.listdir(graphfn_dir)) if os.path.isdir(graphfn_dir) else []:
        path = os.path.join(graphfn_dir, folder)
        if not os.path.isdir(path):
            continue
        if folder not in rank:
            problems.append((path, 0, folder, "folder %r is not in cpp/layers.txt" % folder))
            continue
        for source in _sources(path):
            with open(source, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    match = _INCLUDE.match(line)
                    if not match:
                        continue
                    included = match.group(1)
                    if included not in rank:
                        problems.append((source, number, included, "no layer %r in cpp/layers.txt" % included))
                    elif rank[included] > rank[folder]:
                        problems.append((source, number, included,
                                         "layer %s may not include %s (a later layer, cpp/layers.txt)"
                                         % (folder, included)))
    # Programs built on the library (graphfn-run, C++ benchmarks) stand below the Python bindings.
    programs = [os.path.join(root, "cpp", "tools"), os.path.join(root, "benchmarks", "cpp")]
    for source in (s for folder in programs for s in _sources(folder)):
        with open(source, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                match = _INCLUDE.match(line)
                if match and match.group(1) == "bindings":
                    problems.append((source, number, "bindings", "programs without Python may not include bindings"))
    return problems


def main(argv):
    args = list(argv)
    stamp = None
    if "--stamp" in args:
        i = args.index("--stamp")
        stamp = args[i + 1]
        del args[i:i + 2]
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = wrong_way_includes(root)
    for source, number, _, why in problems:
        where = os.path.relpath(source, root) + (":%d" % number if number else "")
        print("%s: %s" % (where, why), file=sys.stderr)
    if problems:
        return 1
    if stamp:
        with open(stamp, "w", encoding="utf-8") as f:
            f.write("layers ok\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
