// Every program the renderer builds compiles as GLSL 3.30 core (the desktop) and as
// GLSL ES 3.00 (WebGL2), checked by the Khronos reference compiler (glslangValidator,
// Debian's glslang-tools) on the text the renderer gives the driver; a compile error is
// reported at the line of the shader file it is on.
#include "render/shader.h"
#include "render/shader_source.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace fs = std::filesystem;
using impulse::render::GlslTarget;

namespace {

const std::string kShaders = std::string(IMPULSE_SOURCE_DIR) + "/shaders";

bool haveValidator() { return std::system("command -v glslangValidator > /dev/null 2>&1") == 0; }

struct Compiled {
    int status;
    std::string log;
};

// glslangValidator on `source` as a STAGE ("vert" or "frag") shader.
Compiled validate(const std::string& source, const std::string& stage) {
    const fs::path dir = fs::temp_directory_path() / ("impulse_glsl_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path file = dir / ("shader." + stage), log = dir / "log.txt";
    std::ofstream(file) << source;
    const int status = std::system(("glslangValidator -S " + stage + " '" + file.string() + "' > '" + log.string() +
                                    "' 2>&1").c_str());
    std::ifstream in(log);
    std::ostringstream text;
    text << in.rdbuf();
    fs::remove_all(dir);
    return {status, text.str()};
}

std::string fileText(const std::string& name) {
    std::string text;
    EXPECT_TRUE(impulse::render::readTextFile(kShaders + "/" + name, text)) << name;
    return text;
}

const char* targetName(GlslTarget target) { return target == GlslTarget::es300 ? "GLSL ES 3.00" : "GLSL 3.30 core"; }

}  // namespace

TEST(ShaderSources, EveryProgramCompilesForTheDesktopAndForWebGl2) {
    if (!haveValidator()) GTEST_SKIP() << "needs glslangValidator (Debian: glslang-tools)";
    int checked = 0;
    for (const impulse::render::ProgramSource& program : impulse::render::programs::all) {
        for (const GlslTarget target : {GlslTarget::desktop330, GlslTarget::es300}) {
            for (const auto& [file, stage] : {std::pair{program.vertex, "vert"}, std::pair{program.fragment, "frag"}}) {
                const Compiled compiled =
                    validate(impulse::render::shaderSource(target, program.defines, fileText(file)), stage);
                EXPECT_EQ(compiled.status, 0) << file << " with \"" << program.defines << "\" as " << targetName(target)
                                              << ":\n" << compiled.log;
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 36);  // 9 programs, two stages, two targets
}

TEST(ShaderSources, ACompileErrorIsReportedAtItsLineInTheFile) {
    if (!haveValidator()) GTEST_SKIP() << "needs glslangValidator (Debian: glslang-tools)";
    // Line 3 of the "file" uses an undeclared name, after a program's two #defines.
    const std::string file = "out vec4 colour;\nvoid main() {\n    colour = vec4(undeclaredName);\n}\n";
    for (const GlslTarget target : {GlslTarget::desktop330, GlslTarget::es300}) {
        const Compiled compiled =
            validate(impulse::render::shaderSource(target, impulse::render::programs::ghostBox.defines, file), "frag");
        EXPECT_NE(compiled.status, 0) << targetName(target);
        EXPECT_NE(compiled.log.find("0:3: 'undeclaredName'"), std::string::npos) << targetName(target) << ":\n"
                                                                                  << compiled.log;
    }
}
