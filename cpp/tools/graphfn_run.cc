// graphfn-run: runs a signature of a saved graph (graphfn.saved_model.save) on .npy inputs,
// without Python.
//
//   graphfn-run MODEL_DIR [--signature KEY] [--input NAME=FILE.npy]... [--output_dir DIR] [--list]
//               [--allow_file_output]
//
// Writes each output to DIR/<output name>.npy (or prints it without --output_dir). Exit status:
// 0 on success, 1 when the model, an input or the run fails, 2 for bad usage.
#include <cctype>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "graphfn/kernels/lapack.h"
#include "graphfn/runtime/saved_model.h"
#include "graphfn/serialize/npy.h"

namespace {

using namespace graphfn;

constexpr int kFailed = 1;
constexpr int kUsage = 2;

const char kUsageText[] =
    "usage: graphfn-run MODEL_DIR [--signature KEY] [--input NAME=FILE.npy]... [--output_dir DIR] [--list]\n"
    "                   [--allow_file_output]\n"
    "  --signature KEY     the signature to run (default: serving_default)\n"
    "  --input NAME=FILE   a .npy file for the input NAME (repeat for each input)\n"
    "  --output_dir DIR    write each output to DIR/<name>.npy (default: print them)\n"
    "  --list              list the signatures with their inputs and outputs, then exit\n"
    "  --allow_file_output let the model's prints write to files (PrintV2 with output_stream\n"
    "                      'file://...'); without it such a model is refused\n";

struct Options {
  std::string model_dir;
  std::string signature = "serving_default";
  std::vector<std::pair<std::string, std::string>> inputs;  // name, file
  std::string output_dir;
  bool list = false;
  LoadOptions load;
};

bool parse_args(int argc, char** argv, Options* opts, std::string* error) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) {
        *error = arg + " needs a value";
        return false;
      }
      *out = argv[++i];
      return true;
    };
    if (arg == "--signature") {
      if (!value(&opts->signature)) return false;
    } else if (arg == "--output_dir") {
      if (!value(&opts->output_dir)) return false;
    } else if (arg == "--input") {
      std::string spec;
      if (!value(&spec)) return false;
      const size_t eq = spec.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
        *error = "--input wants NAME=FILE.npy, got '" + spec + "'";
        return false;
      }
      opts->inputs.emplace_back(spec.substr(0, eq), spec.substr(eq + 1));
    } else if (arg == "--list") {
      opts->list = true;
    } else if (arg == "--allow_file_output") {
      opts->load.allow_file_output = true;
    } else if (arg == "-h" || arg == "--help") {
      *error = "";
      return false;
    } else if (!arg.empty() && arg[0] == '-') {
      *error = "unknown option " + arg;
      return false;
    } else if (opts->model_dir.empty()) {
      opts->model_dir = arg;
    } else {
      *error = "unexpected argument " + arg;
      return false;
    }
  }
  if (opts->model_dir.empty()) *error = "MODEL_DIR is missing";
  return !opts->model_dir.empty();
}

std::string describe(const TensorInfo& info) {
  return info.name + ": " + dtype_name(info.dtype) + info.shape.to_string();
}

void list_signatures(const SavedModel& model) {
  for (const std::string& key : model.signature_keys()) {
    const SavedFunction& f = *model.signature(key);
    std::cout << "signature '" << key << "'\n";
    for (const TensorInfo& info : f.inputs()) std::cout << "  input  " << describe(info) << "\n";
    for (const TensorInfo& info : f.outputs()) std::cout << "  output " << describe(info) << "\n";
  }
}

// Output names become file names: refuse anything that could leave the output directory.
bool safe_file_name(const std::string& name) {
  if (name.empty() || name[0] == '.' || name.size() > 200) return false;
  for (char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
  }
  return true;
}

int fail(const std::string& message) {
  std::cerr << "graphfn-run: " << message << "\n";
  return kFailed;
}

int run(const Options& opts) {
  std::shared_ptr<const SavedModel> model;
  Status s = SavedModel::load(opts.model_dir, &model, opts.load);
  if (!s.ok()) return fail(s.to_string());
  if (opts.list) {
    list_signatures(*model);
    return 0;
  }
  const SavedFunction* f = model->signature(opts.signature);
  if (!f) {
    std::string keys;
    for (const std::string& k : model->signature_keys()) keys += (keys.empty() ? "" : ", ") + k;
    return fail("no signature '" + opts.signature + "' (the model has: " + (keys.empty() ? "none" : keys) + ")");
  }
  std::map<std::string, Tensor> inputs;
  for (const auto& [name, file] : opts.inputs) {
    if (inputs.count(name)) return fail("input '" + name + "' is given twice");
    s = read_npy(file, &inputs[name]);
    if (!s.ok()) return fail("input '" + name + "': " + s.message());
  }
  std::map<std::string, Tensor> outputs;
  s = f->run(inputs, &outputs);
  if (!s.ok()) return fail(s.to_string());
  if (opts.output_dir.empty()) {
    for (const auto& [name, t] : outputs) std::cout << name << ": " << t.debug_string(1000) << "\n";
    return 0;
  }
  std::error_code ec;
  std::filesystem::create_directories(opts.output_dir, ec);
  if (ec) return fail("cannot create " + opts.output_dir + ": " + ec.message());
  for (const auto& [name, t] : outputs) {
    if (!safe_file_name(name)) return fail("output name '" + name + "' cannot be used as a file name");
    s = write_npy((std::filesystem::path(opts.output_dir) / (name + ".npy")).string(), t);
    if (!s.ok()) return fail("output '" + name + "': " + s.message());
  }
  return 0;
}

// pip installs graphfn-run into <prefix>/bin and the scipy-openblas32 package, whose LAPACK the
// linalg kernels load, into <prefix>/lib/pythonX.Y/site-packages: find it there
// (GRAPHFN_OPENBLAS_LIBRARY overrides; kernels/lapack.h).
void locate_openblas() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path lib = fs::read_symlink("/proc/self/exe", ec).parent_path().parent_path() / "lib";
  if (ec || !fs::is_directory(lib, ec)) return;
  for (const auto& entry : fs::directory_iterator(lib, ec)) {
    const fs::path candidate = entry.path() / "site-packages" / "scipy_openblas32" / "lib" / "libscipy_openblas.so";
    if (entry.path().filename().string().rfind("python", 0) == 0 && fs::exists(candidate, ec)) {
      lapack::set_library_path(candidate.string());
      return;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  locate_openblas();
  Options opts;
  std::string error;
  if (!parse_args(argc, argv, &opts, &error)) {
    if (!error.empty()) std::cerr << "graphfn-run: " << error << "\n";
    std::cerr << kUsageText;
    return error.empty() ? 0 : kUsage;
  }
  try {
    return run(opts);
  } catch (const std::exception& e) {  // allocation failure: still an error message, not an abort
    return fail(std::string("unexpected error: ") + e.what());
  }
}
