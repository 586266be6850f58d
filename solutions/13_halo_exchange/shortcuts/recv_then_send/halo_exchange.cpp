// Exercise 13, shortcut "recv_then_send" (must FAIL the check): the send-first deadlock turned
// around. Every rank first waits in MPI_Recv for its neighbours' rows, then sends its own; but every
// neighbour is waiting too, so no row is ever sent, whatever its size.
#include "halo_exchange.hpp"

#include "mpi_session.hpp"

namespace ch13 {

void exchange_halo(float* first_row, float* last_row, float* ghost_below, float* ghost_above, int nx, int below,
                   int above) {
  CH13_MPI_CHECK(MPI_Recv(ghost_above, nx, MPI_FLOAT, above, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CH13_MPI_CHECK(MPI_Recv(ghost_below, nx, MPI_FLOAT, below, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CH13_MPI_CHECK(MPI_Send(first_row, nx, MPI_FLOAT, below, 0, MPI_COMM_WORLD));
  CH13_MPI_CHECK(MPI_Send(last_row, nx, MPI_FLOAT, above, 1, MPI_COMM_WORLD));
}

}  // namespace ch13
