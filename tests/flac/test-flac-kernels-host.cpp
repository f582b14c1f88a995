/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Runs the CUDA kernels' source (ext/cuda/flac-kernels.cu) on the host, with
 * blockIdx/threadIdx emulated, and checks the PCM against the CPU decoder.
 * This covers what is specific to the kernels (job table, planar scratch
 * layout, 33-bit side buffer, interleaving index math, silence for bad
 * frames) on machines without a GPU; the CUDA element test covers the rest.
 *
 * The frame location kernels (scan, ends) run here too: their candidates
 * and ends, chained by FrameLocator::locate_found(), must give exactly what
 * the CPU locator gives, on real files, corrupted ones, chunked input and
 * random data full of false sync codes.
 */
#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <string>
#include <vector>

/* tests running at the same time must not share scratch files */
#ifndef GPC_KERNELS_SCRATCH
#define GPC_KERNELS_SCRATCH "kernels"
#endif

namespace {

struct GpcDim3 {
  unsigned x = 0, y = 0, z = 0;
};

} // namespace

static GpcDim3 blockIdx, threadIdx, blockDim, gridDim;
#define __global__
/* threads run one after another here */
static unsigned atomicAdd (unsigned *p, unsigned v)
{
  unsigned old = *p;
  *p += v;
  return old;
}

#include "../../ext/cuda/flac-kernels.cu"

#include "flac-locator.h"
#include "flac-locate-check.h"
#include "flac-stream-decoder.h"
#include "flac-test-gen.h"

using namespace gpc::flac;

/* Decodes a whole file the way the element's CUDA path does. */
static bool kernels_decode (const std::vector<uint8_t> &file, CpuDecoder &dec, std::vector<uint8_t> *pcm,
    size_t *bad)
{
  Metadata md;
  if (parse_metadata (file.data (), file.size (), &md) != kOk)
    return false;
  StreamParams params = StreamParams::from_streaminfo (md.info);
  FrameLocator loc (&dec.pool (), params);
  loc.expect_stream_start ();
  LocateResult lr;
  const uint8_t *audio = file.data () + md.audio_offset;
  loc.locate (audio, file.size () - md.audio_offset, true, &lr);
  std::vector<GpuJob> jobs;
  uint64_t total = 0;
  for (const LocatedFrame &f : lr.frames) {
    if (!f.samples)
      continue;
    GpuJob j {};
    j.offset = f.offset;
    j.size = f.corrupt ? 0 : (uint32_t) f.size;
    j.samples = f.samples;
    j.out_sample = total;
    j.silence = f.corrupt;
    j.crc_checked = f.crc_checked;
    jobs.push_back (j);
    total += f.samples;
  }
  GpuFormat fmt {};
  fmt.sample_rate = md.info.sample_rate;
  fmt.bps = md.info.bps;
  fmt.legacy_variable = params.legacy_variable;
  fmt.channels = md.info.channels;
  fmt.out_format = out_format_for_bps (md.info.bps);
  std::vector<int32_t> planar (total * fmt.channels + 1);
  std::vector<int64_t> side (fmt.bps == 32 ? total + 1 : 0);
  std::vector<int> status (jobs.size ());
  pcm->assign (total * fmt.channels * out_format_bytes ((OutFormat) fmt.out_format), 0xa5);
  /* decode: 32 threads a block, as the host code launches it */
  blockDim.x = 32;
  gridDim.x = (unsigned) ((jobs.size () + 31) / 32);
  for (blockIdx.x = 0; blockIdx.x < gridDim.x; blockIdx.x++)
    for (threadIdx.x = 0; threadIdx.x < blockDim.x; threadIdx.x++)
      gpc_flac_decode_frames (audio, jobs.data (), (int) jobs.size (), fmt, planar.data (),
          side.empty () ? nullptr : side.data (), status.data ());
  /* interleave: one block of 256 per frame */
  blockDim.x = 256;
  gridDim.x = (unsigned) jobs.size ();
  for (blockIdx.x = 0; blockIdx.x < gridDim.x; blockIdx.x++)
    for (threadIdx.x = 0; threadIdx.x < blockDim.x; threadIdx.x++)
      gpc_flac_interleave (jobs.data (), fmt, planar.data (), pcm->data ());
  *bad = 0;
  for (int s : status)
    *bad += s != kOk;
  return true;
}

/* The GPU's frame location, kernels run on the host, then chained. */
static void kernels_locate (FrameLocator &loc, const uint8_t *data, size_t size, bool final, LocateResult *lr)
{
  ScanParams sp = loc.params ().scan_params ();
  size_t limit = scan_limit (size, final);
  size_t words = (limit + 31) / 32;
  size_t cap = size / 16 + 1024;
  std::vector<uint32_t> bitmap (words + 1, 0xdeadbeef);
  std::vector<GpuCandidate> cands (cap);
  unsigned count = 0;
  blockDim.x = 256;
  gridDim.x = (unsigned) ((words + 255) / 256);
  for (blockIdx.x = 0; blockIdx.x < gridDim.x; blockIdx.x++)
    for (threadIdx.x = 0; threadIdx.x < blockDim.x; threadIdx.x++)
      gpc_flac_scan (data, size, final, sp, bitmap.data (), words, cands.data (), (uint32_t) cap, &count);
  CHECK (count <= cap, "scan: %u candidates, room for %zu", count, cap);
  /* the GPU appends in no order: shuffle to make sure nothing relies on it */
  std::reverse (cands.begin (), cands.begin () + std::min<size_t> (count, cap));
  blockDim.x = 128;
  gridDim.x = (count + 127) / 128;
  for (blockIdx.x = 0; blockIdx.x < gridDim.x; blockIdx.x++)
    for (threadIdx.x = 0; threadIdx.x < blockDim.x; threadIdx.x++)
      gpc_flac_ends (data, size, final, bitmap.data (), cands.data (), (uint32_t) cap, &count, sp.frame_bound);
  std::vector<FoundCandidate> found;
  for (size_t i = 0; i < std::min<size_t> (count, cap); i++)
    found.push_back (FoundCandidate { cands[i].offset, cands[i].end });
  loc.locate_found (data, size, final, found.data (), found.size (), lr);
}

static void check_file (const std::string &name, const std::vector<uint8_t> &file, CpuDecoder &dec,
    bool expect_clean)
{
  DecodedStream ref;
  CHECK (decode_stream (file.data (), file.size (), dec, &ref) == kOk, "%s: metadata", name.c_str ());
  std::vector<uint8_t> pcm;
  size_t bad = 0;
  CHECK (kernels_decode (file, dec, &pcm, &bad), "%s: kernels", name.c_str ());
  CHECK (pcm == ref.pcm, "%s: kernel PCM differs from the CPU decoder (%zu vs %zu bytes)", name.c_str (),
      pcm.size (), ref.pcm.size ());
  if (expect_clean)
    CHECK (bad == 0 && ref.md5_ok, "%s: %zu bad frames", name.c_str (), bad);
  printf ("%-70s %s\n", name.c_str (), pcm == ref.pcm ? "same" : "DIFFERENT");
}

int main ()
{
  CpuDecoder dec (0);
  gpc_test::Rng rng = gpc_test::rng ("kernels");
  std::string dir = gpc_test::vector_path ("flac-test-files/subset");
  if (!dir.empty ()) {
    for (const char *n : { "01 - blocksize 4096.flac", "14 - wasted bits.flac", "22 - 12 bit per sample.flac",
             "23 - 8 bit per sample.flac", "25 - variable blocksize file created with flake revision 264, "
             "modified to create smaller blocks.flac", "27 - old format variable blocksize file created with "
             "Flake 0.11.flac", "31 - high resolution audio, using only 32nd order predictors.flac",
             "43 - 8 channels (7.1).flac", "64 - rice partitions with escape code zero.flac" }) {
      std::vector<uint8_t> f;
      if (flac_test::read_file (dir + "/" + n, &f)) {
        check_file (n, f, dec, true);
        flac_test::check_locate_file (n, f, dec, kernels_locate);
        flac_test::check_locate_noise (rng, f, dec, kernels_locate);
      }
    }
  } else {
    printf ("testbench vectors absent: only generated material\n");
  }
  if (flac_test::have_flac_tool ()) {
    std::string sd = flac_test::scratch_dir (GPC_KERNELS_SCRATCH);
    struct { unsigned ch, bps, rate; const char *opt; } cases[] = {
      { 2, 32, 48000, "-8" }, { 2, 32, 48000, "-0" }, { 6, 24, 96000, "-5" }, { 1, 16, 44100, "-8 -b 192" },
      { 2, 16, 44100, "-5" } };
    for (auto &c : cases) {
      /* the last one is long enough (10 s, ~110 frames) for false syncs to matter */
      unsigned samples = &c == &cases[4] ? c.rate * 10 : c.rate / 2;
      auto pcm = flac_test::music (rng, c.ch, c.bps, c.rate, samples, c.bps == 32);
      std::string base = sd + "/k" + std::to_string (c.ch) + "-" + std::to_string (c.bps);
      flac_test::write_file (base + ".raw", flac_test::to_raw (pcm, c.bps));
      if (!flac_test::encode (base + ".raw", base + ".flac", c.ch, c.bps, c.rate, c.opt))
        continue;
      std::vector<uint8_t> f;
      flac_test::read_file (base + ".flac", &f);
      check_file (base, f, dec, true);
      flac_test::check_locate_file (base, f, dec, kernels_locate);
      flac_test::check_locate_noise (rng, f, dec, kernels_locate);
      /* corrupt frames: silence in the same places as the CPU decoder */
      for (int k = 0; k < 3; k++)
        f[f.size () / 4 + (size_t) rng.range (0, (int64_t) f.size () / 2)] ^= 0x24;
      check_file (base + " (corrupted)", f, dec, false);
      flac_test::check_locate_file (base + " (corrupted)", f, dec, kernels_locate);
      /* cut short: a damaged end of stream */
      f.resize (f.size () * 2 / 3);
      flac_test::check_locate_file (base + " (truncated)", f, dec, kernels_locate);
    }
  }
  printf ("%d failures\n", flac_test::failures);
  return flac_test::failures ? 1 : 0;
}
