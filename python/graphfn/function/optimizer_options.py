"""tf.config.optimizer.set/get_experimental_options: which graph optimizations a concrete
function's plan gets. graphfn implements constant_folding, arithmetic_optimization (common
subexpressions and arithmetic simplification) and remapping (fusions: a convolution with its bias and
Relu, MaxPoolGrad with the ReluGrad after it); disable_meta_optimizer turns them off. Like TF,
other known keys are stored and reported, unknown keys are ignored, and the options apply to
functions traced afterwards."""

from graphfn import _core
from graphfn.util.tf_export import tf_export

# TF's RewriterConfig fields, in the order get_experimental_options() lists them.
_KEYS = ("layout_optimizer", "constant_folding", "shape_optimization", "remapping", "arithmetic_optimization",
         "dependency_optimization", "loop_optimization", "function_optimization", "debug_stripper",
         "disable_model_pruning", "scoped_allocator_optimization", "pin_to_host_optimization",
         "implementation_selector", "auto_mixed_precision", "disable_meta_optimizer", "min_graph_nodes")
_ALWAYS_LISTED = ("disable_model_pruning", "disable_meta_optimizer")

_options = {}
_verify = False  # tests: check graph invariants after every pass


@tf_export("config.optimizer.set_experimental_options")
def set_experimental_options(options):
    """Set experimental optimizer options (merged into the current ones)."""
    for key, value in options.items():
        if key in _KEYS:
            _options[key] = int(value) if key == "min_graph_nodes" else bool(value)


@tf_export("config.optimizer.get_experimental_options")
def get_experimental_options():
    """The optimizer options that are set, as TF lists them."""
    result = {}
    for key in _KEYS:
        if key in _options:
            if key != "min_graph_nodes" or _options[key]:
                result[key] = _options[key]
        elif key in _ALWAYS_LISTED:
            result[key] = False
    return result


def build_function(graph, name):
    """The graph as a callable _core.CompiledFunction: its plan is built from a copy optimized
    as the options say (and so are the plans of its gradient)."""
    enabled = not _options.get("disable_meta_optimizer", False)
    return _core.CompiledFunction(graph, name,
                                  constant_folding=enabled and _options.get("constant_folding", True),
                                  arithmetic_optimization=enabled and _options.get("arithmetic_optimization", True),
                                  remapping=enabled and _options.get("remapping", True),
                                  verify=_verify)
