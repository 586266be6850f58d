/// @file counted_float.hpp
/// @brief A float that counts, per emulated CUDA thread, what the kernel does with it: multiplies,
/// loads from A and B, stores to C, and loads from and stores to shared memory. Exercise 10's CPU
/// check runs the student's kernel with T = CountedFloat on the emulation of the CUDA thread model
/// (matrix_emulation.hpp), so it can check the structure of the kernel as well as its product.
///
/// Which objects are shared memory: in the emulation `__shared__` arrays are static, so they are
/// constructed in the first launch and live on, while a thread's registers die with it. The check
/// therefore launches twice: in the first launch (Mode::discover) every object constructed and not
/// destroyed by its end is shared memory; in the second (Mode::count) an access to one of those
/// counts as a shared-memory access. A, B and C are told apart by their address ranges.
#pragma once
#include <cstddef>
#include <functional>
#include <unordered_set>
#include <vector>

#include "matrix/cuda/tests/matrix_emulation.hpp"

namespace ex10::counting {

/// What one emulated thread did in the counting launch.
struct ThreadCounts {
  long multiplies = 0;
  long global_loads = 0;  // elements of A or B read
  long stores_to_c = 0;
  long shared_loads = 0;
  long shared_stores = 0;
};

enum class Mode { off, discover, count };

/// The state of a counted launch (one at a time; the emulation runs on one OS thread).
struct Ledger {
  Mode mode = Mode::off;
  std::unordered_set<const void*> shared;  // discover: objects alive; count: the shared-memory objects
  const void *a_begin = nullptr, *a_end = nullptr, *b_begin = nullptr, *b_end = nullptr, *c_begin = nullptr,
             *c_end = nullptr;
  std::vector<ThreadCounts> threads;  // by (block linear index) * threads per block + thread

  ThreadCounts& current() {
    const unsigned block = emu::block_idx.x + emu::block_idx.y * emu::grid_dim.x;
    return threads[block * emu::block_dim.x + emu::thread_idx.x];
  }
  static bool in(const void* p, const void* begin, const void* end) {
    return std::less_equal<>()(begin, p) && std::less<>()(p, end);
  }
  void load(const void* p) {
    if (mode != Mode::count) return;
    if (in(p, a_begin, a_end) || in(p, b_begin, b_end)) ++current().global_loads;
    else if (shared.count(p) != 0) ++current().shared_loads;
  }
  void store(const void* p) {
    if (mode != Mode::count) return;
    if (in(p, c_begin, c_end)) ++current().stores_to_c;
    else if (shared.count(p) != 0) ++current().shared_stores;
  }
  void multiply() {
    if (mode == Mode::count) ++current().multiplies;
  }
  void born(const void* p) {
    if (mode == Mode::discover) shared.insert(p);
  }
  void died(const void* p) {
    if (mode == Mode::discover) shared.erase(p);
  }
};

inline Ledger& ledger() {
  static Ledger* l = new Ledger;  // never destroyed: static shared arrays die after it at exit
  return *l;
}

/// A float whose copies, stores and products are recorded in the ledger. No conversion to float, so
/// every value of the kernel's matrices stays counted.
class CountedFloat {
 public:
  CountedFloat() { ledger().born(this); }
  CountedFloat(float v) : v_(v) { ledger().born(this); }  // NOLINT: T(0), and zeros in a ternary
  CountedFloat(const CountedFloat& o) : v_(o.v_) {
    ledger().load(&o);
    ledger().born(this);
  }
  ~CountedFloat() { ledger().died(this); }
  CountedFloat& operator=(const CountedFloat& o) {
    ledger().load(&o);
    ledger().store(this);
    v_ = o.v_;
    return *this;
  }
  CountedFloat& operator+=(const CountedFloat& o) {
    ledger().load(&o);
    ledger().store(this);
    v_ += o.v_;
    return *this;
  }
  friend CountedFloat operator*(const CountedFloat& x, const CountedFloat& y) {
    ledger().load(&x);
    ledger().load(&y);
    ledger().multiply();
    return CountedFloat(x.v_ * y.v_);
  }
  friend CountedFloat operator+(const CountedFloat& x, const CountedFloat& y) {
    ledger().load(&x);
    ledger().load(&y);
    return CountedFloat(x.v_ + y.v_);
  }
  float value() const { return v_; }

 private:
  float v_ = 0;
};

}  // namespace ex10::counting
