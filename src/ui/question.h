// A yes-or-no question in a modal popup, for what cannot be undone (quitting with
// unsaved edits, replacing a file, restoring or discarding a recovery file). The
// caller keeps what each answer should do.
#pragma once

#include <optional>
#include <string>

namespace impulse::ui {

class QuestionPopup {
public:
    enum class Answer { none, yes, no };

    /// Asks from the next draw() on; a question still open is replaced. The second
    /// button says `noLabel`; the hint line says what Esc means (`escapeNote`).
    void ask(std::string question, std::string yesLabel, std::string noLabel = "Cancel",
             std::string escapeNote = "Cancel");
    /// Draws the popup while a question is open. `yes` on the frame the user says yes
    /// (the button or Enter), `no` on the frame of the second button; Esc closes it
    /// with no answer.
    Answer draw();

private:
    struct Question {
        std::string text, yesLabel, noLabel, escapeNote;
        bool opened = false;
    };
    std::optional<Question> question_;
};

}  // namespace impulse::ui
