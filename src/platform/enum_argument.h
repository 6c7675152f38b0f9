// The int a C caller passed for an enum, read without undefined behaviour.
//
// C lets any int through an enum parameter or struct field, while in C++ loading a value outside the enum's
// range as the enum is undefined behaviour (UBSan's -fsanitize=enum reports it). So every exported function
// that takes an enum from a caller (GPA v3, GPA v2, the counter library) reads its bytes as an int here and
// range-checks that before using it as the enum.
#ifndef OPENGPA_PLATFORM_ENUM_ARGUMENT_H_
#define OPENGPA_PLATFORM_ENUM_ARGUMENT_H_

#include <cstring>
#include <type_traits>

namespace opengpa {

template <typename Enum>
int EnumArgument(const Enum& argument) {
  static_assert(std::is_enum_v<Enum> && sizeof(Enum) == sizeof(int), "a C enum parameter");
  int value;
  std::memcpy(&value, &argument, sizeof value);
  return value;
}

}  // namespace opengpa

#endif  // OPENGPA_PLATFORM_ENUM_ARGUMENT_H_
