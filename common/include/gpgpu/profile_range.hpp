/// @file profile_range.hpp
/// @brief A named range around one variant's measurement, for profilers: an NVTX push/pop range when
/// the build has CUDA's NVTX header, nothing otherwise. scripts/profile.sh asks Nsight Compute (or
/// Nsight Systems) for the kernels launched inside the range of the variant it names, so the limits'
/// stream kernels and the other variants stay out of the report. Without a profiler attached it
/// costs a function call.
#pragma once
#include <string>

namespace gpgpu {

class ProfileRange {
 public:
  explicit ProfileRange(const std::string& name);
  ~ProfileRange();
  ProfileRange(const ProfileRange&) = delete;
  ProfileRange& operator=(const ProfileRange&) = delete;
};

}  // namespace gpgpu
