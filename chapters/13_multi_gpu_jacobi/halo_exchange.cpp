// The halo exchange of the MPI CPU part: two MPI_Sendrecv calls, each pairing a send with the
// receive from the other side, so that no rank waits for a neighbour that waits for it.
#include "halo_exchange.hpp"

#include "mpi_session.hpp"

namespace ch13 {

void exchange_halo(float* first_row, float* last_row, float* ghost_below, float* ghost_above, int nx, int below,
                   int above) {
  // First row down, the upper neighbour's first row into the ghost row above; then the reverse.
  // MPI_PROC_NULL at the grid's edges makes either half a no-op there.
  CH13_MPI_CHECK(MPI_Sendrecv(first_row, nx, MPI_FLOAT, below, 0, ghost_above, nx, MPI_FLOAT, above, 0, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE));
  CH13_MPI_CHECK(MPI_Sendrecv(last_row, nx, MPI_FLOAT, above, 1, ghost_below, nx, MPI_FLOAT, below, 1, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE));
}

}  // namespace ch13
