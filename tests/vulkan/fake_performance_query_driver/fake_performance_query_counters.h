// What the test-only driver of fake_performance_query_layer.cc offers through VK_KHR_performance_query, so the
// tests can state their expectations without repeating numbers.
#ifndef OPENGPA_TESTS_VULKAN_FAKE_PERFORMANCE_QUERY_COUNTERS_H_
#define OPENGPA_TESTS_VULKAN_FAKE_PERFORMANCE_QUERY_COUNTERS_H_

#include <cstdint>

namespace fake_performance_query {

// The counters, in the driver's order. The first four have scope COMMAND and are computed from lavapipe's pipeline
// statistics over the query; the last has scope COMMAND_BUFFER, which a GPA sample cannot use.
enum Counter : std::uint32_t {
  kComputeInvocations = 0,   // GENERIC, uint64: compute shader invocations
  kFragmentInvocations = 1,  // GENERIC, uint64: fragment shader invocations
  kVertexInvocations = 2,    // GENERIC, uint32: vertex shader invocations
  kPrimitivesKept = 3,       // PERCENTAGE, float64: clipping primitives / clipping invocations x 100
  kCommandBufferScoped = 4,  // GENERIC, uint64, scope COMMAND_BUFFER
  kCounterCount = 5,
};

constexpr const char* kNames[kCounterCount] = {"Compute shader invocations", "Fragment shader invocations",
                                               "Vertex shader invocations", "Primitives kept", "Whole command buffer"};

// The names GPA offers them under (the driver's words joined in CamelCase).
constexpr const char* kPublicNames[kCounterCount] = {"ComputeShaderInvocations", "FragmentShaderInvocations",
                                                     "VertexShaderInvocations", "PrimitivesKept", "WholeCommandBuffer"};

// The "hardware" counts this many counters per pass: a set of n takes ceil(n / 2) passes.
constexpr std::uint32_t kCountersPerPass = 2;

// A device command the layer adds for the tests: the spec rules it saw broken so far, one per line, and how many.
using PFN_GetViolations = std::uint32_t (*)(char* text, std::uint32_t size);
constexpr const char* kGetViolationsName = "vkOpenGpaTestPerformanceQueryViolations";

}  // namespace fake_performance_query

#endif  // OPENGPA_TESTS_VULKAN_FAKE_PERFORMANCE_QUERY_COUNTERS_H_
