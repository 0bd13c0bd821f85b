// Scaled variable updates: `v.assign_sub(c * g)` (an AssignSubVariableOp or AssignAddVariableOp
// fed by Mul(c, g), c a float or double scalar constant, the product used nowhere else) becomes
// the update of `g` alone with the attr "_scale" = c
// (kUpdateScaleAttr). Its kernel (kernels/scaled_update.h)
// computes v - c * g in one pass, rounding each product before the subtraction as the two ops do
// (the same bits), instead of writing the product out and reading it back: the SGD step of a
// train step is one pass over each weight instead of two.
#pragma once
#include "graphfn/ir/graph.h"

namespace graphfn {

// Rewrites every such update in place; the Mul is left unused (Plan::build prunes it). Returns
// true if anything changed.
bool fold_scaled_updates(Graph& graph);

}  // namespace graphfn
