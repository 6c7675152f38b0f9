#include "counter_description.h"

#include <cstdio>

namespace opengpa::cli {
namespace {

// `generation`: GpaGetDeviceGeneration's answer as an int (kGpaHwGenerationSoftware lies outside the enum).
std::string GenerationName(int generation) {
  switch (generation) {
    case kGpaHwGenerationNvidia: return "nvidia";
    case kGpaHwGenerationIntel: return "intel";
    case static_cast<int>(kGpaHwGenerationSoftware): return "software";
    case kGpaHwGenerationNone: return "none";
    default: return "amd-gfx" + std::to_string(generation);
  }
}

std::string SampleTypeName(GpaCounterSampleType type) {
  const bool discrete = (type & kGpaCounterSampleTypeDiscrete) != 0;
  const bool streaming = (type & kGpaCounterSampleTypeStreaming) != 0;
  if (discrete && streaming) return "discrete+streaming";
  if (streaming) return "streaming";
  return "discrete";
}

}  // namespace

std::string FormatUuid(const GpaUuid& uuid) {
  char text[40];
  std::snprintf(text, sizeof text, "%08lx-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", uuid.data_1, uuid.data_2,
                uuid.data_3, uuid.data_4[0], uuid.data_4[1], uuid.data_4[2], uuid.data_4[3], uuid.data_4[4],
                uuid.data_4[5], uuid.data_4[6], uuid.data_4[7]);
  return text;
}

bool DescribeCounters(const GpaLibrary& library, const GpaContext& context, std::vector<CounterDescription>* out,
                      std::string* error) {
  const GpaFunctionTable& gpa = library.Gpa();
  const OpenGpaExtensions& ext = library.Extensions();
  GpaUInt32 count = 0;
  if (!library.Succeeded(gpa.GpaGetNumCounters(context.Id(), &count), "GpaGetNumCounters", error)) return false;
  out->clear();
  out->reserve(count);
  for (GpaUInt32 index = 0; index < count; ++index) {
    CounterDescription counter;
    counter.index = index;
    const char* text = nullptr;
    const std::string where = " (counter " + std::to_string(index) + ")";
    if (!library.Succeeded(gpa.GpaGetCounterName(context.Id(), index, &text), "GpaGetCounterName" + where, error)) {
      return false;
    }
    counter.name = text;
    if (!library.Succeeded(gpa.GpaGetCounterGroup(context.Id(), index, &text), "GpaGetCounterGroup" + where, error)) {
      return false;
    }
    counter.group = text;
    if (!library.Succeeded(gpa.GpaGetCounterDescription(context.Id(), index, &text), "GpaGetCounterDescription" + where,
                           error)) {
      return false;
    }
    counter.description = text;
    GpaDataType data_type{};
    if (!library.Succeeded(gpa.GpaGetCounterDataType(context.Id(), index, &data_type), "GpaGetCounterDataType" + where,
                           error) ||
        !library.Succeeded(gpa.GpaGetDataTypeAsStr(data_type, &text), "GpaGetDataTypeAsStr" + where, error)) {
      return false;
    }
    counter.data_type = text;
    GpaUsageType usage{};
    if (!library.Succeeded(gpa.GpaGetCounterUsageType(context.Id(), index, &usage), "GpaGetCounterUsageType" + where,
                           error) ||
        !library.Succeeded(gpa.GpaGetUsageTypeAsStr(usage, &text), "GpaGetUsageTypeAsStr" + where, error)) {
      return false;
    }
    counter.usage = text;
    GpaUuid uuid{};
    if (!library.Succeeded(gpa.GpaGetCounterUuid(context.Id(), index, &uuid), "GpaGetCounterUuid" + where, error)) {
      return false;
    }
    counter.uuid = FormatUuid(uuid);
    GpaCounterSampleType sample_type{};
    if (!library.Succeeded(gpa.GpaGetCounterSampleType(context.Id(), index, &sample_type),
                           "GpaGetCounterSampleType" + where, error)) {
      return false;
    }
    counter.sample_type = SampleTypeName(sample_type);
    if (ext.get_counter_formula && ext.get_counter_formula(context.Id(), index, &text) == kGpaStatusOk && text) {
      counter.formula = text;
    }
    if (ext.get_counter_hardware_unit && ext.get_counter_hardware_unit(context.Id(), index, &text) == kGpaStatusOk &&
        text && *text) {
      counter.hardware_unit = text;
    }
    out->push_back(std::move(counter));
  }
  return true;
}

bool DescribeDevice(const GpaLibrary& library, const GpaContext& context, DeviceDescription* out, std::string* error) {
  const GpaFunctionTable& gpa = library.Gpa();
  const char* name = nullptr;
  if (!library.Succeeded(gpa.GpaGetDeviceName(context.Id(), &name), "GpaGetDeviceName", error)) return false;
  out->name = name;
  if (!library.Succeeded(gpa.GpaGetDeviceAndRevisionId(context.Id(), &out->device_id, &out->revision_id),
                         "GpaGetDeviceAndRevisionId", error)) {
    return false;
  }
  // Read as an int: kGpaHwGenerationSoftware (opengpa_ext.h) is outside GpaHwGeneration, and C++ may not load it as
  // the enum (UBSan's enum check); the library writes the bytes.
  int generation = kGpaHwGenerationNone;
  if (!library.Succeeded(gpa.GpaGetDeviceGeneration(context.Id(), reinterpret_cast<GpaHwGeneration*>(&generation)),
                         "GpaGetDeviceGeneration", error)) {
    return false;
  }
  out->generation = GenerationName(generation);
  return true;
}

}  // namespace opengpa::cli
