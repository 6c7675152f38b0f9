#include "counters/name_uuid.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace opengpa {
namespace {

std::string Hex(const std::array<std::uint8_t, 20>& digest) {
  static const char kDigits[] = "0123456789abcdef";
  std::string text;
  for (std::uint8_t byte : digest) {
    text += kDigits[byte >> 4];
    text += kDigits[byte & 0xF];
  }
  return text;
}

// FIPS 180 example messages, plus one that spans many blocks.
TEST(NameUuidTest, Sha1MatchesPublishedDigests) {
  EXPECT_EQ(Hex(Sha1("abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(Hex(Sha1("")), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(Hex(Sha1("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(Hex(Sha1(std::string(1000, 'a'))), "291e9a6c66994949b57ba5e650361e98fc36b1ba");
}

TEST(NameUuidTest, CounterUuidIsVersion5WithTheRfc4122Variant) {
  const GpaUuid uuid = CounterUuid("GPUTime");
  EXPECT_EQ(uuid.data_3 >> 12, 5);
  EXPECT_EQ(uuid.data_4[0] >> 6, 2);
}

TEST(NameUuidTest, CounterUuidDependsOnTheExactName) {
  const GpaUuid a = CounterUuid("GPUTime");
  const GpaUuid b = CounterUuid("GPUTime");
  const GpaUuid c = CounterUuid("gputime");
  EXPECT_EQ(0, std::memcmp(&a, &b, sizeof(a)));
  EXPECT_NE(0, std::memcmp(&a, &c, sizeof(a)));
  // Python: uuid.uuid5(uuid.NAMESPACE_URL, "opengpa:gputime") == 9b29a29a-a192-53f6-be5e-3f0065949bde
  EXPECT_EQ(c.data_1, 0x9b29a29au);
  EXPECT_EQ(c.data_2, 0xa192u);
  EXPECT_EQ(c.data_3, 0x53f6u);
  const std::uint8_t tail[8] = {0xbe, 0x5e, 0x3f, 0x00, 0x65, 0x94, 0x9b, 0xde};
  EXPECT_EQ(0, std::memcmp(c.data_4, tail, 8));
}

}  // namespace
}  // namespace opengpa
