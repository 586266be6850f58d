/// @file layouts.hpp
/// @brief Where a node's twelve pulses live in a device's memory, and the conversion from and to
/// the canonical order of reference.hpp.
///
/// - Array of structures: a node's twelve pulses side by side, node after node (index node·12 + p).
///   A warp of 32 threads, one node each, reading pulse p reads every twelfth float: 32 floats
///   spread over 1536 bytes, the access the paper found eight times slower (sec. IV, Fig. 5).
/// - Segmented (the paper's coalesced layout, sec. IV, Fig. 6): twelve arrays, one per link line
///   (port), each with the pulse of every node, x fastest, then y, then z; every x row padded to
///   whole segments of 64 nodes, so that each block of 64 threads reads 64 consecutive, aligned
///   floats of one array per load.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gpgpu/tlm/mesh.hpp"

namespace gpgpu::tlm {

struct PulseLayout {
  enum class Kind { array_of_structures, segmented };
  Kind kind = Kind::segmented;
  Mesh mesh;
  int pitch = 0;            ///< segmented: elements per x row (nx rounded up to the segment)
  std::int64_t plane = 0;   ///< segmented: elements per port array (pitch·ny·nz)

  /// Elements in all (12 per node, and the padding).
  [[nodiscard]] std::int64_t elements() const;
  /// The element that holds pulse p of node (i, j, k).
  [[nodiscard]] std::int64_t at(int p, int i, int j, int k) const;
  /// "array of structures" / "12 arrays, x rows of 128 (segments of 64)".
  [[nodiscard]] std::string str() const;
};

/// The paper's segment: 64 nodes (paper002::kSegmentNodes).
inline constexpr int kSegment = 64;

PulseLayout array_of_structures(const Mesh& mesh);
/// Throws UsageError when 12 padded arrays exceed 32-bit indices.
PulseLayout segmented(const Mesh& mesh, int segment = kSegment);

/// The canonical pulses in `layout`'s order; padding elements are NaN (a kernel that reads one
/// spreads it into the result).
std::vector<float> to_layout(const PulseLayout& layout, std::span<const float> canonical);
/// The inverse: the stored pulses back in canonical order (padding dropped).
std::vector<float> from_layout(const PulseLayout& layout, std::span<const float> stored);

}  // namespace gpgpu::tlm
