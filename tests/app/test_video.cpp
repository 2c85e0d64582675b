// Video recording: the frame clock paces the clip by simulated time whatever the
// wall clock does, and the recorder writes one PNG a frame into a folder of its
// own, then encodes with ffmpeg (here a stand-in script) without the caller waiting,
// or says that ffmpeg is missing.
#include "app/paths.h"
#include "app/sim_clock.h"
#include "app/video.h"

#include <gtest/gtest.h>

#include <stb_image.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <optional>
#include <thread>

#include <unistd.h>

namespace impulse {
namespace {

namespace fs = std::filesystem;

TEST(VideoFrameClock, EachFrameIsAFixedAmountOfSimulatedTime) {
    // 60 video frames are one simulated second at any timestep: 60 steps of 1/60 s,
    // 1000 of 1 ms (16 or 17 a frame, never drifting), 30 of 1/30 s (one every other
    // frame); also with the timesteps as the world holds them, floats (1/60 s rounded up).
    for (const double dt : {1.0 / 60.0, 0.001, 1.0 / 30.0, 1.0 / 240.0, 1.0 / 90.0, double(1.0f / 60.0f),
                            double(1.0f / 30.0f), double(1.0f / 120.0f)}) {
        app::VideoFrameClock clock(60);
        long steps = 0;
        for (int frame = 0; frame < 600; ++frame) {
            const int due = clock.advance(dt, 1.0);
            EXPECT_LE(std::abs(double(due) - (1.0 / 60.0) / dt), 1.0) << "dt " << dt << " frame " << frame;
            steps += due;
        }
        EXPECT_EQ(steps, std::lround(10.0 / dt)) << "dt " << dt;
        EXPECT_LT(clock.alpha(), 1.0);
    }
    // Slow motion: half a video frame's time a frame.
    app::VideoFrameClock slow(60);
    long steps = 0;
    for (int frame = 0; frame < 120; ++frame) steps += slow.advance(1.0 / 60.0, 0.5);
    EXPECT_EQ(steps, 60);
}

TEST(VideoFrameClock, TakesNoWallTimeAndDropsNothing) {
    // Where the wall clock's FixedStepClock drops what a slow frame cannot catch up
    // (its cap of steps a frame, and stalls over 0.25 s), the video clock is not given
    // the wall time at all: a frame that took 2 s of wall time is still 1/60 s simulated.
    app::FixedStepClock wall;
    EXPECT_EQ(wall.advance(2.0, 0.001, 1.0, 4, false, false).steps, 4);
    app::VideoFrameClock video(60);
    int steps = 0;
    for (int frame = 0; frame < 3; ++frame) steps += video.advance(0.001, 1.0);
    EXPECT_EQ(steps, 50);
    EXPECT_NEAR(video.alpha(), 0.0, 1e-6);
}

class VideoRecorderTest : public testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("impulse-video-test-" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_ / "bin");
        const char* path = std::getenv("PATH");
        oldPath_ = path ? path : "";
    }
    void TearDown() override {
        setenv("PATH", oldPath_.c_str(), 1);
        fs::remove_all(dir_);
    }
    // A PATH that holds only the test's bin folder (no ffmpeg unless the test puts one there).
    void pathWithoutFfmpeg() { setenv("PATH", (dir_ / "bin").c_str(), 1); }

    static std::vector<unsigned char> frame(int width, int height, unsigned char shade) {
        return std::vector<unsigned char>(size_t(width) * size_t(height) * 3, shade);
    }
    template <class Done>
    static bool waitFor(Done done) {
        for (int i = 0; i < 500 && !done(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        return done();
    }

    fs::path dir_;
    std::string oldPath_;
};

TEST_F(VideoRecorderTest, WritesAPngAFrameAndSaysWhenFfmpegIsMissing) {
    pathWithoutFfmpeg();
    app::VideoRecorder recorder;
    ASSERT_EQ(recorder.start(dir_.string(), 33, 20), "");
    EXPECT_TRUE(recorder.status().recording);
    for (int i = 0; i < 5; ++i) EXPECT_TRUE(recorder.addFrame(frame(33, 20, static_cast<unsigned char>(40 * i)), 33, 20));
    EXPECT_FALSE(recorder.addFrame(frame(32, 20, 0), 32, 20));  // not the recording's size
    recorder.stop();
    const std::string folder = (dir_ / "impulse-lab-video-1").string();
    ASSERT_TRUE(waitFor([&] { return recorder.status().message.find("ffmpeg not found") != std::string::npos; }))
        << recorder.status().message;
    EXPECT_EQ(recorder.status().message, "ffmpeg not found: the frames are in " + folder + " (5 frames)");
    for (int i = 1; i <= 5; ++i) {
        const std::string png = folder + "/frame-00000" + std::to_string(i) + ".png";
        int w = 0, h = 0, channels = 0;
        unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &channels, 3);
        ASSERT_NE(pixels, nullptr) << png;
        EXPECT_EQ(w, 33);
        EXPECT_EQ(h, 20);
        EXPECT_EQ(pixels[0], 40 * (i - 1)) << "frames written in order";
        stbi_image_free(pixels);
    }
    EXPECT_FALSE(fs::exists(folder + "/frame-000006.png"));

    // The next recording never overwrites: a new folder, also past a lone MP4's name.
    std::ofstream(dir_ / "impulse-lab-video-2.mp4") << "earlier";
    ASSERT_EQ(recorder.start(dir_.string(), 8, 8), "");
    EXPECT_EQ(recorder.status().folder, (dir_ / "impulse-lab-video-3").string());
    recorder.stop();
}

TEST_F(VideoRecorderTest, EncodesWithFfmpegAfterStopWithoutTheCallerWaiting) {
    // A stand-in ffmpeg that waits for the test's go-ahead, then writes its arguments
    // into the output file (the last argument).
    const fs::path fake = dir_ / "bin" / "ffmpeg";
    const fs::path go = dir_ / "go";
    std::ofstream(fake) << "#!/bin/sh\nwhile [ ! -e '" << go.string() << "' ]; do /bin/sleep 0.02; done\n"
                        << "for last; do :; done\necho \"$@\" > \"$last\"\n";
    fs::permissions(fake, fs::perms::owner_all);
    pathWithoutFfmpeg();
    app::VideoRecorder recorder;
    ASSERT_EQ(recorder.start(dir_.string(), 16, 10), "");
    for (int i = 0; i < 3; ++i) recorder.addFrame(frame(16, 10, 99), 16, 10);
    recorder.stop();
    // stop() came back while the encode waits: the recorder says it is encoding.
    const std::string mp4 = (dir_ / "impulse-lab-video-1.mp4").string();
    ASSERT_TRUE(waitFor([&] { return recorder.status().message.rfind("encoding", 0) == 0; }))
        << recorder.status().message;
    EXPECT_FALSE(recorder.status().recording);
    EXPECT_FALSE(fs::exists(mp4));
    std::ofstream(go) << "";
    ASSERT_TRUE(waitFor([&] { return recorder.status().message.rfind("wrote", 0) == 0; })) << recorder.status().message;
    EXPECT_EQ(recorder.status().message, "wrote " + mp4 + " (3 frames, 60 fps)");
    std::ifstream written(mp4);
    std::string args;
    std::getline(written, args);
    EXPECT_NE(args.find("-framerate 60"), std::string::npos) << args;
    EXPECT_NE(args.find("-i " + (dir_ / "impulse-lab-video-1" / "frame-%06d.png").string()), std::string::npos) << args;
    EXPECT_NE(args.find("-n "), std::string::npos) << "never overwrites: " << args;
}

}  // namespace
}  // namespace impulse

// Issue 45: V's videos go to the user's videos folder, not the working directory.
TEST(VideosFolder, IsTheXdgVideosFolderElseVideosInHome) {
    const auto saved = [](const char* name) {
        const char* v = std::getenv(name);
        return v ? std::optional<std::string>(v) : std::nullopt;
    };
    const std::optional<std::string> home = saved("HOME"), videos = saved("XDG_VIDEOS_DIR"),
                                     config = saved("XDG_CONFIG_HOME");
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("impulse_videos_folder_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir / "config");
    ::setenv("HOME", dir.c_str(), 1);
    ::setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);
    ::unsetenv("XDG_VIDEOS_DIR");
    EXPECT_EQ(impulse::app::videosFolder(), (dir / "Videos" / "impulse-lab").string());
    std::ofstream(dir / "config" / "user-dirs.dirs") << "# written by xdg-user-dirs-update\n"
                                                     << "XDG_VIDEOS_DIR=\"$HOME/Filme\"\n";
    EXPECT_EQ(impulse::app::videosFolder(), (dir / "Filme" / "impulse-lab").string());
    ::setenv("XDG_VIDEOS_DIR", "/srv/clips", 1);
    EXPECT_EQ(impulse::app::videosFolder(), "/srv/clips/impulse-lab");
    ::unsetenv("XDG_VIDEOS_DIR");
    ::unsetenv("HOME");
    EXPECT_EQ(impulse::app::videosFolder(), ".");
    const auto restore = [](const char* name, const std::optional<std::string>& v) {
        if (v) ::setenv(name, v->c_str(), 1); else ::unsetenv(name);
    };
    restore("HOME", home);
    restore("XDG_VIDEOS_DIR", videos);
    restore("XDG_CONFIG_HOME", config);
    std::filesystem::remove_all(dir);
}
