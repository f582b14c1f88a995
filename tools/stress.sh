#!/usr/bin/env bash
# Runs every damaged-input test of every element many times while the CPUs
# are busy, to catch hangs and crashes that only show up now and then.
#
#   tools/stress.sh [--count N] [--slow-count M] [--build DIR] [--only REGEX]
#                   [--busy K] [--timeout S] [--gst-launch | --no-gst-launch]
#
#   --count N       runs of each fast case (the cudaflacdec damaged-input
#                   cases, a fraction of a second each); default 100
#   --slow-count M  runs of each slow case (the other elements' damaged-input
#                   tests, 3-20 s each); default N/50, at least 1
#   --build DIR     meson build folder to take the tests from; default build
#   --only REGEX    only the cases whose name matches (grep -E)
#   --busy K        busy loops running beside the tests; default 2 (one per
#                   core of the 2-core machines); always killed on exit
#   --timeout S     a run still going after S seconds counts as a hang;
#                   default 60 for fast cases, 600 for slow ones
#   --gst-launch    also run the cudaflacdec cases as gst-launch-1.0 lines
#                   (default only with gst-launch-1.0 1.26 or newer: before
#                   that, gst-launch-1.0 quits its main loop from a bus sync
#                   handler, and an error posted while it is still in
#                   gst_element_set_state (PAUSED) is lost, leaving it in
#                   the main loop for ever whatever the element does)
#
# The defaults take about 10 minutes on 2 cores. Each run is under
# `timeout`, in a process group of its own (gst-check forks). Prints a table
# of passes, failures, hangs (timeouts), crashes (signals) and skips per
# case; the output of the first failing runs of each case is kept under
# DIR/stress-logs. Exits 1 if anything hung or crashed, 2 if anything only
# failed, else 0.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
count=100
slow_count=""
build="$root/build"
only=""
busy=2
timeout=""
gst_launch=auto
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count=$2; shift 2 ;;
    --slow-count) slow_count=$2; shift 2 ;;
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --only) only=$2; shift 2 ;;
    --busy) busy=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --gst-launch) gst_launch=yes; shift ;;
    --no-gst-launch) gst_launch=no; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "stress.sh: unknown option $1" >&2; exit 64 ;;
  esac
done
[ -n "$slow_count" ] || slow_count=$(( count / 50 > 0 ? count / 50 : 1 ))
if [ "$gst_launch" = auto ]; then
  v=$(gst-launch-1.0 --version 2>/dev/null | sed -n 's/.*version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p' | head -n1)
  gst_launch=no
  if [ -n "$v" ] && [ "${v% *}" -eq 1 ] && [ "${v#* }" -ge 26 ]; then gst_launch=yes; fi
fi
[ -f "$build/build.ninja" ] || { echo "stress.sh: no meson build in $build" >&2; exit 64; }
meson compile -C "$build" > /dev/null

busy_pids=()
stop_busy() {
  local p
  for p in "${busy_pids[@]}"; do kill "$p" 2> /dev/null || true; done
  for p in "${busy_pids[@]}"; do wait "$p" 2> /dev/null || true; done
  busy_pids=()
}
trap stop_busy EXIT
trap 'exit 130' INT TERM
for ((i = 0; i < busy; i++)); do
  (while :; do :; done) &
  busy_pids+=($!)
done

cases=$(mktemp)
trap 'stop_busy; rm -f "$cases"' EXIT
# One line per case: name, runs, timeout, then the JSON of the meson test
# with GST_CHECKS added (or a gst-launch-1.0 line).
meson introspect --tests "$build" | python3 -c '
import json, sys, re
count, slow, timeout, only, gst_launch, build = sys.argv[1:7]
tests = {t["name"]: t for t in json.load(sys.stdin)}
def emit(name, runs, tmo, test, checks=None):
    if only and not re.search(only, name):
        return
    t = dict(test)
    t["env"] = dict(t["env"])
    if checks:
        t["env"]["GST_CHECKS"] = checks
    print("\t".join([name, str(runs), str(tmo), json.dumps(t)]))
fast_t = timeout or "60"
slow_t = timeout or "600"
flac_cases = ["test_damaged_no_streaminfo", "test_damaged_no_streaminfo_no_marker",
              "test_damaged_truncated", "test_damaged_flipped_bytes", "test_damaged_garbage"]
# The FLAC cases keep their files in one folder (they run one after the
# other), where the gst-launch-1.0 cases find the damaged ones.
flac_scratch = build + "/stress-scratch"
for backend in ("cpu", "auto"):
    t = tests.get("cudaflacdec-" + backend)
    if t:
        t = dict(t)
        t["env"] = dict(t["env"], GPC_FLAC_SCRATCH=flac_scratch)
        for c in flac_cases:
            emit("cudaflacdec-%s:%s" % (backend, c), count, fast_t, t, c)
t = tests.get("cudaflacdec-cpu")
if t and gst_launch == "yes":
    scratch = flac_scratch + "/element-cpu/"
    for f in ("nosi.flac", "nosi-nomarker.flac", "truncated.flac", "flipped.flac", "garbage.flac"):
        launch = dict(t)
        launch["cmd"] = ["gst-launch-1.0", "-q", "filesrc", "location=" + scratch + f, "!",
                         "cudaflacdec", "backend=cpu", "!", "fakesink"]
        launch["launch"] = True
        emit("gst-launch:" + f, count, fast_t, launch)
for name, checks in (("vkproresdec", "damaged_frames"), ("vkvvcalf", "bad_parameters"),
                     ("alf-params-corrupt", None), ("test-prores-robustness", None),
                     ("flac-robustness", None)):
    if name in tests:
        emit(name + (":" + checks if checks else ""), slow, slow_t, tests[name], checks)
' "$count" "$slow_count" "$timeout" "$only" "$gst_launch" "$build" > "$cases"

logs="$build/stress-logs"
rm -rf "$logs" "$build/stress-scratch"
mkdir -p "$logs"
echo "stress: $(wc -l < "$cases") cases, $count runs of each fast one and $slow_count of each slow one," \
  "$busy busy loop(s); gst-launch-1.0 cases: $gst_launch"

# Runs one case `runs` times; prints "name runs pass fail hang crash skip".
run_case() {
  python3 -c '
import json, os, signal, subprocess, sys, re
name, runs, tmo, spec, logs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4]), sys.argv[5]
env = dict(os.environ)
env.update(spec["env"])
env["CK_DEFAULT_TIMEOUT"] = str(tmo + 60)  # ours fires first
cmd = ["timeout", "-k", "5", str(tmo)] + spec["cmd"]
n = {"pass": 0, "fail": 0, "hang": 0, "crash": 0, "skip": 0}
kept = 0
safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
for i in range(runs):
    p = subprocess.Popen(cmd, cwd=spec.get("workdir") or None, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    out, _ = p.communicate()
    try:
        os.killpg(p.pid, signal.SIGKILL)  # forked test children left behind
    except ProcessLookupError:
        pass
    rc = p.returncode
    text = out.decode("utf-8", "replace")
    if rc in (124, 137) or "Test timeout expired" in text:
        kind = "hang"
    elif rc < 0 or rc > 128 or re.search(r"Received signal \d+", text):
        kind = "crash"
    elif rc == 77:
        kind = "skip"
    elif rc == 0 or (spec.get("launch") and rc == 1):  # gst-launch-1.0: 1 is an error that ended it
        kind = "pass"
    else:
        kind = "fail"
    n[kind] += 1
    if kind not in ("pass", "skip") and kept < 5:
        kept += 1
        with open(os.path.join(logs, "%s-%d.log" % (safe, i)), "w") as f:
            f.write("exit %d (%s)\n%s" % (rc, kind, text))
print(name, runs, n["pass"], n["fail"], n["hang"], n["crash"], n["skip"])
' "$@" "$logs"
}

results=()
start=$(date +%s)
while IFS=$'\t' read -r name runs tmo spec; do
  line=$(run_case "$name" "$runs" "$tmo" "$spec")
  results+=("$line")
  echo "  $line  ($(( $(date +%s) - start )) s)"
done < "$cases"

echo
printf '%-58s %6s %6s %6s %6s %6s %6s\n' case runs pass fail hang crash skip
hang=0 crash=0 fail=0
for line in "${results[@]}"; do
  read -r name runs p f h c s <<< "$line"
  printf '%-58s %6s %6s %6s %6s %6s %6s\n' "$name" "$runs" "$p" "$f" "$h" "$c" "$s"
  hang=$((hang + h)) crash=$((crash + c)) fail=$((fail + f))
done
echo "total: $hang hang(s), $crash crash(es), $fail failure(s) in $(( $(date +%s) - start )) s; logs in $logs"
[ $((hang + crash)) -eq 0 ] || exit 1
[ "$fail" -eq 0 ] || exit 2
