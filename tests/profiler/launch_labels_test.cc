#include "profiler/launch_labels.h"

#include <gtest/gtest.h>

namespace opengpa::profiling {
namespace {

LaunchLabel Label(std::vector<std::string> ranges, std::int64_t host_ns) {
  LaunchLabel label;
  label.ranges = std::move(ranges);
  label.context = "0x5000";
  label.thread = 77;
  label.host_ns = host_ns;
  return label;
}

TEST(LaunchLabelsTest, AKernelFindsItsLaunchByTheRuntimeCallsIdAndTheLabelIsForgottenThen) {
  LaunchLabelBook book;
  book.Record(10, Label({"step", "mlp"}, 1000));
  book.Alias(11, 10);  // cudaLaunchKernel's nested cuLaunchKernel
  auto label = book.Take(10, false);
  ASSERT_TRUE(label.has_value());
  EXPECT_EQ(label->ranges, (std::vector<std::string>{"step", "mlp"}));
  EXPECT_EQ(label->host_ns, 1000);
  EXPECT_EQ(label->thread, 77);
  EXPECT_FALSE(book.Take(10, false).has_value());
  EXPECT_FALSE(book.Take(11, false).has_value()) << "the alias goes with its launch";
  EXPECT_EQ(book.size(), 0u);
}

TEST(LaunchLabelsTest, AKernelFindsItsLaunchByTheNestedDriverCallsIdToo) {
  LaunchLabelBook book;
  book.Record(20, Label({"a"}, 1));
  book.Alias(21, 20);
  book.Record(22, Label({"b"}, 2));  // a driver launch made directly (no runtime call around it)
  auto nested = book.Take(21, false);
  ASSERT_TRUE(nested.has_value());
  EXPECT_EQ(nested->ranges, std::vector<std::string>{"a"});
  EXPECT_FALSE(book.Take(20, false).has_value()) << "the outer id is the same launch, already taken";
  auto direct = book.Take(22, false);
  ASSERT_TRUE(direct.has_value());
  EXPECT_EQ(direct->ranges, std::vector<std::string>{"b"});
}

TEST(LaunchLabelsTest, TheNodesOfAGraphLaunchShareItsLabel) {
  LaunchLabelBook book;
  book.Record(30, Label({"graph step"}, 5));
  for (int node = 0; node < 3; ++node) {
    auto label = book.Take(30, true);
    ASSERT_TRUE(label.has_value()) << "node " << node;
    EXPECT_EQ(label->ranges, std::vector<std::string>{"graph step"});
  }
  EXPECT_EQ(book.size(), 1u);
}

TEST(LaunchLabelsTest, AKernelWhoseLaunchWasNotSeenHasNoLabel) {
  LaunchLabelBook book;
  book.Alias(41, 40);  // no outer call recorded: nothing to alias
  EXPECT_FALSE(book.Take(40, false).has_value());
  EXPECT_FALSE(book.Take(41, false).has_value());
  book.Record(50, Label({}, 9));
  book.Clear();
  EXPECT_FALSE(book.Take(50, false).has_value());
}

}  // namespace
}  // namespace opengpa::profiling
