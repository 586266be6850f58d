// The cuBLAS variants join the chapter's run from here: compiled only where CMake found cuBLAS.
#include "cublas_routines.hpp"

namespace {

const bool kRegistered = [] {
  for (gpgpu::blas::RoutineVariant& v : ch12::cublas_variants()) gpgpu::static_registry<gpgpu::blas::RoutineVariant>().add(std::move(v));
  return true;
}();

}  // namespace
