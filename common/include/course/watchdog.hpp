#pragma once
/// @file watchdog.hpp
/// @brief Ends a grader whose kernel never finishes, with a message instead of a silent hang.

#include <chrono>

namespace course {

/// Starts a background thread that, if the process is still running after `limit`, prints why it
/// is stopping and ends the process with exit code 124 (the code `timeout` uses). A kernel that
/// loops forever or waits at a barrier some threads never reach is the usual cause.
void start_watchdog(std::chrono::seconds limit);

}  // namespace course
