// Hand-crafted hostile saved graphs: each file has a valid header and CRC, so the damage reaches
// the graph reader, and each must be refused with a status naming what is wrong (never a crash).
// Built from the sample saved graph as raw data (fuzz/raw_saved_graph.h).
#include "harness.h"
#include "fuzz/raw_builders.h"

using namespace graphfn;
using namespace graphfn::testing;

namespace {

// Decodes, compiles and runs the crafted file as the fuzzer does.
Status load(const RawSavedGraph& raw) {
  bool ran = false;
  return load_saved_graph_bytes(encode_raw(raw), &ran);
}

void check_refused(const RawSavedGraph& raw, Code code, const std::string& text) {
  const Status s = load(raw);
  INFO(s.to_string());
  CHECK(s.code() == code);
  CHECK(s.message().find(text) != std::string::npos);
}

RawGraph& sample_f(RawSavedGraph& raw) {
  REQUIRE(raw.functions.size() == 1);
  return raw.functions[0].graph;
}

}  // namespace

TEST_CASE("crafted: the raw codec reproduces the sample files byte for byte") {
  for (const std::string& bytes : saved_graph_corpus()) {
    RawSavedGraph raw;
    REQUIRE(decode_raw(bytes, &raw).ok());
    CHECK(encode_raw(raw) == bytes);
  }
  RawSavedGraph raw = raw_sample();
  CHECK(load(raw).ok());
}

TEST_CASE("crafted: an input that refers to a later node or itself or no node (a cycle)") {
  RawSavedGraph raw = raw_sample();
  RawGraph& f = sample_f(raw);
  const uint64_t mul = node_index(f, "mul");
  SECTION("later") {
    f.nodes[mul].inputs[1].node = node_index(f, "Sum");
    check_refused(raw, Code::kDataLoss, "an input refers to node 12, which does not come before it");
  }
  SECTION("itself") {
    f.nodes[mul].inputs[0].node = mul;
    check_refused(raw, Code::kDataLoss, "which does not come before it (inputs must be earlier nodes");
  }
  SECTION("missing") {
    f.nodes[mul].inputs[0].node = uint64_t(1) << 40;
    check_refused(raw, Code::kDataLoss, "refers to node 1099511627776");
  }
  SECTION("missing output") {
    f.nodes[mul].inputs[0].index = 1;
    check_refused(raw, Code::kDataLoss, "refers to output 1 of node 'x', which has 1");
  }
  SECTION("control input to a later node") {
    f.nodes[mul].control_inputs.push_back(mul + 1);
    check_refused(raw, Code::kDataLoss, "control input (an earlier node) 5 is out of range [0, 4)");
  }
  SECTION("result out of range") {
    f.results[0].node = f.nodes.size();
    check_refused(raw, Code::kDataLoss, "result refers to node 14");
  }
  SECTION("argument that is not a placeholder") {
    f.arguments[0] = mul;
    check_refused(raw, Code::kInvalidArgument, "argument 0 is node 'mul' (Mul), not a Placeholder");
  }
}

TEST_CASE("crafted: out-of-range dtype codes") {
  for (const int code : {0, 8, 21, 22, 40, 99, 255}) {
    INFO("code " << code);
    RawSavedGraph raw = raw_sample();
    RawGraph& f = sample_f(raw);
    SECTION("ReadVariableOp's dtype") {
      *find_attr(f.nodes[node_index(f, "ReadVariableOp")], "dtype") = raw_type(static_cast<uint8_t>(code));
      check_refused(raw, Code::kDataLoss, "unknown dtype code " + std::to_string(code));
    }
    SECTION("a list(type) attr") {
      find_attr(f.nodes[node_index(f, "cond")], "Tin")->types[1] = static_cast<uint8_t>(code);
      check_refused(raw, Code::kDataLoss, "unknown dtype code " + std::to_string(code));
    }
    SECTION("a constant's tensor") {
      find_attr(f.nodes[node_index(f, "Sum/axis")], "value")->tensor.dtype = static_cast<uint8_t>(code);
      check_refused(raw, Code::kDataLoss, "unknown dtype code " + std::to_string(code));
    }
    SECTION("a variable's value") {
      raw.variables[0].value.dtype = static_cast<uint8_t>(code);
      check_refused(raw, Code::kDataLoss, "unknown dtype code " + std::to_string(code));
    }
  }
}

TEST_CASE("crafted: ReadVariableOp of a dtype the variable does not have") {
  for (const uint8_t code : {uint8_t{3}, uint8_t{7}, uint8_t{20}}) {
    INFO("code " << int(code));
    RawSavedGraph raw = raw_sample();
    RawGraph& f = sample_f(raw);
    *find_attr(f.nodes[node_index(f, "ReadVariableOp")], "dtype") = raw_type(code);
    const Status s = load(raw);
    INFO(s.to_string());
    CHECK(s.code() == Code::kInvalidArgument);
  }
}

TEST_CASE("crafted: absurd attrs") {
  RawSavedGraph raw = raw_sample();
  RawGraph& f = sample_f(raw);
  RawNode& x = f.nodes[node_index(f, "x")];
  SECTION("a dimension of 2^41") {
    *find_attr(x, "shape") = raw_shape({int64_t(1) << 41});
    check_refused(raw, Code::kDataLoss, "dimension 2199023255552 is out of range [-1, 2^40]");
  }
  SECTION("a dimension below -1") {
    *find_attr(x, "shape") = raw_shape({-2});
    check_refused(raw, Code::kDataLoss, "dimension -2 is out of range");
  }
  SECTION("more than 2^62 elements") {
    *find_attr(x, "shape") = raw_shape({int64_t(1) << 40, int64_t(1) << 40});
    check_refused(raw, Code::kDataLoss, "shape has more than 2^62 elements");
  }
  SECTION("rank 255") {
    *find_attr(x, "shape") = raw_shape(std::vector<int64_t>(255, 1));
    check_refused(raw, Code::kDataLoss, "too many dimensions: 255 (the limit is 254)");
  }
  SECTION("a tensor whose shape claims more elements than the file has bytes") {
    find_attr(f.nodes[node_index(f, "Sum/axis")], "value")->tensor.shape.dims = {int64_t(1) << 39};
    check_refused(raw, Code::kDataLoss, "claims more elements than the");
  }
  SECTION("a negative int where a count belongs: Unpack num=-1") {
    add_node(f, raw_node("unpack", "Unpack", {{node_index(f, "Sum/axis"), 0}}, {{"num", raw_int(-1)}, {"T", raw_type(3)}}));
    const Status s = load(raw);
    INFO(s.to_string());
    CHECK(s.code() == Code::kInvalidArgument);
    CHECK(s.message().find("unpack") != std::string::npos);
  }
  SECTION("Unpack num=2^40") {
    add_node(f, raw_node("unpack", "Unpack", {{node_index(f, "Sum/axis"), 0}}, {{"num", raw_int(int64_t(1) << 40)}, {"T", raw_type(3)}}));
    const Status s = load(raw);
    INFO(s.to_string());
    CHECK(s.code() == Code::kInvalidArgument);
  }
  SECTION("an attr of the wrong kind") {
    *find_attr(f.nodes[node_index(f, "Squeeze")], "squeeze_dims") = raw_int(1);
    const Status s = load(raw);
    INFO(s.to_string());
    CHECK(s.code() == Code::kInvalidArgument);
    CHECK(s.message().find("squeeze_dims") != std::string::npos);
  }
  SECTION("an attr tag that does not exist") {
    find_attr(f.nodes[node_index(f, "Squeeze")], "squeeze_dims")->tag = 13;
    check_refused(raw, Code::kDataLoss, "unknown attr tag 13");
  }
}

// AddN with N=0 and ConcatOffset with one shape (N below its minimum 2) are refused by the op-call
// validation that add_node runs (ir/op_validation.h), tested with it.
TEST_CASE("crafted: ops with the wrong arity") {
  RawSavedGraph raw = raw_sample();
  RawGraph& f = sample_f(raw);
  const uint64_t axis = node_index(f, "Sum/axis");   // int32 [0]
  const uint64_t shape = node_index(f, "Reshape/shape");  // int32 [-1, 1]
  SECTION("StridedSliceGrad with empty begin and end and scalar strides") {
    const uint64_t empty = add_node(f, raw_const_int32("empty", {}, {0}));
    const uint64_t one = add_node(f, raw_const_int32("one", {1}, {}));
    add_node(f, raw_node("grad", "StridedSliceGrad", {{shape, 0}, {empty, 0}, {empty, 0}, {one, 0}, {axis, 0}},
                         {{"T", raw_type(3)}, {"Index", raw_type(3)}}));
    const Status s = load(raw);
    INFO(s.to_string());
    CHECK(s.code() == Code::kInvalidArgument);
    CHECK(s.message().find("grad") != std::string::npos);
  }
  SECTION("AddN with N=0") {  // the op declares N >= 1
    add_node(f, raw_node("sum_none", "AddN", {}, {{"N", raw_int(0)}, {"T", raw_type(3)}}));
    const Status s = load(raw);
    INFO(s.to_string());
    CHECK(s.code() == Code::kInvalidArgument);
    CHECK(s.message().find("must be at least minimum 1") != std::string::npos);
  }
  SECTION("ConcatOffset with one shape") {  // the op declares N >= 2
    add_node(f, raw_node("offsets", "ConcatOffset", {{axis, 0}, {shape, 0}}, {{"N", raw_int(1)}}));
    const Status s = load(raw);
    INFO(s.to_string());
    CHECK(s.code() == Code::kInvalidArgument);
    CHECK(s.message().find("must be at least minimum 2") != std::string::npos);
  }
  SECTION("a binary op with one input") {
    f.nodes[node_index(f, "mul")].inputs.pop_back();
    const Status s = load(raw);
    INFO(s.to_string());
    CHECK(s.code() == Code::kInvalidArgument);
    CHECK(s.message().find("node 'mul' (Mul)") != std::string::npos);
  }
}

TEST_CASE("crafted: functions nested too deep") {
  RawSavedGraph raw = raw_sample();
  RawGraph& f = sample_f(raw);
  // Wrap the then-branch in an If of itself, 40 times: each level is one more func attr (the
  // else-branches stay leaves, so the file grows linearly).
  RawNode& cond = f.nodes[node_index(f, "cond")];
  const RawGraph leaf = find_attr(cond, "then_branch")->funcs[0].graph;
  RawGraph branch = leaf;
  for (int level = 0; level < 40; ++level) {
    RawGraph outer;
    outer.nodes = {branch.nodes[0], branch.nodes[1]};  // the two placeholders
    const uint64_t flag = add_node(outer, raw_const_int32("flag", {1}, {}));
    outer.nodes[flag].name = "flag";
    RawNode call = cond;
    call.name = "nested";
    call.inputs = {{flag, 0}, {0, 0}, {1, 0}};
    *find_attr(call, "then_branch") = raw_func("then_" + std::to_string(level), branch);
    *find_attr(call, "else_branch") = raw_func("else_" + std::to_string(level), leaf);
    outer.results = {{add_node(outer, call), 0}};
    outer.arguments = {0, 1};
    branch = outer;
  }
  *find_attr(cond, "then_branch") = raw_func("deep", branch);
  check_refused(raw, Code::kDataLoss, "functions nest more than 32 levels deep");
}

TEST_CASE("crafted: a branch function of the wrong type") {
  RawSavedGraph raw = raw_sample();
  RawGraph& f = sample_f(raw);
  RawGraph& then_g = find_attr(f.nodes[node_index(f, "cond")], "then_branch")->funcs[0].graph;
  SECTION("one argument fewer") {
    then_g.arguments.pop_back();
    const Status s = load(raw);
    INFO(s.to_string());
    CHECK(s.code() == Code::kInvalidArgument);
    CHECK(s.message().find("cond") != std::string::npos);
  }
  SECTION("no results") {
    then_g.results.clear();
    const Status s = load(raw);
    INFO(s.to_string());
    CHECK(s.code() == Code::kInvalidArgument);
  }
}

TEST_CASE("crafted: signatures and names") {
  RawSavedGraph raw = raw_sample();
  SECTION("a signature of a missing function") {
    raw.signatures[0].function = 7;
    check_refused(raw, Code::kDataLoss, "signature function 7 is out of range [0, 1)");
  }
  SECTION("a signature with one name per argument missing") {
    raw.signatures[0].inputs.pop_back();
    check_refused(raw, Code::kDataLoss, "has 1 inputs but its function has 2");
  }
  SECTION("two nodes of one name") {
    RawGraph& f = sample_f(raw);
    f.nodes[node_index(f, "mul")].name = "Const";
    check_refused(raw, Code::kInvalidArgument, "two nodes are named 'Const'");
  }
}

TEST_CASE("crafted: ops that would reach outside the process are not registered") {
  // (ReadFile and WriteFile are registered: load_policy.cc refuses them, test_load_policy.cc.)
  for (const char* op : {"SaveV2", "RestoreV2", "MatchingFiles"}) {
    INFO(op);
    RawSavedGraph raw = raw_sample();
    RawGraph& f = sample_f(raw);
    add_node(f, raw_node("evil", op, {}));
    check_refused(raw, Code::kNotFound, std::string("Op type not registered '") + op + "'");
  }
}
