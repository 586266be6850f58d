// Exercise 13, a worked answer: two MPI_Sendrecv, one per direction. Each pairs this rank's send
// with its receive from the other side, so every rank can post both at once and no message waits
// for a receive that is posted only after it (a chain of blocking MPI_Send would, once a row is
// too large for the eager protocol). MPI_PROC_NULL makes the edge ranks' missing half a no-op.
#include "halo_exchange.hpp"

#include "mpi_session.hpp"

namespace ch13 {

void exchange_halo(float* first_row, float* last_row, float* ghost_below, float* ghost_above, int nx, int below,
                   int above) {
  // Downwards: my first row to the rank below, the first row of the rank above into my upper ghost row.
  CH13_MPI_CHECK(MPI_Sendrecv(first_row, nx, MPI_FLOAT, below, 0, ghost_above, nx, MPI_FLOAT, above, 0,
                              MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  // Upwards: my last row to the rank above, the last row of the rank below into my lower ghost row.
  CH13_MPI_CHECK(MPI_Sendrecv(last_row, nx, MPI_FLOAT, above, 1, ghost_below, nx, MPI_FLOAT, below, 1,
                              MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

}  // namespace ch13
