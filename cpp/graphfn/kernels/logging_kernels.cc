// StringFormat fills the template's placeholders with tensor_text() of each input; PrintV2
// writes to the process's stderr/stdout file descriptor (so fd-level capture sees it, as with
// TF) or appends to a file ("file:///path").
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/tensor_text.h"

namespace graphfn {
namespace {

Status string_format(KernelContext& c) {
  const std::string* tmpl = c.attrs.get_string("template");
  const std::string* placeholder = c.attrs.get_string("placeholder");
  const std::string& ph = placeholder ? *placeholder : "{}";
  const std::string text = tmpl ? *tmpl : std::string();
  const int64_t summarize = c.attrs.get_int("summarize", 3);
  std::string out;
  size_t pos = 0;
  int next = 0;
  while (true) {
    const size_t found = ph.empty() ? std::string::npos : text.find(ph, pos);
    if (found == std::string::npos) break;
    if (next >= c.num_inputs) {
      return errors::InvalidArgument("Num placeholders in template and num inputs must match: ", next + 1,
                                     " vs. ", c.num_inputs);
    }
    out += text.substr(pos, found - pos) + tensor_text(c.input(next++), summarize);
    pos = found + ph.size();
  }
  if (next != c.num_inputs) {
    return errors::InvalidArgument("Num placeholders in template and num inputs must match: ", next, " vs. ",
                                   c.num_inputs);
  }
  out += text.substr(pos);
  c.allocate_output(0).data<std::string>()[0] = std::move(out);
  return Status::OK();
}

Status write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return errors::Internal("write to fd ", fd, " failed");
    done += static_cast<size_t>(n);
  }
  return Status::OK();
}

Status print_v2(KernelContext& c) {
  const std::string* stream = c.attrs.get_string("output_stream");
  const std::string* end = c.attrs.get_string("end");
  const std::string text = c.input(0).data<std::string>()[0] + (end ? *end : "\n");
  const std::string target = stream ? *stream : "stderr";
  if (target == "stderr") return write_all(2, text);
  if (target == "stdout") return write_all(1, text);
  if (target.rfind("file://", 0) == 0) {
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
  reg.set_kernel("PrintV2", DType::kInvalid, &print_v2);
}

}  // namespace graphfn
