#include "chunks.hpp"

#include <algorithm>

namespace ch12 {

using gpgpu::blas::Case;
using gpgpu::blas::Routine;

namespace {

// [0, total) in `chunks` ranges, each a multiple of `quantum` long but the last.
std::vector<std::int64_t> cuts(std::int64_t total, int chunks, std::int64_t quantum) {
  const std::int64_t per = std::max<std::int64_t>((total + chunks - 1) / chunks + quantum - 1, quantum) / quantum * quantum;
  std::vector<std::int64_t> at{0};
  while (at.back() < total) at.push_back(std::min(total, at.back() + per));
  return at;
}

}  // namespace

std::vector<Chunk> plan_chunks(const Case& c, int chunks) {
  std::vector<Chunk> plan;
  chunks = std::max(chunks, 1);
  switch (c.routine) {
    case Routine::saxpy:
    case Routine::sscal: {
      const std::vector<std::int64_t> at = cuts(c.n, chunks, 4);
      for (std::size_t i = 0; i + 1 < at.size(); ++i) {
        Chunk ch;
        const std::int64_t first = at[i], count = at[i + 1] - at[i];
        ch.uploads.push_back({Array::x, first, count});
        if (c.routine == Routine::saxpy) ch.uploads.push_back({Array::y, first, count});
        ch.x_first = first;
        ch.n = count;
        ch.out_first = first;
        ch.result_first = first;
        ch.result_count = count;
        plan.push_back(ch);
      }
      break;
    }
    case Routine::sgemv: {
      const std::vector<std::int64_t> at = cuts(c.m, chunks, 1);
      for (std::size_t i = 0; i + 1 < at.size(); ++i) {
        Chunk ch;
        const std::int64_t r0 = at[i], rows = at[i + 1] - at[i];
        if (i == 0) ch.uploads.push_back({Array::x, 0, c.n});  // x: shared by every band
        else ch.waits.push_back(0);
        ch.uploads.push_back({Array::a, r0 * c.n, rows * c.n});
        ch.a_first = r0 * c.n;
        ch.m = rows;
        ch.n = c.n;
        ch.out_first = r0;
        ch.result_first = r0;
        ch.result_count = rows;
        plan.push_back(ch);
      }
      break;
    }
    case Routine::conv2d: {
      const std::int64_t r = c.k / 2;
      const std::vector<std::int64_t> at = cuts(c.m, chunks, 1);
      std::vector<std::int64_t> uploaded_to;  // each chunk's upload ends at this row
      for (std::size_t i = 0; i + 1 < at.size(); ++i) {
        Chunk ch;
        const std::int64_t r0 = at[i], r1 = at[i + 1];
        // Rows up to r1 + r (the halo below), from where the chunks before stopped: every row once.
        const std::int64_t from = i == 0 ? 0 : uploaded_to.back(), to = std::min(c.m, r1 + r);
        if (i == 0) ch.uploads.push_back({Array::b, 0, c.k * c.k});  // the filter: shared
        if (to > from) ch.uploads.push_back({Array::a, from * c.n, (to - from) * c.n});
        uploaded_to.push_back(std::max(from, to));
        // The call reads rows lo..hi (the halo above came with earlier chunks) and computes them
        // all as an image of their own: the rows it owns have their whole neighbourhood inside or
        // lie at the true border, where the kernel's zero padding is right.
        const std::int64_t lo = std::max<std::int64_t>(0, r0 - r), hi = std::min(c.m, r1 + r);
        for (std::size_t j = 0; j < i; ++j) {
          const std::int64_t j_from = j == 0 ? 0 : uploaded_to[j - 1];
          if (j == 0 || (j_from < hi && uploaded_to[j] > lo)) ch.waits.push_back(static_cast<int>(j));
        }
        ch.a_first = lo * c.n;
        ch.m = hi - lo;
        ch.n = c.n;
        ch.band_skip = r0 - lo;
        ch.result_first = r0 * c.n;
        ch.result_count = (r1 - r0) * c.n;
        plan.push_back(ch);
      }
      break;
    }
    case Routine::sgemv_t:
    case Routine::sgemm: break;
  }
  return plan;
}

std::int64_t largest_band(const std::vector<Chunk>& plan) {
  std::int64_t most = 0;
  for (const Chunk& ch : plan) most = std::max(most, ch.m * ch.n);
  return most;
}

}  // namespace ch12
