// Transformations whose user function returns a dataset (nested_datasets.cc), and window, whose
// elements are datasets. The dataset a function returns is built per element by its recipe
// (dataset_recipe.h), without Python.
#pragma once
#include "graphfn/data/dataset_recipe.h"

namespace graphfn {
namespace data {

// [FlatMapDataset]: the elements of fn(element) for each element, in order.
DatasetPtr flat_map_dataset(DatasetPtr input, DatasetFunction fn);
// [InterleaveDataset, ParallelInterleaveDatasetV4]: cycles through cycle_length datasets made by
// fn, block_length elements from each in turn (-1 cycle_length: one per core). num_parallel_calls
// 0 is sequential; > 0 (or -1, AUTOTUNE) runs the cycle's iterators on that many threads at most,
// in the sequential order.
Status interleave_dataset(DatasetPtr input, DatasetFunction fn, int64_t cycle_length, int64_t block_length,
                          int64_t num_parallel_calls, DatasetPtr* out);
// [WindowDataset]: each element is one dataset per component (scalar resource tensors), holding
// `size` elements taken `stride` apart, windows starting `shift` apart.
Status window_dataset(DatasetPtr input, int64_t size, int64_t shift, int64_t stride, bool drop_remainder,
                      DatasetPtr* out);
// [GroupByWindowDataset]: elements grouped by key_fn (an int64 scalar); a group of window_size
// elements (or window_size_fn(key) when window_size_fn is set) becomes reduce_fn(key, group dataset),
// whose elements are the output. At the end, the partial groups are reduced, in key order.
DatasetPtr group_by_window_dataset(DatasetPtr input, FunctionPtr key_fn, DatasetFunction reduce_fn,
                                   int64_t window_size, FunctionPtr window_size_fn);

}  // namespace data
}  // namespace graphfn
