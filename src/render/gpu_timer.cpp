#include "render/gpu_timer.h"

namespace impulse::render {

bool GpuTimer::collect(Query& q, Span span) {
    if (!q.pending) return true;
    GLint available = 0;
    glGetQueryObjectiv(q.id, GL_QUERY_RESULT_AVAILABLE, &available);
    if (!available) return false;
    GLuint64 ns = 0;
    glGetQueryObjectui64v(q.id, GL_QUERY_RESULT, &ns);
    q.pending = false;
    // No frame's GL work takes a second: llvmpipe now and then answers a query that spans
    // a framebuffer switch (the shadow pass) with a clock reading, hours long.
    constexpr GLuint64 kImplausibleNs = 1000000000;
    if (ns >= kImplausibleNs) return true;
    if (q.frame + 1 > latestFrame_[span]) {  // results may come in out of order
        latestFrame_[span] = q.frame + 1;
        latestMs_[span] = static_cast<double>(ns) * 1e-6;
    }
    return true;
}

void GpuTimer::begin(Span span) {
    Query& q = queries_[slot_][span];
    if (q.id == 0) glGenQueries(1, &q.id);
    timing_ = collect(q, span);
    if (!timing_) return;
    glBeginQuery(GL_TIME_ELAPSED, q.id);
    q.frame = frame_;
    timed_ = span;
}

void GpuTimer::end() {
    if (!timing_) return;
    glEndQuery(GL_TIME_ELAPSED);
    timing_ = false;
    queries_[slot_][timed_].pending = true;
}

void GpuTimer::endFrame() {
    for (Query(&frame)[kSpans] : queries_) {
        for (int span = 0; span < kSpans; ++span) collect(frame[span], static_cast<Span>(span));
    }
    slot_ = (slot_ + 1) % kFrames;
    ++frame_;
}

void GpuTimer::reset() {
    for (double& ms : latestMs_) ms = -1.0;
    for (unsigned& f : latestFrame_) f = frame_;  // results of earlier frames are dropped
}

void GpuTimer::release() {
    for (Query(&frame)[kSpans] : queries_) {
        for (Query& q : frame) {
            if (q.id) glDeleteQueries(1, &q.id);
            q = Query{};
        }
    }
}

}  // namespace impulse::render
