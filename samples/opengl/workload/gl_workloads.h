// GL work of exactly known size, shared by opengpa_gl_sample and tests/opengl: the pipeline statistics each draw or
// dispatch must produce follow from the numbers passed in.
#ifndef OPENGPA_SAMPLES_OPENGL_GL_WORKLOADS_H_
#define OPENGPA_SAMPLES_OPENGL_GL_WORKLOADS_H_

#include <string>

#include "headless_gl.h"

namespace opengpa::glwork {

class GlWorkloads {
 public:
  // Compiles every program; false and *error (with the compiler log) on failure.
  bool Build(std::string* error);
  ~GlWorkloads();

  // `triangles` small triangles, all inside the viewport and not overlapping: 3 * triangles vertices.
  void DrawSmallTriangles(int triangles) const;
  // `inside` small triangles as DrawSmallTriangles, then `outside` more placed wholly outside the view
  // volume, which the clipper discards.
  void DrawTrianglesPartlyOutside(int inside, int outside) const;
  // One triangle whose clipped area is the whole viewport: every pixel shaded once, and with even
  // viewport sizes every 2x2 quad is fully covered, so no helper invocations either.
  void DrawFullScreenTriangle() const;
  // `squares` 16 x 16-pixel points tiling the viewport row by row: each covers exactly 256 pixels and
  // its edges fall on 2 x 2 quad and 4 x 4 block boundaries, so no driver needs helper invocations.
  void DrawAlignedSquares(int squares, int viewport_width, int viewport_height) const;
  // The full-screen triangle with a fragment shader looping `iterations` times (for timing).
  void DrawHeavyFullScreenTriangle(int iterations) const;
  // `triangles` small triangles through a geometry shader that emits two triangles per input triangle.
  void DrawThroughGeometryShader(int triangles) const;
  // `patches` 3-vertex patches with every tessellation level 1 (one triangle per patch).
  void DrawTessellatedPatches(int patches) const;
  // glDispatchCompute(x, y, z) with a local size of 8 x 4 x 1.
  void Dispatch(int x, int y, int z) const;
  static constexpr int kLocalSizeX = 8;
  static constexpr int kLocalSizeY = 4;

 private:
  void DrawArrays(GLuint program, GLenum mode, int vertices) const;

  GLuint vertex_array_ = 0;
  GLuint storage_buffer_ = 0;
  GLuint plain_ = 0;
  GLuint heavy_ = 0;
  GLuint geometry_ = 0;
  GLuint tessellation_ = 0;
  GLuint compute_ = 0;
};

}  // namespace opengpa::glwork

#endif  // OPENGPA_SAMPLES_OPENGL_GL_WORKLOADS_H_
