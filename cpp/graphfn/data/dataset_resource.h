// A dataset as a graph value: a scalar resource tensor (core/dataset_resource.h) that the
// dataset-loop kernels (kernels/data_kernels.cc) make iterators of.
#pragma once
#include <memory>

#include "graphfn/core/dataset_resource.h"
#include "graphfn/data/dataset.h"

namespace graphfn {
namespace data {

Tensor dataset_resource_tensor(DatasetPtr dataset);
// The dataset a tensor made by dataset_resource_tensor holds (a window or group element).
Status dataset_of_resource_tensor(const Tensor& t, DatasetPtr* out);
// A new iterator of `dataset` as a resource: what iter(dataset) reads eagerly and a traced
// function reads through its resource tensor (GraphfnIteratorGetNext), one position for both.
std::shared_ptr<ElementIteratorResource> element_iterator_resource(DatasetPtr dataset);

}  // namespace data
}  // namespace graphfn
