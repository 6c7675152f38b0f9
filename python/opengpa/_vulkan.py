"""A Vulkan device for a live libGPUPerfAPIVK.so context, made through the Vulkan loader with ctypes: the
instance, physical device and device that GpaVkContextOpenInfo names, set up as tools/opengpa's
api_context_vulkan.cc does (GPA's required extensions where offered, pipeline statistics and host query
reset where supported). Python has no Vulkan command buffers here, so such a context lists and plans
counters of the real device (lavapipe in CI); recording samples stays with Vulkan applications."""

import ctypes
from ctypes import POINTER, byref, c_char, c_char_p, c_float, c_uint32, c_void_p

from ._status import OpenGpaError

_API_1_2 = (1 << 22) | (2 << 12)
_TYPE_RANK = {2: 0, 1: 1, 3: 2, 4: 3}  # discrete, integrated, virtual, CPU (lavapipe): the first wins
_PIPELINE_STATISTICS_QUERY = 24  # VkPhysicalDeviceFeatures::pipelineStatisticsQuery, as the 25th VkBool32


class _ApplicationInfo(ctypes.Structure):
    _fields_ = [("sType", c_uint32), ("pNext", c_void_p), ("pApplicationName", c_char_p),
                ("applicationVersion", c_uint32), ("pEngineName", c_char_p), ("engineVersion", c_uint32),
                ("apiVersion", c_uint32)]


class _InstanceCreateInfo(ctypes.Structure):
    _fields_ = [("sType", c_uint32), ("pNext", c_void_p), ("flags", c_uint32),
                ("pApplicationInfo", POINTER(_ApplicationInfo)), ("enabledLayerCount", c_uint32),
                ("ppEnabledLayerNames", c_void_p), ("enabledExtensionCount", c_uint32),
                ("ppEnabledExtensionNames", POINTER(c_char_p))]


class _ExtensionProperties(ctypes.Structure):
    _fields_ = [("extensionName", c_char * 256), ("specVersion", c_uint32)]


class _QueueFamilyProperties(ctypes.Structure):
    _fields_ = [("queueFlags", c_uint32), ("queueCount", c_uint32), ("timestampValidBits", c_uint32),
                ("granularity", c_uint32 * 3)]


class _DeviceQueueCreateInfo(ctypes.Structure):
    _fields_ = [("sType", c_uint32), ("pNext", c_void_p), ("flags", c_uint32), ("queueFamilyIndex", c_uint32),
                ("queueCount", c_uint32), ("pQueuePriorities", POINTER(c_float))]


class _HostQueryResetFeatures(ctypes.Structure):
    _fields_ = [("sType", c_uint32), ("pNext", c_void_p), ("hostQueryReset", c_uint32)]


class _DeviceCreateInfo(ctypes.Structure):
    _fields_ = [("sType", c_uint32), ("pNext", c_void_p), ("flags", c_uint32), ("queueCreateInfoCount", c_uint32),
                ("pQueueCreateInfos", POINTER(_DeviceQueueCreateInfo)), ("enabledLayerCount", c_uint32),
                ("ppEnabledLayerNames", c_void_p), ("enabledExtensionCount", c_uint32),
                ("ppEnabledExtensionNames", POINTER(c_char_p)), ("pEnabledFeatures", POINTER(c_uint32 * 55))]


class GpaVkContextOpenInfo(ctypes.Structure):
    _fields_ = [("instance", c_void_p), ("physical_device", c_void_p), ("device", c_void_p)]


def _names(extensions, wanted):
    offered = {e.extensionName for e in extensions}
    return [name for name in wanted if name in offered]


class VulkanDevice:
    """Owns a VkInstance and VkDevice on the best physical device (or `index`); `open_info` is what
    GpaOpenContext takes. Close (or garbage-collect) it after the GPA context."""

    def __init__(self, index=None):
        try:
            self._vk = vk = ctypes.CDLL("libvulkan.so.1")
        except OSError as error:
            raise OpenGpaError("loading libvulkan.so.1", -25, detail=f"{error} (install libvulkan1 and a driver, "
                               "e.g. mesa-vulkan-drivers for lavapipe)") from None
        self.instance, self.device = c_void_p(), c_void_p()
        self._create_instance(vk)
        physical = self._choose_physical_device(vk, index)
        self._create_device(vk, physical)
        self.open_info = GpaVkContextOpenInfo(self.instance.value, physical, self.device.value)

    @staticmethod
    def _check(function, result):
        if result != 0:
            raise OpenGpaError(function, 0, detail=f"VkResult {result}")

    def _create_instance(self, vk):
        version = c_uint32(1 << 22)
        if hasattr(vk, "vkEnumerateInstanceVersion"):
            vk.vkEnumerateInstanceVersion(byref(version))
        count = c_uint32()
        vk.vkEnumerateInstanceExtensionProperties(None, byref(count), None)
        available = (_ExtensionProperties * count.value)()
        vk.vkEnumerateInstanceExtensionProperties(None, byref(count), available)
        extensions = _names(available, [b"VK_KHR_get_physical_device_properties2"])
        self._instance_extensions = (c_char_p * max(1, len(extensions)))(*extensions)
        app = _ApplicationInfo(0, None, b"opengpa-python", 0, None, 0, min(version.value, _API_1_2))
        info = _InstanceCreateInfo(1, None, 0, ctypes.pointer(app), 0, None, len(extensions),
                                   self._instance_extensions)
        self._check("vkCreateInstance", vk.vkCreateInstance(byref(info), None, byref(self.instance)))

    def _choose_physical_device(self, vk, index):
        count = c_uint32()
        vk.vkEnumeratePhysicalDevices(self.instance, byref(count), None)
        devices = (c_void_p * count.value)()
        vk.vkEnumeratePhysicalDevices(self.instance, byref(count), devices)
        if not count.value:
            raise OpenGpaError("vkEnumeratePhysicalDevices", 0,
                               detail="no Vulkan device (install mesa-vulkan-drivers for lavapipe)")
        properties = []
        for device in devices:
            raw = (ctypes.c_uint8 * 1024)()  # VkPhysicalDeviceProperties (824 bytes): type at 16, name at 20
            vk.vkGetPhysicalDeviceProperties(c_void_p(device), raw)
            device_type = ctypes.c_uint32.from_buffer(raw, 16).value
            name = bytes(raw[20:276]).split(b"\0", 1)[0].decode()
            properties.append((device_type, name, ctypes.c_uint32.from_buffer(raw, 0).value))
        if index is None:
            index = min(range(count.value), key=lambda i: _TYPE_RANK.get(properties[i][0], 9))
        elif not 0 <= index < count.value:
            raise OpenGpaError("opengpa.open_context", -4,
                               detail=f"Vulkan device {index} is out of range: this machine has {count.value}")
        self.name = properties[index][1]
        self._device_api = properties[index][2]
        return devices[index]

    def _create_device(self, vk, physical):
        physical = c_void_p(physical)
        count = c_uint32()
        vk.vkGetPhysicalDeviceQueueFamilyProperties(physical, byref(count), None)
        families = (_QueueFamilyProperties * count.value)()
        vk.vkGetPhysicalDeviceQueueFamilyProperties(physical, byref(count), families)
        family = next((i for i, f in enumerate(families) if f.queueFlags & 3 == 3), None)  # graphics + compute
        if family is None:
            raise OpenGpaError("opengpa.open_context", 0, detail=f"{self.name} has no graphics+compute queue family")
        vk.vkEnumerateDeviceExtensionProperties(physical, None, byref(count), None)
        available = (_ExtensionProperties * count.value)()
        vk.vkEnumerateDeviceExtensionProperties(physical, None, byref(count), available)
        extensions = _names(available, [b"VK_EXT_host_query_reset", b"VK_EXT_calibrated_timestamps"])
        self._device_extensions = (c_char_p * max(1, len(extensions)))(*extensions)
        supported = (c_uint32 * 55)()
        vk.vkGetPhysicalDeviceFeatures(physical, supported)
        self._features = (c_uint32 * 55)()
        self._features[_PIPELINE_STATISTICS_QUERY] = supported[_PIPELINE_STATISTICS_QUERY]
        self._host_reset = _HostQueryResetFeatures(1000261000, None, 1)
        self._priority = c_float(1.0)
        self._queue = _DeviceQueueCreateInfo(2, None, 0, family, 1, ctypes.pointer(self._priority))
        host_reset = b"VK_EXT_host_query_reset" in extensions or self._device_api >= _API_1_2
        info = _DeviceCreateInfo(3, ctypes.cast(ctypes.pointer(self._host_reset), c_void_p) if host_reset else None,
                                 0, 1, ctypes.pointer(self._queue), 0, None, len(extensions),
                                 self._device_extensions, ctypes.pointer(self._features))
        self._check("vkCreateDevice", self._vk.vkCreateDevice(physical, byref(info), None, byref(self.device)))

    def close(self):
        if self.device.value:
            self._vk.vkDestroyDevice(self.device, None)
            self.device = c_void_p()
        if self.instance.value:
            self._vk.vkDestroyInstance(self.instance, None)
            self.instance = c_void_p()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
