// A dataset as a graph value: a scalar resource tensor (core/dataset_resource.h) that the
// dataset-loop kernels (kernels/data_kernels.cc) make iterators of.
#pragma once
#include "graphfn/data/dataset.h"

namespace graphfn {
namespace data {

Tensor dataset_resource_tensor(DatasetPtr dataset);
// The dataset a tensor made by dataset_resource_tensor holds (a window or group element).
Status dataset_of_resource_tensor(const Tensor& t, DatasetPtr* out);

}  // namespace data
}  // namespace graphfn
