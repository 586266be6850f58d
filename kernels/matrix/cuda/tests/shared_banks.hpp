/// @file shared_banks.hpp
/// @brief Shared-memory bank conflicts counted on the CPU emulation of the CUDA thread model
/// (matrix_emulation.hpp): a kernel that keeps its tile in `__shared__ emu::banks::Watched<float>`
/// instead of `float` has every shared load and store recorded, grouped into the warp-wide requests
/// a GPU would issue, and each request costed in wavefronts.
///
/// The model (CUDA C++ Programming Guide, "Shared Memory" in the compute capability 5.x-9.0
/// sections): shared memory is 32 banks of 4 bytes; the 4-byte word at address a lies in bank
/// (a / 4) mod 32. A warp's request is served in as many wavefronts (passes) as the largest number of
/// distinct words it asks of any one bank; threads reading the same word share it (a broadcast). One
/// wavefront per request is conflict-free; k wavefronts is a k-way conflict.
///
/// Which accesses form one request: the threads of a warp execute the same instruction, so the k-th
/// shared access a thread makes after a barrier is, in a kernel whose warps do not diverge around
/// shared accesses, the same instruction for all 32 threads of its warp. The emulation runs each
/// thread from one barrier to the next without interruption (matrix_emulation.hpp's fibers), which
/// is what lets the recorder number a thread's accesses.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "matrix_emulation.hpp"

namespace emu::banks {

inline constexpr int kBanks = 32;
inline constexpr std::uintptr_t kBankBytes = 4;

/// What a launch's shared accesses cost.
struct Tally {
  long long requests = 0;    ///< warp-wide shared loads and stores
  long long wavefronts = 0;  ///< the passes they need: == requests when there is no conflict
  int worst = 0;             ///< the most wavefronts of one request (k of the worst k-way conflict)
  bool worst_is_store = false;
  std::uintptr_t lowest = std::numeric_limits<std::uintptr_t>::max();  ///< lowest byte touched
  std::uintptr_t end = 0;                                              ///< one past the highest

  /// Bytes from the lowest to the highest shared address touched: the tile's footprint.
  std::size_t span_bytes() const { return end > lowest ? static_cast<std::size_t>(end - lowest) : 0; }
};

/// Every shared access of the launches since clear(), grouped by request.
class Recorder {
 public:
  void clear() { *this = Recorder{}; }

  /// One thread's access of `bytes` bytes at `address`; called by Watched<T>.
  void record(const void* address, std::size_t bytes, bool store) {
    if (fibers::resumption != resumption_) {  // a new stretch of this thread: count from 0 again
      resumption_ = fibers::resumption;
      seq_ = 0;
    }
    const unsigned linear = thread_idx.x + block_dim.x * (thread_idx.y + block_dim.y * thread_idx.z);
    const unsigned block = block_idx.x + grid_dim.x * (block_idx.y + grid_dim.y * block_idx.z);
    Request& r = requests_[{fibers::phase, block, linear / 32, seq_++}];
    r.store = store;
    const auto a = reinterpret_cast<std::uintptr_t>(address);
    for (std::uintptr_t word = a / kBankBytes; word < (a + bytes + kBankBytes - 1) / kBankBytes; ++word)
      r.words[static_cast<std::size_t>(word % kBanks)].insert(word);
    tally_.lowest = std::min(tally_.lowest, a);
    tally_.end = std::max(tally_.end, a + bytes);
  }

  Tally tally() const {
    Tally t = tally_;
    for (const auto& [key, r] : requests_) {
      std::size_t most = 1;
      for (const auto& words : r.words) most = std::max(most, words.size());
      t.requests += 1;
      t.wavefronts += static_cast<long long>(most);
      if (static_cast<int>(most) > t.worst) {
        t.worst = static_cast<int>(most);
        t.worst_is_store = r.store;
      }
    }
    return t;
  }

 private:
  struct Request {
    bool store = false;
    std::array<std::set<std::uintptr_t>, kBanks> words;  // per bank, the distinct words asked for
  };
  // (barrier phase, block, warp of the block, the thread's k-th access in this phase)
  std::map<std::tuple<unsigned long long, unsigned, unsigned, unsigned>, Request> requests_;
  unsigned long long resumption_ = std::numeric_limits<unsigned long long>::max();
  unsigned seq_ = 0;
  Tally tally_;
};

inline Recorder& recorder() {
  static Recorder r;
  return r;
}

/// A T in shared memory whose loads and stores the recorder sees. Trivial to construct and the size
/// of a T, so `Watched<float> tile[32][32]` has the layout (and the banks) of `float tile[32][32]`.
template <typename T>
class Watched {
 public:
  Watched() = default;
  Watched(const Watched&) = default;
  Watched& operator=(T v) {
    recorder().record(this, sizeof(T), true);
    value_ = v;
    return *this;
  }
  Watched& operator=(const Watched& other) { return *this = static_cast<T>(other); }  // a load, then a store
  operator T() const {
    recorder().record(this, sizeof(T), false);
    return value_;
  }

 private:
  T value_;
};

}  // namespace emu::banks
