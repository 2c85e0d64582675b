#include "app/undo_history.h"

#include <algorithm>
#include <utility>

namespace impulse::app {

namespace {

bool sameValue(const Shape& a, const Shape& b) {
    return a.type == b.type && a.radius == b.radius && a.halfExtents == b.halfExtents;
}
template <class T>
bool sameValue(const T& a, const T& b) {
    return a == b;
}

// Calls visit(label, member) for every field of a body definition, so that the
// field-wise undo and the description of an edit cannot miss one.
template <class Visit>
void forEachBodyField(Visit&& visit) {
    visit("name", &BodyDef::name);
    visit("shape", &BodyDef::shape);
    visit("static", &BodyDef::isStatic);
    visit("mass", &BodyDef::mass);
    visit("position", &BodyDef::position);
    visit("orientation", &BodyDef::orientation);
    visit("velocity", &BodyDef::linearVelocity);
    visit("angular velocity", &BodyDef::angularVelocity);
    visit("e", &BodyDef::restitution);
    visit("mu", &BodyDef::friction);
    visit("mu_s", &BodyDef::staticFriction);
    visit("inertia", &BodyDef::inertia);
}

std::string changedFields(const BodyDef& from, const BodyDef& to) {
    std::string list;
    forEachBodyField([&](const char* label, auto member) {
        if (!sameValue(from.*member, to.*member)) list += (list.empty() ? "" : ", ") + std::string(label);
    });
    return list.empty() ? "no change" : list;
}

// The body a command names, if it names one.
BodyId* commandBody(Command& command) {
    if (auto* c = std::get_if<SetBody>(&command)) return &c->body;
    if (auto* c = std::get_if<DeleteBody>(&command)) return &c->body;
    if (auto* c = std::get_if<BeginDrag>(&command)) return &c->body;
    return nullptr;
}

// An empty experiment (before the first load) is nothing to go back to.
bool replacedNothing(const AppliedEdit& edit) {
    const ExperimentState* before = edit.before.experiment.get();
    return before && before->world.bodyCount() == 0 && before->scene.bodies.empty() && before->scenePath.empty();
}

}  // namespace

BodyDef carryChange(BodyDef current, const BodyDef& from, const BodyDef& to) {
    forEachBodyField([&](const char*, auto member) {
        if (!sameValue(from.*member, to.*member)) current.*member = to.*member;
    });
    return current;
}

bool restartsWorld(const Command& command) {
    return std::holds_alternative<LoadScene>(command) || std::holds_alternative<ResetScene>(command);
}

bool isUndoable(const Command& command) {
    return !std::holds_alternative<BeginDrag>(command) && !std::holds_alternative<EndDrag>(command);
}

std::string describe(const AppliedEdit& edit) {
    struct Describe {
        const Replaced& before;
        std::string operator()(const SetBody& c) const {
            const std::string name = c.def.name.empty() ? "body" : c.def.name;
            return name + ": " + (before.body ? changedFields(*before.body, c.def) : "values");
        }
        std::string operator()(const SetWorldSettings&) const { return "world settings"; }
        std::string operator()(const SetDragSettings&) const { return "mouse drag settings"; }
        std::string operator()(const SpawnBody& c) const { return "spawn " + c.def.name; }
        std::string operator()(const DeleteBody& c) const {
            const std::string name = before.body ? before.body->name : std::string("body");
            return c.leftBounds ? "remove " + name + " (left the world bounds)" : "delete " + name;
        }
        std::string operator()(const BeginDrag&) const { return "grab"; }
        std::string operator()(const EndDrag&) const { return "release"; }
        std::string operator()(const LoadScene& c) const {
            return "load " + (c.path.empty() ? c.scene.name : c.path);
        }
        std::string operator()(const ResetScene&) const { return "reset"; }
    };
    return std::visit(Describe{edit.before}, edit.command);
}

void UndoHistory::record(Command command, Replaced before, uint64_t step) {
    AppliedEdit entry{std::move(command), std::move(before), step, nextSerial_++};
    if (isUndoable(entry.command)) {
        // A new edit forks from the undone ones: they can no longer be redone.
        entries_.erase(entries_.end() - static_cast<std::ptrdiff_t>(undone_), entries_.end());
        undone_ = 0;
        const bool wasSaved = !hasUnsavedEdits();
        const bool loaded = std::holds_alternative<LoadScene>(entry.command);
        const bool resetSaved = std::holds_alternative<ResetScene>(entry.command) && wasSaved;
        entries_.push_back(std::make_shared<AppliedEdit>(std::move(entry)));
        if (loaded || resetSaved) markSaved();  // the world is a file's again
    } else {
        // Not an edit: recorded where it happened, leaving what can be redone.
        entries_.insert(entries_.end() - static_cast<std::ptrdiff_t>(undone_),
                        std::make_shared<AppliedEdit>(std::move(entry)));
    }
    trim();
}

void UndoHistory::trim() {
    const auto keepsExperiment = [](const std::shared_ptr<AppliedEdit>& e) { return e->before.experiment != nullptr; };
    size_t kept = static_cast<size_t>(std::count_if(entries_.begin(), entries_.end(), keepsExperiment));
    size_t drop = 0;
    const size_t inForce = entries_.size() - undone_;
    while (drop < inForce && (entries_.size() - drop > kLimit || kept > kExperimentsKeptLimit)) {
        if (keepsExperiment(entries_[drop])) --kept;
        ++drop;
    }
    entries_.erase(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(drop));
}

std::optional<size_t> UndoHistory::undoIndex() const {
    for (size_t i = entries_.size() - undone_; i-- > 0;) {
        if (!isUndoable(entries_[i]->command)) continue;
        if (replacedNothing(*entries_[i])) return std::nullopt;
        return i;
    }
    return std::nullopt;
}

std::optional<size_t> UndoHistory::redoIndex() const {
    for (size_t i = entries_.size() - undone_; i < entries_.size(); ++i) {
        if (isUndoable(entries_[i]->command)) return i;
    }
    return std::nullopt;
}

const AppliedEdit* UndoHistory::nextUndo() const {
    const std::optional<size_t> i = undoIndex();
    return i ? entries_[*i].get() : nullptr;
}

const AppliedEdit* UndoHistory::nextRedo() const {
    const std::optional<size_t> i = redoIndex();
    return i ? entries_[*i].get() : nullptr;
}

uint64_t UndoHistory::latestEditInForce() const {
    for (size_t i = entries_.size() - undone_; i-- > 0;) {
        if (isUndoable(entries_[i]->command)) return entries_[i]->serial;
    }
    return 0;
}

AppliedEdit& UndoHistory::own(size_t i) {
    if (entries_[i].use_count() > 1) entries_[i] = std::make_shared<AppliedEdit>(*entries_[i]);
    return *entries_[i];
}

void UndoHistory::renameBody(BodyId from, BodyId to) {
    const auto rename = [&](BodyId& id) {
        if (id == from) id = to;
    };
    const auto renameIn = [&](AppliedEdit& e) {
        rename(e.before.selection);
        rename(e.before.created);
        if (e.before.drag) rename(e.before.drag->body);
        if (BodyId* named = commandBody(e.command)) rename(*named);
    };
    // Only the entries about the world in force: those since the last load or reset
    // before the cursor, up to the next one after it (whose selection before is ours).
    // Handles of other worlds may have the same value and must stay as they are.
    const size_t cursor = entries_.size() - undone_;
    size_t first = cursor;
    while (first > 0 && !restartsWorld(entries_[first - 1]->command)) --first;
    size_t end = cursor;
    while (end < entries_.size() && !restartsWorld(entries_[end]->command)) ++end;
    for (size_t i = first; i < end; ++i) renameIn(own(i));
    if (end < entries_.size()) rename(own(end).before.selection);
}

void UndoHistory::use(const EditBook& book) {
    entries_ = book.history;
    undone_ = book.undone;
    savedSerial_ = book.savedSerial;
}

}  // namespace impulse::app
