// The Data tab (Stats panel): every body in a sortable table of name, m, e, mu,
// position, velocity, momentum and KE, with m, e, mu, position and velocity
// editable in place (through the Body panel's command, undoable), the system's
// totals, the last impact's momentum and energy bookkeeping, and the table as
// CSV to the clipboard or to a file.
#pragma once

#include "app/classroom.h"
#include "ui/data_table.h"
#include "ui/edit.h"
#include "ui/field_draft.h"

#include <optional>
#include <string>

namespace impulse::ui {

/// A CSV the Data tab asks the app to write (the app asks before replacing a file).
struct TextExport {
    std::string path;
    std::string text;
};

class DataTab {
public:
    /// Draws the tab; its edits go to `target`, committed through `fields` as the
    /// panels' other fields are. `impacts` gives the last impact at the step shown.
    void draw(EditTarget& target, FieldDraft& fields, const app::ImpactBookkeepingLog& impacts, float textScale);
    /// The file "export CSV" asked for this frame, with the table as it was shown, once.
    std::optional<TextExport> takeExport();
    /// The line above the table (an edit's refusal, an export's outcome).
    void setMessage(const std::string& message, bool isError) {
        message_ = message;
        messageIsError_ = isError;
    }

private:
    void drawTable(EditTarget& target, FieldDraft& fields, std::vector<DataRow>& rows, float textScale);

    std::string csvPath_ = "data.csv";
    std::string message_;
    bool messageIsError_ = false;
    std::optional<TextExport> export_;
};

}  // namespace impulse::ui
