#!/usr/bin/env bash
# How fast a class grades on this machine's GPUs: a class of STUDENTS full submissions (every
# lesson; half of them the reference solutions, half the starters as shipped), graded once per GPU
# choice with the same seed, then a table of wall times, students per hour and per GPU, and whether
# every verdict came out the same:
#
#   tools/grading_throughput.sh [STUDENTS] [GPUS...]   # 16 students; GPUS: --gpus values (all 0)
#   LESSONS=03,05 tools/grading_throughput.sh ...      # only these lessons (default: every lesson)
#
# Each grading's reports and its time go to build/throughput/gpus-<choice>/ (a grading stopped
# part-way continues there with `./course grade ... --resume`; its time.txt then holds one line per
# run, and the table adds them up).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
students=${1:-16}
shift || true
choices=("$@")
[ ${#choices[@]} -gt 0 ] || choices=(all 0)
seed=20261126
out=build/throughput
class=$out/class
if [ ! -d "$class" ]; then
  mkdir -p "$class"
  starters=$(mktemp -d)
  git archive HEAD exercises | tar -x -C "$starters"
  for i in $(seq -w 1 "$students"); do
    if [ $((10#$i % 2)) -eq 1 ]; then
      cp -r solutions "$class/reference_$i"
    else
      cp -r "$starters/exercises" "$class/starter_$i"
    fi
  done
  rm -rf "$starters"
fi
# Built before any clock starts: every grader and the reference modules in the GPU's tree, and the
# simulator graders a GPU grading also runs (lesson 09's simulator pass); the students' own builds
# are part of what is timed.
lessons=$(cd lessons && ls -d [0-9][0-9]_* | cut -c1-2)
cmake --preset gpu >/dev/null
# shellcheck disable=SC2046
cmake --build --preset gpu --target $(for n in $lessons; do echo "lesson${n}_grader lesson${n}_solution_modules"; done) \
  >"$out/build.log"
cmake --preset sim >/dev/null
cmake --build --preset sim --target lesson09_grader >>"$out/build.log"
for choice in "${choices[@]}"; do
  where=$out/gpus-$choice
  resume=()
  [ -f "$where/out/grading.json" ] && resume=(--resume)
  mkdir -p "$where"
  started=$(date +%s.%N)
  only=()
  [ -n "${LESSONS:-}" ] && only=(--lessons "$LESSONS")
  ./course grade --submissions "$class" --gpu --gpus "$choice" --seed "$seed" --out "$where/out" \
    --work "$where/work" --quiet "${only[@]}" "${resume[@]}" >>"$where/grade.log" 2>&1 || true
  awk -v a="$(date +%s.%N)" -v b="$started" 'BEGIN { printf "%.1f\n", a - b }' >>"$where/time.txt"
done
python3 - "$out" "${choices[@]}" <<'EOF'
import json, sys
from pathlib import Path

out, choices = Path(sys.argv[1]), sys.argv[2:]
verdicts, rows = {}, []
for choice in choices:
    where = out / f"gpus-{choice}"
    seconds = sum(float(line) for line in (where / "time.txt").read_text().split())
    try:
        report = json.loads((where / "out" / "results.json").read_text())
    except (OSError, ValueError):
        rows.append((choice, seconds, None, None, "no reports (see grade.log)"))
        continue
    verdicts[choice] = {(r["student"], r["lesson"]): r["verdict"] for r in report["results"]}
    students = len({r["student"] for r in report["results"]})
    gpus = len({r.get("gpu") for r in report["results"] if r.get("gpu") is not None}) or 1
    rows.append((choice, seconds, students, gpus, report.get("device", "")))
print(f"{'--gpus':>8} {'GPUs':>5} {'students':>9} {'wall s':>8} {'students/h':>11} {'per GPU':>8}  device")
for choice, seconds, students, gpus, device in rows:
    if students is None:
        print(f"{choice:>8} {'':>5} {'':>9} {seconds:8.0f}  {device}")
        continue
    rate = students * 3600 / seconds
    print(f"{choice:>8} {gpus:5d} {students:9d} {seconds:8.0f} {rate:11.0f} {rate / gpus:8.0f}  {device}")
if len(verdicts) > 1:
    first, *others = verdicts.values()
    same = all(other == first for other in others)
    print("verdicts: " + ("the same in every grading" if same else "DIFFERENT between the gradings"))
    for choice, other in verdicts.items():
        tally = {}
        for verdict in other.values():
            tally[verdict] = tally.get(verdict, 0) + 1
        print(f"  --gpus {choice}: " + ", ".join(f"{v} {n}" for v, n in sorted(tally.items())))
EOF
