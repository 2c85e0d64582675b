// A yes-or-cancel question in a modal popup, for what cannot be undone (quitting with
// unsaved edits, replacing a file). The caller keeps what a yes should do.
#pragma once

#include <optional>
#include <string>

namespace impulse::ui {

class QuestionPopup {
public:
    /// Asks from the next draw() on; a question still open is replaced.
    void ask(std::string question, std::string yesLabel);
    /// Draws the popup while a question is open. True on the frame the user says yes
    /// (the button or Enter); Cancel or Esc closes it with no answer.
    bool draw();

private:
    struct Question {
        std::string text, yesLabel;
        bool opened = false;
    };
    std::optional<Question> question_;
};

}  // namespace impulse::ui
