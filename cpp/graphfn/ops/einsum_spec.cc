#include "graphfn/ops/einsum_spec.h"

namespace graphfn {
namespace einsum {
namespace {

int label_of(char ch) {
  if (ch >= 'a' && ch <= 'z') return ch - 'a';
  if (ch >= 'A' && ch <= 'Z') return 26 + (ch - 'A');
  return -1;
}

char char_of(int label) { return label < 26 ? static_cast<char>('a' + label) : static_cast<char>('A' + label - 26); }

Status parse_side(const std::string& text, const std::string& equation, Subscripts* out) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '.') {
      if (text.compare(i, 3, "...") != 0 || out->ellipsis_at >= 0) {
        return errors::InvalidArgument("Subscripts have incorrect format: ", equation);
      }
      out->ellipsis_at = static_cast<int>(out->labels.size());
      i += 2;
      continue;
    }
    const int label = label_of(text[i]);
    if (label < 0) return errors::InvalidArgument("Subscripts have incorrect format: ", equation);
    out->labels.push_back(label);
  }
  return Status::OK();
}

}  // namespace

Status parse(const std::string& equation, Equation* out) {
  std::string eq;
  for (char ch : equation) {
    if (ch != ' ') eq.push_back(ch);
  }
  const size_t arrow = eq.find("->");
  if (arrow == std::string::npos || eq.find("->", arrow + 2) != std::string::npos) {
    return errors::InvalidArgument("Subscripts have incorrect format: ", equation);
  }
  const std::string lhs = eq.substr(0, arrow), rhs = eq.substr(arrow + 2);
  size_t start = 0;
  for (;;) {
    const size_t comma = lhs.find(',', start);
    Subscripts s;
    GRAPHFN_RETURN_IF_ERROR(parse_side(lhs.substr(start, comma - start), equation, &s));
    out->inputs.push_back(std::move(s));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (rhs.find(',') != std::string::npos) return errors::InvalidArgument("Subscripts have incorrect format: ", equation);
  return parse_side(rhs, equation, &out->output);
}

Status expand(const Subscripts& s, int rank, int input_index, std::vector<int>* labels, int* ellipsis_rank) {
  const int named = static_cast<int>(s.labels.size());
  if (s.ellipsis_at < 0 ? rank != named : rank < named) {
    return errors::InvalidArgument("Expected input ", input_index, " to have rank ", s.ellipsis_at < 0 ? "" : "at least ",
                                   named, " but got: ", rank);
  }
  *ellipsis_rank = s.ellipsis_at < 0 ? 0 : rank - named;
  *labels = expand_output(s, *ellipsis_rank);
  return Status::OK();
}

std::vector<int> expand_output(const Subscripts& s, int ellipsis_rank) {
  std::vector<int> labels;
  for (int i = 0; i <= static_cast<int>(s.labels.size()); ++i) {
    if (i == s.ellipsis_at) {
      for (int k = ellipsis_rank - 1; k >= 0; --k) labels.push_back(kEllipsisLabel + k);
    }
    if (i < static_cast<int>(s.labels.size())) labels.push_back(s.labels[i]);
  }
  return labels;
}

std::string to_text(const Subscripts& s) {
  std::string text;
  for (int i = 0; i <= static_cast<int>(s.labels.size()); ++i) {
    if (i == s.ellipsis_at) text += "...";
    if (i < static_cast<int>(s.labels.size())) text.push_back(char_of(s.labels[i]));
  }
  return text;
}

}  // namespace einsum
}  // namespace graphfn
