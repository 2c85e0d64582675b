// What the GLSL compiler is given: a shader file's text (the files have no #version
// line) after the target's preamble and the program's #defines, so that one file
// serves OpenGL 3.3 core on the desktop and WebGL2 (GLSL ES 3.00) in a browser.
#pragma once

#include <string>

namespace impulse::render {

enum class GlslTarget { desktop330, es300 };

/// The target this build draws with.
#ifdef __EMSCRIPTEN__
inline constexpr GlslTarget kGlslTarget = GlslTarget::es300;
#else
inline constexpr GlslTarget kGlslTarget = GlslTarget::desktop330;
#endif

/// One program: its two files in the shader folder and the #defines that pick its variant.
struct ProgramSource {
    const char* vertex;
    const char* fragment;
    const char* defines;
};

/// The renderer's programs; lit.vert/lit.frag is one source for several of them.
namespace programs {
inline constexpr ProgramSource litSphere{"lit.vert", "lit.frag", "#define SPHERE\n"};
inline constexpr ProgramSource litBox{"lit.vert", "lit.frag", "#define BOX\n"};
inline constexpr ProgramSource litGrid{"lit.vert", "lit.frag", "#define BOX\n#define GRID\n"};
inline constexpr ProgramSource ghostSphere{"lit.vert", "lit.frag", "#define SPHERE\n#define GHOST\n"};
inline constexpr ProgramSource ghostBox{"lit.vert", "lit.frag", "#define BOX\n#define GHOST\n"};
inline constexpr ProgramSource shadow{"shadow.vert", "shadow.frag", ""};
inline constexpr ProgramSource line{"line.vert", "line.frag", ""};
inline constexpr ProgramSource point{"point.vert", "point.frag", ""};
inline constexpr ProgramSource sky{"sky.vert", "sky.frag", ""};
inline constexpr ProgramSource all[] = {litSphere, litBox, litGrid, ghostSphere, ghostBox, shadow, line, point, sky};
}  // namespace programs

/// The text compiled: the target's #version (and, for GLSL ES, the precisions it has no
/// default for), `defines`, then `file`, whose line numbers the compiler's log keeps.
std::string shaderSource(GlslTarget target, const std::string& defines, const std::string& file);

}  // namespace impulse::render
