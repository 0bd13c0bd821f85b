"""Records TF 2.21's answers for cases.py: ~/tf/bin/python tests/python/lookup/record.py"""

import json
import os
import sys

import tensorflow as tf

sys.path.insert(0, os.path.dirname(__file__))
from cases import ERRORS, RESULTS, SETUP  # noqa: E402


def main():
    ns = {"tf": tf}
    exec(SETUP, ns)
    out = {"results": {}, "errors": {}}
    for expr in RESULTS:
        out["results"][expr] = repr(eval(expr, ns))
    for expr in ERRORS:
        try:
            eval(expr, ns)
            out["errors"][expr] = None
        except Exception as e:  # noqa: BLE001 - recording whatever TF raises
            out["errors"][expr] = [type(e).__name__, str(e)]
    with open(os.path.join(os.path.dirname(__file__), "goldens.json"), "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
