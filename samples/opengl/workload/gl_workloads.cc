#include "gl_workloads.h"

#include <utility>
#include <vector>

namespace opengpa::glwork {
namespace {

// Positions come from gl_VertexID, so vertex counts are exact and no attribute setup can hide vertices.
constexpr const char* kVertexShader = R"(#version 430 core
uniform int u_mode;  // 0: small triangles on a 64 x 64 grid, 1: one triangle covering the viewport, 2: points,
                     // 3: mode 0 with triangles from u_first_outside on moved outside the view volume
uniform vec2 u_viewport;
uniform int u_first_outside;
void main() {
  if (u_mode == 2) {  // 16 x 16 squares tiling the viewport row by row, on pixel and 4 x 4 block boundaries
    int per_row = int(u_viewport.x) / 16;
    vec2 center = vec2(gl_VertexID % per_row, gl_VertexID / per_row) * 16.0 + 8.0;
    gl_Position = vec4(center / u_viewport * 2.0 - 1.0, 0.0, 1.0);
    gl_PointSize = 16.0;
    return;
  }
  if (u_mode == 1) {
    const vec2 corners[3] = vec2[](vec2(-1, -1), vec2(3, -1), vec2(-1, 3));
    gl_Position = vec4(corners[gl_VertexID % 3], 0.0, 1.0);
    return;
  }
  int triangle = gl_VertexID / 3;
  int corner = gl_VertexID % 3;
  vec2 cell = vec2(triangle % 64, (triangle / 64) % 64);
  vec2 lower_left = -0.95 + cell * (1.9 / 64.0);
  vec2 offset = corner == 0 ? vec2(0.0) : corner == 1 ? vec2(0.02, 0.0) : vec2(0.0, 0.02);
  gl_Position = vec4(lower_left + offset, 0.0, 1.0);
  if (u_mode == 3 && triangle >= u_first_outside) gl_Position.x += 4.0;
}
)";

constexpr const char* kPlainFragmentShader = R"(#version 430 core
out vec4 color;
void main() { color = vec4(0.2, 0.4, 0.6, 1.0); }
)";

constexpr const char* kHeavyFragmentShader = R"(#version 430 core
uniform int u_iterations;
out vec4 color;
void main() {
  float x = gl_FragCoord.x * 0.001;
  for (int i = 0; i < u_iterations; ++i) x = fract(x * 1.0001 + 0.37);
  color = vec4(x, 0.0, 0.0, 1.0);
}
)";

constexpr const char* kGeometryShader = R"(#version 430 core
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
void main() {
  for (int copy = 0; copy < 2; ++copy) {
    for (int i = 0; i < 3; ++i) {
      gl_Position = gl_in[i].gl_Position + vec4(0.005 * copy, 0.0, 0.0, 0.0);
      EmitVertex();
    }
    EndPrimitive();
  }
}
)";

constexpr const char* kTessControlShader = R"(#version 430 core
layout(vertices = 3) out;
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  if (gl_InvocationID == 0) {
    gl_TessLevelInner[0] = 1.0;
    gl_TessLevelOuter[0] = 1.0;
    gl_TessLevelOuter[1] = 1.0;
    gl_TessLevelOuter[2] = 1.0;
  }
}
)";

constexpr const char* kTessEvaluationShader = R"(#version 430 core
layout(triangles, equal_spacing, ccw) in;
void main() {
  gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position +
                gl_TessCoord.z * gl_in[2].gl_Position;
}
)";

constexpr const char* kComputeShader = R"(#version 430 core
layout(local_size_x = 8, local_size_y = 4, local_size_z = 1) in;
layout(std430, binding = 0) buffer Counts { uint invocations; };
void main() { atomicAdd(invocations, 1u); }
)";

GLuint Compile(GLenum stage, const char* source, std::string* error) {
  GLuint shader = glCreateShader(stage);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok == GL_FALSE) {
    char log[2048] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    *error = std::string("shader compile failed: ") + log;
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

GLuint Link(const std::vector<std::pair<GLenum, const char*>>& stages, std::string* error) {
  GLuint program = glCreateProgram();
  std::vector<GLuint> shaders;
  for (const auto& [stage, source] : stages) {
    GLuint shader = Compile(stage, source, error);
    if (shader == 0) {
      for (GLuint s : shaders) glDeleteShader(s);
      glDeleteProgram(program);
      return 0;
    }
    glAttachShader(program, shader);
    shaders.push_back(shader);
  }
  glLinkProgram(program);
  for (GLuint s : shaders) glDeleteShader(s);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok == GL_FALSE) {
    char log[2048] = {};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    *error = std::string("program link failed: ") + log;
    glDeleteProgram(program);
    return 0;
  }
  return program;
}

}  // namespace

bool GlWorkloads::Build(std::string* error) {
  plain_ = Link({{GL_VERTEX_SHADER, kVertexShader}, {GL_FRAGMENT_SHADER, kPlainFragmentShader}}, error);
  heavy_ = Link({{GL_VERTEX_SHADER, kVertexShader}, {GL_FRAGMENT_SHADER, kHeavyFragmentShader}}, error);
  geometry_ = Link({{GL_VERTEX_SHADER, kVertexShader},
                    {GL_GEOMETRY_SHADER, kGeometryShader},
                    {GL_FRAGMENT_SHADER, kPlainFragmentShader}},
                   error);
  tessellation_ = Link({{GL_VERTEX_SHADER, kVertexShader},
                        {GL_TESS_CONTROL_SHADER, kTessControlShader},
                        {GL_TESS_EVALUATION_SHADER, kTessEvaluationShader},
                        {GL_FRAGMENT_SHADER, kPlainFragmentShader}},
                       error);
  compute_ = Link({{GL_COMPUTE_SHADER, kComputeShader}}, error);
  if (plain_ == 0 || heavy_ == 0 || geometry_ == 0 || tessellation_ == 0 || compute_ == 0) return false;
  glGenVertexArrays(1, &vertex_array_);  // core profile: a bound VAO is required even without attributes
  glGenBuffers(1, &storage_buffer_);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, storage_buffer_);
  GLuint zero = 0;
  glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof zero, &zero, GL_DYNAMIC_COPY);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, storage_buffer_);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  return glGetError() == GL_NO_ERROR;
}

GlWorkloads::~GlWorkloads() {
  for (GLuint program : {plain_, heavy_, geometry_, tessellation_, compute_}) {
    if (program != 0) glDeleteProgram(program);
  }
  if (vertex_array_ != 0) glDeleteVertexArrays(1, &vertex_array_);
  if (storage_buffer_ != 0) glDeleteBuffers(1, &storage_buffer_);
}

void GlWorkloads::DrawArrays(GLuint program, GLenum mode, int vertices) const {
  glUseProgram(program);
  glBindVertexArray(vertex_array_);
  glDrawArrays(mode, 0, vertices);
}

void GlWorkloads::DrawSmallTriangles(int triangles) const {
  glUseProgram(plain_);
  glUniform1i(glGetUniformLocation(plain_, "u_mode"), 0);
  DrawArrays(plain_, GL_TRIANGLES, 3 * triangles);
}

void GlWorkloads::DrawTrianglesPartlyOutside(int inside, int outside) const {
  glUseProgram(plain_);
  glUniform1i(glGetUniformLocation(plain_, "u_mode"), 3);
  glUniform1i(glGetUniformLocation(plain_, "u_first_outside"), inside);
  DrawArrays(plain_, GL_TRIANGLES, 3 * (inside + outside));
}

void GlWorkloads::DrawFullScreenTriangle() const {
  glUseProgram(plain_);
  glUniform1i(glGetUniformLocation(plain_, "u_mode"), 1);
  DrawArrays(plain_, GL_TRIANGLES, 3);
}

void GlWorkloads::DrawAlignedSquares(int squares, int viewport_width, int viewport_height) const {
  glUseProgram(plain_);
  glUniform1i(glGetUniformLocation(plain_, "u_mode"), 2);
  glUniform2f(glGetUniformLocation(plain_, "u_viewport"), static_cast<float>(viewport_width),
              static_cast<float>(viewport_height));
  glEnable(GL_PROGRAM_POINT_SIZE);
  DrawArrays(plain_, GL_POINTS, squares);
  glDisable(GL_PROGRAM_POINT_SIZE);
}

void GlWorkloads::DrawHeavyFullScreenTriangle(int iterations) const {
  glUseProgram(heavy_);
  glUniform1i(glGetUniformLocation(heavy_, "u_mode"), 1);
  glUniform1i(glGetUniformLocation(heavy_, "u_iterations"), iterations);
  DrawArrays(heavy_, GL_TRIANGLES, 3);
}

void GlWorkloads::DrawThroughGeometryShader(int triangles) const {
  glUseProgram(geometry_);
  glUniform1i(glGetUniformLocation(geometry_, "u_mode"), 0);
  DrawArrays(geometry_, GL_TRIANGLES, 3 * triangles);
}

void GlWorkloads::DrawTessellatedPatches(int patches) const {
  glUseProgram(tessellation_);
  glUniform1i(glGetUniformLocation(tessellation_, "u_mode"), 0);
  glPatchParameteri(GL_PATCH_VERTICES, 3);
  DrawArrays(tessellation_, GL_PATCHES, 3 * patches);
}

void GlWorkloads::Dispatch(int x, int y, int z) const {
  glUseProgram(compute_);
  glDispatchCompute(static_cast<GLuint>(x), static_cast<GLuint>(y), static_cast<GLuint>(z));
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

}  // namespace opengpa::glwork
