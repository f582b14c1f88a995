source .devkit/env.sh
b=.devkit/build
export GST_PLUGIN_PATH="$PWD/$b/ext/cuda" GST_REGISTRY=/tmp/dbg.registry
mkdir -p /tmp/fo
$b/benchmarks/flac/flac-bench-gen 2 16 48000 1 1 | flac -s -f --force-raw-format --endian=little \
  --sign=signed --channels=2 --bps=16 --sample-rate=48000 -o /tmp/fo/one.flac -
for i in 1 2 3; do
  echo "=== run $i"
  LD_PRELOAD=$PWD/.devkit/lib/libsegv-backtrace.so GST_DEBUG=cudaflacdec:6,cuda*:5 GST_DEBUG_NO_COLOR=1 \
    timeout 30 gst-launch-1.0 --gst-disable-segtrap -q filesrc location=/tmp/fo/one.flac ! cudaflacdec backend=auto ! fakesink > $OUT/run$i.log 2>&1
  echo "rc=$?"; tail -25 $OUT/run$i.log | cut -c1-250
done
