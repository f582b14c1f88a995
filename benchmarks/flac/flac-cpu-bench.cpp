/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Library-level benchmark of the CPU backend against libFLAC on the same
 * in-memory file (no GStreamer): gpc with 1 thread and with every core,
 * libFLAC (single-threaded, as it is). Usage: flac-cpu-bench FILE [repeats]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <chrono>
#include <string>
#include <vector>

#include "flac-frame.h"
#include "flac-stream-decoder.h"

#ifdef HAVE_LIBFLAC
#include <FLAC/stream_decoder.h>
#endif

using namespace gpc::flac;

static double now ()
{
  return std::chrono::duration<double> (std::chrono::steady_clock::now ().time_since_epoch ()).count ();
}

#ifdef HAVE_LIBFLAC
namespace {

struct LibflacCtx {
  const uint8_t *data;
  size_t size, pos;
  uint64_t samples;
  std::vector<uint8_t> *out; /* interleaved output, as flacdec writes it */
};

} // namespace

static FLAC__StreamDecoderReadStatus rd (const FLAC__StreamDecoder *, FLAC__byte buf[], size_t *n, void *c)
{
  LibflacCtx *x = (LibflacCtx *) c;
  size_t left = x->size - x->pos;
  if (!left) {
    *n = 0;
    return FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM;
  }
  if (*n > left)
    *n = left;
  memcpy (buf, x->data + x->pos, *n);
  x->pos += *n;
  return FLAC__STREAM_DECODER_READ_STATUS_CONTINUE;
}

static FLAC__StreamDecoderWriteStatus wr (const FLAC__StreamDecoder *, const FLAC__Frame *f,
    const FLAC__int32 *const b[], void *c)
{
  LibflacCtx *x = (LibflacCtx *) c;
  /* interleave into the output format, like flacdec's write callback */
  unsigned ch = f->header.channels, n = f->header.blocksize, bps = f->header.bits_per_sample;
  OutFormat fmt = out_format_for_bps (bps);
  unsigned shift = out_format_depth (fmt) - bps, nb = out_format_bytes (fmt);
  size_t need = (x->samples + n) * ch * nb;
  if (x->out->size () < need)
    x->out->resize (need * 2);
  uint8_t *o = x->out->data () + x->samples * ch * nb;
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = 0; j < ch; j++) {
      int32_t v = (int32_t) ((uint32_t) b[j][i] << shift);
      if (nb == 2)
        ((int16_t *) o)[i * ch + j] = (int16_t) v;
      else if (nb == 4)
        ((int32_t *) o)[i * ch + j] = v;
      else
        ((int8_t *) o)[i * ch + j] = (int8_t) v;
    }
  x->samples += n;
  return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE;
}

static void er (const FLAC__StreamDecoder *, FLAC__StreamDecoderErrorStatus, void *) {}

static double run_libflac (const std::vector<uint8_t> &file, uint64_t *samples,
    std::vector<uint8_t> *out)
{
  LibflacCtx ctx { file.data (), file.size (), 0, 0, out };
  FLAC__StreamDecoder *d = FLAC__stream_decoder_new ();
  FLAC__stream_decoder_set_md5_checking (d, true);
  double t0 = now ();
  FLAC__stream_decoder_init_stream (d, rd, nullptr, nullptr, nullptr, nullptr, wr, nullptr, er, &ctx);
  FLAC__stream_decoder_process_until_end_of_stream (d);
  FLAC__stream_decoder_finish (d);
  double t = now () - t0;
  FLAC__stream_decoder_delete (d);
  *samples = ctx.samples;
  return t;
}
#endif

int main (int argc, char **argv)
{
  if (argc < 2) {
    fprintf (stderr, "usage: %s FILE.flac [repeats]\n", argv[0]);
    return 2;
  }
  int reps = argc > 2 ? atoi (argv[2]) : 3;
  FILE *f = fopen (argv[1], "rb");
  if (!f) {
    perror (argv[1]);
    return 1;
  }
  std::vector<uint8_t> file;
  uint8_t buf[1 << 16];
  size_t n;
  while ((n = fread (buf, 1, sizeof buf, f)) > 0)
    file.insert (file.end (), buf, buf + n);
  fclose (f);

  unsigned all = std::thread::hardware_concurrency ();
  double dur = 0;
  for (unsigned threads : { 1u, all }) {
    CpuDecoder dec (threads);
    double best = 1e9;
    DecodedStream ds; /* reused: output memory is allocated once, as libFLAC's below */
    for (int r = 0; r < reps; r++) {
      ds.errors.clear ();
      double t0 = now ();
      decode_stream (file.data (), file.size (), dec, &ds);
      best = std::min (best, now () - t0);
    }
    dur = (double) ds.samples / ds.md.info.sample_rate;
    printf ("gpc cpu %2u thread(s): %.3f s  %.1fx realtime  md5 %s  errors %zu\n", threads, best,
        dur / best, ds.md5_ok ? "ok" : "MISMATCH", ds.errors.size ());
  }
#ifdef HAVE_LIBFLAC
  double best = 1e9;
  uint64_t s = 0;
  std::vector<uint8_t> out;
  for (int r = 0; r < reps; r++)
    best = std::min (best, run_libflac (file, &s, &out));
  printf ("libFLAC  1 thread   : %.3f s  %.1fx realtime (md5 on, interleaved output as flacdec)\n", best,
      dur / best);
#endif
  return 0;
}
