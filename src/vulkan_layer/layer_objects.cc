#include "layer_objects.h"

#include "device_sampler.h"
#include "gpa_session.h"

namespace opengpa::vklayer {
namespace {

std::mutex& RegistryMutex() {
  static std::mutex mutex;
  return mutex;
}
std::unordered_map<void*, std::unique_ptr<InstanceData>>& Instances() {
  static std::unordered_map<void*, std::unique_ptr<InstanceData>> instances;
  return instances;
}
std::unordered_map<void*, std::unique_ptr<DeviceData>>& Devices() {
  static std::unordered_map<void*, std::unique_ptr<DeviceData>> devices;
  return devices;
}

}  // namespace

InstanceData* FindInstance(const void* dispatchable) {
  if (dispatchable == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(RegistryMutex());
  auto it = Instances().find(DispatchKey(dispatchable));
  return it == Instances().end() ? nullptr : it->second.get();
}

DeviceData* FindDevice(const void* dispatchable) {
  if (dispatchable == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(RegistryMutex());
  auto it = Devices().find(DispatchKey(dispatchable));
  return it == Devices().end() ? nullptr : it->second.get();
}

InstanceData* AddInstance(VkInstance instance) {
  std::lock_guard<std::mutex> lock(RegistryMutex());
  auto& slot = Instances()[DispatchKey(instance)];
  slot = std::make_unique<InstanceData>();
  slot->instance = instance;
  return slot.get();
}

DeviceData* AddDevice(VkDevice device) {
  std::lock_guard<std::mutex> lock(RegistryMutex());
  auto& slot = Devices()[DispatchKey(device)];
  slot = std::make_unique<DeviceData>();
  slot->device = device;
  return slot.get();
}

void RemoveInstance(VkInstance instance) {
  std::lock_guard<std::mutex> lock(RegistryMutex());
  Instances().erase(DispatchKey(instance));
}

void RemoveDevice(VkDevice device) {
  std::lock_guard<std::mutex> lock(RegistryMutex());
  Devices().erase(DispatchKey(device));
}

}  // namespace opengpa::vklayer
