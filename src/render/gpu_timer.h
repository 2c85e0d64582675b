// GL timer queries for the Stats panel's split of a frame's GL work: GL_TIME_ELAPSED
// around each span, read back a few frames later once the GL has the result, so the
// CPU never waits for the GPU to time it (as a glFinish would).
#pragma once

#include <glad/glad.h>

namespace impulse::render {

class GpuTimer {
public:
    enum Span { scene, panels, kSpans };

    GpuTimer() = default;
    ~GpuTimer() { release(); }
    GpuTimer(const GpuTimer&) = delete;
    GpuTimer& operator=(const GpuTimer&) = delete;

    /// Times the GL commands until end(). A span whose query of kFrames frames ago has
    /// no result yet is not timed this frame (its query is still in use).
    void begin(Span span);
    void end();
    /// After the frame's spans: reads the results that are ready, then moves on a frame.
    void endFrame();
    /// The latest result of a span (ms); negative until one has come in.
    double latestMs(Span span) const { return latestMs_[span]; }
    /// Forgets the results (the settings they were measured with changed).
    void reset();
    /// Deletes the queries; call while the context lives.
    void release();

private:
    /// Frames whose queries may be in flight at once.
    static constexpr int kFrames = 4;
    struct Query {
        GLuint id = 0;
        bool pending = false;  ///< ended, result not read yet
        unsigned frame = 0;    ///< the frame it timed
    };
    /// Reads `q` if its result is there; true when it is no longer pending.
    bool collect(Query& q, Span span);

    Query queries_[kFrames][kSpans];
    int slot_ = 0;
    unsigned frame_ = 0;
    bool timing_ = false;  // between begin() and end() of a timed span
    Span timed_ = scene;   // that span
    double latestMs_[kSpans] = {-1.0, -1.0};
    unsigned latestFrame_[kSpans] = {0, 0};
};

}  // namespace impulse::render
