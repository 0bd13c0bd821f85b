// Regular-expression kernels on RE2 (the engine TF uses, so patterns, rewrites and empty-match
// behaviour are TF's): RegexReplace / StaticRegexReplace and RegexFullMatch / StaticRegexFullMatch.
// Without RE2 (built without libre2-dev) the ops fail with UnimplementedError.
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "graphfn/kernels/kernel_context.h"

#ifdef GRAPHFN_HAVE_RE2
#include <re2/re2.h>
#endif

namespace graphfn {
namespace {

#ifdef GRAPHFN_HAVE_RE2
// Compiled patterns by text: a pattern fed each step (or each eager call) is compiled once.
// Bounded: when full it is cleared, which only costs recompiling.
Status compiled_regex(const std::string& pattern, std::shared_ptr<const RE2>* out) {
  static std::mutex mu;
  static std::unordered_map<std::string, std::shared_ptr<const RE2>> cache;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(pattern);
    if (it != cache.end()) {
      *out = it->second;
      return Status::OK();
    }
  }
  RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_shared<const RE2>(pattern, options);
  if (!re->ok()) return errors::InvalidArgument("Invalid pattern: ", pattern, ", error: ", re->error());
  std::lock_guard<std::mutex> lock(mu);
  if (cache.size() >= 256) cache.clear();
  cache.emplace(pattern, re);
  *out = std::move(re);
  return Status::OK();
}

Status replace_all(KernelContext& c, const std::string& pattern, const std::string& rewrite) {
  std::shared_ptr<const RE2> re;
  GRAPHFN_RETURN_IF_ERROR(compiled_regex(pattern, &re));
  // A rewrite naming a group the pattern lacks replaces nothing (RE2's and so TF's behaviour).
  const bool global = c.attrs.get_bool("replace_global", true);
  const Tensor& in = c.input(0);
  Tensor& out_tensor = c.allocate_output(0);
  const std::string* s = in.data<std::string>();
  std::string* out = out_tensor.data<std::string>();
  for (int64_t i = 0, n = in.num_elements(); i < n; ++i) {
    std::string r = s[i];
    if (global) {
      RE2::GlobalReplace(&r, *re, rewrite);
    } else {
      RE2::Replace(&r, *re, rewrite);
    }
    out[i] = std::move(r);
  }
  return Status::OK();
}

Status full_match_all(KernelContext& c, const std::string& pattern) {
  std::shared_ptr<const RE2> re;
  GRAPHFN_RETURN_IF_ERROR(compiled_regex(pattern, &re));
  const Tensor& in = c.input(0);
  Tensor& out_tensor = c.allocate_output(0);
  const std::string* s = in.data<std::string>();
  bool* out = out_tensor.data<bool>();
  for (int64_t i = 0, n = in.num_elements(); i < n; ++i) out[i] = RE2::FullMatch(s[i], *re);
  return Status::OK();
}
#else
Status no_regex_engine() {
  return errors::Unimplemented("graphfn was built without RE2 (apt-get install libre2-dev): regular expressions are unavailable");
}
Status replace_all(KernelContext&, const std::string&, const std::string&) { return no_regex_engine(); }
Status full_match_all(KernelContext&, const std::string&) { return no_regex_engine(); }
#endif

std::string attr_text(const AttrMap& attrs, const char* name) {
  const std::string* s = attrs.get_string(name);
  return s ? *s : "";
}

Status regex_replace_kernel(KernelContext& c) {
  return replace_all(c, c.input(1).data<std::string>()[0], c.input(2).data<std::string>()[0]);
}

Status static_regex_replace_kernel(KernelContext& c) {
  return replace_all(c, attr_text(c.attrs, "pattern"), attr_text(c.attrs, "rewrite"));
}

Status regex_full_match_kernel(KernelContext& c) { return full_match_all(c, c.input(1).data<std::string>()[0]); }

Status static_regex_full_match_kernel(KernelContext& c) { return full_match_all(c, attr_text(c.attrs, "pattern")); }

}  // namespace

void register_strings_regex_kernels(OpRegistry& reg) {
  reg.set_kernel("RegexReplace", DType::kInvalid, &regex_replace_kernel);
  reg.set_kernel("StaticRegexReplace", DType::kInvalid, &static_regex_replace_kernel);
  reg.set_kernel("RegexFullMatch", DType::kInvalid, &regex_full_match_kernel);
  reg.set_kernel("StaticRegexFullMatch", DType::kInvalid, &static_regex_full_match_kernel);
}

}  // namespace graphfn
