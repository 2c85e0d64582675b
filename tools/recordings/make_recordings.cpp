// impulse-make-recordings SOURCE_DIR: plays the scripted runs (scripted_runs.h)
// and writes each as a recording into SOURCE_DIR/assets/recordings/. The files
// depend only on the scripts and the build's physics: run it again after a
// change to either (the tests compare the committed files with a fresh play).
#include "app/recording.h"
#include "recordings/scripted_runs.h"

#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fputs("usage: impulse-make-recordings SOURCE_DIR (the repository, holding assets/)\n", stderr);
        return 2;
    }
    const std::string sourceDir = argv[1];
    for (const impulse::tools::ScriptedRun& run : impulse::tools::scriptedRuns()) {
        impulse::app::Experiment experiment;
        if (const std::string error = impulse::tools::play(run, sourceDir, experiment); !error.empty()) {
            std::fprintf(stderr, "impulse-make-recordings: %s\n", error.c_str());
            return 1;
        }
        auto recording = impulse::app::captureRecording(experiment);
        if (const auto* refused = std::get_if<std::string>(&recording)) {
            std::fprintf(stderr, "impulse-make-recordings: %s: %s\n", run.file.c_str(), refused->c_str());
            return 1;
        }
        const std::string path = sourceDir + "/assets/recordings/" + run.file;
        if (const std::string error = impulse::app::saveRecordingFile(std::get<impulse::app::Recording>(recording), path);
            !error.empty()) {
            std::fprintf(stderr, "impulse-make-recordings: %s\n", error.c_str());
            return 1;
        }
        std::printf("wrote %s (%llu steps, %zu inputs)\n", path.c_str(),
                    static_cast<unsigned long long>(experiment.runEnd()), experiment.runInputs().size());
    }
    return 0;
}
