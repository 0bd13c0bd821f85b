// Hash-table kernels. A table is a resource holding its keys' positions (a hash map per key
// kind: integers or strings) and the values tensor it was filled from; it is immutable once
// filled, as TF's HashTable (tf.lookup.StaticHashTable). Lookups copy values by position.
#include <mutex>
#include <string>
#include <unordered_map>

#include "graphfn/core/resource.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

bool is_key_dtype(DType dt) { return dt == DType::kInt32 || dt == DType::kInt64 || dt == DType::kString; }

bool is_value_dtype(DType dt) {
  return dt == DType::kInt32 || dt == DType::kInt64 || dt == DType::kFloat32 || dt == DType::kFloat64 ||
         dt == DType::kBool || dt == DType::kString;
}

int64_t int_key(const Tensor& t, int64_t i) {
  return t.dtype() == DType::kInt32 ? t.data<int32_t>()[i] : t.data<int64_t>()[i];
}

// dst[j] = src[i], both of dtype `dt`.
void copy_element(const Tensor& src, int64_t i, Tensor& dst, int64_t j) {
  switch (src.dtype()) {
    case DType::kInt32: dst.data<int32_t>()[j] = src.data<int32_t>()[i]; break;
    case DType::kInt64: dst.data<int64_t>()[j] = src.data<int64_t>()[i]; break;
    case DType::kFloat32: dst.data<float>()[j] = src.data<float>()[i]; break;
    case DType::kFloat64: dst.data<double>()[j] = src.data<double>()[i]; break;
    case DType::kBool: dst.data<bool>()[j] = src.data<bool>()[i]; break;
    case DType::kString: dst.data<std::string>()[j] = src.data<std::string>()[i]; break;
    default: break;
  }
}

bool elements_equal(const Tensor& t, int64_t i, int64_t j) {
  switch (t.dtype()) {
    case DType::kInt32: return t.data<int32_t>()[i] == t.data<int32_t>()[j];
    case DType::kInt64: return t.data<int64_t>()[i] == t.data<int64_t>()[j];
    case DType::kFloat32: return t.data<float>()[i] == t.data<float>()[j];
    case DType::kFloat64: return t.data<double>()[i] == t.data<double>()[j];
    case DType::kBool: return t.data<bool>()[i] == t.data<bool>()[j];
    case DType::kString: return t.data<std::string>()[i] == t.data<std::string>()[j];
    default: return false;
  }
}

std::string element_text(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DType::kInt32: return std::to_string(t.data<int32_t>()[i]);
    case DType::kInt64: return std::to_string(t.data<int64_t>()[i]);
    case DType::kFloat32: return errors::cat(static_cast<double>(t.data<float>()[i]));
    case DType::kFloat64: return errors::cat(t.data<double>()[i]);
    case DType::kBool: return t.data<bool>()[i] ? "1" : "0";
    case DType::kString: return t.data<std::string>()[i];
    default: return "?";
  }
}

class HashTableResource : public Resource {
 public:
  HashTableResource(DType key_dtype, DType value_dtype) : key_dtype_(key_dtype), value_dtype_(value_dtype) {}
  DType key_dtype() const { return key_dtype_; }
  DType value_dtype() const { return value_dtype_; }

  Status import(const Tensor& keys, const Tensor& values) {
    GRAPHFN_RETURN_IF_ERROR(check_types(keys.dtype(), values.dtype()));
    if (values.shape() != keys.shape()) {
      return errors::InvalidArgument("Expected shape ", keys.shape(), " for value, got ", values.shape());
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (initialized_) return errors::FailedPrecondition("Table already initialized.");
    for (int64_t i = 0, n = keys.num_elements(); i < n; ++i) {
      int64_t first = i;
      if (key_dtype_ == DType::kString) {
        first = strings_.emplace(keys.data<std::string>()[i], i).first->second;
      } else {
        first = ints_.emplace(int_key(keys, i), i).first->second;
      }
      if (first != i && !elements_equal(values, first, i)) {
        strings_.clear();
        ints_.clear();
        return errors::FailedPrecondition("HashTable has different value for same key. Key ", element_text(keys, i),
                                          " has ", element_text(values, first), " and trying to add value ",
                                          element_text(values, i));
      }
    }
    keys_ = keys;
    values_ = values;
    initialized_ = true;
    return Status::OK();
  }

  Status find(const Tensor& keys, const Tensor& default_value, Tensor& out) const {
    GRAPHFN_RETURN_IF_ERROR(check_types(keys.dtype(), default_value.dtype()));
    if (default_value.rank() != 0) {
      return errors::InvalidArgument("Expected shape [] for default value, got ", default_value.shape());
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (!initialized_) return errors::FailedPrecondition("Table not initialized.");
    for (int64_t i = 0, n = keys.num_elements(); i < n; ++i) {
      int64_t position = -1;
      if (key_dtype_ == DType::kString) {
        const auto it = strings_.find(keys.data<std::string>()[i]);
        if (it != strings_.end()) position = it->second;
      } else {
        const auto it = ints_.find(int_key(keys, i));
        if (it != ints_.end()) position = it->second;
      }
      if (position < 0) {
        copy_element(default_value, 0, out, i);
      } else {
        copy_element(values_, position, out, i);
      }
    }
    return Status::OK();
  }

  int64_t size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return key_dtype_ == DType::kString ? static_cast<int64_t>(strings_.size()) : static_cast<int64_t>(ints_.size());
  }

  // The distinct keys and their values, in the order they were first imported.
  void export_to(Tensor* keys, Tensor* values) const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<int64_t> first;
    for (int64_t i = 0, n = keys_.num_elements(); i < n; ++i) {
      const int64_t position = key_dtype_ == DType::kString ? strings_.at(keys_.data<std::string>()[i])
                                                             : ints_.at(int_key(keys_, i));
      if (position == i) first.push_back(i);
    }
    const int64_t n = static_cast<int64_t>(first.size());
    *keys = Tensor(key_dtype_, Shape({n}));
    *values = Tensor(value_dtype_, Shape({n}));
    for (int64_t j = 0; j < n; ++j) {
      copy_element(keys_, first[j], *keys, j);
      copy_element(values_, first[j], *values, j);
    }
  }

  Status check_types(DType keys, DType values) const {
    if (keys != key_dtype_) {
      return errors::InvalidArgument("Key must be type ", dtype_tf_string(key_dtype_), " but got ",
                                     dtype_tf_string(keys));
    }
    if (values != value_dtype_) {
      return errors::InvalidArgument("Value must be type ", dtype_tf_string(value_dtype_), " but got ",
                                     dtype_tf_string(values));
    }
    return Status::OK();
  }

 private:
  const DType key_dtype_;
  const DType value_dtype_;
  mutable std::mutex mu_;
  bool initialized_ = false;
  std::unordered_map<std::string, int64_t> strings_;
  std::unordered_map<int64_t, int64_t> ints_;
  Tensor keys_;
  Tensor values_;
};

Status table_of(KernelContext& c, std::shared_ptr<HashTableResource>* out) {
  const Tensor& handle = c.input(0);
  if (handle.num_elements() != 1) return errors::InvalidArgument("table_handle must be a scalar resource");
  *out = std::dynamic_pointer_cast<HashTableResource>(*handle.data<ResourceHandle>());
  if (!*out) return errors::FailedPrecondition("Resource handle does not refer to a lookup table");
  return Status::OK();
}

Status hash_table_kernel(KernelContext& c) {
  const DType key = c.type_attr("key_dtype"), value = c.type_attr("value_dtype");
  if (!is_key_dtype(key) || !is_value_dtype(value)) {
    return errors::NotFound("No registered 'HashTableV2' OpKernel for 'CPU' devices compatible with node "
                            "{{node HashTableV2}}\n\t (OpKernel was found, but attributes didn't match) Requested "
                            "Attributes: key_dtype=", dtype_tf_string(key), ", value_dtype=", dtype_tf_string(value));
  }
  c.set_output(0, make_resource_tensor(std::make_shared<HashTableResource>(key, value)));
  return Status::OK();
}

Status import_kernel(KernelContext& c) {
  std::shared_ptr<HashTableResource> table;
  GRAPHFN_RETURN_IF_ERROR(table_of(c, &table));
  return table->import(c.input(1), c.input(2));
}

Status find_kernel(KernelContext& c) {
  std::shared_ptr<HashTableResource> table;
  GRAPHFN_RETURN_IF_ERROR(table_of(c, &table));
  Tensor out(c.input(2).dtype(), c.input(1).shape());
  GRAPHFN_RETURN_IF_ERROR(table->find(c.input(1), c.input(2), out));
  c.set_output(0, std::move(out));
  return Status::OK();
}

Status size_kernel(KernelContext& c) {
  std::shared_ptr<HashTableResource> table;
  GRAPHFN_RETURN_IF_ERROR(table_of(c, &table));
  c.set_output(0, Tensor::scalar<int64_t>(table->size()));
  return Status::OK();
}

Status export_kernel(KernelContext& c) {
  std::shared_ptr<HashTableResource> table;
  GRAPHFN_RETURN_IF_ERROR(table_of(c, &table));
  GRAPHFN_RETURN_IF_ERROR(table->check_types(c.type_attr("Tkeys"), c.type_attr("Tvalues")));
  Tensor keys, values;
  table->export_to(&keys, &values);
  c.set_output(0, std::move(keys));
  c.set_output(1, std::move(values));
  return Status::OK();
}

}  // namespace

void register_lookup_kernels(OpRegistry& reg) {
  // Kernels are chosen by the first type attr; the table checks dtypes itself, with TF's texts.
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType dt = static_cast<DType>(i);
    reg.set_kernel("HashTableV2", dt, &hash_table_kernel);
    reg.set_kernel("LookupTableImportV2", dt, &import_kernel);
    reg.set_kernel("InitializeTableV2", dt, &import_kernel);
    reg.set_kernel("LookupTableFindV2", dt, &find_kernel);
    reg.set_kernel("LookupTableExportV2", dt, &export_kernel);
  }
  reg.set_kernel("LookupTableSizeV2", DType::kInvalid, &size_kernel);
}

}  // namespace graphfn
