// The Einsum op's equation, parsed once for its shape function, kernel and gradient.
// Labels are numbered: letters a-z are 0-25, A-Z 26-51; the dims an ellipsis stands for get
// labels from kEllipsisLabel on, numbered from the right (the last ellipsis dim of every input
// is kEllipsisLabel), so ellipsis dims of different ranks line up as in NumPy broadcasting.
#pragma once
#include <string>
#include <vector>

#include "graphfn/core/shape.h"
#include "graphfn/core/status.h"

namespace graphfn {
namespace einsum {

constexpr int kEllipsisLabel = 52;

// One side of the equation as written: letters, with the ellipsis at `ellipsis_at` (-1: none).
struct Subscripts {
  std::vector<int> labels;  // the letters, without the ellipsis
  int ellipsis_at = -1;     // index into labels before which "..." stands
};

struct Equation {
  std::vector<Subscripts> inputs;
  Subscripts output;
};

// Splits "ij,jk->ik" (spaces removed). The op requires an explicit "->".
Status parse(const std::string& equation, Equation* out);

// The labels of one operand of rank `rank`, its ellipsis expanded (ellipsis dims become
// kEllipsisLabel + k counted from the right). `ellipsis_rank` is how many dims "..." covers.
Status expand(const Subscripts& s, int rank, int input_index, std::vector<int>* labels, int* ellipsis_rank);

// The output's labels given the broadcast ellipsis rank.
std::vector<int> expand_output(const Subscripts& s, int ellipsis_rank);

// Writes a label (or "..." for the ellipsis labels, once) back as text.
std::string to_text(const Subscripts& s);

}  // namespace einsum
}  // namespace graphfn
