// GLSL program loading from files, with the file name and the driver log in
// every error.
#pragma once

#include "render/shader_source.h"

#include <glad/glad.h>

#include <glm/glm.hpp>

#include <string>

namespace impulse::render {

class ShaderProgram {
public:
    ShaderProgram() = default;
    ~ShaderProgram();
    ShaderProgram(const ShaderProgram&) = delete;
    ShaderProgram& operator=(const ShaderProgram&) = delete;

    /// Compiles and links the program's two files in `dir` for this build's GLSL target;
    /// false with `error` filled on failure.
    bool load(const std::string& dir, const ProgramSource& program, std::string& error);
    void use() const { glUseProgram(id_); }
    GLuint id() const { return id_; }

    void set(const char* name, int v) const { glUniform1i(glGetUniformLocation(id_, name), v); }
    void set(const char* name, float v) const { glUniform1f(glGetUniformLocation(id_, name), v); }
    void set(const char* name, const glm::vec2& v) const { glUniform2f(glGetUniformLocation(id_, name), v.x, v.y); }
    void set(const char* name, const glm::vec3& v) const {
        glUniform3f(glGetUniformLocation(id_, name), v.x, v.y, v.z);
    }
    void set(const char* name, const glm::vec4& v) const {
        glUniform4f(glGetUniformLocation(id_, name), v.x, v.y, v.z, v.w);
    }
    void set(const char* name, const glm::mat4& m) const {
        glUniformMatrix4fv(glGetUniformLocation(id_, name), 1, GL_FALSE, &m[0][0]);
    }

private:
    GLuint id_ = 0;
};

/// Reads a whole text file; false when it cannot be opened.
bool readTextFile(const std::string& path, std::string& out);

}  // namespace impulse::render
