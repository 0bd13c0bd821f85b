"""The `ag__` namespace generated code refers to."""

import types

from graphfn.autograph.impl import api
from graphfn.autograph.experimental import Feature
from graphfn.autograph.operators import control_flow, exceptions, logical, variables

MODULE = types.ModuleType("ag__", "AutoGraph's runtime helpers, as seen by generated code.")
for _name, _value in {
    "converted_call": api.converted_call, "FunctionScope": api.FunctionScope,
    "ConversionOptions": api.ConversionOptions, "STD": api.STD,
    "if_stmt": control_flow.if_stmt, "while_stmt": control_flow.while_stmt, "for_stmt": control_flow.for_stmt,
    "if_exp": control_flow.if_exp, "and_": logical.and_, "or_": logical.or_, "not_": logical.not_,
    "assert_stmt": exceptions.assert_stmt, "Feature": Feature,
    "ld": variables.ld, "autograph_artifact": api.autograph_artifact, "Undefined": variables.Undefined, "UndefinedReturnValue": variables.UndefinedReturnValue,
}.items():
    setattr(MODULE, _name, _value)
