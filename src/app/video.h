// Recording the 3D view as a video: each frame a PNG in a folder of its own
// (impulse-lab-video-N, never one that exists), written on a thread of the
// recording's own; when the recording stops and `ffmpeg` is on PATH, that thread
// encodes the frames into impulse-lab-video-N.mp4 beside the folder, as a child
// process. The frame loop never waits for the encode. How the frames are paced
// (simulated time, not wall time) is VideoFrameClock (sim_clock.h). No GL here:
// the app reads the pixels.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace impulse::app {

/// The folder `dir`/impulse-lab-video-N with the smallest N >= 1 for which neither it
/// nor impulse-lab-video-N.mp4 exists.
std::string freeVideoName(const std::string& dir);
/// The full path of `program` in one of $PATH's folders (executable), or "".
std::string findOnPath(const std::string& program);

/// What the recorder is doing, for the Scene panel.
struct VideoStatus {
    bool recording = false;
    int frames = 0;       ///< of the recording in progress or the last one
    std::string folder;   ///< where its PNGs go
    std::string message;  ///< what became of the last one ("" while recording)
    bool isError = false;
};

class VideoRecorder {
public:
    /// Video frames per second of simulated time (the clip plays in real time).
    static constexpr int kFramesPerSecond = 60;
    /// Frames read but not yet written, at most: the frame loop waits beyond that (a
    /// frame of a 1280x720 view is 2.6 MB).
    static constexpr size_t kMaxQueuedFrames = 8;

    VideoRecorder() = default;
    /// Stops a recording in progress and waits for every write and encode (finish()).
    ~VideoRecorder();
    VideoRecorder(const VideoRecorder&) = delete;
    VideoRecorder& operator=(const VideoRecorder&) = delete;

    /// Starts a recording in a new folder under `dir` (freeVideoName) of frames
    /// `width` x `height`; returns "" or why not (nothing started).
    std::string start(const std::string& dir, int width, int height);
    bool recording() const { return current_ != nullptr; }
    /// The frame size the recording takes (addFrame refuses others).
    int width() const;
    int height() const;
    /// Queues one frame, RGB rows bottom-up as GL reads them, to be written as the next
    /// PNG. False (nothing queued) when its size is not the recording's.
    bool addFrame(std::vector<unsigned char> rgb, int width, int height);
    /// Stops the recording: its thread writes the frames still queued, then encodes them
    /// (or says that ffmpeg is missing), without the caller waiting. `reason`, when
    /// given, is said first (e.g. why the app stopped it).
    void stop(const std::string& reason = "");
    VideoStatus status() const;
    /// Waits until every stopped recording is written and encoded (on exit).
    void finish();

private:
    struct Session;
    static void writeAndEncode(Session& session);

    std::shared_ptr<Session> current_;
    std::shared_ptr<Session> last_;                // the latest, recording or not, for status()
    std::vector<std::shared_ptr<Session>> running_;  // each with its thread, joined by finish()
};

}  // namespace impulse::app
