#include "course/student_program.hpp"

#include "course/module.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace course {
namespace {

/// How much of the program's standard error the judge keeps (and shows).
constexpr std::size_t kStderrKept = 16 * 1024;

/// A file descriptor closed when it goes out of scope.
class Descriptor {
public:
    explicit Descriptor(int fd = -1) : fd_(fd) {}
    ~Descriptor() { reset(); }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    [[nodiscard]] int get() const { return fd_; }
    void reset()
    {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = -1;
    }

private:
    int fd_;
};

[[noreturn]] void system_error(const std::string& what)
{
    throw StudentProgramError("error: the student program could not be run: " + what + ": " + std::strerror(errno));
}

/// `fd` moved to 10 or above (close-on-exec), so that the child's dup2 onto 0 to 4 never
/// overwrites a descriptor it has yet to move.
int above_child_slots(int fd)
{
    if (fd < 0)
        return fd;
    const int moved = fcntl(fd, F_DUPFD_CLOEXEC, 10);
    ::close(fd);
    if (moved < 0)
        system_error("fcntl(F_DUPFD_CLOEXEC)");
    return moved;
}

/// The folder the program runs in, removed with everything in it afterwards.
class TemporaryFolder {
public:
    TemporaryFolder()
    {
        std::string pattern = (std::filesystem::temp_directory_path() / "course_student_XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            system_error("mkdtemp(" + pattern + ")");
        path_ = pattern;
    }
    ~TemporaryFolder()
    {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TemporaryFolder(const TemporaryFolder&) = delete;
    TemporaryFolder& operator=(const TemporaryFolder&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// Landlock's kernel interface (linux/landlock.h), written out here so that the sandbox does not
// depend on how recent the installed kernel headers are: the kernel says which version it speaks,
// and the ruleset asks for no more than that.
struct LandlockRulesetAttributes {
    std::uint64_t handled_access_fs = 0;
    std::uint64_t handled_access_net = 0;  // version 4 and later
    std::uint64_t scoped = 0;              // version 6 and later
};
struct [[gnu::packed]] LandlockPathBeneath {
    std::uint64_t allowed_access = 0;
    std::int32_t parent_fd = -1;
};
constexpr long kLandlockCreateRuleset = 444;  // the same number on every architecture
constexpr long kLandlockAddRule = 445;
constexpr long kLandlockRestrictSelf = 446;
constexpr unsigned kLandlockVersionQuery = 1U << 0;
constexpr int kLandlockRulePathBeneath = 1;
constexpr std::uint64_t kExecute = 1ULL << 0;
constexpr std::uint64_t kReadFile = 1ULL << 2;

/// A Landlock ruleset (Linux 5.13 and later) that leaves the program nothing of the file system but
/// executing itself: no other program to run (the course's reference program, say), no file to
/// remove, rename, link or create; and, where the kernel offers them, no TCP and no signal to a
/// process outside it (the judge). -1 where the kernel has no Landlock: the limits still hold.
int sandbox_for(const std::filesystem::path& program)
{
    const long version = syscall(kLandlockCreateRuleset, nullptr, 0, kLandlockVersionQuery);
    if (version < 1)
        return -1;
    LandlockRulesetAttributes attributes;
    attributes.handled_access_fs = (1ULL << 13) - 1;  // version 1: execute, read, write, make, remove
    if (version >= 2)
        attributes.handled_access_fs |= 1ULL << 13;  // refer: link or rename across folders
    if (version >= 3)
        attributes.handled_access_fs |= 1ULL << 14;  // truncate
    if (version >= 4)
        attributes.handled_access_net = (1ULL << 0) | (1ULL << 1);  // bind and connect TCP
    if (version >= 5)
        attributes.handled_access_fs |= 1ULL << 15;  // ioctl on devices
    if (version >= 6)
        attributes.scoped = (1ULL << 0) | (1ULL << 1);  // abstract UNIX sockets and signals
    const int ruleset = int(syscall(kLandlockCreateRuleset, &attributes, sizeof attributes, 0));
    if (ruleset < 0)
        return -1;
    const Descriptor file(::open(program.c_str(), O_PATH | O_CLOEXEC));
    LandlockPathBeneath rule;
    rule.allowed_access = kExecute | kReadFile;
    rule.parent_fd = file.get();
    if (file.get() < 0 || syscall(kLandlockAddRule, ruleset, kLandlockRulePathBeneath, &rule, 0) != 0) {
        ::close(ruleset);
        return -1;
    }
    return ruleset;
}

/// Where starting the program failed, as the child reports it on the exec-status pipe.
struct StartFailure {
    int step = 0;  ///< an index into kSteps
    int error = 0;
};
constexpr const char* kSteps[] = {"chdir into its folder", "setrlimit", "the Landlock sandbox", "execve"};

/// In the forked child, before exec: only async-signal-safe calls (the judge may have threads).
[[noreturn]] void become_student_program(const char* program, const char* folder, int in, int out, int err,
                                         int exec_status, int sandbox, pid_t judge, const StudentProgramLimits& limits)
{
    setpgid(0, 0);
    // Killed with the judge, whichever way the judge ends.
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != judge)
        _exit(127);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    signal(SIGPIPE, SIG_DFL);
    auto fail = [](int step, int error) {
        const StartFailure failure{step, error};
        [[maybe_unused]] const auto written = write(3, &failure, sizeof failure);
        _exit(127);
    };
    // 0, 1, 2, the exec-status pipe at 3 (closed by a successful exec) and the sandbox's ruleset at
    // 4 until it is applied; nothing else stays open.
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0 || dup2(exec_status, 3) < 0 ||
        (sandbox >= 0 && dup2(sandbox, 4) < 0))
        _exit(127);
    for (int fd = 0; fd <= 3; ++fd)
        if (fcntl(fd, F_SETFD, fd == 3 ? FD_CLOEXEC : 0) < 0)
            _exit(127);
    const unsigned first_closed = sandbox >= 0 ? 5 : 4;
    if (close_range(first_closed, ~0U, 0) != 0)
        for (int fd = int(first_closed); fd < 65536; ++fd)
            close(fd);
    if (chdir(folder) != 0)
        fail(0, errno);
    const auto seconds = rlim_t(limits.cpu_seconds);
    const struct {
        int resource;
        rlimit limit;
    } rules[] = {
        {RLIMIT_CPU, {seconds, seconds + 1}},  // SIGXCPU at the soft limit, SIGKILL at the hard one
        {RLIMIT_FSIZE, {0, 0}},
        {RLIMIT_NOFILE, {3, 3}},
        {RLIMIT_AS, {rlim_t(limits.address_space_bytes), rlim_t(limits.address_space_bytes)}},
        {RLIMIT_CORE, {0, 0}},
        {RLIMIT_NPROC, {0, 0}},  // no process of its own (not enforced for root)
    };
    for (const auto& rule : rules)
        if (setrlimit(rule.resource, &rule.limit) != 0)
            fail(1, errno);
    if (sandbox >= 0) {
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(kLandlockRestrictSelf, 4, 0) != 0)
            fail(2, errno);
        close(4);
    }
    char* const argv[] = {const_cast<char*>(program), nullptr};
    char* const envp[] = {nullptr};
    execve(program, argv, envp);
    fail(3, errno);
    _exit(127);  // not reached
}

/// What one run produced.
struct Outcome {
    std::string out;
    std::string err;
    std::size_t err_cut = 0;  ///< bytes of standard error not kept
    bool timed_out = false;
    bool too_much_output = false;
    int status = 0;  ///< from waitpid
};

void set_nonblocking(int fd)
{
    const int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
        system_error("fcntl(O_NONBLOCK)");
}

Outcome run_child(const std::filesystem::path& program, const std::string& input, const StudentProgramLimits& limits)
{
    // Standard input is a socket, so that writing to a program that has stopped reading fails
    // with EPIPE (MSG_NOSIGNAL) instead of raising SIGPIPE in the judge.
    int in_pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in_pair) != 0)
        system_error("socketpair");
    Descriptor in_judge(in_pair[0]), in_child(above_child_slots(in_pair[1]));
    int out_pipe[2], err_pipe[2], status_pipe[2];
    if (pipe2(out_pipe, O_CLOEXEC) != 0)
        system_error("pipe2");
    Descriptor out_judge(out_pipe[0]), out_child(above_child_slots(out_pipe[1]));
    if (pipe2(err_pipe, O_CLOEXEC) != 0)
        system_error("pipe2");
    Descriptor err_judge(err_pipe[0]), err_child(above_child_slots(err_pipe[1]));
    if (pipe2(status_pipe, O_CLOEXEC) != 0)
        system_error("pipe2");
    Descriptor status_judge(status_pipe[0]), status_child(above_child_slots(status_pipe[1]));

    const TemporaryFolder folder;
    const Descriptor sandbox(above_child_slots(sandbox_for(program)));
    const std::string program_text = program.string();
    const std::string folder_text = folder.path().string();
    const pid_t judge = getpid();
    const pid_t pid = fork();
    if (pid < 0)
        system_error("fork");
    if (pid == 0)
        become_student_program(program_text.c_str(), folder_text.c_str(), in_child.get(), out_child.get(),
                               err_child.get(), status_child.get(), sandbox.get(), judge, limits);
    setpgid(pid, pid);  // as the child does: whichever runs first
    in_child.reset();
    out_child.reset();
    err_child.reset();
    status_child.reset();

    Outcome outcome;
    const auto kill_all = [pid] {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
    };
    StartFailure failure;
    if (read(status_judge.get(), &failure, sizeof failure) == sizeof failure) {
        waitpid(pid, &outcome.status, 0);
        errno = failure.error;
        system_error(std::string(kSteps[failure.step]) + " for " + program_text);
    }

    set_nonblocking(in_judge.get());
    set_nonblocking(out_judge.get());
    set_nonblocking(err_judge.get());
    const auto deadline = std::chrono::steady_clock::now() + limits.wall_clock;
    std::size_t written = 0;
    if (input.empty())
        in_judge.reset();
    char buffer[65536];
    while (out_judge.get() >= 0 || err_judge.get() >= 0) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            outcome.timed_out = true;
            break;
        }
        pollfd fds[3] = {{in_judge.get(), POLLOUT, 0}, {out_judge.get(), POLLIN, 0}, {err_judge.get(), POLLIN, 0}};
        if (poll(fds, 3, int(std::min<long long>(left.count(), 1000))) < 0) {
            if (errno == EINTR)
                continue;
            kill_all();
            waitpid(pid, nullptr, 0);
            system_error("poll");
        }
        if (fds[0].revents != 0) {
            const ssize_t sent = send(in_judge.get(), input.data() + written, input.size() - written, MSG_NOSIGNAL);
            if (sent > 0)
                written += std::size_t(sent);
            // Done, or the program stopped reading: what it answers shows what it made of it.
            if ((sent < 0 && errno != EAGAIN && errno != EINTR) || written == input.size())
                in_judge.reset();
        }
        if (fds[1].revents != 0) {
            const ssize_t got = read(out_judge.get(), buffer, sizeof buffer);
            if (got > 0)
                outcome.out.append(buffer, std::size_t(got));
            else if (got == 0 || (errno != EAGAIN && errno != EINTR))
                out_judge.reset();
            if (outcome.out.size() > limits.answer_bytes) {
                outcome.too_much_output = true;
                break;
            }
        }
        if (fds[2].revents != 0) {
            const ssize_t got = read(err_judge.get(), buffer, sizeof buffer);
            if (got > 0) {
                const std::size_t room = kStderrKept - std::min(kStderrKept, outcome.err.size());
                const std::size_t keep = std::min(std::size_t(got), room);
                outcome.err.append(buffer, keep);
                outcome.err_cut += std::size_t(got) - keep;
            } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                err_judge.reset();
            }
        }
    }
    // Its output is closed; it must still exit in time (a grandchild may hold the pipes, too).
    while (!outcome.timed_out && !outcome.too_much_output) {
        // Not reaped yet (WNOWAIT): its process group cannot be reused before it is killed below.
        siginfo_t info{};
        if (waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid)
            break;
        if (std::chrono::steady_clock::now() >= deadline)
            outcome.timed_out = true;
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    kill_all();  // whatever it left behind in its group, too
    waitpid(pid, &outcome.status, 0);
    return outcome;
}

/// The last lines of what the program wrote on its standard error, for an error message.
std::string stderr_tail(const Outcome& outcome)
{
    std::string text = outcome.err;
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    if (text.empty())
        return "";
    std::size_t start = text.size();
    for (int lines = 0; lines < 4 && start != std::string::npos && start > 0; ++lines)
        start = text.rfind('\n', start - 1);
    start = start == std::string::npos ? 0 : start + 1;
    std::string tail = text.substr(start);
    std::replace(tail.begin(), tail.end(), '\n', '|');
    return "; its standard error ends with: " + tail;
}

/// Shows what the program wrote on its standard error, marked as its own.
void show_stderr(const std::filesystem::path& program, const Outcome& outcome)
{
    if (outcome.err.empty())
        return;
    std::istringstream lines(outcome.err);
    for (std::string line; std::getline(lines, line);)
        std::cerr << "[student program " << program.string() << ", stderr] " << line << '\n';
    if (outcome.err_cut > 0)
        std::cerr << "[student program " << program.string() << ", stderr] ... " << outcome.err_cut
                  << " more bytes not shown\n";
}

bool is_number(const std::string& text)
{
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc{} && end == text.data() + text.size();
}

}  // namespace

StudentProgram::StudentProgram(std::string_view lesson, StudentProgramLimits limits) : limits_(limits)
{
    if (const auto found = find_student_file(lesson, "student_program")) {
        file_ = std::filesystem::absolute(*found);
        return;
    }
    throw StudentProgramError("error: no student program for " + std::string(lesson) + " in " + student_module_path() +
                              " (it is built from exercises/" + std::string(lesson) +
                              "/*.cpp: ./course grade and ./course run build it)");
}

std::string StudentProgram::error_prefix() const
{
    return "error: the student program " + file_.string();
}

void StudentProgram::reject(const Answer& answer, std::size_t fields) const
{
    throw StudentProgramError(error_prefix() + " printed something that is not an answer: \"" + answer.line +
                              "\" (expected " + std::to_string(fields) +
                              " numbers; print your own messages on std::cerr, not on std::cout)");
}

std::vector<Answer> StudentProgram::ask(std::span<const std::string> questions) const
{
    if (questions.empty())
        return {};
    std::string input;
    for (const auto& question : questions) {
        input += question;
        input += '\n';
    }
    const Outcome outcome = run_child(file_, input, limits_);
    show_stderr(file_, outcome);
    const std::string prefix = error_prefix();
    if (outcome.timed_out)
        throw StudentProgramError(prefix + " did not answer within " + std::to_string(limits_.wall_clock.count()) +
                                  " s (" + std::to_string(questions.size()) + " questions); it was stopped" +
                                  stderr_tail(outcome));
    if (outcome.too_much_output)
        throw StudentProgramError(prefix + " printed more than " + std::to_string(limits_.answer_bytes >> 20) +
                                  " MiB for " + std::to_string(questions.size()) + " questions; it was stopped");
    if (WIFSIGNALED(outcome.status)) {
        const int signal = WTERMSIG(outcome.status);
        std::string why = strsignal(signal);
        if (signal == SIGXCPU)
            why += ": it may use " + std::to_string(limits_.cpu_seconds) + " s of CPU time";
        throw StudentProgramError(prefix + " exited with signal " + std::to_string(signal) + " (" + why + ")" +
                                  stderr_tail(outcome));
    }
    if (WEXITSTATUS(outcome.status) != 0)
        throw StudentProgramError(prefix + " exited with status " + std::to_string(WEXITSTATUS(outcome.status)) +
                                  stderr_tail(outcome));

    std::vector<Answer> answers;
    std::istringstream lines(outcome.out);
    for (std::string line; std::getline(lines, line);) {
        Answer answer{line, {}};
        std::istringstream fields(line);
        for (std::string field; fields >> field;)
            answer.fields.push_back(field);
        if (answer.fields.empty() || !std::all_of(answer.fields.begin(), answer.fields.end(), is_number) ||
            answers.size() == questions.size())
            throw StudentProgramError(prefix + " printed something that is not an answer: \"" + line + "\" (answer " +
                                      std::to_string(answers.size() + 1) + " of " + std::to_string(questions.size()) +
                                      "; print your own messages on std::cerr, not on std::cout)");
        answers.push_back(std::move(answer));
    }
    if (answers.size() != questions.size())
        throw StudentProgramError(prefix + " answered " + std::to_string(answers.size()) + " of " +
                                  std::to_string(questions.size()) + " questions and exited" + stderr_tail(outcome));
    return answers;
}

}  // namespace course
