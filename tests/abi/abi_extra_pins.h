// What tests/abi pins beyond the generated facts (abi_pins.h), for C and C++ alike:
//   - the slot order of GpaCounterLibFuncTable, as GPA v3.17's gpu_perf_api_counters.h declares it (the facts
//     list only the table's size);
//   - that OpenGPA's extension values (opengpa_ext.h) stay clear of everything GPA v3.17 assigns: outside
//     every Start..Last range, never a value of an enumerator of the same enum.
// Uses ABI_PIN from the including file.

// GpaCounterLibFuncTable: two GpaUInt32 versions, then 17 entry points.
ABI_PIN(offsetof(GpaCounterLibFuncTable, gpa_counter_lib_major_version) == 0, "counter lib major version first");
ABI_PIN(offsetof(GpaCounterLibFuncTable, gpa_counter_lib_minor_version) == 4, "counter lib minor version second");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetVersion) == 8 + 8 * 0, "counter lib slot 0");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetFuncTable) == 8 + 8 * 1, "counter lib slot 1");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibOpenCounterContext) == 8 + 8 * 2, "counter lib slot 2");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibCloseCounterContext) == 8 + 8 * 3, "counter lib slot 3");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetNumCounters) == 8 + 8 * 4, "counter lib slot 4");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetCounterName) == 8 + 8 * 5, "counter lib slot 5");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetCounterIndex) == 8 + 8 * 6, "counter lib slot 6");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetCounterGroup) == 8 + 8 * 7, "counter lib slot 7");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetCounterDescription) == 8 + 8 * 8, "counter lib slot 8");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetCounterDataType) == 8 + 8 * 9, "counter lib slot 9");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetCounterUsageType) == 8 + 8 * 10, "counter lib slot 10");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetCounterUuid) == 8 + 8 * 11, "counter lib slot 11");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetCounterSampleType) == 8 + 8 * 12, "counter lib slot 12");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetCounterInfo) == 8 + 8 * 13, "counter lib slot 13");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibComputeDerivedCounterResult) == 8 + 8 * 14,
        "counter lib slot 14");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetPassCount) == 8 + 8 * 15, "counter lib slot 15");
ABI_PIN(offsetof(GpaCounterLibFuncTable, GpaCounterLibGetCountersByPass) == 8 + 8 * 16, "counter lib slot 16");
ABI_PIN(GPA_COUNTER_LIB_FUNC_TABLE_MAJOR_VERSION == 3, "counter lib major version 3");
ABI_PIN(GPA_COUNTER_LIB_FUNC_TABLE_MINOR_VERSION == 144, "counter lib minor version is its size");

// The extension values: above every GPA value of their enum (and its Last), so no GPA loop or table meets them.
ABI_PIN((long long)kGpaApiCuda > (long long)kGpaApiLast, "kGpaApiCuda is outside kGpaApiStart..kGpaApiLast");
ABI_PIN((long long)kGpaHwGenerationSoftware > (long long)kGpaHwGenerationLast,
        "kGpaHwGenerationSoftware is outside GpaHwGeneration's range");
ABI_PIN((long long)kGpaSessionSampleTypeStreamingCounter > (long long)kGpaSessionSampleTypeLast,
        "kGpaSessionSampleTypeStreamingCounter is past kGpaSessionSampleTypeLast");
ABI_PIN((long long)kGpaSessionSampleTypeSqtt > (long long)kGpaSessionSampleTypeLast,
        "kGpaSessionSampleTypeSqtt is past kGpaSessionSampleTypeLast");
ABI_PIN((long long)kGpaSessionSampleTypeStreamingCounterAndSqtt > (long long)kGpaSessionSampleTypeLast,
        "kGpaSessionSampleTypeStreamingCounterAndSqtt is past kGpaSessionSampleTypeLast");
// Bits GPA v3.17 never assigns (its only context sample type and initialize flag are 0, its counter sample type 1).
ABI_PIN(kGpaContextSampleTypeStreamingCounter != 0 && kGpaContextSampleTypeSqtt != 0 &&
            (kGpaContextSampleTypeStreamingCounter & kGpaContextSampleTypeSqtt) == 0,
        "the streaming and SQTT context bits are distinct non-zero bits");
ABI_PIN((long long)kGpaCounterSampleTypeStreaming != (long long)kGpaCounterSampleTypeDiscrete,
        "the streaming counter sample type is not GPA's discrete");
ABI_PIN(kGpaInitializeSimultaneousQueuesEnableBit != kGpaInitializeDefaultBit, "the simultaneous-queues bit is a bit");
