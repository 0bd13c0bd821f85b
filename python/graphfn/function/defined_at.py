"""What a traced node's creation stack shows of one Python code object (asked once per code
object by the C++ capture, bindings/defined_at.cc): TF leaves out its own frames, and shows
AutoGraph's generated code as the user's function (it keeps the user's file and lines)."""

import os

from graphfn.autograph.impl import config, conversion


def frame_info(code):
    """(file, function name) for a frame running `code`, or None to leave it out."""
    filename = code.co_filename
    if os.path.abspath(filename).startswith(config.graphfn_dir()):
        return None
    generated = conversion.generated_code.get(code)
    return filename, generated.display if generated is not None else code.co_name
