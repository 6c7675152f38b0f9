// Owns a block of GL query object names. They belong to the application's context, so they are only
// deleted while that context is current on the deleting thread; otherwise they are left to the context
// (deleting them with another context current would delete that context's objects) and a message is logged.
#ifndef OPENGPA_BACKENDS_OPENGL_GL_QUERY_NAMES_H_
#define OPENGPA_BACKENDS_OPENGL_GL_QUERY_NAMES_H_

#include <cstddef>
#include <memory>
#include <vector>

#include "backends/opengl/gl_context_state.h"

namespace opengpa::gl {

class QueryNames {
 public:
  QueryNames(std::shared_ptr<const ContextState> device, std::size_t count);
  ~QueryNames();
  QueryNames(QueryNames&&) = default;
  QueryNames& operator=(QueryNames&&) = delete;
  QueryNames(const QueryNames&) = delete;
  QueryNames& operator=(const QueryNames&) = delete;

  GLuint operator[](std::size_t i) const { return names_[i]; }
  std::size_t size() const { return names_.size(); }

 private:
  std::shared_ptr<const ContextState> device_;
  std::vector<GLuint> names_;
};

}  // namespace opengpa::gl

#endif  // OPENGPA_BACKENDS_OPENGL_GL_QUERY_NAMES_H_
