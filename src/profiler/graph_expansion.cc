#include "profiler/graph_expansion.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "nvidia/cuda_driver.h"
#include "profiler/graph_kernels.h"

namespace opengpa::inject_cuda {
namespace {

// The driver's entry points: the one table of src/nvidia (cuda_driver.h), empty without a driver.
const nvidia::CudaDriver& Driver() { return nvidia::CudaDriverOrEmpty(); }

std::string Failed(const char* call, CUresult result) {
  return std::string(call) + " failed (CUresult " + std::to_string(result) + ")";
}

// The node types whose work the injection can enqueue itself, and the ones the graph launch must not run.
bool Replayable(CUgraphNodeType type) {
  switch (type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
    case CU_GRAPH_NODE_TYPE_MEMCPY:
    case CU_GRAPH_NODE_TYPE_MEMSET:
    case CU_GRAPH_NODE_TYPE_EMPTY:
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return true;
    default: return false;
  }
}

// Kernel, memcpy and memset nodes: what cuGraphNodeSetEnabled can disable. (Event nodes run again in the
// graph's shell, after the replayed work: a record marks a later point, a wait waits for what it already did.)
bool Disabled(CUgraphNodeType type) {
  return type == CU_GRAPH_NODE_TYPE_KERNEL || type == CU_GRAPH_NODE_TYPE_MEMCPY || type == CU_GRAPH_NODE_TYPE_MEMSET;
}

const char* TypeName(CUgraphNodeType type) {
  switch (type) {
    case CU_GRAPH_NODE_TYPE_HOST: return "host";
    case CU_GRAPH_NODE_TYPE_GRAPH: return "child graph";
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT: return "external semaphore";
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
    case CU_GRAPH_NODE_TYPE_MEM_FREE: return "memory allocation";
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP: return "batch memory operation";
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: return "conditional";
    default: return "unknown";
  }
}

// `context` current on this thread for a scope (nothing when null).
class ContextScope {
 public:
  explicit ContextScope(CUcontext context) {
    if (context != nullptr) pushed_ = Driver().cuCtxPushCurrent(context) == CUDA_SUCCESS;
  }
  ~ContextScope() {
    CUcontext popped = nullptr;
    if (pushed_) Driver().cuCtxPopCurrent(&popped);
  }

 private:
  bool pushed_ = false;
};

// A kernel node's launch from its parameters: the function (a CUkernel resolved in the node's context), the
// values of its arguments copied (the parameters' pointers are the caller's), its name and shape.
bool ReadKernel(const CUDA_KERNEL_NODE_PARAMS& params, GraphExpansion::Node* node, std::string* error) {
  const nvidia::CudaDriver& driver = Driver();
  CUfunction function = params.func;
  ContextScope scope(params.ctx);
  if (function == nullptr && params.kern != nullptr) {
    const CUresult result = driver.cuKernelGetFunction(&function, params.kern);
    if (result != CUDA_SUCCESS) {
      *error = Failed("cuKernelGetFunction", result);
      return false;
    }
  }
  if (function == nullptr) {
    *error = "a kernel node without a function";
    return false;
  }
  if (params.kernelParams == nullptr && params.extra != nullptr) {
    *error = "a kernel node whose arguments are an `extra` buffer";
    return false;
  }
  node->arguments.clear();
  for (std::size_t index = 0;; ++index) {
    std::size_t offset = 0;
    std::size_t size = 0;
    if (driver.cuFuncGetParamInfo(function, index, &offset, &size) != CUDA_SUCCESS) break;  // past the last
    if (params.kernelParams == nullptr || params.kernelParams[index] == nullptr) {
      *error = "a kernel node whose argument " + std::to_string(index) + " is missing";
      return false;
    }
    const auto* bytes = static_cast<const unsigned char*>(params.kernelParams[index]);
    node->arguments.emplace_back(bytes, bytes + size);
  }
  node->function = function;
  node->shared_memory = params.sharedMemBytes;
  const char* name = nullptr;
  driver.cuFuncGetName(&name, function);
  node->launch.name = Demangle(name);
  node->launch.grid = {params.gridDimX, params.gridDimY, params.gridDimZ};
  node->launch.block = {params.blockDimX, params.blockDimY, params.blockDimZ};
  node->launch.dimensions_known = true;
  return true;
}

bool ReadNode(CUgraphNode handle, GraphExpansion::Node* node, std::string* error) {
  const nvidia::CudaDriver& driver = Driver();
  node->handle = handle;
  CUresult result = driver.cuGraphNodeGetType(handle, &node->type);
  if (result != CUDA_SUCCESS) {
    *error = Failed("cuGraphNodeGetType", result);
    return false;
  }
  if (!Replayable(node->type)) {
    *error = std::string("it has a ") + TypeName(node->type) + " node";
    return false;
  }
  switch (node->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
      CUDA_KERNEL_NODE_PARAMS params{};
      result = driver.cuGraphKernelNodeGetParams(handle, &params);
      if (result != CUDA_SUCCESS) {
        *error = Failed("cuGraphKernelNodeGetParams", result);
        return false;
      }
      CUkernelNodeAttrValue value{};
      if (driver.cuGraphKernelNodeGetAttribute(handle, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &value) == CUDA_SUCCESS) {
        node->cluster = value;
      }
      value = {};
      if (driver.cuGraphKernelNodeGetAttribute(handle, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &value) == CUDA_SUCCESS) {
        node->cooperative = value.cooperative != 0;
      }
      return ReadKernel(params, node, error);
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY: result = driver.cuGraphMemcpyNodeGetParams(handle, &node->copy); break;
    case CU_GRAPH_NODE_TYPE_MEMSET: result = driver.cuGraphMemsetNodeGetParams(handle, &node->set); break;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: result = driver.cuGraphEventRecordNodeGetEvent(handle, &node->event); break;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: result = driver.cuGraphEventWaitNodeGetEvent(handle, &node->event); break;
    default: break;
  }
  if (result != CUDA_SUCCESS) {
    *error = Failed("reading a graph node", result);
    return false;
  }
  return true;
}

// The nodes of `graph` in one topological order, child graphs' nodes in their nodes' places (graph_kernels.h),
// read; `children` (may be null) where each child graph's nodes lie.
bool ReadNodes(CUgraph graph, std::vector<GraphExpansion::Node>* nodes, std::vector<ChildGraphSpan>* children,
               std::string* error) {
  std::vector<CUgraphNode> handles;
  if (!GraphNodesFlattened(graph, &handles, children, error)) return false;
  nodes->assign(handles.size(), {});
  for (std::size_t i = 0; i < handles.size(); ++i) {
    if (!ReadNode(handles[i], &(*nodes)[i], error)) return false;
  }
  return true;
}

// Kernel ordinals in list order; returns how many kernel nodes there are.
std::size_t NumberKernels(std::vector<GraphExpansion::Node>* nodes) {
  std::size_t kernels = 0;
  for (GraphExpansion::Node& node : *nodes) {
    if (node.type == CU_GRAPH_NODE_TYPE_KERNEL) node.kernel_ordinal = kernels++;
  }
  return kernels;
}

// `fresh` (read from the graph of an update) takes the place of `kept` (the nodes the executable graph knows),
// position by position: same count and types, the kept handles and the program's enabled state.
bool PairByPosition(std::vector<GraphExpansion::Node>& fresh, const GraphExpansion::Node* kept, std::size_t count,
                    std::string* error) {
  if (fresh.size() != count) {
    *error = "the updated graph has another number of nodes";
    return false;
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (fresh[i].type != kept[i].type) {
      *error = "the updated graph pairs nodes of other types";
      return false;
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    fresh[i].handle = kept[i].handle;
    fresh[i].enabled = kept[i].enabled;
  }
  return true;
}

}  // namespace

bool IsGraphExecChange(CUpti_CallbackId cbid) {
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemcpyNodeSetParams:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemsetNodeSetParams:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventRecordNodeSetEvent:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventWaitNodeSetEvent:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2: return true;
    default: return false;
  }
}

std::unique_ptr<GraphExpansion> GraphExpansion::Create(CUgraph graph, CUgraphExec exec, std::string* why_not) {
  const nvidia::CudaDriver& driver = Driver();
  if (!driver.has_graph_replay) {
    *why_not = "libcuda.so.1 lacks an entry point for replaying graph nodes (CUDA 12.4 or later is needed)";
    return nullptr;
  }
  cuuint64_t flags = 0;
  if (driver.cuGraphExecGetFlags(exec, &flags) != CUDA_SUCCESS ||
      (flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH) != 0) {
    *why_not = "it is instantiated for device launch";
    return nullptr;
  }
  std::unique_ptr<GraphExpansion> expansion(new GraphExpansion());
  expansion->exec_ = exec;
  expansion->graph_ = graph;
  if (!ReadNodes(graph, &expansion->nodes_, &expansion->children_, why_not)) return nullptr;
  expansion->kernel_nodes_ = NumberKernels(&expansion->nodes_);
  // The nodes of child graphs are disabled one by one too: the executable graph knows them as the nodes of
  // the graphs its child-graph nodes embed (checked on the H100: bench/profile/child_graph_probe.cu).
  for (Node& node : expansion->nodes_) {
    if (!Disabled(node.type)) continue;
    unsigned int enabled = 1;
    CUresult result = driver.cuGraphNodeGetEnabled(exec, node.handle, &enabled);
    if (result == CUDA_SUCCESS) result = driver.cuGraphNodeSetEnabled(exec, node.handle, 0);
    if (result != CUDA_SUCCESS) {
      *why_not = Failed("cuGraphNodeSetEnabled", result);
      expansion->Restore();
      return nullptr;
    }
    node.enabled = enabled != 0;
  }
  return expansion;
}

bool GraphExpansion::Enqueue(const Node& node, CUstream stream, std::string* error) {
  const nvidia::CudaDriver& driver = Driver();
  if (!node.enabled) return true;
  CUresult result = CUDA_SUCCESS;
  switch (node.type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
      std::vector<void*> arguments;
      for (const auto& argument : node.arguments) arguments.push_back(const_cast<unsigned char*>(argument.data()));
      CUlaunchAttribute attributes[2]{};
      unsigned int count = 0;
      const auto& cluster = node.cluster.clusterDim;
      if (cluster.x * cluster.y * cluster.z > 1) {
        attributes[count].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attributes[count++].value = node.cluster;
      }
      if (node.cooperative) {
        attributes[count].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
        attributes[count++].value.cooperative = 1;
      }
      CUlaunchConfig config{};
      config.gridDimX = static_cast<unsigned int>(node.launch.grid[0]);
      config.gridDimY = static_cast<unsigned int>(node.launch.grid[1]);
      config.gridDimZ = static_cast<unsigned int>(node.launch.grid[2]);
      config.blockDimX = static_cast<unsigned int>(node.launch.block[0]);
      config.blockDimY = static_cast<unsigned int>(node.launch.block[1]);
      config.blockDimZ = static_cast<unsigned int>(node.launch.block[2]);
      config.sharedMemBytes = node.shared_memory;
      config.hStream = stream;
      config.attrs = count > 0 ? attributes : nullptr;
      config.numAttrs = count;
      result = driver.cuLaunchKernelEx(&config, node.function, arguments.empty() ? nullptr : arguments.data(), nullptr);
      if (result != CUDA_SUCCESS) *error = Failed(("launching kernel node " + node.launch.name).c_str(), result);
      return result == CUDA_SUCCESS;
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY: result = driver.cuMemcpy3DAsync(&node.copy, stream); break;
    case CU_GRAPH_NODE_TYPE_MEMSET: {
      const CUDA_MEMSET_NODE_PARAMS& set = node.set;
      if (set.height <= 1) {
        switch (set.elementSize) {
          case 1:
            result = driver.cuMemsetD8Async(set.dst, static_cast<unsigned char>(set.value), set.width, stream);
            break;
          case 2:
            result = driver.cuMemsetD16Async(set.dst, static_cast<unsigned short>(set.value), set.width, stream);
            break;
          default: result = driver.cuMemsetD32Async(set.dst, set.value, set.width, stream); break;
        }
      } else {
        switch (set.elementSize) {
          case 1:
            result = driver.cuMemsetD2D8Async(set.dst, set.pitch, static_cast<unsigned char>(set.value), set.width,
                                              set.height, stream);
            break;
          case 2:
            result = driver.cuMemsetD2D16Async(set.dst, set.pitch, static_cast<unsigned short>(set.value), set.width,
                                               set.height, stream);
            break;
          default:
            result = driver.cuMemsetD2D32Async(set.dst, set.pitch, set.value, set.width, set.height, stream);
            break;
        }
      }
      break;
    }
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: result = driver.cuEventRecord(node.event, stream); break;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: result = driver.cuStreamWaitEvent(stream, node.event, 0); break;
    default: break;
  }
  if (result != CUDA_SUCCESS) *error = Failed("replaying a graph node", result);
  return result == CUDA_SUCCESS;
}

GraphExpansion::Node* GraphExpansion::Find(CUgraphNode handle) {
  for (Node& node : nodes_) {
    if (node.handle == handle) return &node;
  }
  return nullptr;
}

bool GraphExpansion::Holds(CUgraphNode handle) const {
  for (const Node& node : nodes_) {
    if (node.handle == handle) return true;
  }
  return false;
}

bool GraphExpansion::OnKernelParams(CUgraphNode handle, const CUDA_KERNEL_NODE_PARAMS& params, std::string* error) {
  Node* node = Find(handle);
  if (node == nullptr || node->type != CU_GRAPH_NODE_TYPE_KERNEL) {
    *error = "new kernel parameters for a node not read before";
    return false;
  }
  Node updated = *node;
  if (!ReadKernel(params, &updated, error)) return false;
  *node = std::move(updated);
  return true;
}

bool GraphExpansion::OnMemcpyParams(CUgraphNode handle, const CUDA_MEMCPY3D& params, std::string* error) {
  Node* node = Find(handle);
  if (node == nullptr || node->type != CU_GRAPH_NODE_TYPE_MEMCPY) {
    *error = "new memcpy parameters for a node not read before";
    return false;
  }
  node->copy = params;
  return true;
}

bool GraphExpansion::OnMemsetParams(CUgraphNode handle, const CUDA_MEMSET_NODE_PARAMS& params, std::string* error) {
  Node* node = Find(handle);
  if (node == nullptr || node->type != CU_GRAPH_NODE_TYPE_MEMSET) {
    *error = "new memset parameters for a node not read before";
    return false;
  }
  node->set = params;
  return true;
}

bool GraphExpansion::OnNodeParams(CUgraphNode handle, const CUgraphNodeParams& params, std::string* error) {
  switch (params.type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
      CUDA_KERNEL_NODE_PARAMS kernel{};  // the same members as the _v3 of CUgraphNodeParams
      kernel.func = params.kernel.func;
      kernel.gridDimX = params.kernel.gridDimX;
      kernel.gridDimY = params.kernel.gridDimY;
      kernel.gridDimZ = params.kernel.gridDimZ;
      kernel.blockDimX = params.kernel.blockDimX;
      kernel.blockDimY = params.kernel.blockDimY;
      kernel.blockDimZ = params.kernel.blockDimZ;
      kernel.sharedMemBytes = params.kernel.sharedMemBytes;
      kernel.kernelParams = params.kernel.kernelParams;
      kernel.extra = params.kernel.extra;
      kernel.kern = params.kernel.kern;
      kernel.ctx = params.kernel.ctx;
      return OnKernelParams(handle, kernel, error);
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY: return OnMemcpyParams(handle, params.memcpy.copyParams, error);
    case CU_GRAPH_NODE_TYPE_MEMSET: {
      CUDA_MEMSET_NODE_PARAMS set{};
      set.dst = params.memset.dst;
      set.pitch = params.memset.pitch;
      set.value = params.memset.value;
      set.elementSize = params.memset.elementSize;
      set.width = params.memset.width;
      set.height = params.memset.height;
      return OnMemsetParams(handle, set, error);
    }
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return OnEvent(handle, params.type, params.eventRecord.event, error);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return OnEvent(handle, params.type, params.eventWait.event, error);
    case CU_GRAPH_NODE_TYPE_GRAPH: return OnChildGraph(handle, params.graph.graph, error);
    default: *error = std::string("new parameters for a ") + TypeName(params.type) + " node"; return false;
  }
}

bool GraphExpansion::OnEvent(CUgraphNode handle, CUgraphNodeType type, CUevent event, std::string* error) {
  Node* node = Find(handle);
  if (node == nullptr || node->type != type) {
    *error = "new event for a node not read before";
    return false;
  }
  node->event = event;
  return true;
}

bool GraphExpansion::OnChildGraph(CUgraphNode handle, CUgraph child, std::string* error) {
  const ChildGraphSpan* span = nullptr;
  for (const ChildGraphSpan& each : children_) {
    if (each.node == handle) span = &each;
  }
  if (span == nullptr) {
    *error = "new parameters for a child-graph node not read before";
    return false;
  }
  std::vector<Node> fresh;
  if (!ReadNodes(child, &fresh, nullptr, error) ||
      !PairByPosition(fresh, nodes_.data() + span->first, span->count, error)) {
    return false;
  }
  std::move(fresh.begin(), fresh.end(), nodes_.begin() + static_cast<std::ptrdiff_t>(span->first));
  NumberKernels(&nodes_);
  // The update sets the child graph's nodes from `child`: keep them disabled in the executable graph, whatever
  // the driver does with their enabled state.
  for (std::size_t i = span->first; i < span->first + span->count; ++i) {
    if (!Disabled(nodes_[i].type)) continue;
    const CUresult result = Driver().cuGraphNodeSetEnabled(exec_, nodes_[i].handle, 0);
    if (result != CUDA_SUCCESS) {
      *error = Failed("cuGraphNodeSetEnabled", result);
      return false;
    }
  }
  return true;
}

bool GraphExpansion::OnSetEnabled(CUgraphNode handle, bool enabled, std::string* error) {
  Node* node = Find(handle);
  if (node == nullptr) {
    *error = "cuGraphNodeSetEnabled on a node not read before";
    return false;
  }
  node->enabled = enabled;
  if (!enabled || !Disabled(node->type)) return true;
  const CUresult result = Driver().cuGraphNodeSetEnabled(exec_, handle, 0);  // the replay runs it, not the graph
  if (result != CUDA_SUCCESS) *error = Failed("cuGraphNodeSetEnabled", result);
  return result == CUDA_SUCCESS;
}

bool GraphExpansion::OnUpdate(CUgraph graph, std::string* error) {
  // On the H100 (driver 580) an update keeps the executable graph's nodes disabled, and cuGraphNodeSetEnabled
  // refuses the update's graph's nodes (CUDA_ERROR_INVALID_VALUE): the nodes stay those of the instantiation,
  // so only their parameters are taken, position by position, from `graph`.
  std::vector<Node> nodes;
  if (!ReadNodes(graph, &nodes, nullptr, error) || !PairByPosition(nodes, nodes_.data(), nodes_.size(), error)) {
    return false;
  }
  nodes_ = std::move(nodes);
  kernel_nodes_ = NumberKernels(&nodes_);
  return true;
}

bool GraphExpansion::Restore() {
  const nvidia::CudaDriver& driver = Driver();
  if (!nodes_alive_) return false;
  bool restored = true;
  for (const Node& node : nodes_) {
    if (!Disabled(node.type) || !node.enabled) continue;
    restored = driver.cuGraphNodeSetEnabled(exec_, node.handle, 1) == CUDA_SUCCESS && restored;
  }
  return restored;
}

}  // namespace opengpa::inject_cuda
