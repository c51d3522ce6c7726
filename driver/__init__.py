"""The course's driver, run as ./course (the script beside this folder): build and run lessons, grade
exercises and classes, release the course to students, test the course itself.

    cli.py           the command line: the commands in order, the overview, parsers and dispatch
    command.py       what a command is (name, overview lines, synopsis, arguments, run), shared options
    common.py        the course's folder, exit codes, messages
    lessons.py       the lessons, their hints and their starter files
    environment.py   what the machine needs (tools, Debian packages, a GPU); installs them on CI
    building.py      presets and build trees: configuring, building, the compiler's first errors
    state.py         the student's progress (.course/state.json)
    verdict.py       running a grader, its results channel, the verdict
    thresholds.py    a thresholds file: read, checked against the graders, which entries applied
    student.py       grade (a student's lessons; a class through batch.py), hint, status, reset
    watch.py         watch: regrade on save
    demos.py         run and trace: a lesson's demo
    nvidia_tools.py  profile and sanitize: Nsight Compute and compute-sanitizer over a demo
    sanitizer.py     the GPU grading's compute-sanitizer pass over a passed lesson
    simulator_pass.py  the GPU grading's simulator pass: what only the simulator sees, on the same modules
    submission.py    one student's submission to a class's grading
    batch.py         grading a class of submissions
    reports.py       a graded class's reports
    release.py       the students' copy of the course
    docs.py          the HTML reference
    selfcheck.py     test and doctor
    ctest_progress.py  ctest's output with a progress line every half minute
    authoring.py     dev: check, readme, new

Everything that matters happens in CMake, CTest and the C++ programs; the driver only chooses a build
tree, builds what a command needs and runs it. Standard library only.
"""
