// The dataset nodes tf.data's Python API builds, one factory each (TF's op name in brackets).
// Arguments are checked here with TF's errors, so Python passes values through unchanged.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "graphfn/data/dataset.h"
#include "graphfn/runtime/function.h"

namespace graphfn {
namespace data {

using FunctionPtr = std::shared_ptr<const CompiledFunction>;

// Sources (sources.cc).
Status tensor_slices_dataset(std::vector<Tensor> components, DatasetPtr* out);  // [TensorSliceDataset]
DatasetPtr tensor_dataset(std::vector<Tensor> components);                     // [TensorDataset]
Status range_dataset(int64_t start, int64_t stop, int64_t step, DType dtype, DatasetPtr* out);  // [RangeDataset]

// Reshaping transformations (batching.cc).
Status batch_dataset(DatasetPtr input, int64_t batch_size, bool drop_remainder, DatasetPtr* out);  // [BatchDatasetV2]
// padded_shapes: one per component, -1 for "pad to the largest in the batch"; padding_values:
// one scalar per component.
Status padded_batch_dataset(DatasetPtr input, int64_t batch_size, bool drop_remainder, std::vector<Shape> padded_shapes,
                            std::vector<Tensor> padding_values, DatasetPtr* out);  // [PaddedBatchDatasetV2]
DatasetPtr unbatch_dataset(DatasetPtr input);                                       // [UnbatchDataset]

// Order transformations (sequence.cc). A count of -1 means "all" (take), "all" (skip), "forever" (repeat).
DatasetPtr repeat_dataset(DatasetPtr input, int64_t count);  // [RepeatDataset]
DatasetPtr take_dataset(DatasetPtr input, int64_t count);    // [TakeDataset]
DatasetPtr skip_dataset(DatasetPtr input, int64_t count);    // [SkipDataset]
DatasetPtr zip_dataset(std::vector<DatasetPtr> inputs);      // [ZipDataset]: components concatenated
DatasetPtr concatenate_dataset(DatasetPtr first, DatasetPtr second);  // [ConcatenateDataset]

// Function transformations (function_datasets.cc): `fn` takes an element's components and
// returns the new element's (map) or one bool scalar (filter). num_parallel_calls > 1 runs the
// function on that many worker threads, results kept in input order; -1 (AUTOTUNE) uses one per core.
DatasetPtr map_dataset(DatasetPtr input, FunctionPtr fn, int64_t num_parallel_calls);  // [MapDataset]
DatasetPtr filter_dataset(DatasetPtr input, FunctionPtr predicate);                  // [FilterDataset]
// Dataset.reduce: state = fn(state..., element...) over every element.
Status reduce_dataset(const DatasetNode& input, std::vector<Tensor> initial_state, const CompiledFunction& fn,
                      std::vector<Tensor>* final_state);

// Buffering transformations (shuffle.cc, prefetch.cc).
// Each iterator draws its order from (seed, seed2) and, when reshuffle_each_iteration, from how
// many iterators the dataset made before it; buffer_size -2 (UNKNOWN_CARDINALITY) buffers all.
Status shuffle_dataset(DatasetPtr input, int64_t buffer_size, uint64_t seed, uint64_t seed2,
                       bool reshuffle_each_iteration, DatasetPtr* out);  // [ShuffleDatasetV3]
// A background thread fills a buffer of up to buffer_size elements (-1: AUTOTUNE).
Status prefetch_dataset(DatasetPtr input, int64_t buffer_size, DatasetPtr* out);  // [PrefetchDataset]

// Runs an iterator to its end (Catch2 tests, Dataset.cardinality checks).
Status collect(const DatasetNode& dataset, std::vector<Element>* elements);

// dsfn: function and structural transformations (fn_transforms.cc, structural.cc; the ones
// whose function returns a dataset, and window, are in nested_datasets.h).
// [ScanDataset]: fn(state..., element...) returns the new state's num_state components, then
// the output element's.
DatasetPtr scan_dataset(DatasetPtr input, std::vector<Tensor> initial_state, FunctionPtr fn);
// [TakeWhileDataset]: the elements before the first one the predicate (a bool scalar) rejects.
DatasetPtr take_while_dataset(DatasetPtr input, FunctionPtr predicate);
Status shard_dataset(DatasetPtr input, int64_t num_shards, int64_t index, DatasetPtr* out);  // [ShardDataset]
DatasetPtr unique_dataset(DatasetPtr input);                                                  // [UniqueDataset]
// [RebatchDatasetV2]: the input's rows regrouped into batches of batch_sizes[0], [1], ... (cycling).
Status rebatch_dataset(DatasetPtr input, std::vector<int64_t> batch_sizes, bool drop_remainder, DatasetPtr* out);
DatasetPtr ignore_errors_dataset(DatasetPtr input);                        // [IgnoreErrorsDataset]
DatasetPtr assert_cardinality_dataset(DatasetPtr input, int64_t expected);  // [AssertCardinalityDataset]
// [DatasetToSingleElement]: the only element, TF's errors when there are none or several.
Status single_element(const DatasetNode& input, Element* out);

// ---- Sources, files and cache (dssrc) ----
struct CsvOptions;  // csv_reader.h

// File sources (file_datasets.cc): `filenames` yields scalar strings; files are read in turn or,
// with num_parallel_reads > 1, interleaved one element at a time as TF does. compression "",
// "ZLIB" or "GZIP"; buffer_size <= 0 means the default read size.
DatasetPtr text_line_dataset(DatasetPtr filenames, std::string compression, int64_t buffer_size,
                             int64_t num_parallel_reads);  // [TextLineDataset]
DatasetPtr tfrecord_dataset(DatasetPtr filenames, std::string compression, int64_t buffer_size,
                            int64_t num_parallel_reads);  // [TFRecordDataset]
Status csv_dataset(DatasetPtr filenames, std::string compression, int64_t buffer_size, CsvOptions options,
                   int64_t num_parallel_reads, DatasetPtr* out);  // [CSVDatasetV2]

// Choosing among datasets (choose.cc). The selector yields int64 scalars indexing `inputs`; an
// exhausted input chosen again is skipped, or ends the dataset when stop_on_empty.
Status directed_interleave_dataset(DatasetPtr selector, std::vector<DatasetPtr> inputs, bool stop_on_empty,
                                   DatasetPtr* out);  // [DirectedInterleaveDataset]
// Endless seeded draws of indices with probabilities proportional to the positive weights.
DatasetPtr categorical_selector_dataset(std::vector<double> weights, uint64_t seed, uint64_t seed2);
// start, start + step, ... forever (scalars of one integer or float dtype).
Status counter_dataset(Tensor start, Tensor step, DatasetPtr* out);  // [tf.data.experimental.Counter]

// Dataset.cache (cache.cc): in memory when filename is empty, else in files with that prefix;
// dtypes are the element's, checked when a cache file is read back.
DatasetPtr cache_dataset(DatasetPtr input, std::string filename, std::vector<DType> dtypes);  // [CacheDatasetV2]
// The elements a completed file cache with that prefix holds (Dataset.load), NotFound without one.
DatasetPtr load_cache_dataset(std::string prefix, std::vector<DType> dtypes, int64_t cardinality);

// A source whose iterators the host makes (host_source.cc: Dataset.from_generator): `open` is
// called when an iterator is first asked for an element.
using HostIteratorOpener = std::function<Status(std::unique_ptr<Iterator>* out)>;
DatasetPtr host_source_dataset(HostIteratorOpener open);  // [FlatMapDataset over a generator]

}  // namespace data
}  // namespace graphfn
