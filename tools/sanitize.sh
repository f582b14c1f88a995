#!/usr/bin/env bash
# Checked builds of the tree, each in its own build directory
# (build-sanitize-<mode>), for CI and local runs:
#
#   tools/sanitize.sh thread    [meson test args]  ThreadSanitizer
#   tools/sanitize.sh address   [meson test args]  AddressSanitizer (+ leaks)
#   tools/sanitize.sh undefined [meson test args]  UndefinedBehaviorSanitizer
#   tools/sanitize.sh debug     [meson test args]  buildtype=debug, no sanitizer
#   tools/sanitize.sh odr                          link-time optimisation with
#                                                  -Werror=odr (build only)
#
# Test modes run the suite (or the tests named in the arguments, e.g.
# `vkvvcalf two-devices --timeout-multiplier 10`) and end with one line per
# test: its result and how many sanitizer reports have a frame in our code
# versus elsewhere only. Exit status: non-zero when a test failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}
[ $# -gt 0 ] && shift
build=$root/build-sanitize-$mode

setup=(--buildtype=debugoptimized -Dbenchmarks=false)
case "$mode" in
  thread) setup+=(-Db_sanitize=thread -Db_lundef=false) ;;
  address) setup+=(-Db_sanitize=address -Db_lundef=false) ;;
  undefined) setup+=(-Db_sanitize=undefined -Db_lundef=false) ;;
  debug) setup=(--buildtype=debug) ;;
  odr) setup=(-Db_lto=true -Dodr_check=true -Dbenchmarks=true) ;;
  *)
    sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
    ;;
esac

if [ -d "$build" ]; then
  meson configure "$build" "${setup[@]}"
else
  meson setup "$build" "$root" "${setup[@]}"
fi
log=$build/meson-logs/build.txt
if ! meson compile -C "$build" 2>&1 | tee "$log"; then
  echo "sanitize.sh: $mode build failed" >&2
  exit 1
fi
if [ "$mode" = odr ]; then
  # -Werror=odr fails the link on the first violation; count warnings too
  # in case a toolchain demotes them.
  n=$(grep -c 'One Definition Rule' "$log" || true)
  echo "odr: linked with $n One Definition Rule reports"
  [ "$n" -eq 0 ]
  exit
fi

# gst-check forks every test by default, which ThreadSanitizer does not
# follow; the registry scan runs in-process, as a plugin scanner without the
# sanitizer runtime cannot load our instrumented plugins.
export CK_FORK=no GST_REGISTRY_FORK=no
# The sanitizer options and preloads go to the tests through meson's
# --wrapper, never to meson itself, and after each test's own environment,
# which cannot override them.
case "$mode" in
  thread)
    # GLib 2.74's slice allocator recycles memory without free(): with
    # always-malloc, ThreadSanitizer sees each object's end, and forgets the
    # mutexes in it (else a mutex of a freed object lives on in the next
    # one at its address, making up lock-order cycles).
    wrapper=(env "LD_PRELOAD=$build/tests/libgpc-tsan-glib.so" G_SLICE=always-malloc
      "TSAN_OPTIONS=suppressions=$root/tests/common/tsan.supp:history_size=4:second_deadlock_stack=1:exitcode=66")
    ;;
  address)
    # tests/common/asan-preload.c says why; built without the sanitizer, as
    # the programs that tests run (bash, gst-launch-1.0) get it too, and
    # preloaded ahead of the ASan runtime, which is fine for a library that
    # defines no function ASan intercepts but dlclose. The exact unwinder, 16
    # frames deep: deep enough to get past GObject's and GLib's allocation
    # functions to the caller in our code (and to GLib's constructors'
    # callers, which lsan.supp names), and cheaper than the default 30.
    cc -O2 -shared -fPIC -o "$build/gpc-asan-preload.so" "$root/tests/common/asan-preload.c"
    # GLib 2.74's slice allocator hands out pieces of bigger blocks that it
    # keeps; always-malloc gives ASan each object (GstBuffer, GstMessage...)
    # to track, and gc-friendly clears freed pointers that would otherwise
    # keep leaked memory reachable.
    wrapper=(env "LD_PRELOAD=$build/gpc-asan-preload.so" G_SLICE=always-malloc G_DEBUG=gc-friendly
      "ASAN_OPTIONS=detect_leaks=1:exitcode=66:verify_asan_link_order=0:fast_unwind_on_malloc=0:malloc_context_size=16"
      "LSAN_OPTIONS=suppressions=$root/tests/common/lsan.supp:print_suppressions=0")
    ;;
  undefined)
    wrapper=(env "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=0")
    ;;
  debug)
    wrapper=()
    ;;
esac

runner=()
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && command -v xvfb-run > /dev/null; then
  runner=(xvfb-run -a -s "-screen 0 1280x720x24")
fi
args=("$@")
if [ ${#args[@]} -eq 0 ] && [ "$mode" != debug ]; then
  # The docs suite runs Python and installed tools, outside the sanitizer.
  args=(--no-suite docs)
fi
if [ ${#wrapper[@]} -gt 0 ]; then
  args=(--wrapper "${wrapper[*]}" "${args[@]}")
fi
# Checked code runs several times slower (the exact unwinder of `address`
# most); a timeout multiplier given in the arguments comes later and wins.
if [ "$mode" != debug ]; then
  args=(--timeout-multiplier 4 "${args[@]}")
fi
rc=0
"${runner[@]}" meson test -C "$build" --print-errorlogs --num-processes "$(nproc)" \
  "${args[@]}" || rc=$?

# meson names the log after the wrapper when there is one.
testlog=$(ls -t "$build"/meson-logs/testlog*.json | head -n 1)
python3 - "$testlog" "$root" <<'PY'
import json, re, sys

log, root = sys.argv[1], sys.argv[2] + "/"
starts = re.compile(r"WARNING: ThreadSanitizer:|ERROR: AddressSanitizer:|"
                    r"(Direct|Indirect) leak of|runtime error:")
# A stack frame in our code: our binaries and libraries, or our sources
# (relative to the build directory), other than main() and the TSan shim.
frame = re.compile(r"^\s*#\d+ ")
ours_re = re.compile(r"\((lib)?(gstgpucodecs|test-)|\s\.\./(ext|gst|tests|benchmarks|examples)/|"
                     + re.escape(root))

skip = re.compile(r"sanitizer|tsan_|asan_|tsan-glib\.c|/usr/include/c\+\+|\(lib(a|t|ub)san\.so")
# ThreadSanitizer: the stacks that say where a report happened, an access
# (read, write, atomic) or a lock taken; stacks of where a thread or mutex
# was created are context. UndefinedBehaviorSanitizer: the one stack.
site = re.compile(r"(read|write|atomic|acquired|runtime error)", re.I)
# AddressSanitizer and LeakSanitizer: memory that was lost or misused is
# ours when any frame of its stacks (allocation, free, access) is, since the
# allocation is often made by a library function that hands the memory to
# its caller (g_strdup, gst_pad_get_stream_id). Known leaks of system
# libraries are suppressed before they are printed (lsan.supp).
memory = re.compile(r"(leak of|AddressSanitizer:)")

def first_frame(stack):
    for line in stack:
        if not skip.search(line):
            return line
    return stack[0] if stack else ""

def is_ours(frame_line):
    return (ours_re.search(frame_line) and " in main " not in frame_line
            and " in _start " not in frame_line and "/subprojects/" not in frame_line)

def report_is_ours(lines):
    """Whether a report has a frame of ours where it counts: the first frame
    outside the sanitizer of an access or lock stack, or any frame of a
    memory error or leak."""
    if lines and memory.search(lines[0]):
        return any(frame.match(l) and is_ours(l) for l in lines)
    header, stack = "", []
    def done():
        return bool(stack) and bool(site.search(header)) and bool(is_ours(first_frame(stack)))
    for line in lines:
        if frame.match(line):
            stack.append(line)
            continue
        if done():
            return True
        header, stack = line, []
    return done()

def reports(text):
    """(ours, elsewhere) sanitizer reports in a test's output. An indirect
    leak is memory reachable only from a directly leaked block: it is ours
    when a direct leak of the same process is (a system library's leak,
    suppressed or not, takes down with it what our code had given it)."""
    found, cur = [], None
    for line in text.splitlines():
        if starts.search(line):
            if cur is not None:
                found.append(cur)
            cur = [line]
        elif cur is not None:
            cur.append(line)
    if cur is not None:
        found.append(cur)
    direct_ours = any(r[0].lstrip().startswith("Direct leak") and report_is_ours(r) for r in found)
    counts = [0, 0]
    for r in found:
        if r[0].lstrip().startswith("Indirect leak"):
            ours = direct_ours and report_is_ours(r)
        else:
            ours = report_is_ours(r)
        counts[0 if ours else 1] += 1
    return counts

rows = []
for line in open(log):
    t = json.loads(line)
    text = (t.get("stdout") or "") + (t.get("stderr") or "")
    rows.append((t["name"], t.get("result", "ERROR"), *reports(text), t.get("duration", 0)))
w = max([len(r[0]) for r in rows] + [4])
print(f"{'test':{w}}  {'result':7}  ours  other  seconds")
for name, result, ours, other, secs in rows:
    print(f"{name:{w}}  {result:7}  {ours:4}  {other:5}  {secs:7.1f}")
PY
exit $rc
