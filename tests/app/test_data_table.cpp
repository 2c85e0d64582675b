// The Data tab's logic (ui/data_table.h) on a real experiment: its rows are the
// world's numbers, its edits go through the Body panel's command (undo puts
// every byte back), a refused value is named and changes nothing, it sorts by
// any column, and its CSV's rows add up to its totals.
#include "app/experiment.h"
#include "app/experiment_edits.h"
#include "ui/data_table.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace impulse;
using namespace impulse::ui;

namespace {

const std::string kGroundCrateBall = IMPULSE_SOURCE_DIR "/tests/app/data/ground_crate_ball.json";

template <class T>
bool sameBytes(const T& a, const T& b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// Every stored number of every body that an edit could touch, and the bodies'
/// positions after more steps (the contacts and warm starts agree too).
void expectSameWorld(const World& a, const World& b) {
    ASSERT_EQ(a.bodyIds().size(), b.bodyIds().size());
    for (BodyId id : a.bodyIds()) {
        const Body& x = a.body(id);
        const Body& y = b.body(id);
        SCOPED_TRACE(x.name);
        EXPECT_TRUE(sameBytes(x.position, y.position) && sameBytes(x.orientation, y.orientation));
        EXPECT_TRUE(sameBytes(x.linearVelocity, y.linearVelocity) && sameBytes(x.angularVelocity, y.angularVelocity));
        EXPECT_TRUE(sameBytes(x.mass, y.mass) && sameBytes(x.inverseMass, y.inverseMass));
        EXPECT_TRUE(sameBytes(x.restitution, y.restitution) && sameBytes(x.friction, y.friction) &&
                    sameBytes(x.staticFriction, y.staticFriction));
        EXPECT_TRUE(sameBytes(x.inertiaBody, y.inertiaBody) && sameBytes(x.inverseInertiaWorld, y.inverseInertiaWorld));
    }
    World ax = a, bx = b;
    for (int i = 0; i < 60; ++i) {
        ax.step();
        bx.step();
    }
    for (BodyId id : ax.bodyIds()) EXPECT_TRUE(sameBytes(ax.body(id).position, bx.body(id).position));
}

struct DataTableFixture : ::testing::Test {
    app::Experiment experiment;
    app::ExperimentEdits edits{experiment};
    const World& world = experiment.world();
    BodyId ground, crate, ball;

    void SetUp() override {
        ASSERT_EQ(experiment.open(kGroundCrateBall), "");
        ground = world.findBody("ground");
        crate = world.findBody("crate");
        ball = world.findBody("ball");
        ASSERT_TRUE(ground && crate && ball);
        for (int i = 0; i < 20; ++i) experiment.step();  // falling: velocities and momentum
    }
};

}  // namespace

TEST_F(DataTableFixture, RowsAreTheWorldsNumbers) {
    const app::SystemMotion system = app::systemMotion(world);
    const std::vector<DataRow> rows = dataRows(world, system);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].name, "ground");
    EXPECT_TRUE(rows[0].isStatic);
    EXPECT_EQ(rows[0].mass, 0.0f) << "a static body has no mass";
    EXPECT_EQ(rows[0].motion.kineticEnergy, 0.0);
    const Body& b = world.body(crate);
    EXPECT_EQ(rows[1].name, "crate");
    EXPECT_EQ(rows[1].mass, 2.0f);
    EXPECT_TRUE(sameBytes(rows[1].position, b.position));
    EXPECT_TRUE(sameBytes(rows[1].velocity, b.linearVelocity));
    EXPECT_EQ(rows[1].motion.momentum.y, 2.0 * double(b.linearVelocity.y));
    EXPECT_LT(rows[1].motion.momentum.y, -1.0) << "falling for a third of a second";
    EXPECT_EQ(rows[1].motion.kineticEnergy, b.kineticEnergy());
}

TEST_F(DataTableFixture, EditsGoThroughTheCommandAndUndoPutsEveryByteBack) {
    const World before = world;
    const std::string undoBefore = edits.nextUndo();

    EXPECT_EQ(editBodyNumber(edits, ball, DataColumn::mass, 3.5f), "");
    EXPECT_EQ(world.body(ball).mass, 3.5f);
    EXPECT_NE(edits.nextUndo(), undoBefore) << "the edit is an undoable command";
    EXPECT_EQ(editBodyNumber(edits, ball, DataColumn::restitution, 0.25f), "");
    EXPECT_EQ(editBodyNumber(edits, crate, DataColumn::friction, 0.9f), "");
    EXPECT_EQ(editBodyVector(edits, crate, DataColumn::position, vec3(3.0f, 2.0f, 1.0f)), "");
    EXPECT_EQ(editBodyVector(edits, ball, DataColumn::velocity, vec3(1.0f, 4.0f, 0.0f)), "");
    EXPECT_EQ(world.body(ball).restitution, 0.25f);
    EXPECT_EQ(world.body(crate).friction, 0.9f);
    EXPECT_EQ(world.body(crate).position, vec3(3.0f, 2.0f, 1.0f));
    EXPECT_EQ(world.body(ball).linearVelocity, vec3(1.0f, 4.0f, 0.0f));

    for (int i = 0; i < 5; ++i) ASSERT_FALSE(experiment.undo()) << "undo " << i;
    EXPECT_EQ(edits.nextUndo(), undoBefore);
    expectSameWorld(before, world);
}

TEST_F(DataTableFixture, RefusedValuesAreNamedAndChangeNothing) {
    const World before = world;
    const std::string undoBefore = edits.nextUndo();
    const float nan = std::numeric_limits<float>::quiet_NaN();

    const std::string mass = editBodyNumber(edits, crate, DataColumn::mass, -1.0f);
    EXPECT_EQ(mass.rfind("crate: mass: ", 0), 0u) << mass;
    const std::string e = editBodyNumber(edits, ball, DataColumn::restitution, 1.5f);
    EXPECT_EQ(e.rfind("ball: restitution: ", 0), 0u) << e;
    const std::string mu = editBodyNumber(edits, ball, DataColumn::friction, -0.1f);
    EXPECT_EQ(mu.rfind("ball: friction: ", 0), 0u) << mu;
    const std::string v = editBodyVector(edits, ball, DataColumn::velocity, vec3(nan, 0.0f, 0.0f));
    EXPECT_EQ(v.rfind("ball: ", 0), 0u) << v;
    EXPECT_NE(v.find("velocity"), std::string::npos) << v;
    EXPECT_EQ(editBodyNumber(edits, ground, DataColumn::mass, 5.0f), "ground: mass: a static body has no mass");

    EXPECT_EQ(edits.nextUndo(), undoBefore) << "a refusal is no command";
    expectSameWorld(before, world);
}

TEST_F(DataTableFixture, SortsByAnyColumnAndKeepsBodyOrderForTies) {
    const app::SystemMotion system = app::systemMotion(world);
    std::vector<DataRow> rows = dataRows(world, system);
    const auto names = [&] {
        std::vector<std::string> out;
        for (const DataRow& r : rows) out.push_back(r.name);
        return out;
    };
    sortRows(rows, DataColumn::name, true);
    EXPECT_EQ(names(), (std::vector<std::string>{"ball", "crate", "ground"}));
    sortRows(rows, DataColumn::mass, false);
    EXPECT_EQ(names(), (std::vector<std::string>{"crate", "ball", "ground"}));
    // Both dynamic bodies fall alike: the 2 kg crate has the larger momentum and KE.
    sortRows(rows, DataColumn::kineticEnergy, true);
    EXPECT_EQ(names(), (std::vector<std::string>{"ground", "ball", "crate"}));
    sortRows(rows, DataColumn::momentum, false);
    EXPECT_EQ(names(), (std::vector<std::string>{"crate", "ball", "ground"}));
    // e: all 0.5 (the default), a tie: rows just made keep body order.
    rows = dataRows(world, system);
    sortRows(rows, DataColumn::restitution, true);
    EXPECT_EQ(names(), (std::vector<std::string>{"ground", "crate", "ball"}));
}

TEST(DataTable, NamesSortWithTheirNumbersByValue) {
    World world;
    for (const char* name : {"ball10", "ball2", "Ball", "ball02b", "ball1", "ball", "cue"}) {
        BodyDef def;
        def.name = name;
        world.createBody(def);
    }
    std::vector<DataRow> rows = dataRows(world, app::systemMotion(world));
    sortRows(rows, DataColumn::name, true);
    std::vector<std::string> names;
    for (const DataRow& r : rows) names.push_back(r.name);
    EXPECT_EQ(names, (std::vector<std::string>{"Ball", "ball", "ball1", "ball2", "ball02b", "ball10", "cue"}));
    sortRows(rows, DataColumn::name, false);
    EXPECT_EQ(rows.front().name, "cue");
    EXPECT_EQ(rows.back().name, "Ball");
}

TEST_F(DataTableFixture, CsvRowsAddUpToItsTotals) {
    const app::SystemMotion system = app::systemMotion(world);
    const std::vector<DataRow> rows = dataRows(world, system);
    std::istringstream csv(dataCsv(rows, system));
    std::string line;
    ASSERT_TRUE(std::getline(csv, line));
    EXPECT_EQ(line, "name,static,m,e,mu,px,py,pz,vx,vy,vz,p_x,p_y,p_z,KE");
    const auto fields = [](const std::string& text) {
        std::vector<std::string> out;
        std::stringstream in(text);
        std::string field;
        while (std::getline(in, field, ',')) out.push_back(field);
        if (!text.empty() && text.back() == ',') out.push_back("");
        return out;
    };
    double py = 0.0, ke = 0.0;
    for (const DataRow& r : rows) {
        ASSERT_TRUE(std::getline(csv, line));
        const std::vector<std::string> f = fields(line);
        ASSERT_EQ(f.size(), 15u) << line;
        EXPECT_EQ(f[0], "\"" + r.name + "\"");
        EXPECT_EQ(std::stof(f[9]), r.velocity.y) << "9 digits give the float back";
        py += std::stod(f[12]);
        ke += std::stod(f[14]);
    }
    ASSERT_TRUE(std::getline(csv, line));
    const std::vector<std::string> total = fields(line);
    ASSERT_EQ(total.size(), 15u) << line;
    EXPECT_EQ(total[0], "\"total (2 dynamic)\"");
    EXPECT_NEAR(std::stod(total[12]), py, 1e-6 * std::abs(py));
    EXPECT_NEAR(std::stod(total[14]), ke, 1e-6 * ke);
    EXPECT_NEAR(std::stod(total[2]), 3.0, 1e-9) << "2 kg + 1 kg";
    ASSERT_TRUE(std::getline(csv, line));
    EXPECT_EQ(line.rfind("\"L about the centre of mass\"", 0), 0u);
}
