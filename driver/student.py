"""A student's commands on their own exercises: grade, hint, status and reset."""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path

from . import building, common, environment, lessons, sanitizer, simulator_pass, state, thresholds, verdict


def grade_lesson(lesson: lessons.Lesson, *, seed: int | None = None,
                 thresholds_file: Path | None = None) -> verdict.Outcome:
    """Builds and runs lesson's exercise grader for the student; remembers the outcome in .course/."""
    results_file = state.state_dir() / "results" / f"{lesson.target}.json"
    if problems := lessons.student_file_problems(lesson):
        results_file.unlink(missing_ok=True)
        outcome = verdict.Outcome("error", reason="; ".join(problems), output="\n".join(problems) + "\n")
        return remember(lesson, outcome, thresholds_file)
    # The student's modules are built on their own: a stale one must not stand in for a file that
    # no longer compiles.
    shutil.rmtree(building.build_dir() / "modules" / "exercise" / lesson.folder, ignore_errors=True)
    # The course's own programs first: a failure there is not the student's (a build tree deleted
    # or broken meanwhile, a missing tool), and is reported as such.
    ok, log = building.build_quietly([f"{lesson.target}_grader"], f"building lesson {lesson.number}'s grader")
    theirs = False
    if ok:
        ok, more = building.build_quietly([f"{lesson.target}_exercise_modules"],
                                          f"compiling your lesson {lesson.number} kernels")
        log += more
        theirs = not ok and building.failed_in_student_code(more, lesson.folder)
    if not ok:
        results_file.unlink(missing_ok=True)
        errors = building.first_compile_errors(log).replace(f"{common.ROOT}/", "")
        if theirs:
            outcome = verdict.Outcome("compile error", reason=errors, output=log)
        else:
            outcome = verdict.Outcome("error", reason=f"the course's build failed, not your code: {errors}; run "
                                      "./course doctor, then grade again (a build tree deleted while it was used "
                                      "is configured again)", output=log)
    else:
        grader = building.build_dir() / "lessons" / f"{lesson.target}_grader"
        outcome = verdict.run_grader(grader, results_file, seed=seed, thresholds=thresholds_file)
        if outcome.verdict == "pass" and outcome.backend == "gpu" and simulator_pass.wanted(lesson):
            checked = simulator_pass.check(lesson, building.build_dir() / "modules" / "exercise", outcome.seed)
            outcome.apply_simulator_pass(checked.finding, checked.note, checked.error)
        if outcome.verdict == "pass" and outcome.backend == "gpu":
            checked = sanitizer.run(grader, verdict.read_results(results_file), modules=None, seed=outcome.seed)
            outcome.apply_sanitizer(checked.finding, checked.note)
    return remember(lesson, outcome, thresholds_file)


def remember(lesson: lessons.Lesson, outcome: verdict.Outcome, thresholds_file: Path | None) -> verdict.Outcome:
    """Keeps a grading's log and verdict in .course/; returns the outcome."""
    logs = state.state_dir() / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    (logs / f"{lesson.target}.log").write_text(outcome.output)
    progress = state.load_state()
    progress["lessons"][lesson.number] = {"verdict": outcome.verdict, "reason": outcome.reason,
                                          "when": common.now_text(), "seed": outcome.seed,
                                          "thresholds": str(thresholds_file) if thresholds_file else None}
    state.save_state(progress)
    return outcome


def describe(outcome: verdict.Outcome) -> str:
    """One paragraph about a grading, for a student."""
    if outcome.verdict == "pass":
        ratios = ", ".join(f"{s['check']} {s['ratio']:.2f}{verdict.unit(s)} "
                           f"(threshold {s['threshold']:.2f}{verdict.unit(s)})" for s in outcome.speed)
        notes = "; ".join(note for note in (outcome.simulator, outcome.sanitizer) if note)
        checked = f" ({notes})" if notes else ""
        return "PASS" + (f": {ratios}" if ratios else "") + checked
    if outcome.verdict == "skipped":
        return (f"cannot grade here: {outcome.reason}. Your code compiled, but grading needs an NVIDIA GPU: "
                "this is not a pass (run it where there is a GPU).")
    if outcome.verdict == "compile error":
        return f"COMPILE ERROR: {outcome.reason}"
    label = {"fail": "FAIL", "fault": "FAULT", "timeout": "TIMEOUT", "error": "ERROR"}.get(outcome.verdict,
                                                                                         outcome.verdict.upper())
    return f"{label}: {outcome.reason}"


def grade(chosen: list[lessons.Lesson], *, seed: int | None, thresholds_file: Path | None,
          on_simulator: bool) -> int:
    """./course grade [NN ...]: grades the student's exercises, a line per lesson."""
    building.say_backend("grading", on_simulator)
    environment.ensure_environment(verbose=False)
    thresholds.check_thresholds(thresholds_file)
    failed = skipped = 0
    for lesson in chosen:
        outcome = grade_lesson(lesson, seed=seed, thresholds_file=thresholds_file)
        failed += outcome.verdict not in ("pass", "skipped")
        skipped += outcome.verdict == "skipped"
        text = describe(outcome)
        if outcome.verdict not in ("pass", "skipped"):
            seed_text = f"seed {outcome.seed}, " if outcome.seed is not None else ""
            text += f" ({seed_text}full log: {common.shown(state.state_dir() / 'logs' / f'{lesson.target}.log')})"
        print(f"lesson {lesson.number} {lesson.title}: {text}", flush=True)
        if outcome.overrides:
            print(f"  {thresholds.describe_overrides(outcome, thresholds_file)}", flush=True)
    print(state.progress_bar(), flush=True)
    if skipped and not failed:
        common.say(f"{skipped} of {len(chosen)} lessons could not be graded here (no GPU): not passed")
    return 1 if failed else common.SKIPPED if skipped else 0


def next_hint(lesson: lessons.Lesson) -> str:
    """Reveals one more hint (remembered in .course/state.json); the text to print."""
    hints = lessons.read_hints(lesson)
    if not hints:
        return f"lesson {lesson.number} has no hints (lessons/{lesson.folder}/hints.md)"
    progress = state.load_state()
    shown = min(int(progress["hints"].get(lesson.number, 0)), len(hints))
    if shown >= len(hints):
        return (f"all {len(hints)} hints of lesson {lesson.number} are shown; here is the last one again.\n\n"
                f"Hint {len(hints)} of {len(hints)}:\n{hints[-1]}\n\n"
                f"(./course hint {lesson.number} --all shows them all)")
    progress["hints"][lesson.number] = shown + 1
    state.save_state(progress)
    more = f"; ./course hint {lesson.number} shows the next" if shown + 1 < len(hints) else "; that was the last"
    return f"Hint {shown + 1} of {len(hints)} for lesson {lesson.number}{more}:\n\n{hints[shown]}"


def hint(lesson: lessons.Lesson, *, show_all: bool = False, forget: bool = False) -> int:
    """./course hint NN: the next hint; --all: those shown so far; --reset: hides them again."""
    if forget:
        progress = state.load_state()
        progress["hints"].pop(lesson.number, None)
        state.save_state(progress)
        print(f"lesson {lesson.number}: hints hidden again")
        return 0
    if show_all:
        hints = lessons.read_hints(lesson)
        shown = min(int(state.load_state()["hints"].get(lesson.number, 0)), len(hints))
        if not shown:
            print(f"no hints of lesson {lesson.number} shown yet; ./course hint {lesson.number} shows the first")
        for i in range(shown):
            print(f"Hint {i + 1} of {len(hints)}:\n{hints[i]}\n")
        return 0
    print(next_hint(lesson))
    return 0


def shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def status() -> int:
    """./course status: every check's last verdict and measured ratio against its threshold."""
    progress = state.load_state()
    rows: list[tuple[str, str, str, str]] = []
    for lesson in lessons.all_lessons():
        last = progress["lessons"].get(lesson.number)
        name = f"{lesson.number} {lesson.title}"
        if not last:
            rows.append((name, "(not graded yet)", "", ""))
            continue
        results = verdict.read_results(state.state_dir() / "results" / f"{lesson.target}.json")
        cases = (results or {}).get("cases") or []
        if last["verdict"] in ("compile error", "skipped", "error") or not cases:
            rows.append((name, f"{last['verdict']}: {shorten(last.get('reason', ''), 70)}", last["verdict"], ""))
        for case in cases:
            case_verdict = {"pass": "pass", "fail": "FAIL"}.get(case.get("verdict"), case.get("verdict", "?"))
            speed = "; ".join(f"{s['ratio']:.2f}{verdict.unit(s)} / {s['threshold']:.2f}{verdict.unit(s)}"
                              + ("*" if s.get("threshold_source") not in (None, "grader") else "")
                              for s in case.get("speed", []))
            rows.append((name, shorten(case.get("name", "?"), 64), case_verdict, speed))
            name = ""
        if last["verdict"] == "timeout" and cases:
            rows.append(("", shorten(last.get("reason", ""), 64), "TIMEOUT", ""))
        seed = f", seed {last['seed']}" if last.get("seed") is not None else ""
        rows.append(("", f"graded {last.get('when', '?')}{seed}", "", ""))
    header = ("lesson", "check", "verdict", "ratio / threshold")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip())
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    print(state.progress_bar(progress))
    if any(row[3].count("*") for row in rows):
        print("* threshold from a thresholds file (--thresholds / COURSE_THRESHOLDS)")
    return 0


def reset(lesson: lessons.Lesson) -> int:
    """./course reset NN: the starter back in exercises/NN_name/, the student's files kept in
    .course/backups/."""
    starter = lessons.starter_files(lesson)
    if starter is None:
        common.fail(f"cannot find lesson {lesson.number}'s starter: neither git's HEAD nor "
                    f"starters/{lesson.folder} has it")
    target = common.exercises_dir() / lesson.folder
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    backup = state.state_dir() / "backups" / f"{stamp}_{lesson.folder}"
    restored = 0
    for name, content in starter.items():
        path = target / name
        if path.is_file() and path.read_bytes() == content:
            continue
        if path.exists() or path.is_symlink():
            # Whatever stands in the file's place (the student's version, a folder, a link) is kept.
            (backup / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.move(path, backup / name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        restored += 1
        print(f"restored {common.shown(path)}")
    if not restored:
        print(f"lesson {lesson.number}: the exercise is already the starter; nothing changed")
        return 0
    if backup.exists():
        print(f"your version is kept in {common.shown(backup)}")
    progress = state.load_state()
    progress["lessons"].pop(lesson.number, None)
    state.save_state(progress)
    return 0
