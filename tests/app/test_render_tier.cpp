// Render tiers: which GL_RENDERER strings are software GL, what each tier sets, and
// the --render-tier flag.
#include "app/options.h"
#include "render/render_tier.h"

#include <gtest/gtest.h>

#include <vector>

using namespace impulse;
using render::RenderTier;

TEST(RenderTier, SoftwareRasterisersGetTheSoftwareTier) {
    // As Mesa, Chrome's SwiftShader and ANGLE report them.
    for (const char* name : {"llvmpipe (LLVM 15.0.7, 256 bits)", "softpipe", "SwiftShader Device (Subzero)",
                             "Google SwiftShader", "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (LLVM 10.0.0)))",
                             "LLVMPIPE"}) {
        EXPECT_EQ(render::tierForRenderer(name), RenderTier::software) << name;
    }
}

TEST(RenderTier, AnythingElseGetsTheStandardTier) {
    for (const char* name : {"NVIDIA GeForce RTX 3060/PCIe/SSE2", "AMD Radeon RX 6800 (navi21, LLVM 15.0.7, DRM 3.49)",
                             "Mesa Intel(R) UHD Graphics 620 (KBL GT2)", "Apple M1", "(unknown)", ""}) {
        EXPECT_EQ(render::tierForRenderer(name), RenderTier::standard) << name;
    }
}

TEST(RenderTier, StandardDrawsMoreAndNeverWaitsForTheGpuToTimeIt) {
    const render::TierSettings standard = render::tierSettings(RenderTier::standard);
    const render::TierSettings software = render::tierSettings(RenderTier::software);
    EXPECT_EQ(standard.tier, RenderTier::standard);
    EXPECT_EQ(standard.msaaSamples, 4);
    EXPECT_EQ(standard.shadowMapSize, 2048);
    EXPECT_TRUE(standard.vsync);
    EXPECT_TRUE(standard.timerQueries);
    EXPECT_FALSE(standard.autoShadowCut);
    EXPECT_EQ(software.tier, RenderTier::software);
    EXPECT_EQ(software.msaaSamples, 0);
    EXPECT_EQ(software.shadowMapSize, 768);
    EXPECT_FALSE(software.timerQueries);
    EXPECT_TRUE(software.autoShadowCut);
    EXPECT_STREQ(render::tierName(RenderTier::standard), "standard");
    EXPECT_STREQ(render::tierName(RenderTier::software), "software");
}

namespace {

std::string parse(std::vector<const char*> args, app::AppOptions& o) {
    args.insert(args.begin(), "impulse-lab");
    return app::parseOptions(static_cast<int>(args.size()), args.data(), o);
}

}  // namespace

TEST(RenderTier, TheFlagPicksATierOrLeavesItToTheRenderer) {
    app::AppOptions o;
    EXPECT_FALSE(o.renderTier.has_value());
    EXPECT_EQ(parse({"--render-tier", "standard"}, o), "");
    EXPECT_EQ(o.renderTier, RenderTier::standard);
    EXPECT_EQ(parse({"--render-tier", "software"}, o), "");
    EXPECT_EQ(o.renderTier, RenderTier::software);
    EXPECT_EQ(parse({"--render-tier", "auto"}, o), "");
    EXPECT_FALSE(o.renderTier.has_value());
}

TEST(RenderTier, ABadFlagNamesTheFlagAndTheAllowedValues) {
    for (std::vector<const char*> args : {std::vector<const char*>{"--render-tier", "gpu"},
                                          std::vector<const char*>{"--render-tier", "Standard"},
                                          std::vector<const char*>{"--render-tier"}}) {
        app::AppOptions o;
        const std::string error = parse(args, o);
        EXPECT_NE(error.find("--render-tier"), std::string::npos) << error;
        EXPECT_NE(error.find("software, standard or auto"), std::string::npos) << error;
        EXPECT_FALSE(o.renderTier.has_value());
    }
    app::AppOptions o;
    EXPECT_NE(parse({"--render-tier", "gpu"}, o).find("'gpu'"), std::string::npos);
}
