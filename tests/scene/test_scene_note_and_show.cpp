// The optional top-level `note` (a paragraph for the Scene panel) and `show` (the
// classroom views the app opens the scene with): read as written, written back the
// same, absent unless written, and refused with the JSON path and the rule.
#include "scene/scene.h"

#include <gtest/gtest.h>

#include <string>

namespace impulse::scene {
namespace {

std::string withTopLevel(const std::string& keys) {
    return R"({"version": 2, )" + keys +
           R"(, "bodies": [{"name": "ball", "shape": {"type": "sphere", "radius": 0.5}, "position": [0, 1, 0]}]})";
}

Scene sceneOf(const SceneResult& result) {
    if (const Scene* scene = std::get_if<Scene>(&result)) return *scene;
    ADD_FAILURE() << std::get<SceneError>(result).message();
    return Scene{};
}

TEST(SceneNoteAndShow, AreReadAsWritten) {
    const Scene s = sceneOf(parseScene(withTopLevel(
        R"("note": "Equal carts meet: p is \"conserved\".\nSecond paragraph.", "show": ["momentum", "impact-momentum", "centre-of-mass"])")));
    EXPECT_EQ(s.note, "Equal carts meet: p is \"conserved\".\nSecond paragraph.");
    ASSERT_TRUE(s.show.has_value());
    EXPECT_EQ(*s.show, (std::vector<ShownView>{ShownView::Momentum, ShownView::ImpactMomentum,
                                               ShownView::SystemCentre}));
}

TEST(SceneNoteAndShow, AreAbsentUnlessWrittenAndAnEmptyShowIsKept) {
    const Scene plain = sceneOf(parseScene(withTopLevel(R"("name": "plain")")));
    EXPECT_TRUE(plain.note.empty());
    EXPECT_FALSE(plain.show.has_value());  // the app leaves its views as they are
    const std::string text = toJson(plain);
    EXPECT_EQ(text.find("\"note\""), std::string::npos);
    EXPECT_EQ(text.find("\"show\""), std::string::npos);

    // An empty list is a choice (every view off), not the key's absence.
    const Scene none = sceneOf(parseScene(withTopLevel(R"("show": [])")));
    ASSERT_TRUE(none.show.has_value());
    EXPECT_TRUE(none.show->empty());
    EXPECT_NE(toJson(none).find("\"show\": []"), std::string::npos);
}

TEST(SceneNoteAndShow, SaveThenLoadGivesTheSameNoteAndViews) {
    Scene scene;
    scene.name = "note round trip";
    scene.note = u8"Δp = J: the impulse. Tabs\tand \"quotes\" and a line\nbreak.";
    std::vector<ShownView> every;
    for (const ShownViewName& v : kShownViewNames) every.insert(every.begin(), v.view);  // reversed order
    scene.show = every;
    const Scene back = sceneOf(parseScene(toJson(scene)));
    EXPECT_EQ(back.note, scene.note);
    EXPECT_EQ(back.show, scene.show);
    EXPECT_EQ(toJson(back), toJson(scene));
}

TEST(SceneNoteAndShow, EveryViewHasOneNameThatReadsBack) {
    for (const ShownViewName& v : kShownViewNames) {
        EXPECT_EQ(shownViewNamed(v.name), v.view) << v.name;
        EXPECT_EQ(shownViewName(v.view), v.name);
        EXPECT_NE(shownViewList().find(std::string(v.name)), std::string::npos);
    }
    EXPECT_FALSE(shownViewNamed("Momentum").has_value());  // names are exact
    EXPECT_FALSE(shownViewNamed("").has_value());
}

TEST(SceneNoteAndShow, BadValuesAreRefusedWithPathAndRule) {
    struct Bad {
        std::string keys;
        const char* path;
        const char* rule;
    };
    const Bad bads[] = {
        {R"("note": 3)", "note", "a string"},
        {R"("note": ")" + std::string(kMaxNoteBytes + 1, 'a') + "\"", "note", "more than the limit of 4000"},
        {R"("show": "momentum")", "show", "an array of view names"},
        {R"("show": ["momentum", 2])", "show[1]", "a string"},
        {R"("show": ["velocity", "spin"])", "show[1]",
         "unknown view 'spin' (expected one of velocity, momentum, angular-velocity"},
        {R"("show": ["momentum", "velocity", "momentum"])", "show[2]", "'momentum' is listed twice"},
        {R"("notes": "x")", "", "unknown key 'notes'"},
    };
    for (const Bad& bad : bads) {
        SCOPED_TRACE(bad.keys.substr(0, 60));
        const SceneResult r = parseScene(withTopLevel(bad.keys), "class.json");
        const auto* error = std::get_if<SceneError>(&r);
        ASSERT_NE(error, nullptr);
        EXPECT_EQ(error->path, bad.path) << error->message();
        EXPECT_NE(error->rule.find(bad.rule), std::string::npos) << error->message();
    }
    // The longest note allowed is read.
    EXPECT_EQ(sceneOf(parseScene(withTopLevel(R"("note": ")" + std::string(kMaxNoteBytes, 'a') + "\""))).note.size(),
              kMaxNoteBytes);
}

}  // namespace
}  // namespace impulse::scene
