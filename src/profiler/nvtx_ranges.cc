#include "profiler/nvtx_ranges.h"

#include "generated_nvtx_meta.h"

namespace opengpa::inject_cuda {
namespace {

thread_local std::vector<profiling::NvtxRange> open_ranges;

// What an NVTX call returned (a domain or string handle), where CUPTI passes it.
const void* ReturnedHandle(const CUpti_NvtxData& data) {
  return data.functionReturnValue ? *static_cast<const void* const*>(data.functionReturnValue) : nullptr;
}

// Pops the innermost open range of `domain` (NVTX keeps one stack per domain and thread).
void PopRange(const std::string& domain) {
  for (auto range = open_ranges.rbegin(); range != open_ranges.rend(); ++range) {
    if (range->domain == domain) {
      open_ranges.erase(std::next(range).base());
      return;
    }
  }
}

}  // namespace

const std::vector<profiling::NvtxRange>& NvtxRanges::OpenOnThisThread() { return open_ranges; }

std::string NvtxRanges::DomainName(const void* domain) {
  if (domain == nullptr) return "";  // NULL is the default domain
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = domains_.find(domain);
  return found == domains_.end() ? "nvtx" : found->second;
}

std::string NvtxRanges::Message(const void* attributes_pointer) {
  const auto* attributes = static_cast<const nvtxEventAttributes_t*>(attributes_pointer);
  if (attributes == nullptr) return "nvtx";
  if (attributes->messageType == NVTX_MESSAGE_TYPE_ASCII && attributes->message.ascii != nullptr) {
    return attributes->message.ascii;
  }
  if (attributes->messageType == NVTX_MESSAGE_TYPE_REGISTERED) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = strings_.find(attributes->message.registered);
    if (found != strings_.end()) return found->second;
  }
  return "nvtx";
}

void NvtxRanges::OnCallback(CUpti_CallbackId cbid, const CUpti_NvtxData& data) {
  const void* params = data.functionParams;
  if (params == nullptr) return;
  switch (cbid) {
    case CUPTI_CBID_NVTX_nvtxRangePushA: {
      const char* message = static_cast<const nvtxRangePushA_params*>(params)->message;
      open_ranges.push_back({"", message ? message : "nvtx"});
      break;
    }
    case CUPTI_CBID_NVTX_nvtxRangePushW: open_ranges.push_back({"", "nvtx"}); break;
    case CUPTI_CBID_NVTX_nvtxRangePushEx:
      open_ranges.push_back({"", Message(static_cast<const nvtxRangePushEx_params*>(params)->eventAttrib)});
      break;
    case CUPTI_CBID_NVTX_nvtxDomainRangePushEx: {
      const auto* push = static_cast<const nvtxDomainRangePushEx_params*>(params);
      open_ranges.push_back({DomainName(push->domain), Message(push->core.eventAttrib)});
      break;
    }
    case CUPTI_CBID_NVTX_nvtxRangePop: PopRange(""); break;
    case CUPTI_CBID_NVTX_nvtxDomainRangePop:
      PopRange(DomainName(static_cast<const nvtxDomainRangePop_params*>(params)->domain));
      break;
    case CUPTI_CBID_NVTX_nvtxDomainCreateA: {
      const char* name = static_cast<const nvtxDomainCreateA_params*>(params)->name;
      const void* handle = ReturnedHandle(data);
      std::lock_guard<std::mutex> lock(mutex_);
      if (handle != nullptr) domains_[handle] = name ? name : "nvtx";
      break;
    }
    case CUPTI_CBID_NVTX_nvtxDomainRegisterStringA: {
      const char* text = static_cast<const nvtxDomainRegisterStringA_params*>(params)->string;
      const void* handle = ReturnedHandle(data);
      std::lock_guard<std::mutex> lock(mutex_);
      if (handle != nullptr) strings_[handle] = text ? text : "nvtx";
      break;
    }
    default: break;
  }
}

}  // namespace opengpa::inject_cuda
