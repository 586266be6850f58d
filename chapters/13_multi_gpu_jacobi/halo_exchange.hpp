/// @file halo_exchange.hpp
/// @brief The halo exchange of the MPI CPU part (cpu_part.cpp), one call per sweep on every rank
/// (halo_exchange.cpp; exercise 13 has the student write it).
#pragma once

namespace ch13 {

/// Exchanges this rank's boundary rows with its neighbours' after a sweep: sends `first_row` (its
/// lowest row) to rank `below` and `last_row` (its highest) to rank `above`, and receives rank
/// `below`'s last row into `ghost_below` and rank `above`'s first row into `ghost_above`. Each of
/// the four is `nx` floats; `first_row` and `last_row` are the same row on a rank of one row. At the
/// grid's edges `below` or `above` is MPI_PROC_NULL. Every rank calls it at the same time, on
/// MPI_COMM_WORLD; every MPI call is checked with CH13_MPI_CHECK (mpi_session.hpp).
void exchange_halo(float* first_row, float* last_row, float* ghost_below, float* ghost_above, int nx, int below,
                   int above);

}  // namespace ch13
