// NPP's convolution joins the chapter's run from here: compiled only where CMake found CUDA::nppif.
#include "npp_routines.hpp"

namespace {

const bool kRegistered = [] {
  for (gpgpu::blas::RoutineVariant& v : ch12::npp_variants()) gpgpu::static_registry<gpgpu::blas::RoutineVariant>().add(std::move(v));
  return true;
}();

}  // namespace
