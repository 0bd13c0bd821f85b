// StringFormat fills the template's placeholders with tensor_text() of each input; PrintV2
// writes to the process's stderr/stdout file descriptor (so fd-level capture sees it, as with
// TF) or appends to a file ("file:///path").
#include <cstdio>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/tensor_text.h"
#include "graphfn/kernels/deferred_output.h"

namespace graphfn {
namespace {

// The string this step made last time, when nothing else holds it (a graph executor leaves it
// in the output): a loop's prints then reuse one string's storage.
std::string* reusable_string(KernelContext& c) {
  if (c.num_outputs == 0) return nullptr;
  const Tensor& old = c.outputs[0];
  if (old.dtype() != DType::kString || old.num_elements() != 1 || old.rank() != 0 || !old.buffer() ||
      old.buffer().use_count() != 1) {
    return nullptr;
  }
  return old.data<std::string>();
}

struct FormatAttrs {
  std::string text;
  std::string placeholder;
  int64_t summarize = 3;
};

FormatAttrs read_format_attrs(const AttrMap& attrs) {
  const std::string* tmpl = attrs.get_string("template");
  const std::string* placeholder = attrs.get_string("placeholder");
  return FormatAttrs{tmpl ? *tmpl : "", placeholder ? *placeholder : "{}", attrs.get_int("summarize", 3)};
}

Status string_format(KernelContext& c) {
  FormatAttrs local;
  const FormatAttrs& a = prepared_attrs(c, &read_format_attrs, &local);
  const std::string& ph = a.placeholder;
  const std::string& text = a.text;
  std::string scratch;
  std::string* reused = reusable_string(c);
  std::string& out = reused ? *reused : scratch;
  out.clear();
  size_t pos = 0;
  int next = 0;
  while (true) {
    const size_t found = ph.empty() ? std::string::npos : text.find(ph, pos);
    if (found == std::string::npos) break;
    if (next >= c.num_inputs) {
      return errors::InvalidArgument("Num placeholders in template and num inputs must match: ", next + 1,
                                     " vs. ", c.num_inputs);
    }
    out.append(text, pos, found - pos).append(tensor_text(c.input(next++), a.summarize));
    pos = found + ph.size();
  }
  if (next != c.num_inputs) {
    return errors::InvalidArgument("Num placeholders in template and num inputs must match: ", next, " vs. ",
                                   c.num_inputs);
  }
  out.append(text, pos, std::string::npos);
  if (reused) {
    c.outputs[0].clear_id();
  } else {
    c.allocate_output(0).data<std::string>()[0] = std::move(out);
  }
  return Status::OK();
}

struct PrintAttrs {
  std::string target;  // output_stream
  int fd = -1;         // 1 or 2 for stdout/stderr, else -1
  std::string end;
};

PrintAttrs read_print_attrs(const AttrMap& attrs) {
  const std::string* stream = attrs.get_string("output_stream");
  const std::string* end = attrs.get_string("end");
  PrintAttrs a{stream ? *stream : "stderr", -1, end ? *end : "\n"};
  a.fd = a.target == "stderr" ? 2 : a.target == "stdout" ? 1 : -1;
  return a;
}

Status print_v2(KernelContext& c) {
  PrintAttrs local;
  const PrintAttrs& a = prepared_attrs(c, &read_print_attrs, &local);
  const std::string& message = c.input(0).data<std::string>()[0];
  if (a.fd > 0) return write_output(a.fd, message, a.end);
  const std::string& target = a.target;
  const std::string text = message + a.end;
  if (target.rfind("file://", 0) == 0) {
    GRAPHFN_RETURN_IF_ERROR(flush_output());  // the file may be where stdout/stderr go
    FILE* f = std::fopen(target.substr(7).c_str(), "a");
    if (!f) return errors::InvalidArgument("Cannot open file ", target.substr(7), " for printing");
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    return Status::OK();
  }
  return errors::InvalidArgument("Unsupported output stream: ", target);
}

// Fails with "assertion failed: [data0] [data1] ..." when the condition is false; string scalars
// appear raw, other tensors as tf.print would show them.
Status assert_kernel(KernelContext& c) {
  if (c.input(0).data<bool>()[0]) return Status::OK();
  const int64_t summarize = c.attrs.get_int("summarize", 3);
  std::string msg = "assertion failed: ";
  for (int i = 1; i < c.num_inputs; ++i) {
    const Tensor& t = c.input(i);
    const bool raw = t.dtype() == DType::kString && t.rank() == 0;
    const std::string text = raw ? t.data<std::string>()[0] : tensor_text(t, summarize);
    msg += (i > 1 ? " " : "") + (t.rank() == 0 ? "[" + text + "]" : text);
  }
  return errors::InvalidArgument(msg);
}

}  // namespace

void register_logging_kernels(OpRegistry& reg) {
  reg.set_kernel("Assert", DType::kInvalid, &assert_kernel);
  reg.set_kernel("StringFormat", DType::kInvalid, &string_format);
  reg.set_attr_prepare("StringFormat", &prepare_attrs<FormatAttrs, &read_format_attrs>);
  reg.set_kernel("PrintV2", DType::kInvalid, &print_v2);
  reg.set_attr_prepare("PrintV2", &prepare_attrs<PrintAttrs, &read_print_attrs>);
}

}  // namespace graphfn
