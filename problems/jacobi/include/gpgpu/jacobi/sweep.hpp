/// @file sweep.hpp
/// @brief The width sweep of paper 000 (Fig. 19, Tables 1-2): the height fixed, the width varied
/// around 512, every variant verified at every width, then timed; the paper's seconds beside ours.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "gpgpu/jacobi/chapter.hpp"

namespace gpgpu::jacobi {

/// The widths of a sweep mode: "paper" (508 511 512 513 516) or "wide" (480..544, 1024..1056 by 4).
std::vector<int> sweep_widths(const std::string& mode);

/// Runs the sweep at height options().grid.ny over `variants`; writes --csv and --json; returns the
/// exit code (1 when any point failed its verification).
int run_width_sweep(Chapter& chapter, std::ostream& out, const std::string& mode,
                    const std::vector<const VariantSpec*>& variants);

}  // namespace gpgpu::jacobi
