// The layer's instances and devices by dispatch key, and the small helpers every part shares.
#include <cstdio>

#include "headless_layer.h"

namespace opengpa::headless {
namespace {

std::mutex registry_mutex;
std::unordered_map<void*, std::unique_ptr<InstanceState>>& Instances() {
  static auto* instances = new std::unordered_map<void*, std::unique_ptr<InstanceState>>();
  return *instances;
}
std::unordered_map<void*, std::unique_ptr<DeviceState>>& Devices() {
  static auto* devices = new std::unordered_map<void*, std::unique_ptr<DeviceState>>();
  return *devices;
}

}  // namespace

void Log(const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", kLayerName, message.c_str());
  std::fflush(stderr);
}

InstanceState* FindInstance(const void* dispatchable) {
  if (dispatchable == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(registry_mutex);
  auto it = Instances().find(DispatchKey(dispatchable));
  return it == Instances().end() ? nullptr : it->second.get();
}

DeviceState* FindDevice(const void* dispatchable) {
  if (dispatchable == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(registry_mutex);
  auto it = Devices().find(DispatchKey(dispatchable));
  return it == Devices().end() ? nullptr : it->second.get();
}

InstanceState* AddInstance(VkInstance instance) {
  auto state = std::make_unique<InstanceState>();
  state->instance = instance;
  InstanceState* raw = state.get();
  std::lock_guard<std::mutex> lock(registry_mutex);
  Instances()[DispatchKey(instance)] = std::move(state);
  return raw;
}

DeviceState* AddDevice(VkDevice device) {
  auto state = std::make_unique<DeviceState>();
  state->device = device;
  DeviceState* raw = state.get();
  std::lock_guard<std::mutex> lock(registry_mutex);
  Devices()[DispatchKey(device)] = std::move(state);
  return raw;
}

void RemoveInstance(VkInstance instance) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  Instances().erase(DispatchKey(instance));
}

void RemoveDevice(VkDevice device) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  Devices().erase(DispatchKey(device));
}

std::uint32_t FindMemoryType(const VkPhysicalDeviceMemoryProperties& memory, std::uint32_t bits,
                             VkMemoryPropertyFlags wanted) {
  for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    if ((bits & (1u << i)) != 0 && (memory.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
  }
  return UINT32_MAX;
}

}  // namespace opengpa::headless
