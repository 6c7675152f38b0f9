#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/sample_result_store.h"

namespace opengpa {
namespace {

TEST(ResultBits, Uint64RoundsToNearest) {
  EXPECT_EQ(ResultBits(2.4, kGpaDataTypeUint64), 2u);
  EXPECT_EQ(ResultBits(2.5, kGpaDataTypeUint64), 3u);
  EXPECT_EQ(ResultBits(1e15 + 0.7, kGpaDataTypeUint64), 1000000000000001u);
}

TEST(ResultBits, Uint64ClampsNegativeAndNanToZero) {
  EXPECT_EQ(ResultBits(-5.0, kGpaDataTypeUint64), 0u);
  EXPECT_EQ(ResultBits(std::nan(""), kGpaDataTypeUint64), 0u);
}

TEST(ResultBits, Uint64SaturatesBeyondItsRange) {
  EXPECT_EQ(ResultBits(1e30, kGpaDataTypeUint64), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(ResultBits(std::numeric_limits<double>::infinity(), kGpaDataTypeUint64),
            std::numeric_limits<std::uint64_t>::max());
}

TEST(ResultBits, Float64KeepsTheExactBitPattern) {
  const double value = -123.456e-7;
  const std::uint64_t bits = ResultBits(value, kGpaDataTypeFloat64);
  double back;
  std::memcpy(&back, &bits, sizeof back);
  EXPECT_EQ(back, value);
}

}  // namespace
}  // namespace opengpa
