/// @file cpu_threads.hpp
/// @brief How many OpenMP threads a run may start, from --threads and from the environment.
///
/// --threads, --cpu-threads and the OMP_NUM_THREADS the OpenMP runtime reads at start-up are held to
/// one bound, max_cpu_threads(), and refused above it (one line, exit code 2) rather than left to
/// the runtime: 100000 threads exhaust the address space (the process dies with SIGSEGV and no
/// message), and thousands on a few cores make every barrier wait for thousands of time slices.
#pragma once

namespace CLI {
class Validator;  // <CLI/CLI.hpp>, which a file that adds an option includes
}  // namespace CLI

namespace gpgpu {

/// The most threads a parallel region of a run may have: max(64, 8 x the hardware threads).
[[nodiscard]] int max_cpu_threads();

/// Threads an OpenMP parallel region uses by default (1 without OpenMP): OMP_NUM_THREADS, or one
/// per hardware thread.
[[nodiscard]] int default_cpu_threads();

/// Validator for a thread-count option: an integer from `min` (0 may stand for "all") to
/// max_cpu_threads().
CLI::Validator cpu_thread_count(int min = 1);

/// Refuses (UsageError) an OMP_NUM_THREADS that is not a comma-separated list of integers from 1 to
/// max_cpu_threads(); an unset or empty one is fine. Cli::parse() calls it, before any parallel
/// region can start.
void check_thread_environment();

/// Every parallel region without a num_threads clause (the CPU references, the input generators)
/// runs on `threads` threads from now on, so that --threads bounds all of a run's threads.
void use_cpu_threads(int threads);

}  // namespace gpgpu
