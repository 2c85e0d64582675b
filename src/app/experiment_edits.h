// The panels' edits as experiment commands: what the panels see as their
// EditTarget is the experiment, so each edit they make is applied and recorded
// like any other command.
#pragma once

#include "app/experiment.h"
#include "ui/edit.h"

namespace impulse::app {

class ExperimentEdits final : public ui::EditTarget {
public:
    explicit ExperimentEdits(Experiment& experiment) : experiment_(experiment) {}

    const World& world() const override { return experiment_.world(); }
    BodyId selected() const override { return experiment_.selected(); }
    void select(BodyId id) override { experiment_.select(id); }
    Validation setBody(BodyId id, const BodyDef& def) override { return experiment_.apply(SetBody{id, def}); }
    Validation setSettings(const WorldSettings& settings) override {
        return experiment_.apply(SetWorldSettings{settings});
    }
    const DragSettings& dragSettings() const override { return experiment_.dragSettings(); }
    Validation setDragSettings(const DragSettings& settings) override {
        return experiment_.apply(SetDragSettings{settings});
    }
    std::string nextUndo() const override {
        const AppliedEdit* edit = experiment_.nextUndo();
        return edit ? describe(*edit) : "";
    }
    std::string nextRedo() const override {
        const AppliedEdit* edit = experiment_.nextRedo();
        return edit ? describe(*edit) : "";
    }

private:
    Experiment& experiment_;
};

}  // namespace impulse::app
