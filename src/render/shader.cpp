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
    std::string source;
    if (!readTextFile(path, source)) {
        error = "cannot read shader file " + path;
        return 0;
    }
    if (!defines.empty()) {
        // #version must stay the first line; the #line keeps the driver's line numbers right.
        const size_t eol = source.find('\n');
        const size_t at = eol == std::string::npos ? source.size() : eol + 1;
        source.insert(at, defines + "#line 2\n");
    }
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

bool ShaderProgram::load(const std::string& dir, const std::string& vertexFile, const std::string& fragmentFile,
                         std::string& error, const std::string& defines) {
    const GLuint vs = compile(GL_VERTEX_SHADER, dir + "/" + vertexFile, defines, error);
    if (!vs) return false;
    const GLuint fs = compile(GL_FRAGMENT_SHADER, dir + "/" + fragmentFile, defines, error);
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
        error = vertexFile + " + " + fragmentFile + ": link error:\n" + log.data();
        glDeleteProgram(program);
        return false;
    }
    if (id_) glDeleteProgram(id_);
    id_ = program;
    return true;
}

}  // namespace impulse::render
