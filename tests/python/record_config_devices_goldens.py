"""Records config_devices_goldens.json: what each scenario of config_devices_scenarios.py prints
under TensorFlow 2.21.

    ~/tf/bin/python tests/python/record_config_devices_goldens.py
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from config_devices_scenarios import SCENARIOS, run  # noqa: E402

if __name__ == "__main__":
    goldens = {name: run(name, module="tensorflow") for name in SCENARIOS}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "config_devices_goldens.json")
    with open(path, "w") as f:
        json.dump(goldens, f, indent=1, sort_keys=True)
        f.write("\n")
