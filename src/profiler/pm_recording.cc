#include "profiler/pm_recording.h"

#include <algorithm>

#include "nvidia/counter_handover.h"
#include "nvidia/cuda_driver.h"
#include "nvidia/cupti_pm_library.h"
#include "nvidia/cupti_profiler_session.h"
#include "nvidia/pm_sampling_pipeline.h"
#include "platform/logging.h"
#include "profiler/gpu_identity.h"

namespace opengpa::profiling {

struct PmRecording::Libraries {
  std::unique_ptr<nvidia::cupti::CuptiLibrary> cupti;
  std::unique_ptr<nvidia::CudaDriverLibrary> cuda;
  std::unique_ptr<nvidia::cupti::ProfilerSession> session;
};

// One GPU's sampler and, while it samples, the threads that decode and evaluate its records.
struct PmRecording::Device {
  Device(const nvidia::cupti::CuptiLibrary& cupti, const nvidia::CudaDriver& cuda, int ordinal, std::string label)
      : sampler(cupti, cuda, ordinal, std::move(label)) {}

  void StopDecoding() {
    if (!pipeline) return;
    pipeline->Finish();
    pipeline->TakeSamples(&samples);
    pipeline.reset();
  }

  // Declared before the sampler, so released after it disabled PM sampling (nvidia/counter_handover.h).
  std::shared_ptr<nvidia::CounterClaim> claim;
  nvidia::PmSampler sampler;
  std::unique_ptr<nvidia::PmSamplingPipeline> pipeline;
  nvidia::PmSamples samples;
};

PmRecording::PmRecording(PmRecordingOptions options) : options_(std::move(options)) {}

PmRecording::~PmRecording() {
  for (auto& device : devices_) device->StopDecoding();
  devices_.clear();  // the samplers stop and disable before the session and libraries go
  libraries_.reset();
}

bool PmRecording::Start(const PmRecordingOptions& options, std::unique_ptr<PmRecording>* recording,
                        std::string* error) {
  std::unique_ptr<PmRecording> made(new PmRecording(options));
  made->libraries_ = std::make_unique<Libraries>();
  Libraries& libraries = *made->libraries_;
  const std::vector<std::string> candidates =
      options.cupti_candidates.empty() ? nvidia::cupti::DefaultCuptiCandidates() : options.cupti_candidates;
  if (nvidia::cupti::CuptiLibrary::Load(candidates, &libraries.cupti) != kGpaStatusOk) {
    *error = "the sampled mode needs libcupti.so.13 (see the message above)";
    return false;
  }
  GpaStatus status = kGpaStatusOk;
  libraries.cuda = nvidia::CudaDriverLibrary::Load(nvidia::DefaultCudaDriverCandidates(), &status, error);
  if (!libraries.cuda) return false;
  if (nvidia::cupti::ProfilerSession::Begin(*libraries.cupti, &libraries.session) != kGpaStatusOk) {
    *error = "CUPTI's profiler could not be initialised (see the message above)";
    return false;
  }
  const nvidia::CudaDriver& cuda = libraries.cuda->Api();
  int count = 0;
  if (cuda.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
    *error = "the sampled mode found no CUDA device";
    return false;
  }
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice device = 0;
    cuda.cuDeviceGet(&device, ordinal);
    RecordedGpu gpu;
    inject_cuda::IdentifyDevice(cuda, device, &gpu.series.gpu, &gpu.name);
    auto sampling = std::make_unique<Device>(*libraries.cupti, cuda, ordinal, "GPU " + std::to_string(ordinal));
    if (!gpu.series.gpu.uuid.empty()) {  // a monitor's PM sampling on this GPU lets go first
      std::string note;
      sampling->claim = nvidia::ClaimGpuCounters(gpu.series.gpu.uuid, &note);
      if (!note.empty()) Log(kGpaLoggingMessage, "{}", note);
    }
    nvidia::PmSamplerOptions sampler_options;
    sampler_options.interval_ns = options.interval_ns;
    sampler_options.hardware_buffer_bytes = options.hardware_buffer_bytes;
    sampler_options.decode_period = options.decode_period;
    if (sampling->sampler.Configure(sampler_options, options.metrics) != kGpaStatusOk) {
      *error = "PM sampling could not be set up on GPU " + std::to_string(ordinal) + " (" + gpu.name +
               ") with these metrics at " + std::to_string(options.interval_ns / 1000.0) +
               " µs (see the message above)";
      return false;
    }
    if (made->columns_.empty()) {
      for (const std::string& metric : options.metrics) {
        nvidia::PmMetricProperties properties;
        static_cast<void>(sampling->sampler.Host().Describe(metric, &properties));
        made->columns_.push_back({metric, properties.unit, "float64"});
        made->kinds_.push_back(MetricKindOf(metric, properties.accumulates));
      }
    }
    made->gpus_.push_back(std::move(gpu));
    made->devices_.push_back(std::move(sampling));
  }
  for (std::size_t i = 0; i < made->devices_.size(); ++i) {
    if (made->devices_[i]->sampler.Start() != kGpaStatusOk) {
      *error = "PM sampling could not start on GPU " + std::to_string(i) + " (see the message above)";
      return false;
    }
    made->devices_[i]->pipeline = std::make_unique<nvidia::PmSamplingPipeline>(made->devices_[i]->sampler);
  }
  *recording = std::move(made);
  return true;
}

bool PmRecording::Stop(std::string* error) {
  bool ok = true;
  for (std::size_t i = 0; i < devices_.size(); ++i) {
    Device& device = *devices_[i];
    device.StopDecoding();
    if (device.sampler.Stop(&device.samples) != kGpaStatusOk) {
      *error = "PM sampling on GPU " + std::to_string(i) + " did not stop cleanly (see the message above)";
      ok = false;
    }
    RecordedGpu& gpu = gpus_[i];
    SampleSeries& samples = gpu.series.samples;
    samples.disturbed =
        nvidia::PmDecodeDisturbedSamples(device.samples.times, device.sampler.DecodeStarts(), options_.interval_ns);
    samples.spans.reserve(device.samples.times.size());
    for (const nvidia::PmSampleTime& time : device.samples.times) samples.spans.push_back({time.start_ns, time.end_ns});
    samples.values = std::move(device.samples.values);
    device.samples = {};
    gpu.losses = device.sampler.Losses();
    gpu.costs = device.sampler.Costs();
    gpu.decode_period = device.sampler.decode_period();
  }
  // Everything the results need is copied out: the samplers are disabled and CUPTI's profiler session ended now,
  // so that the GPUs' counters are free for the next user as soon as sampling stops (and `opengpa profile` does
  // this while the program exits rather than in its own exit).
  devices_.clear();
  libraries_.reset();
  return ok;
}

std::vector<std::string> PmRecording::CoverageNotes() const {
  std::vector<std::string> notes;
  for (const RecordedGpu& gpu : gpus_) {
    const std::string label = "GPU " + std::to_string(gpu.series.gpu.index) + " (" + gpu.name + ")";
    std::string note =
        nvidia::DescribePmSampling(label, options_.interval_ns, gpu.losses, gpu.costs, gpu.decode_period);
    const auto& disturbed = gpu.series.samples.disturbed;
    if (const auto marked = std::count(disturbed.begin(), disturbed.end(), 1); marked != 0) {
      note += "; " + std::to_string(marked) +
              " samples next to a decode, whose SM counts it may have zeroed, left out of the launches' averages";
    }
    notes.push_back(std::move(note));
  }
  return notes;
}

}  // namespace opengpa::profiling
