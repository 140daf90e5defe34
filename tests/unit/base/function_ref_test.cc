#include "base/function_ref.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

namespace sb {
namespace {

int Apply(FunctionRef<int(int)> f, int x) { return f(x); }

TEST(FunctionRefTest, CallsTheReferencedLambdaWithItsCapturesAndArguments) {
  int calls = 0;
  const int offset = 40;
  auto add = [&](int x) {
    ++calls;
    return x + offset;
  };
  EXPECT_EQ(Apply(add, 2), 42);
  EXPECT_EQ(Apply(add, -40), 0);
  EXPECT_EQ(calls, 2);  // the lambda itself ran, not a copy of it
}

TEST(FunctionRefTest, ReferencesAStdFunctionAndAConstCallable) {
  std::function<int(int)> twice = [](int x) { return 2 * x; };
  EXPECT_EQ(Apply(twice, 21), 42);
  const auto negate = [](int x) { return -x; };
  EXPECT_EQ(Apply(negate, 5), -5);
}

TEST(FunctionRefTest, ReturnsMoveOnlyResultsAndForwardsReferences) {
  std::string log;
  auto make = [](std::string& s) {
    s += "called";
    return std::make_unique<int>(7);
  };
  FunctionRef<std::unique_ptr<int>(std::string&)> f = make;  // `make` outlives `f`
  std::unique_ptr<int> r = f(log);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(*r, 7);
  EXPECT_EQ(log, "called");  // the argument was passed by reference
}

}  // namespace
}  // namespace sb
