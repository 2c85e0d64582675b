#include "scene/state_csv.h"

namespace impulse::scene {

namespace {

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

void printFloat(std::FILE* out, float x) {
    std::fprintf(out, ",%.9g", static_cast<double>(x));
}

}  // namespace

std::vector<std::string> stateCsvNames(const World& world, const std::vector<BodyId>& bodies) {
    std::vector<std::string> names;
    names.reserve(bodies.size());
    for (BodyId id : bodies) names.push_back(csvField(world.body(id).name));
    return names;
}

void writeStateCsvRows(std::FILE* out, const World& world, const std::vector<BodyId>& bodies,
                       const std::vector<std::string>& names, long long step, double time) {
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const Body& b = world.body(bodies[i]);
        std::fprintf(out, "%lld,%.9g,%s", step, time, names[i].c_str());
        for (int k = 0; k < 3; ++k) printFloat(out, b.position[k]);
        printFloat(out, b.orientation.w);
        printFloat(out, b.orientation.x);
        printFloat(out, b.orientation.y);
        printFloat(out, b.orientation.z);
        for (int k = 0; k < 3; ++k) printFloat(out, b.linearVelocity[k]);
        for (int k = 0; k < 3; ++k) printFloat(out, b.angularVelocity[k]);
        std::fputc('\n', out);
    }
}

}  // namespace impulse::scene
