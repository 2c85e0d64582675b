#include "render/shader_source.h"

namespace impulse::render {

std::string shaderSource(GlslTarget target, const std::string& defines, const std::string& file) {
    // GLSL ES has no default float precision in fragment shaders, none for shadow samplers.
    const char* preamble = target == GlslTarget::es300
                               ? "#version 300 es\nprecision highp float;\nprecision highp int;\n"
                                 "precision highp sampler2DShadow;\n"
                               : "#version 330 core\n";
    return preamble + defines + "#line 1\n" + file;
}

}  // namespace impulse::render
