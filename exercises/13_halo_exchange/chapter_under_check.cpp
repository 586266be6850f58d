// The part of exercise 13's check compiled anew for each build (chapter_under_check.hpp says why).
#include "chapter_under_check.hpp"

namespace ex13 {

// Set by CMakeLists.txt for each build.
const char* chapter() { return EX13_CHAPTER; }
const char* mpiexec() { return EX13_MPIEXEC; }
const char* numproc_flag() { return EX13_NUMPROC_FLAG; }

}  // namespace ex13
