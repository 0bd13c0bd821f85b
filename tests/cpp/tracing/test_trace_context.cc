// TraceContext: per-thread tracing state (graph stack, traces with TF's variable-creation rule,
// variables read) and the process-wide run_functions_eagerly flag.
#include "harness.h"

#include <thread>

#include "graphfn/core/resource.h"
#include "graphfn/tracing/trace_context.h"

using namespace graphfn;

namespace {

Tensor new_handle() {
  return make_resource_tensor(std::make_shared<VariableResource>(DType::kFloat32, Shape{}));
}

// Leaves the context as found even when a check fails midway.
struct GraphScope {
  explicit GraphScope(std::shared_ptr<Graph> g) { TraceContext::current().push_graph(std::move(g)); }
  ~GraphScope() { TraceContext::current().pop_graph(); }
};

}  // namespace

TEST_CASE("the graph stack: innermost graph is current; a null entry is eager again (init_scope)",
          "[tracing][trace_context]") {
  TraceContext& context = TraceContext::current();
  CHECK(context.executing_eagerly());
  auto outer = std::make_shared<Graph>();
  auto inner = std::make_shared<Graph>();
  {
    GraphScope a(outer);
    CHECK(context.graph() == outer.get());
    {
      GraphScope b(inner);
      CHECK(context.graph_ptr() == inner);
      GraphScope init(nullptr);
      CHECK(context.executing_eagerly());
      CHECK(context.graph_depth() == 3);
    }
    CHECK(context.graph() == outer.get());
  }
  CHECK(context.executing_eagerly());
  context.pop_graph();  // popping an empty stack is harmless
  CHECK(context.graph_depth() == 0);
}

TEST_CASE("variable creation follows TF's rule per trace mode", "[tracing][trace_context]") {
  TraceContext& context = TraceContext::current();
  CHECK(context.check_variable_creation().ok());  // eager, no trace
  GraphScope g(std::make_shared<Graph>());

  context.begin_trace(VariableCreation::kAllowed);
  CHECK(context.check_variable_creation().ok());
  context.note_variable_created();
  context.note_variable_created();
  TraceRecord record;
  REQUIRE(context.end_trace(&record).ok());
  CHECK(record.variables_created == 2);

  context.begin_trace(VariableCreation::kSingletonOnly);
  Status s = context.check_variable_creation();
  CHECK(s.code() == Code::kInvalidArgument);
  {
    GraphScope init(nullptr);  // init_scope: eager, so allowed
    CHECK(context.check_variable_creation().ok());
    context.note_variable_created();  // eager creation is not the trace's
  }
  // A function traced inside this trace follows its own rule.
  context.begin_trace(VariableCreation::kAllowed);
  CHECK(context.check_variable_creation().ok());
  REQUIRE(context.end_trace(&record).ok());
  CHECK(!context.check_variable_creation().ok());
  REQUIRE(context.end_trace(&record).ok());
  CHECK(record.variables_created == 0);

  context.begin_trace(VariableCreation::kSingletonOnly);
  GraphScope inner(std::make_shared<Graph>());
  s = context.check_variable_creation();
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message().find("tf.function only supports singleton tf.Variables created on the first call.") == 0);
  REQUIRE(context.end_trace(&record).ok());

  CHECK(context.end_trace(&record).code() == Code::kFailedPrecondition);  // none in progress
}

TEST_CASE("variables read are remembered once each, by the innermost trace, only in a graph",
          "[tracing][trace_context]") {
  TraceContext& context = TraceContext::current();
  const Tensor a = new_handle();
  const Tensor b = new_handle();
  const Tensor a_alias = a;  // another tensor for the same resource
  auto owner_a = std::make_shared<int>(1);
  auto owner_b = std::make_shared<int>(2);

  context.begin_trace(VariableCreation::kAllowed);
  context.note_variable_read(a, owner_a);  // eager: no graph, not recorded
  TraceRecord record;
  {
    GraphScope g(std::make_shared<Graph>());
    CHECK(context.recording_variable_reads());
    context.note_variable_read(a, owner_a);
    context.note_variable_read(b, owner_b);
    context.note_variable_read(a_alias, owner_a);
    context.begin_trace(VariableCreation::kSingletonOnly);
    context.note_variable_read(b, owner_b);
    REQUIRE(context.end_trace(&record).ok());
    REQUIRE(record.variables_read.size() == 1);
    CHECK(record.variables_read[0].owner == owner_b);
  }
  REQUIRE(context.end_trace(&record).ok());
  REQUIRE(record.variables_read.size() == 2);
  CHECK(record.variables_read[0].owner == owner_a);
  CHECK(record.variables_read[1].owner == owner_b);
  CHECK_FALSE(context.recording_variable_reads());
}

TEST_CASE("each thread has its own context", "[tracing][trace_context]") {
  TraceContext& main_context = TraceContext::current();
  GraphScope g(std::make_shared<Graph>());
  main_context.begin_trace(VariableCreation::kSingletonOnly);
  main_context.set_eager_name_scope("main/");
  bool other_eager = false, other_may_create = false, other_tracing = true;
  std::string other_scope = "unset";
  std::thread other([&] {
    TraceContext& context = TraceContext::current();
    other_eager = context.executing_eagerly();
    other_tracing = context.tracing();
    other_scope = context.eager_name_scope();
    GraphScope g2(std::make_shared<Graph>());
    context.begin_trace(VariableCreation::kAllowed);
    other_may_create = context.check_variable_creation().ok();
    TraceRecord r;
    (void)context.end_trace(&r);
  });
  other.join();
  CHECK(other_eager);
  CHECK_FALSE(other_tracing);
  CHECK(other_scope.empty());
  CHECK(other_may_create);
  CHECK_FALSE(main_context.check_variable_creation().ok());  // this thread's mode is untouched
  TraceRecord record;
  REQUIRE(main_context.end_trace(&record).ok());
  main_context.set_eager_name_scope("");
}

TEST_CASE("run_functions_eagerly is one process-wide flag", "[tracing][trace_context]") {
  CHECK_FALSE(functions_run_eagerly());
  set_functions_run_eagerly(true);
  bool seen = false;
  std::thread other([&] { seen = functions_run_eagerly(); });
  other.join();
  set_functions_run_eagerly(false);
  CHECK(seen);
  CHECK_FALSE(functions_run_eagerly());
}
