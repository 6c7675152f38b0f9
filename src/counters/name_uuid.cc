#include "counters/name_uuid.h"

#include <cstddef>
#include <string>

namespace opengpa {
namespace {

std::uint32_t RotateLeft(std::uint32_t value, int bits) { return (value << bits) | (value >> (32 - bits)); }

void Sha1Block(const std::uint8_t* block, std::uint32_t state[5]) {
  std::uint32_t w[80];
  for (std::size_t i = 0; i < 16; ++i) {
    w[i] = (std::uint32_t{block[4 * i]} << 24) | (std::uint32_t{block[4 * i + 1]} << 16) |
           (std::uint32_t{block[4 * i + 2]} << 8) | std::uint32_t{block[4 * i + 3]};
  }
  for (int i = 16; i < 80; ++i) w[i] = RotateLeft(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
  std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
  for (int i = 0; i < 80; ++i) {
    std::uint32_t f;
    std::uint32_t k;
    if (i < 20) {
      f = (b & c) | (~b & d);
      k = 0x5A827999u;
    } else if (i < 40) {
      f = b ^ c ^ d;
      k = 0x6ED9EBA1u;
    } else if (i < 60) {
      f = (b & c) | (b & d) | (c & d);
      k = 0x8F1BBCDCu;
    } else {
      f = b ^ c ^ d;
      k = 0xCA62C1D6u;
    }
    const std::uint32_t next = RotateLeft(a, 5) + f + e + k + w[i];
    e = d;
    d = c;
    c = RotateLeft(b, 30);
    b = a;
    a = next;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
}

// RFC 4122 appendix C: the URL namespace, 6ba7b811-9dad-11d1-80b4-00c04fd430c8, in network byte order.
constexpr std::uint8_t kUrlNamespace[16] = {0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1,
                                            0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8};

}  // namespace

std::array<std::uint8_t, 20> Sha1(std::string_view data) {
  std::uint32_t state[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
  // Message, then 0x80, zero padding, and the 64-bit big-endian bit length, to a multiple of 64 bytes.
  std::string message(data);
  const std::uint64_t bit_length = static_cast<std::uint64_t>(data.size()) * 8;
  message.push_back(static_cast<char>(0x80));
  while (message.size() % 64 != 56) message.push_back('\0');
  for (int shift = 56; shift >= 0; shift -= 8) message.push_back(static_cast<char>((bit_length >> shift) & 0xFF));
  for (std::size_t offset = 0; offset < message.size(); offset += 64) {
    Sha1Block(reinterpret_cast<const std::uint8_t*>(message.data() + offset), state);
  }
  std::array<std::uint8_t, 20> digest{};
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 4; ++j) digest[4 * i + j] = static_cast<std::uint8_t>(state[i] >> (24 - 8 * j));
  }
  return digest;
}

GpaUuid CounterUuid(std::string_view counter_name) {
  std::string input(reinterpret_cast<const char*>(kUrlNamespace), sizeof(kUrlNamespace));
  input += "opengpa:";
  input += counter_name;
  const std::array<std::uint8_t, 20> hash = Sha1(input);
  std::uint8_t bytes[16];
  for (int i = 0; i < 16; ++i) bytes[i] = hash[i];
  bytes[6] = static_cast<std::uint8_t>((bytes[6] & 0x0F) | 0x50);  // version 5
  bytes[8] = static_cast<std::uint8_t>((bytes[8] & 0x3F) | 0x80);  // RFC 4122 variant
  GpaUuid uuid{};
  uuid.data_1 = (GpaUInt32{bytes[0]} << 24) | (GpaUInt32{bytes[1]} << 16) | (GpaUInt32{bytes[2]} << 8) | bytes[3];
  uuid.data_2 = static_cast<GpaUInt16>((bytes[4] << 8) | bytes[5]);
  uuid.data_3 = static_cast<GpaUInt16>((bytes[6] << 8) | bytes[7]);
  for (int i = 0; i < 8; ++i) uuid.data_4[i] = bytes[8 + i];
  return uuid;
}

}  // namespace opengpa
