// Exercise 13, shortcut "periodic" (must FAIL the check): the neighbours are taken around a ring,
// (rank - 1) and (rank + 1) modulo the ranks, as on a periodic grid, instead of `below` and `above`.
// The interior exchange is right; at the grid's edges the bottom and top ranks swap rows into the
// ghost rows outside the grid, where nothing may arrive. Those rows meet only zero couplings, so the
// result stays bit for bit right: the chapter's sentinel in those rows is what catches it.
#include "halo_exchange.hpp"

#include "mpi_session.hpp"

namespace ch13 {

void exchange_halo(float* first_row, float* last_row, float* ghost_below, float* ghost_above, int nx, int below,
                   int above) {
  (void)below;
  (void)above;
  int rank = 0, size = 1;
  CH13_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CH13_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const int down = (rank - 1 + size) % size, up = (rank + 1) % size;
  CH13_MPI_CHECK(MPI_Sendrecv(first_row, nx, MPI_FLOAT, down, 0, ghost_above, nx, MPI_FLOAT, up, 0, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE));
  CH13_MPI_CHECK(MPI_Sendrecv(last_row, nx, MPI_FLOAT, up, 1, ghost_below, nx, MPI_FLOAT, down, 1, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE));
}

}  // namespace ch13
