#version 450
// Counts its own invocations with an atomic (an independent check of the pipeline statistic) and does
// `iterations` dependent FMAs per invocation so a dispatch has measurable GPU time.
layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;

layout(push_constant) uniform Work {
    uint iterations;
} work;

layout(std430, binding = 0) buffer Output {
    uint invocations;
    float values[];
} result;

void main() {
    atomicAdd(result.invocations, 1u);
    uvec3 size = gl_NumWorkGroups * gl_WorkGroupSize;
    uint index = gl_GlobalInvocationID.x + size.x * (gl_GlobalInvocationID.y + size.y * gl_GlobalInvocationID.z);
    float x = float(index) * 1.0e-3;
    for (uint i = 0u; i < work.iterations; ++i) {
        x = fma(x, 0.9999, 0.5);
    }
    result.values[index % uint(result.values.length())] = x;
}
