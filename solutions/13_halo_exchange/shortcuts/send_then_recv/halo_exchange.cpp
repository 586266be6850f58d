// Exercise 13, shortcut "send_then_recv" (must FAIL the check): every rank first sends both of its
// boundary rows with a blocking MPI_Send, then receives its ghost rows. Rows small enough for MPI's
// eager protocol are buffered, the sends return, and the result is right; a larger row's send waits
// for its receive, which the neighbour posts only after its own send returns: a deadlock.
#include "halo_exchange.hpp"

#include "mpi_session.hpp"

namespace ch13 {

void exchange_halo(float* first_row, float* last_row, float* ghost_below, float* ghost_above, int nx, int below,
                   int above) {
  CH13_MPI_CHECK(MPI_Send(first_row, nx, MPI_FLOAT, below, 0, MPI_COMM_WORLD));
  CH13_MPI_CHECK(MPI_Send(last_row, nx, MPI_FLOAT, above, 1, MPI_COMM_WORLD));
  CH13_MPI_CHECK(MPI_Recv(ghost_above, nx, MPI_FLOAT, above, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CH13_MPI_CHECK(MPI_Recv(ghost_below, nx, MPI_FLOAT, below, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

}  // namespace ch13
