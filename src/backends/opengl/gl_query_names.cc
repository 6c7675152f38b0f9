#include "backends/opengl/gl_query_names.h"

#include <utility>

#include "platform/logging.h"

namespace opengpa::gl {

QueryNames::QueryNames(std::shared_ptr<const ContextState> device, std::size_t count)
    : device_(std::move(device)), names_(count, 0) {
  if (count > 0) device_->gl.GenQueries(static_cast<GLsizei>(count), names_.data());
}

QueryNames::~QueryNames() {
  if (device_ == nullptr || names_.empty()) return;  // moved from, or nothing to delete
  if (device_->context->IsCurrent()) {
    device_->gl.DeleteQueries(static_cast<GLsizei>(names_.size()), names_.data());
  } else {
    Log(kGpaLoggingMessage,
        "OpenGL: {} query objects of context {} are left to that context: it is not current on the thread "
        "deleting the GPA session",
        names_.size(), device_->context->handle());
  }
}

}  // namespace opengpa::gl
