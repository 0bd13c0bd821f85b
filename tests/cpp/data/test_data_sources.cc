// The sources, file datasets and cache of tf.data (cpp/graphfn/data/file_datasets.cc, csv_reader.cc,
// choose.cc, cache.cc), Python-free: TF 2.21's element order and errors on files written here.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "harness.h"

#include "graphfn/data/csv_reader.h"
#include "graphfn/data/datasets.h"

using namespace graphfn;
using namespace graphfn::data;

namespace {

std::string temp_file(const std::string& name, const std::string& bytes) {
  const std::string path = "/tmp/graphfn_data_sources_" + std::to_string(::getpid()) + "_" + name;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  REQUIRE(f != nullptr);
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
  return path;
}

DatasetPtr names(const std::vector<std::string>& paths) {
  Tensor t(DType::kString, Shape{static_cast<int64_t>(paths.size())});
  for (size_t i = 0; i < paths.size(); ++i) t.data<std::string>()[i] = paths[i];
  DatasetPtr d;
  REQUIRE(tensor_slices_dataset({t}, &d).ok());
  return d;
}

std::vector<std::string> strings(const DatasetNode& d) {
  std::vector<Element> elements;
  REQUIRE(collect(d, &elements).ok());
  std::vector<std::string> out;
  for (const Element& e : elements) out.push_back(e[0].data<std::string>()[0]);
  return out;
}

std::vector<int64_t> ints(const DatasetNode& d) {
  std::vector<Element> elements;
  REQUIRE(collect(d, &elements).ok());
  std::vector<int64_t> out;
  for (const Element& e : elements) out.push_back(e[0].data<int64_t>()[0]);
  return out;
}

Tensor int64_default(bool required, int64_t value = 0) {
  if (required) return Tensor(DType::kInt64, Shape{0});
  return Tensor::vector<int64_t>({value});
}

}  // namespace

TEST_CASE("TextLineDataset: lines without their ends, files in turn, a missing file is NotFound") {
  const std::string a = temp_file("a.txt", "l1\nl2\r\nl3"), b = temp_file("b.txt", "m1\n\nm3\n");
  CHECK(strings(*text_line_dataset(names({a, b}), "", 2, 1)) ==
        std::vector<std::string>{"l1", "l2", "l3", "m1", "", "m3"});
  CHECK(text_line_dataset(names({a}), "", -1, 1)->cardinality() == kUnknown);
  std::vector<Element> out;
  Status s = collect(*text_line_dataset(names({a, a + ".missing"}), "", -1, 1), &out);
  CHECK(s.code() == Code::kNotFound);
  CHECK(s.message() == a + ".missing; No such file or directory");
  s = collect(*text_line_dataset(names({a}), "BZ2", -1, 1), &out);
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message() == "Unsupported compression_type.");
  std::remove(a.c_str());
  std::remove(b.c_str());
}

TEST_CASE("CsvDataset: quoting, defaults, select_cols and TF's record errors") {
  const std::string path = temp_file("a.csv", "x,y\n1,\"a,\"\"b\"\n,\"multi\nline\"\r\n");
  CsvOptions options;
  options.defaults = {int64_default(false, 7), Tensor::vector<std::string>({"d"})};
  options.header = true;
  DatasetPtr d;
  REQUIRE(csv_dataset(names({path}), "", -1, options, 1, &d).ok());
  std::vector<Element> rows;
  REQUIRE(collect(*d, &rows).ok());
  REQUIRE(rows.size() == 2);
  CHECK(rows[0][0].data<int64_t>()[0] == 1);
  CHECK(rows[0][1].data<std::string>()[0] == "a,\"b");
  CHECK(rows[1][0].data<int64_t>()[0] == 7);
  CHECK(rows[1][1].data<std::string>()[0] == "multi\nline");

  options.defaults = {int64_default(true)};
  options.header = false;
  REQUIRE(csv_dataset(names({path}), "", -1, options, 1, &d).ok());
  Status s = collect(*d, &rows);
  CHECK(s.message() == "Field 0 in record is not a valid int64: x");
  options.select_cols = {1, 0};
  options.defaults = {int64_default(true), int64_default(true)};
  s = csv_dataset(names({path}), "", -1, options, 1, &d);
  CHECK(s.message() == "select_cols should be strictly increasing indices");
  options.select_cols = {};
  options.delim_text = ";;";
  CHECK(csv_dataset(names({path}), "", -1, options, 1, &d).message() == "field_delim should be only 1 char");
  std::remove(path.c_str());
}

TEST_CASE("directed interleave: choose_from_datasets' order, skipping or stopping at an empty input") {
  DatasetPtr a, b, selector, d;
  REQUIRE(range_dataset(0, 3, 1, DType::kInt64, &a).ok());
  REQUIRE(range_dataset(10, 13, 1, DType::kInt64, &b).ok());
  REQUIRE(tensor_slices_dataset({Tensor::vector<int64_t>({0, 1, 1, 0, 1, 0, 0})}, &selector).ok());
  REQUIRE(directed_interleave_dataset(selector, {a, b}, true, &d).ok());
  CHECK(ints(*d) == std::vector<int64_t>{0, 10, 11, 1, 12, 2});  // TF 2.21
  REQUIRE(tensor_slices_dataset({Tensor::vector<int64_t>({0, 0, 0, 0, 1})}, &selector).ok());
  REQUIRE(directed_interleave_dataset(selector, {a, b}, false, &d).ok());
  CHECK(ints(*d) == std::vector<int64_t>{0, 1, 2, 10});  // TF 2.21
  REQUIRE(tensor_slices_dataset({Tensor::vector<int64_t>({0, 2})}, &selector).ok());
  REQUIRE(directed_interleave_dataset(selector, {a, b}, true, &d).ok());
  std::vector<Element> out;
  CHECK(collect(*d, &out).message() == "Selector index out of range: 2 >= 2");
}

TEST_CASE("categorical selector: seeded, only positive weights drawn") {
  DatasetPtr d = take_dataset(categorical_selector_dataset({0.0, 1.0, -2.0}, 1, 2), 50);
  for (int64_t v : ints(*d)) CHECK(v == 1);
  CHECK(ints(*take_dataset(categorical_selector_dataset({1, 1}, 5, 6), 40)) ==
        ints(*take_dataset(categorical_selector_dataset({1, 1}, 5, 6), 40)));
  CHECK(ints(*categorical_selector_dataset({0.0, 0.0}, 1, 2)).empty());
}

TEST_CASE("cache in memory: the second iterator replays, a partial one records nothing") {
  DatasetPtr r;
  REQUIRE(range_dataset(0, 4, 1, DType::kInt64, &r).ok());
  DatasetPtr c = cache_dataset(r, "", {DType::kInt64});
  {
    auto it = c->make_iterator();
    Element e;
    bool end;
    REQUIRE(it->next(&e, &end).ok());
  }
  CHECK(ints(*c) == std::vector<int64_t>{0, 1, 2, 3});
  CHECK(ints(*c) == std::vector<int64_t>{0, 1, 2, 3});
  CHECK(c->cardinality() == 4);
}

TEST_CASE("cache in files: written once, read back, dtype checked") {
  const std::string prefix = "/tmp/graphfn_data_sources_" + std::to_string(::getpid()) + "_cache";
  DatasetPtr r;
  REQUIRE(range_dataset(0, 3, 1, DType::kInt64, &r).ok());
  CHECK(ints(*cache_dataset(r, prefix, {DType::kInt64})) == std::vector<int64_t>{0, 1, 2});
  DatasetPtr other;
  REQUIRE(range_dataset(5, 6, 1, DType::kInt64, &other).ok());
  CHECK(ints(*cache_dataset(other, prefix, {DType::kInt64})) == std::vector<int64_t>{0, 1, 2});
  std::vector<Element> out;
  CHECK(collect(*cache_dataset(other, prefix, {DType::kInt32}), &out).message() ==
        "Data type mismatch at component 0: expected int32 but got int64.");
  std::remove((prefix + ".index").c_str());
  std::remove((prefix + ".data-00000-of-00001").c_str());
}

TEST_CASE("counter: endless, in its dtype") {
  DatasetPtr d;
  REQUIRE(counter_dataset(Tensor::scalar<int64_t>(5), Tensor::scalar<int64_t>(-2), &d).ok());
  CHECK(d->cardinality() == kInfinite);
  CHECK(ints(*take_dataset(d, 3)) == std::vector<int64_t>{5, 3, 1});
  CHECK(!counter_dataset(Tensor::scalar<std::string>("a"), Tensor::scalar<std::string>("b"), &d).ok());
}
