#include "app/video.h"

#include "render/renderer.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

extern char** environ;

namespace impulse::app {

namespace fs = std::filesystem;

struct VideoRecorder::Session {
    std::string folder;
    int width = 0, height = 0;
    std::thread thread;
    mutable std::mutex mutex;  // guards everything below
    std::condition_variable changed;
    std::deque<std::vector<unsigned char>> queue;
    bool stopped = false;
    int frames = 0;  // queued so far (the PNG numbers)
    std::string reason;
    std::string message;
    bool isError = false;
};

namespace {

std::string framePath(const std::string& folder, int number) {
    char name[32];
    std::snprintf(name, sizeof name, "frame-%06d.png", number);
    return (fs::path(folder) / name).string();
}

// Runs ffmpeg on the recording's PNGs, its messages into the folder's ffmpeg.log;
// returns "" or what went wrong.
std::string encode(const std::string& ffmpeg, const std::string& folder, const std::string& mp4) {
    const std::string frames = (fs::path(folder) / "frame-%06d.png").string();
    const std::string log = (fs::path(folder) / "ffmpeg.log").string();
    const std::string rate = std::to_string(VideoRecorder::kFramesPerSecond);
    // -n: never overwrite; yuv420p (what players expect) needs even sizes: pad by a pixel.
    std::vector<std::string> args = {ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-n",
                                     "-framerate", rate, "-start_number", "1", "-i", frames,
                                     "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p", mp4};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
    pid_t child = 0;
    const int spawned = posix_spawn(&child, ffmpeg.c_str(), &files, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    if (spawned != 0) return "cannot run " + ffmpeg + ": " + std::strerror(spawned);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
    const std::string how = WIFEXITED(status) ? "exited with " + std::to_string(WEXITSTATUS(status))
                                              : "was stopped by signal " + std::to_string(WTERMSIG(status));
    return "ffmpeg " + how + " (see " + log + ")";
}

}  // namespace

std::string freeVideoName(const std::string& dir) {
    for (int n = 1;; ++n) {
        const fs::path folder = fs::path(dir) / ("impulse-lab-video-" + std::to_string(n));
        std::error_code ec;
        if (!fs::exists(folder, ec) && !fs::exists(folder.string() + ".mp4", ec)) return folder.string();
    }
}

std::string findOnPath(const std::string& program) {
    const char* path = std::getenv("PATH");
    if (!path) return "";
    const std::string folders = path;
    size_t begin = 0;
    while (begin <= folders.size()) {
        const size_t end = std::min(folders.find(':', begin), folders.size());
        const std::string folder = folders.substr(begin, end - begin);
        const std::string candidate = (fs::path(folder.empty() ? "." : folder) / program).string();
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0) return candidate;
        begin = end + 1;
    }
    return "";
}

VideoRecorder::~VideoRecorder() {
    stop();
    finish();
}

void VideoRecorder::finish() {
    for (auto it = running_.begin(); it != running_.end();) {
        if (*it == current_) {
            ++it;
            continue;
        }
        (*it)->thread.join();
        it = running_.erase(it);
    }
}

std::string VideoRecorder::start(const std::string& dir, int width, int height) {
    if (current_) return "already recording into " + current_->folder;
    if (width <= 0 || height <= 0) return "the view is empty";
    const std::string folder = freeVideoName(dir.empty() ? "." : dir);
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) return "cannot make the folder " + folder + ": " + ec.message();
    auto session = std::make_shared<Session>();
    session->folder = folder;
    session->width = width;
    session->height = height;
    session->thread = std::thread(writeAndEncode, std::ref(*session));
    current_ = session;
    last_ = session;
    running_.push_back(session);
    return "";
}

int VideoRecorder::width() const { return current_ ? current_->width : 0; }
int VideoRecorder::height() const { return current_ ? current_->height : 0; }

bool VideoRecorder::addFrame(std::vector<unsigned char> rgb, int width, int height) {
    if (!current_ || width != current_->width || height != current_->height) return false;
    Session& s = *current_;
    std::unique_lock<std::mutex> lock(s.mutex);
    s.changed.wait(lock, [&] { return s.queue.size() < kMaxQueuedFrames; });
    s.queue.push_back(std::move(rgb));
    ++s.frames;
    s.changed.notify_all();
    return true;
}

void VideoRecorder::stop(const std::string& reason) {
    if (!current_) return;
    {
        const std::lock_guard<std::mutex> lock(current_->mutex);
        current_->stopped = true;
        current_->reason = reason;
    }
    current_->changed.notify_all();
    current_.reset();
}

VideoStatus VideoRecorder::status() const {
    VideoStatus status;
    if (!last_) return status;
    const std::lock_guard<std::mutex> lock(last_->mutex);
    status.recording = last_ == current_;
    status.frames = last_->frames;
    status.folder = last_->folder;
    status.message = last_->message;
    status.isError = last_->isError;
    return status;
}

void VideoRecorder::writeAndEncode(Session& s) {
    int written = 0;
    std::string failure;
    for (;;) {
        std::vector<unsigned char> frame;
        {
            std::unique_lock<std::mutex> lock(s.mutex);
            s.changed.wait(lock, [&] { return !s.queue.empty() || s.stopped; });
            if (s.queue.empty()) break;  // stopped, and everything written
            frame = std::move(s.queue.front());
            s.queue.pop_front();
            if (s.stopped) s.message = "writing frame " + std::to_string(written + 1) + " of " + std::to_string(s.frames);
        }
        s.changed.notify_all();  // room in the queue
        // After a failed write the rest are only dropped: one message says why.
        if (failure.empty()) failure = render::writePng(framePath(s.folder, written + 1), frame, s.width, s.height);
        ++written;
    }
    const auto report = [&s](std::string message, bool isError) {
        const std::lock_guard<std::mutex> lock(s.mutex);
        s.message = s.reason.empty() ? message : s.reason + "; " + message;
        s.isError = isError;
    };
    if (!failure.empty()) return report("video frames: " + failure, true);
    if (written == 0) return report("no frames recorded (the simulation was paused)", false);
    const std::string ffmpeg = findOnPath("ffmpeg");
    const std::string frames = std::to_string(written) + " frames";
    if (ffmpeg.empty()) return report("ffmpeg not found: the frames are in " + s.folder + " (" + frames + ")", false);
    const std::string mp4 = s.folder + ".mp4";
    report("encoding " + mp4 + " (" + frames + ")", false);
    const std::string error = encode(ffmpeg, s.folder, mp4);
    if (!error.empty()) return report(error + "; the frames are in " + s.folder, true);
    report("wrote " + mp4 + " (" + frames + ", " + std::to_string(kFramesPerSecond) + " fps)", false);
}

}  // namespace impulse::app
