/// @file gl.hpp
/// @brief The one place that includes the OpenGL API: GLEW's header, which must come before any
/// other GL header. Every file of the GL layer includes this instead of <GL/gl.h>.
#pragma once
#include <GL/glew.h>
