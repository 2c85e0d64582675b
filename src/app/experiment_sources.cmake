# The experiment library's sources (src/app), one list for the main build
# (src/app/CMakeLists.txt) and the fuzz build (fuzz/CMakeLists.txt).
set(IMPULSE_EXPERIMENT_SOURCES classroom.cpp experiment.cpp ghost_run.cpp impact_log.cpp momenta_diagram.cpp plot_samples.cpp
                               recording.cpp recovery.cpp run_csv.cpp run_history.cpp run_timeline.cpp spawn_placement.cpp
                               text_file.cpp timeline.cpp trails.cpp undo_history.cpp)
