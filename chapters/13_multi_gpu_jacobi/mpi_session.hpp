/// @file mpi_session.hpp
/// @brief MPI as chapter 13 uses it: one session per process (a run without mpirun is a world of one
/// process), every call checked, and the handful of messages the ranks exchange.
///
/// Rank 0 runs the chapter (options, reference, tables); the other ranks serve it (worker.hpp):
/// they receive their rows, build their part of a distributed solver, and iterate when told.
#pragma once
#include <mpi.h>

#include <array>
#include <span>
#include <string>

namespace ch13 {

/// Throws gpgpu::ApiError naming the call, file, line and MPI's own text unless `status` is MPI_SUCCESS.
void mpi_check(int status, const char* call, const char* file, int line);

}  // namespace ch13

/// Checks one MPI call (the communicator's handler is set to return errors, not to abort).
#define CH13_MPI_CHECK(call) ::ch13::mpi_check((call), #call, __FILE__, __LINE__)

namespace ch13 {

/// MPI_Init on construction, MPI_Finalize on destruction (RAII). MPI_COMM_WORLD returns errors to
/// the caller instead of aborting, so every failure reaches CH13_MPI_CHECK and its one-line message.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int size() const { return size_; }
  /// This rank's index among the ranks on its host (which GPU it takes).
  [[nodiscard]] int local_rank() const { return local_rank_; }
  /// How many ranks run on this host.
  [[nodiscard]] int local_size() const { return local_size_; }
  /// "Open MPI v4.1.4, ..." (MPI_Get_library_version, first line).
  [[nodiscard]] std::string library() const;
  /// Ends every rank at once after a failure on one of them (the others may wait in a collective).
  [[noreturn]] void abort(int code) const;

 private:
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;
  int local_size_ = 1;
};

/// Point-to-point transfers of float arrays of any length (MPI counts are int: sent in pieces).
void send_floats(std::span<const float> data, int to, int tag);
void recv_floats(std::span<float> data, int from, int tag);

/// The update norm over the whole grid from every rank's sum of squares, reduced without blocking
/// (MPI_Iallreduce): start() begins the sum of this rank's `squared_sum` with every other rank's,
/// wait() waits for the oldest begun (MPI_Wait) and returns the square root of the total, the same
/// on every rank, so that all take the same decision to stop. At most two in flight: a check every
/// iteration begins the next before it reads the last. A solver that does not overlap its check
/// waits right after it starts: both modes sum by the same call, and their norms agree bit for bit.
/// No destructor waits: only a failure leaves a reduction in flight, and a failure aborts every
/// rank (distributed_solver.cpp) while the part that holds this still exists.
class NormOverRanks {
 public:
  NormOverRanks() = default;
  NormOverRanks(const NormOverRanks&) = delete;
  NormOverRanks& operator=(const NormOverRanks&) = delete;
  void start(double squared_sum);
  [[nodiscard]] double wait();

 private:
  std::array<double, 2> sums_{};  // MPI writes each while its reduction is in flight
  std::array<MPI_Request, 2> requests_{MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int started_ = 0, waited_ = 0;
};

}  // namespace ch13
