/// @file chapter_under_check.hpp
/// @brief How exercise 13's check (check_halo_exchange.cpp, compiled once) finds the chapter
/// executable of the build it is linked into: chapter_under_check.cpp, compiled for each build (the
/// skeleton, the worked answer, each shortcut), holds its path (CMakeLists.txt).
#pragma once

namespace ex13 {

const char* chapter();       ///< chapter 13's executable built with this build's halo_exchange.cpp
const char* mpiexec();       ///< MPI's launcher (mpirun)
const char* numproc_flag();  ///< the launcher's flag that sets the number of ranks

}  // namespace ex13
