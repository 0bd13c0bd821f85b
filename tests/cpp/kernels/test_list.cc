// TensorList kernels (TensorArray in graphs): reserve, set, get, stack, from_tensor, length;
// lists are values (setting an item leaves the input list unchanged); TF's messages.
#include "harness.h"
#include "passes/graph_builder.h"

#include "graphfn/core/tensor_list.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

AttrMap element(DType dt) { return attrs_of({{"element_dtype", dt}}); }

Tensor reserve(const Tensor& shape, int32_t n) {
  return run1("TensorListReserve", {shape, scalar<int32_t>(n)}, element(DType::kFloat32));
}

Tensor set(const Tensor& list, int32_t i, const Tensor& item) {
  return run1("TensorListSetItem", {list, scalar<int32_t>(i), item}, element(DType::kFloat32));
}

}  // namespace

TEST_CASE("a TensorList is written, read and stacked", "[kernels][list]") {
  const Tensor empty = reserve(scalar<int32_t>(-1), 3);
  CHECK(list_of(empty)->items.size() == 3);
  const Tensor one = set(empty, 1, vec<float>({1, 2}));
  CHECK_FALSE(list_of(empty)->items[1].valid());  // the input list is unchanged
  CHECK(values<float>(run1("TensorListGetItem", {one, scalar<int32_t>(1), scalar<int32_t>(-1)},
                           element(DType::kFloat32))) == std::vector<float>{1, 2});
  // Unwritten items read and stack as zeros once the element shape is known.
  CHECK(values<float>(run1("TensorListGetItem", {one, scalar<int32_t>(0), scalar<int32_t>(-1)},
                           element(DType::kFloat32))) == std::vector<float>{0, 0});
  const Tensor stacked = run1("TensorListStack", {one, scalar<int32_t>(-1)}, element(DType::kFloat32));
  CHECK(stacked.shape() == Shape{3, 2});
  CHECK(values<float>(stacked) == std::vector<float>{0, 0, 1, 2, 0, 0});
  CHECK(values<int32_t>(run1("TensorListLength", {one})) == std::vector<int32_t>{3});
}

TEST_CASE("TensorListFromTensor splits the first dimension", "[kernels][list]") {
  const Tensor list = run1("TensorListFromTensor", {tensor<int32_t>({1, 2, 3, 4, 5, 6}, Shape{3, 2}), scalar<int32_t>(-1)},
                           element(DType::kInt32));
  CHECK(values<int32_t>(run1("TensorListGetItem", {list, scalar<int32_t>(2), scalar<int32_t>(-1)},
                             element(DType::kInt32))) == std::vector<int32_t>{5, 6});
  const Tensor strings = run1("TensorListFromTensor", {vec<std::string>({"a", "bc"}), scalar<int32_t>(-1)},
                              element(DType::kString));
  CHECK(values<std::string>(run1("TensorListStack", {strings, scalar<int32_t>(-1)}, element(DType::kString))) ==
        std::vector<std::string>{"a", "bc"});
  CHECK(run_error("TensorListFromTensor", {scalar<int32_t>(1), scalar<int32_t>(-1)}, element(DType::kInt32))
            .message() == "{{function_node __wrapped__TensorListFromTensor_device_/job:localhost/replica:0/task:0/"
                          "device:CPU:0}} Tensor must be at least a vector, but saw shape: [] "
                          "[Op:TensorListFromTensor] name: ");
}

TEST_CASE("TensorList errors", "[kernels][list]") {
  const Tensor list = reserve(scalar<int32_t>(-1), 2);
  auto core = [](const Status& s) {
    const std::string& m = s.message();
    const size_t start = m.find("}} ") + 3;
    return m.substr(start, m.find(" [Op:") - start);
  };
  CHECK(core(run_error("TensorListSetItem", {list, scalar<int32_t>(5), scalar<float>(1)}, element(DType::kFloat32))) ==
        "Trying to modify element 5 in a list with 2 elements.");
  CHECK(core(run_error("TensorListGetItem", {list, scalar<int32_t>(2), scalar<int32_t>(-1)},
                       element(DType::kFloat32))) == "Trying to access element 2 in a list with 2 elements.");
  CHECK(core(run_error("TensorListStack", {list, scalar<int32_t>(-1)}, element(DType::kFloat32))) ==
        "Tried to stack elements of an empty list with non-fully-defined element_shape: <unknown>");
  CHECK(core(run_error("TensorListReserve", {scalar<int32_t>(-1), scalar<int32_t>(-3)}, element(DType::kFloat32))) ==
        "The num_elements to reserve must be a non negative number, but got -3");
  const Tensor grown = run1("TensorListSetItem", {list, scalar<int32_t>(4), scalar<float>(7)},
                            attrs_of({{"element_dtype", DType::kFloat32}, {"resize_if_index_out_of_bounds", true}}));
  CHECK(values<float>(run1("TensorListStack", {grown, scalar<int32_t>(-1)}, element(DType::kFloat32))) ==
        std::vector<float>{0, 0, 0, 0, 7});
  const Tensor scalars = reserve(tensor<int32_t>({}, Shape{0}), 2);  // element shape []
  CHECK(core(run_error("TensorListSetItem", {scalars, scalar<int32_t>(0), vec<float>({1, 2})},
                       element(DType::kFloat32))) ==
        "Tried to set a tensor with incompatible shape at a list index. Item element shape: [2] list shape: []");
}
