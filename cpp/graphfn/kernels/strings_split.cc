// The kernels behind ragged string results: StringSplitV2 and StringSplit (tokens as a sparse
// [row, column] listing, as TF's ops give them) and StringNGrams (n-grams of ragged rows, with padding).
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "graphfn/core/thread_pool.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

bool is_split_space(char ch) { return ch == ' ' || (ch >= '\t' && ch <= '\r'); }

// Appends the tokens of s to `tokens`: split at each `sep`, or, for an empty sep, at runs of
// ASCII whitespace (no empty tokens). At most maxsplit splits when maxsplit >= 0. An empty string
// split at a separator is one empty token, as in TF (and Python's str.split).
void split_one(std::string_view s, std::string_view sep, int64_t maxsplit, std::vector<std::string_view>* tokens) {
  int64_t splits = 0;
  if (sep.empty()) {
    if (maxsplit == 0) {  // the string as it is, even empty, as TF gives it
      tokens->push_back(s);
      return;
    }
    size_t i = 0;
    while (true) {
      while (i < s.size() && is_split_space(s[i])) ++i;
      if (i == s.size()) return;
      if (maxsplit >= 0 && splits == maxsplit) {  // the rest, trailing whitespace kept
        tokens->push_back(s.substr(i));
        return;
      }
      size_t j = i;
      while (j < s.size() && !is_split_space(s[j])) ++j;
      tokens->push_back(s.substr(i, j - i));
      ++splits;
      i = j;
    }
  }
  size_t start = 0;
  while (maxsplit < 0 || splits < maxsplit) {
    const size_t at = s.find(sep, start);
    if (at == std::string_view::npos) break;
    tokens->push_back(s.substr(start, at - start));
    start = at + sep.size();
    ++splits;
  }
  tokens->push_back(s.substr(start));
}

// StringSplit (v1): split at any byte of `delimiter`, or between every byte when it is empty.
void split_any_of(std::string_view s, std::string_view delimiter, bool skip_empty,
                  std::vector<std::string_view>* tokens) {
  if (s.empty()) return;  // no tokens, even with skip_empty false (TF's)
  if (delimiter.empty()) {
    for (size_t i = 0; i < s.size(); ++i) tokens->push_back(s.substr(i, 1));
    return;
  }
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size() && delimiter.find(s[i]) == std::string_view::npos) continue;
    if (!skip_empty || i > start) tokens->push_back(s.substr(start, i - start));
    start = i + 1;
  }
}

// Rows per block of split_rows: each block's tokens are found on one thread of the pool.
constexpr int64_t kSplitRowsPerBlock = 2048;

// Splits every string of input 0 with split(string, tokens) and writes the sparse listing. The
// rows go over the thread pool in fixed blocks: each block collects its tokens (views into the
// input), then, once the blocks' token counts give every block its first output position, fills
// its part of the outputs. The listing does not depend on the thread count.
template <typename SplitOne>
Status split_rows(KernelContext& c, SplitOne split) {
  const Tensor& in = c.input(0);
  const std::string* s = in.data<std::string>();
  const int64_t rows = in.num_elements();
  const int64_t blocks = (rows + kSplitRowsPerBlock - 1) / kSplitRowsPerBlock;
  std::vector<std::vector<std::string_view>> block_tokens(static_cast<size_t>(blocks));
  std::vector<int64_t> row_ends(static_cast<size_t>(rows));  // tokens up to the row's end, within its block first
  std::vector<int64_t> block_widest(static_cast<size_t>(blocks), 0);
  parallel_for(blocks, 1, [&](int64_t first, int64_t last) {
    for (int64_t b = first; b < last; ++b) {
      std::vector<std::string_view>& tokens = block_tokens[b];
      tokens.reserve(static_cast<size_t>(kSplitRowsPerBlock) * 4);
      for (int64_t r = b * kSplitRowsPerBlock; r < std::min(rows, (b + 1) * kSplitRowsPerBlock); ++r) {
        const size_t before = tokens.size();
        split(s[r], &tokens);
        row_ends[r] = static_cast<int64_t>(tokens.size());
        block_widest[b] = std::max<int64_t>(block_widest[b], static_cast<int64_t>(tokens.size() - before));
      }
    }
  });
  std::vector<int64_t> block_start(static_cast<size_t>(blocks) + 1, 0);
  int64_t widest = 0;
  for (int64_t b = 0; b < blocks; ++b) {
    block_start[b + 1] = block_start[b] + static_cast<int64_t>(block_tokens[b].size());
    widest = std::max(widest, block_widest[b]);
  }
  const int64_t total = block_start[blocks];
  Tensor *indices, *values, *shape;
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape{total, 2}, &indices));
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(1, Shape{total}, &values));
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(2, Shape{2}, &shape));
  int64_t* idx = indices->data<int64_t>();
  std::string* vals = values->data<std::string>();
  parallel_for(blocks, 1, [&](int64_t first, int64_t last) {
    for (int64_t b = first; b < last; ++b) {
      const std::vector<std::string_view>& tokens = block_tokens[b];
      int64_t t = 0;  // the token within the block
      for (int64_t r = b * kSplitRowsPerBlock; r < std::min(rows, (b + 1) * kSplitRowsPerBlock); ++r) {
        for (int64_t col = 0; t < row_ends[r]; ++t, ++col) {
          const int64_t k = block_start[b] + t;
          idx[2 * k] = r;
          idx[2 * k + 1] = col;
          vals[k].assign(tokens[t].data(), tokens[t].size());
        }
      }
    }
  });
  shape->data<int64_t>()[0] = rows;
  shape->data<int64_t>()[1] = widest;
  return Status::OK();
}

Status string_split_v2_kernel(KernelContext& c) {
  const std::string& sep = c.input(1).data<std::string>()[0];
  const int64_t maxsplit = c.attrs.get_int("maxsplit", -1);
  return split_rows(c, [&](std::string_view s, std::vector<std::string_view>* tokens) {
    split_one(s, sep, maxsplit, tokens);
  });
}

Status string_split_kernel(KernelContext& c) {
  const std::string& delimiter = c.input(1).data<std::string>()[0];
  const bool skip_empty = c.attrs.get_bool("skip_empty", true);
  return split_rows(c, [&](std::string_view s, std::vector<std::string_view>* tokens) {
    split_any_of(s, delimiter, skip_empty, tokens);
  });
}

struct NGramOptions {
  std::string separator, left_pad, right_pad;
  int64_t pad_width = 0;
  bool preserve_short = false;

  // Never wider than width - 1; negative pad_width means exactly that.
  int64_t padding_for(int64_t width) const { return std::min(pad_width < 0 ? width - 1 : pad_width, width - 1); }
};

// Appends the n-grams of width `width` of data[0, length) (padded) to out.
void make_ngrams(const NGramOptions& o, const std::string* data, int64_t length, int64_t width, int64_t count,
                 std::vector<std::string>* out) {
  const int64_t pad = o.padding_for(width);
  for (int64_t g = 0; g < count; ++g) {
    const int64_t left = std::max<int64_t>(0, pad - g);
    const int64_t right = std::max<int64_t>(0, pad - (count - (g + 1)));
    const int64_t tokens = width - left - right;
    const int64_t first = left > 0 ? 0 : g - pad;
    std::string gram;
    bool any = false;
    auto add = [&](const std::string& piece) {
      if (any) gram += o.separator;
      gram += piece;
      any = true;
    };
    for (int64_t k = 0; k < left; ++k) add(o.left_pad);
    for (int64_t k = 0; k < tokens && first + k < length; ++k) add(data[first + k]);
    for (int64_t k = 0; k < right; ++k) add(o.right_pad);
    out->push_back(std::move(gram));
  }
}

template <typename Splits>
Status string_ngrams_kernel(KernelContext& c) {
  NGramOptions o;
  auto text = [&](const char* name) {
    const std::string* s = c.attrs.get_string(name);
    return s ? *s : std::string();
  };
  o.separator = text("separator");
  o.left_pad = text("left_pad");
  o.right_pad = text("right_pad");
  o.pad_width = c.attrs.get_int("pad_width", 0);
  o.preserve_short = c.attrs.get_bool("preserve_short_sequences", false);
  const std::vector<int64_t>* widths_attr = c.attrs.get_int_list("ngram_widths");
  const std::vector<int64_t> widths = widths_attr ? *widths_attr : std::vector<int64_t>{};
  // TF reads these attrs as int32 (widths first).
  for (int64_t w : widths) {
    if (w != static_cast<int32_t>(w)) {
      return errors::InvalidArgument("Attr ngram_widths has value ", w, " out of range for an int32");
    }
  }
  if (o.pad_width != static_cast<int32_t>(o.pad_width)) {
    return errors::InvalidArgument("Attr pad_width has value ", o.pad_width, " out of range for an int32");
  }
  for (int64_t w : widths) {
    if (w <= 0) return errors::InvalidArgument("ngram_widths must contain positive values");
  }
  // Bound the output before making it: TF would try (and run out of memory) on widths or padding
  // in the billions; graphfn fails first.
  const int64_t kMaxGramTokens = int64_t{1} << 31;
  if (o.pad_width >= kMaxGramTokens) {
    return errors::ResourceExhausted("StringNGrams: pad_width ", o.pad_width, " is too large");
  }
  const Tensor& data = c.input(0);
  const Tensor& splits_t = c.input(1);
  const Splits* splits = splits_t.data<Splits>();
  const int64_t num_splits = splits_t.num_elements();
  const int64_t num_data = data.num_elements();
  if (num_splits > 0) {
    int64_t prev = static_cast<int64_t>(splits[0]);
    if (prev != 0) return errors::InvalidArgument("First split value must be 0, got ", prev);
    for (int64_t k = 1; k < num_splits; ++k) {
      const int64_t v = static_cast<int64_t>(splits[k]);
      if (v < prev || v > num_data) {
        return errors::InvalidArgument("Invalid split value ", v, ", must be in [", prev, ", ", num_data, "]");
      }
      prev = v;
    }
    if (prev != num_data) {
      return errors::InvalidArgument("Last split value must be data size. Expected ", num_data, ", got ", prev);
    }
  }
  const std::string* values = data.data<std::string>();
  std::vector<std::string> grams;
  Tensor& out_splits_t = c.allocate_output(1);
  Splits* out_splits = out_splits_t.data<Splits>();
  if (num_splits > 0) out_splits[0] = 0;
  int64_t tokens_planned = 0;  // pads and words over all n-grams
  for (int64_t row = 0; row + 1 < num_splits; ++row) {
    const int64_t length = static_cast<int64_t>(splits[row + 1] - splits[row]);
    for (int64_t w : widths) {
      const int64_t count = std::max<int64_t>(0, length + 2 * std::min(o.padding_for(w), kMaxGramTokens) - w + 1);
      if (w > kMaxGramTokens || count > kMaxGramTokens / w ||
          (tokens_planned += count * w) > kMaxGramTokens) {
        return errors::ResourceExhausted("StringNGrams: the n-grams would hold more than 2^31 tokens");
      }
    }
  }
  for (int64_t row = 0; row + 1 < num_splits; ++row) {
    const std::string* start = values + splits[row];
    const int64_t length = static_cast<int64_t>(splits[row + 1] - splits[row]);
    const size_t before = grams.size();
    for (int64_t w : widths) {
      const int64_t count = std::max<int64_t>(0, length + 2 * o.padding_for(w) - w + 1);
      make_ngrams(o, start, length, w, count, &grams);
    }
    if (o.preserve_short && grams.size() == before && length > 0 && o.pad_width >= 0) {
      make_ngrams(o, start, length, length + 2 * o.pad_width, 1, &grams);
    }
    out_splits[row + 1] = static_cast<Splits>(grams.size());
  }
  Tensor* out;
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape{static_cast<int64_t>(grams.size())}, &out));
  std::move(grams.begin(), grams.end(), out->data<std::string>());
  return Status::OK();
}

}  // namespace

void register_strings_split_kernels(OpRegistry& reg) {
  reg.set_kernel("StringSplitV2", DType::kInvalid, &string_split_v2_kernel);
  reg.set_kernel("StringSplit", DType::kInvalid, &string_split_kernel);
  reg.set_kernel("StringNGrams", DType::kInt32, &string_ngrams_kernel<int32_t>);
  reg.set_kernel("StringNGrams", DType::kInt64, &string_ngrams_kernel<int64_t>);
}

}  // namespace graphfn
