// Exercise 13: the halo exchange of chapter 13's MPI CPU part (README.md).
#include "halo_exchange.hpp"

#include "mpi_session.hpp"  // MPI, CH13_MPI_CHECK

namespace ch13 {

void exchange_halo(float* first_row, float* last_row, float* ghost_below, float* ghost_above, int nx, int below,
                   int above) {
  // TODO(exercise): fill ghost_below and ghost_above from the neighbours, deadlock-free at any nx.
  (void)first_row;
  (void)last_row;
  (void)ghost_below;
  (void)ghost_above;
  (void)nx;
  (void)below;
  (void)above;
}

}  // namespace ch13
