// The schedule launches run under (include/cudasim/schedule.hpp): CUDASIM_SCHEDULE at start-up,
// then whatever the program sets.
#include <cudasim/schedule.hpp>

#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <system_error>

namespace cudasim {
namespace {

// CUDASIM_SCHEDULE: a seed, or "random" for a fresh one; printed either way, so that the run can
// be repeated. A value that is neither stops the program: a checking run must not quietly run in
// order.
uint64_t schedule_from_environment()
{
    const char* env = std::getenv("CUDASIM_SCHEDULE");
    if (env == nullptr || *env == '\0')
        return kInOrder;
    const std::string_view text(env);
    uint64_t seed = 0;
    if (text == "random") {
        seed = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) | 1;
    } else {
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
        if (error != std::errc{} || end != text.data() + text.size()) {
            std::fprintf(stderr, "cudasim: CUDASIM_SCHEDULE=%s: give a number (0: in order) or 'random'\n", env);
            std::exit(2);
        }
    }
    if (seed != kInOrder)
        std::fprintf(stderr, "cudasim: warps run under schedule %llu (CUDASIM_SCHEDULE=%llu repeats it)\n",
                     static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
    return seed;
}

std::atomic<uint64_t>& current_schedule()
{
    static std::atomic<uint64_t> seed{schedule_from_environment()};
    return seed;
}

}  // namespace

void set_schedule(uint64_t seed)
{
    current_schedule() = seed;
}

uint64_t schedule()
{
    return current_schedule();
}

}  // namespace cudasim
