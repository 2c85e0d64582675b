#include "render/shader.h"

#include <fstream>
#include <sstream>
#include <vector>

namespace impulse::render {

bool readTextFile(const std::string& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return true;
}

namespace {

GLuint compile(GLenum type, const std::string& path, const std::string& defines, std::string& error) {
    std::string file;
    if (!readTextFile(path, file)) {
        error = "cannot read shader file " + path;
        return 0;
    }
    const std::string source = shaderSource(kGlslTarget, defines, file);
    const GLuint shader = glCreateShader(type);
    const char* text = source.c_str();
    glShaderSource(shader, 1, &text, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        GLint length = 0;
        glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
        std::vector<char> log(static_cast<size_t>(length > 1 ? length : 1), '\0');
        glGetShaderInfoLog(shader, length, nullptr, log.data());
        error = path + ": compile error:\n" + log.data();
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

}  // namespace

ShaderProgram::~ShaderProgram() {
    if (id_) glDeleteProgram(id_);
}

bool ShaderProgram::load(const std::string& dir, const ProgramSource& source, std::string& error) {
    const GLuint vs = compile(GL_VERTEX_SHADER, dir + "/" + source.vertex, source.defines, error);
    if (!vs) return false;
    const GLuint fs = compile(GL_FRAGMENT_SHADER, dir + "/" + source.fragment, source.defines, error);
    if (!fs) {
        glDeleteShader(vs);
        return false;
    }
    const GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        GLint length = 0;
        glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
        std::vector<char> log(static_cast<size_t>(length > 1 ? length : 1), '\0');
        glGetProgramInfoLog(program, length, nullptr, log.data());
        error = std::string(source.vertex) + " + " + source.fragment + ": link error:\n" + log.data();
        glDeleteProgram(program);
        return false;
    }
    if (id_) glDeleteProgram(id_);
    id_ = program;
    return true;
}

}  // namespace impulse::render
