"""tests/core/fake_backend.h's FakeDevice as ctypes sees it: the application "context" that
libGPUPerfAPITest.so (the fake backend built like a real GPA library) opens, and its known values."""

import ctypes


class FakeDevice(ctypes.Structure):
    # Field for field tests/core/fake_backend.h's struct (atomics of bool/int/uint32 are plain on x86-64).
    _fields_ = [
        ("block_limit", ctypes.c_uint32),
        ("supports_continue", ctypes.c_bool),
        ("supports_secondary", ctypes.c_bool),
        ("open_status", ctypes.c_int32),
        ("sample_types", ctypes.c_uint32),
        ("read_status", ctypes.c_int32),
        ("begin_session_status", ctypes.c_int32),
        ("end_session_status", ctypes.c_int32),
        ("command_list_status", ctypes.c_int32),
        ("sample_status", ctypes.c_int32),
        ("throw_in_open", ctypes.c_bool),
        ("throw_in_samples", ctypes.c_bool),
        ("compute_units", ctypes.c_uint32),
        ("simds", ctypes.c_uint32),
        ("waves_per_simd", ctypes.c_uint32),
        ("vgprs_per_simd", ctypes.c_uint32),
        ("lds_bytes_per_compute_unit", ctypes.c_uint32),
        ("incomplete_slot", ctypes.c_int32),
        ("passes_complete", ctypes.c_bool),
        ("hold_reads", ctypes.c_bool),
        ("reads_waiting", ctypes.c_int32),
        ("read_results_calls", ctypes.c_int32),
        ("sessions_alive", ctypes.c_int32),
        ("command_lists_alive", ctypes.c_int32),
        ("last_open_flags", ctypes.c_uint32),
    ]

    @classmethod
    def make(cls, block_limit=8):
        device = cls()
        device.block_limit = block_limit
        device.supports_continue = True
        device.supports_secondary = True
        device.passes_complete = True
        device.incomplete_slot = -1
        return device


HARDWARE = {"FakeCycles": 0, "FakeItems": 1, "FakeBytes": 2, "FakeBusy": 3, "FakeTime": 4}


def hardware_value(name, slot):
    """FakeHardwareValue: what hardware counter `name` reads in sample slot `slot`."""
    counter = HARDWARE[name]
    if counter == 4:
        return 1000.0 * (slot + 1) + 0.25
    return float((counter + 1) * 1000 + slot * 7 + 3)
