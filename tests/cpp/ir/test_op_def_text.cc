// OpDef summaries and disallowed-dtype messages in TF's words (texts printed by TF 2.21).
#include "harness.h"

#include "graphfn/ir/op_def_text.h"
#include "graphfn/ir/op_registry.h"

using namespace graphfn;
using namespace graphfn::testing;

TEST_CASE("op definitions are summarized as TF prints them", "[ir][op_def_text]") {
  CHECK(summarize_op_def(*OpRegistry::global().find("Sqrt")) ==
        "Op<name=Sqrt; signature=x:T -> y:T; attr=T:type,allowed=[DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE, "
        "DT_COMPLEX64, DT_COMPLEX128]>");
  CHECK(summarize_op_def(*OpRegistry::global().find("Reshape")) ==
        "Op<name=Reshape; signature=tensor:T, shape:Tshape -> output:T; attr=T:type; "
        "attr=Tshape:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]>");
  CHECK(summarize_op_def(*OpRegistry::global().find("Unpack")) ==
        "Op<name=Unpack; signature=value:T -> output:num*T; attr=num:int,min=0; attr=T:type; "
        "attr=axis:int,default=0>");
}

TEST_CASE("a disallowed dtype lists TF's allowed dtypes and the OpDef", "[ir][op_def_text]") {
  const Status s = run_error("Sqrt", {scalar<int32_t>(4)});
  CHECK(s.code() == Code::kInvalidArgument);
  CHECK(s.message() ==
        "Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, half, float, double, "
        "complex64, complex128\n\t; NodeDef: {{node Sqrt}}; Op<name=Sqrt; signature=x:T -> y:T; "
        "attr=T:type,allowed=[DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128]> [Op:Sqrt] name: ");
}

TEST_CASE("string addition is Add; AddV2 has no string kernel", "[ir][op_def_text]") {
  Tensor a = Tensor::scalar(std::string("a")), b = Tensor::scalar(std::string("b"));
  CHECK(run1("Add", {a, b}).data<std::string>()[0] == "ab");
  CHECK(run_error("AddV2", {a, b}).message().rfind("Value for attr 'T' of string is not in the list", 0) == 0);
}
