#!/usr/bin/env python3
"""Writes tests/abi/abi_pins.h: one compile-time assertion per fact of an ABI list.

usage: generate_abi_pins.py FACTS.abi.txt OUT.h [HEADER_TO_SKIP ...]
Facts about types declared in a HEADER_TO_SKIP (by the list's "origin" lines) are left out (a header set that
does not ship that header). Both pinned sets ship every header today: no header is skipped.
FACTS is a list in the format of ../shared/reference/gpa-abi/amd-gpa-v3.17.abi.txt (enum values and sizes,
struct sizes, alignments, field offsets, sizes and types, function-table slots, function-pointer types,
scalar typedefs, macros). The output compiles as C11 and as C++17 (tests/abi/abi_c.c, abi_cpp.cc): sizes,
offsets, values and slots are checked in both, field and function-pointer types in C++ (std::is_same).
Run it again only when the pinned ABI changes; the project's build never reads FACTS.
"""
import re
import sys

facts, out_path, skipped_headers = sys.argv[1], sys.argv[2], set(sys.argv[3:])
lines = [line.rstrip("\n") for line in open(facts) if line.strip() and not line.startswith("#")]
skipped = {line.split()[1] for line in lines if line.startswith("origin ") and line.split()[2] in skipped_headers}


def skip(line):
    names = re.findall(r"\b(Gpa\w+)", line.split(" = ")[0])
    return bool(names) and names[0] in skipped


lines = [line for line in lines if not skip(line)]
version = re.search(r"amd-gpa-(v\d+(?:\.\d+)*)", facts).group(1)

# gpu_perf_api_vk.h's types are checked only where Vulkan's headers are present.
VULKAN = {"GpaVkContextOpenInfo", "GpaVkContextOpenInfo2", "GpaOpenContextBitsVk"}

both, cpp_only, vk_both, vk_cpp = [], [], [], []


def emit(target, cond, what):
    target.append('ABI_PIN((%s), "%s");' % (cond, what.replace('"', "'")))


for line in lines:
    if line.startswith("enum-size "):
        name, value = line[len("enum-size "):].split(" = ")
        emit(vk_both if name in VULKAN else both, "sizeof(%s) == %s" % (name, value),
             "sizeof(%s) is %s" % (name, value))
    elif line.startswith("enum "):
        key, value = line[len("enum "):].split(" = ")
        enum, const = key.split("::")
        emit(vk_both if enum in VULKAN else both, "(long long)(%s) == %sLL" % (const, value),
             "%s::%s is %s" % (enum, const, value))
    elif line.startswith("struct "):
        m = re.match(r"struct (\w+) sizeof=(\d+)(?: alignof=(\d+))?(?: members=(\d+))?", line)
        name, size, align = m.group(1), m.group(2), m.group(3)
        target_both = vk_both if name in VULKAN else both
        emit(target_both, "sizeof(%s) == %s" % (name, size), "sizeof(%s) is %s" % (name, size))
        if align:
            emit(target_both, "ABI_ALIGNOF(%s) == %s" % (name, align), "alignof(%s) is %s" % (name, align))
    elif line.startswith("field "):
        m = re.match(r"field (\w+)\.(\w+) offset=(\d+) size=(\d+) type=(.*)", line)
        struct, field, offset, size, type_ = m.groups()
        target_both, target_cpp = (vk_both, vk_cpp) if struct in VULKAN else (both, cpp_only)
        emit(target_both, "offsetof(%s, %s) == %s" % (struct, field, offset),
             "%s.%s at offset %s" % (struct, field, offset))
        emit(target_both, "sizeof(((%s*)0)->%s) == %s" % (struct, field, size),
             "%s.%s is %s bytes" % (struct, field, size))
        array = re.match(r"(.*) \[(\d+)\]$", type_)
        cpp_type = "%s[%s]" % array.groups() if array else type_
        emit(target_cpp, "std::is_same<decltype(((%s*)0)->%s), %s>::value" % (struct, field, cpp_type),
             "%s.%s is %s" % (struct, field, type_))
    elif line.startswith("table major_version") or line.startswith("table minor_version"):
        m = re.match(r"table (\w+) offset=(\d+)", line)
        emit(both, "offsetof(GpaFunctionTable, %s) == %s" % m.groups(), "GpaFunctionTable.%s at offset %s" % m.groups())
    elif line.startswith("table-slot "):
        m = re.match(r"table-slot\s+(\d+) (\w+)", line)
        slot, func = int(m.group(1)), m.group(2)
        emit(both, "offsetof(GpaFunctionTable, %s) == %d" % (func, 8 + 8 * slot),
             "GpaFunctionTable slot %d is %s" % (slot, func))
    elif line.startswith("fnptr "):
        name, type_ = line[len("fnptr "):].split(" = ", 1)
        emit(cpp_only, "std::is_same<%s, %s>::value" % (name, type_), "%s is %s" % (name, type_))
    elif line.startswith("scalar "):
        m = re.match(r"scalar (\w+) sizeof=(\d+) signed=(\d) float=(\d)", line)
        name, size, signed, floating = m.groups()
        emit(both, "sizeof(%s) == %s" % (name, size), "sizeof(%s) is %s" % (name, size))
        emit(both, "ABI_IS_SIGNED(%s) == %s" % (name, signed), "%s signed is %s" % (name, signed))
        emit(cpp_only, "std::is_floating_point<%s>::value == %s" % (name, floating),
             "%s floating is %s" % (name, floating))
    elif line.startswith("macro "):
        m = re.match(r"macro (\w+) = (\d+)$", line)
        if m:
            emit(both, "%s == %s" % m.groups(), "%s is %s" % m.groups())
        # The Vulkan extension-name lists are OpenGPA's own (it needs no AMD driver extension): not pinned.

header = '''// GENERATED by tests/abi/generate_abi_pins.py from the ABI of AMD's GPA %s public headers
// (../shared/reference/gpa-abi/%s)%s: every enum value and size, every struct's size,
// alignment and field offsets, sizes and types, every GpaFunctionTable slot, every function-pointer type,
// scalar typedef and version macro. Included by abi_c.c (C11) and abi_cpp.cc (C++17), which define
// ABI_PIN, ABI_ALIGNOF and ABI_IS_SIGNED; a difference fails the build of tests/abi.
// Do not edit by hand: regenerate when the pinned ABI changes.
''' % (version, facts.split("/")[-1], ", less " + " ".join(sorted(skipped_headers)) if skipped_headers else "")
with open(out_path, "w") as f:
    f.write(header)
    f.write("\n// ---- C and C++ ----\n")
    f.write("\n".join(both) + "\n")
    f.write("\n#ifdef __cplusplus\n// ---- C++ only: field and function-pointer types ----\n")
    f.write("\n".join(cpp_only) + "\n#endif  // __cplusplus\n")
    f.write("\n#ifdef ABI_PINS_WITH_VULKAN\n")
    f.write("\n".join(vk_both) + "\n")
    f.write("#ifdef __cplusplus\n" + "\n".join(vk_cpp) + "\n#endif  // __cplusplus\n")
    f.write("#endif  // ABI_PINS_WITH_VULKAN\n")
print("%s: %d pins (C and C++), %d (C++ only), %d Vulkan"
      % (out_path, len(both), len(cpp_only), len(vk_both) + len(vk_cpp)))
