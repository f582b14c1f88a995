#!/usr/bin/env bash
# Runs a gst-check test program in one process under GStreamer's leaks
# tracer and fails if any GstObject / GstMiniObject is still alive at exit.
# Usage: check-leaks.sh PROGRAM [GST_CHECKS test names, comma-separated]
set -uo pipefail
prog=$1
# meson names a test program relative to the test's workdir when it has one
case $prog in */*) ;; *) [ -x "./$prog" ] && prog=./$prog ;; esac
export CK_FORK=no GST_TRACERS=leaks GST_DEBUG=GST_TRACER:7,leaks:7 GST_DEBUG_NO_COLOR=1
# Without the validation layer: the same program validates in its own test,
# and with the layer loaded the process's Vulkan objects are not torn down
# at exit (ext/vulkan/compute/gpcvkcontext.cpp says why).
unset VK_INSTANCE_LAYERS
[ $# -ge 2 ] && export GST_CHECKS=$2
log=$(mktemp)
"$prog" > "$log" 2>&1
rc=$?
grep -E "seed|Checks|SKIP" "$log"
if [ $rc -eq 77 ]; then rm -f "$log"; exit 77; fi
if [ $rc -ne 0 ]; then
  # Sanitizer reports in full (tools/sanitize.sh counts them in this output).
  sed -n '/^WARNING: ThreadSanitizer:/,/^SUMMARY: ThreadSanitizer/p;
    /ERROR: \(Address\|Leak\)Sanitizer/,/^SUMMARY: AddressSanitizer/p;
    /runtime error:/p' "$log"
  tail -20 "$log"
  # The tracer's own warning is fatal under gst-check: show what it listed.
  grep -oE 'type-name=\(string\)[A-Za-z]+' "$log" | sort | uniq -c | sort -rn | head -20
  grep -E 'object-alive|object-refings|refing' "$log" | head -40
  rm -f "$log"; exit $rc
fi
alive=$(grep -oE 'listed [0-9]+ alive' "$log" | grep -oE '[0-9]+' | tail -1)
if [ -z "$alive" ]; then echo "check-leaks: the leaks tracer did not report"; rm -f "$log"; exit 1; fi
if [ "$alive" != 0 ]; then
  echo "check-leaks: $alive objects alive at exit:"
  grep -oE 'type-name=\(string\)[A-Za-z]+' "$log" | sort | uniq -c | sort -rn | head -20
  rm -f "$log"; exit 1
fi
echo "check-leaks: no object alive at exit"
rm -f "$log"
