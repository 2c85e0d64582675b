#include "ui/question.h"

#include "ui/widgets.h"

#include <imgui.h>

#include <utility>

namespace impulse::ui {

void QuestionPopup::ask(std::string question, std::string yesLabel, std::string noLabel, std::string escapeNote) {
    question_ = Question{std::move(question), std::move(yesLabel), std::move(noLabel), std::move(escapeNote)};
}

QuestionPopup::Answer QuestionPopup::draw() {
    if (!question_) return Answer::none;
    if (!question_->opened) {
        ImGui::OpenPopup("Confirm");
        question_->opened = true;
    }
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.4f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal("Confirm", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        question_.reset();  // closed some other way: no answer
        return Answer::none;
    }
    ImGui::TextUnformatted(question_->text.c_str());
    ImGui::TextDisabled("Enter: %s, Esc: %s", question_->yesLabel.c_str(), question_->escapeNote.c_str());
    bool yes = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter));
    yes |= widgets::Button(question_->yesLabel.c_str(), ImVec2(120, 0));
    ImGui::SameLine();
    const bool no = !yes && widgets::Button(question_->noLabel.c_str(), ImVec2(120, 0));
    const bool escape = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
    if (yes || no || escape) {
        question_.reset();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
    return yes ? Answer::yes : no ? Answer::no : Answer::none;
}

}  // namespace impulse::ui
