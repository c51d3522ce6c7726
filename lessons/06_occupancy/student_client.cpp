// Lesson 06, the judge's side of the student program: the student's theoretical_occupancy and
// choose_launch_config, asked through the program the lesson builds from their files
// (student_program.cpp, occupancy_protocol.hpp). Each call is one run of that program, however
// many questions it carries; the answers are only numbers, which the callers check.
//
//   build/sim/lessons/lesson06_host_check --modules=build/sim/modules/solution

#include "occupancy_lesson.hpp"
#include "occupancy_protocol.hpp"

#include "course/student_program.hpp"

#include <cstddef>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace lesson06::student {
namespace {

/// "<verb> <device> <kernel>", the start of every question about `device` and `kernel`.
std::string question_head(std::string_view verb, const DeviceProperties& device, const KernelAttributes& kernel)
{
    std::ostringstream text;
    text << verb;
    protocol::for_each_device_field(device, [&](const auto& field) { text << ' ' << field; });
    protocol::for_each_kernel_field(kernel, [&](const auto& field) { text << ' ' << field; });
    return text.str();
}

}  // namespace

std::vector<OccupancyResult> theoretical_occupancy(const cudaDeviceProp& device,
                                                   std::span<const OccupancyQuestion> questions)
{
    const DeviceProperties view = student_view(device);
    std::vector<std::string> lines;
    lines.reserve(questions.size());
    for (const auto& q : questions)
        lines.push_back(question_head(protocol::kOccupancyQuestion, view, q.kernel) + ' ' +
                        std::to_string(q.block_size) + ' ' + std::to_string(q.dynamic_shared_bytes));

    const course::StudentProgram program(kLesson);
    const auto answers = program.ask(lines);
    constexpr std::size_t fields = protocol::kOccupancyAnswerFields;
    std::vector<OccupancyResult> results;
    results.reserve(answers.size());
    for (const auto& answer : answers) {
        OccupancyResult result;
        result.blocks_per_sm = program.number<int>(answer, fields, 0);
        result.warps_per_sm = program.number<int>(answer, fields, 1);
        result.occupancy = program.number<double>(answer, fields, 2);
        const int limiter = program.number<int>(answer, fields, 3);
        if (limiter < 0 || limiter > static_cast<int>(Limiter::shared_memory))
            program.reject(answer, fields);
        result.limiter = static_cast<Limiter>(limiter);
        results.push_back(result);
    }
    return results;
}

std::vector<LaunchConfig> choose_launch_config(const cudaDeviceProp& device, const cudaFuncAttributes& scaled_add,
                                               std::span<const std::size_t> sizes)
{
    const std::string head = question_head(protocol::kLaunchQuestion, student_view(device), student_view(scaled_add));
    std::vector<std::string> lines;
    for (const std::size_t n : sizes)
        lines.push_back(head + ' ' + std::to_string(n));

    const course::StudentProgram program(kLesson);
    const auto answers = program.ask(lines);
    constexpr std::size_t fields = protocol::kLaunchAnswerFields;
    std::vector<LaunchConfig> configs;
    for (const auto& answer : answers)
        configs.push_back({program.number<unsigned>(answer, fields, 0), program.number<unsigned>(answer, fields, 1),
                           program.number<std::size_t>(answer, fields, 2)});
    return configs;
}

}  // namespace lesson06::student
