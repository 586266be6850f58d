// Exercise 13, shortcut "swapped_ghosts" (must FAIL the check): both directions travel, but each
// neighbour's row lands in the ghost row on the wrong side (the upper neighbour's first row below,
// the lower neighbour's last row above).
#include "halo_exchange.hpp"

#include "mpi_session.hpp"

namespace ch13 {

void exchange_halo(float* first_row, float* last_row, float* ghost_below, float* ghost_above, int nx, int below,
                   int above) {
  CH13_MPI_CHECK(MPI_Sendrecv(first_row, nx, MPI_FLOAT, below, 0, ghost_below, nx, MPI_FLOAT, above, 0,
                              MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CH13_MPI_CHECK(MPI_Sendrecv(last_row, nx, MPI_FLOAT, above, 1, ghost_above, nx, MPI_FLOAT, below, 1,
                              MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

}  // namespace ch13
