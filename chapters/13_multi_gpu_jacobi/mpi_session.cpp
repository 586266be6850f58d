#include "mpi_session.hpp"

#include <cmath>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstdio>
#include <stdexcept>

#include "gpgpu/errors.hpp"

namespace ch13 {

void mpi_check(int status, const char* call, const char* file, int line) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(status, text, &length) != MPI_SUCCESS) length = std::snprintf(text, sizeof text, "MPI error %d", status);
  throw gpgpu::ApiError(gpgpu::describe_failed_call(call, file, line, std::string(text, static_cast<std::size_t>(length))));
}

MpiSession::MpiSession(int& argc, char**& argv) {
  // Only the main thread calls MPI: rank 0's chapter and each worker's loop are single-threaded.
  CH13_MPI_CHECK(MPI_Init(&argc, &argv));
  CH13_MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CH13_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank_));
  CH13_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size_));
  MPI_Comm host = MPI_COMM_NULL;
  CH13_MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host));
  CH13_MPI_CHECK(MPI_Comm_rank(host, &local_rank_));
  CH13_MPI_CHECK(MPI_Comm_size(host, &local_size_));
  CH13_MPI_CHECK(MPI_Comm_free(&host));
}

MpiSession::~MpiSession() { (void)MPI_Finalize(); }

std::string MpiSession::library() const {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  CH13_MPI_CHECK(MPI_Get_library_version(text, &length));
  std::string s(text, static_cast<std::size_t>(length));
  s = s.substr(0, s.find_first_of("\r\n"));
  return s.substr(0, s.find(", package"));
}

void MpiSession::abort(int code) const {
  (void)MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);  // MPI_Abort does not return; this keeps [[noreturn]] honest if it ever does
}

namespace {
constexpr std::size_t kPiece = INT_MAX / 2;  // elements per MPI call
}

void send_floats(std::span<const float> data, int to, int tag) {
  for (std::size_t at = 0; at < data.size(); at += kPiece) {
    const int n = static_cast<int>(std::min(kPiece, data.size() - at));
    CH13_MPI_CHECK(MPI_Send(data.data() + at, n, MPI_FLOAT, to, tag, MPI_COMM_WORLD));
  }
}

void recv_floats(std::span<float> data, int from, int tag) {
  for (std::size_t at = 0; at < data.size(); at += kPiece) {
    const int n = static_cast<int>(std::min(kPiece, data.size() - at));
    CH13_MPI_CHECK(MPI_Recv(data.data() + at, n, MPI_FLOAT, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  }
}

//! [allreduce]
void NormOverRanks::start(double squared_sum) {
  if (started_ - waited_ == 2) throw std::logic_error("NormOverRanks: a third norm started before the first was read");
  const auto slot = static_cast<std::size_t>(started_ % 2);
  sums_[slot] = squared_sum;
  CH13_MPI_CHECK(MPI_Iallreduce(MPI_IN_PLACE, &sums_[slot], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &requests_[slot]));
  ++started_;
}

double NormOverRanks::wait() {
  if (waited_ == started_) throw std::logic_error("NormOverRanks: a norm read that was never started");
  const auto slot = static_cast<std::size_t>(waited_ % 2);
  CH13_MPI_CHECK(MPI_Wait(&requests_[slot], MPI_STATUS_IGNORE));
  ++waited_;
  return std::sqrt(sums_[slot]);
}
//! [allreduce]

}  // namespace ch13
