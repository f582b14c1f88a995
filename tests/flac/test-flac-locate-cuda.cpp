/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Frame location on the GPU (CudaDecoder::locate, the scan and ends
 * kernels) against the CPU locator, on every conformance file, generated
 * files, corrupted and truncated ones, and streams full of false sync codes.
 * Exits 77 (skip) without a usable CUDA device: it runs on the GPU machine.
 */
#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>

#include <dirent.h>
#include <string.h>

#include <algorithm>
#include <string>
#include <vector>

#include "flac-cuda-decoder.h"
#include "flac-locate-check.h"
#include "flac-test-gen.h"
#include "gpc-test.h"

GST_DEBUG_CATEGORY (gst_cuda_flac_dec_debug);

using namespace gpc::flac;

static std::vector<std::string> flac_files_in (const std::string &dir)
{
  std::vector<std::string> out;
  DIR *d = opendir (dir.c_str ());
  if (!d)
    return out;
  while (struct dirent *e = readdir (d)) {
    std::string n = e->d_name;
    if (n.size () > 5 && n.compare (n.size () - 5, 5, ".flac") == 0)
      out.push_back (n);
  }
  closedir (d);
  std::sort (out.begin (), out.end ());
  return out;
}

int main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_flac_dec_debug, "cudaflacdec", 0, "test");
  if (!gst_cuda_load_library ())
    gpc_test::skip ("no CUDA driver (libcuda.so.1)");
  GstCudaContext *ctx = gst_cuda_context_new (0);
  if (!ctx)
    gpc_test::skip ("no CUDA device");
  CudaDecoder cuda;
  GError *err = NULL;
  if (!cuda.open (ctx, &err)) {
    printf ("FAIL: cannot load the kernels: %s\n", err->message);
    return 1;
  }
  flac_test::GpuLocate on_gpu = [&] (FrameLocator &loc, const uint8_t *data, size_t size, bool final,
                                    LocateResult *out) {
    uint8_t *in = cuda.input (0, size ? size : 1);
    memcpy (in, data, size);
    std::vector<FoundCandidate> found;
    bool ok = cuda.locate (0, size, final, loc.params ().scan_params (), &found);
    CHECK (ok, "CudaDecoder::locate failed on %zu bytes", size);
    loc.locate_found (in, size, final, found.data (), found.size (), out);
  };

  CpuDecoder dec (0);
  gpc_test::Rng rng = gpc_test::rng ("flac-locate-cuda");
  std::string dir = gpc_test::vector_path ("flac-test-files/subset");
  if (!dir.empty ()) {
    for (const std::string &n : flac_files_in (dir)) {
      std::vector<uint8_t> f;
      if (!flac_test::read_file (dir + "/" + n, &f))
        continue;
      flac_test::check_locate_file (n, f, dec, on_gpu);
      flac_test::check_locate_noise (rng, f, dec, on_gpu);
    }
  } else {
    printf ("SKIP (part): conformance vectors absent, generated material only\n");
  }
  if (flac_test::have_flac_tool ()) {
    std::string sd = flac_test::scratch_dir ("locate-cuda");
    struct { unsigned ch, bps, rate; double seconds; const char *opt; } cases[] = {
      { 2, 16, 44100, 60, "-8" }, { 2, 16, 48000, 30, "-0" }, { 6, 24, 96000, 5, "-5" },
      { 1, 8, 8000, 20, "-8 -b 192" }, { 2, 32, 48000, 3, "-8" } };
    for (auto &c : cases) {
      auto pcm = flac_test::music (rng, c.ch, c.bps, c.rate, (unsigned) (c.rate * c.seconds), c.bps == 32);
      std::string base = sd + "/l" + std::to_string (c.ch) + "-" + std::to_string (c.bps);
      flac_test::write_file (base + ".raw", flac_test::to_raw (pcm, c.bps));
      if (!flac_test::encode (base + ".raw", base + ".flac", c.ch, c.bps, c.rate, c.opt))
        continue;
      std::vector<uint8_t> f;
      flac_test::read_file (base + ".flac", &f);
      flac_test::check_locate_file (base, f, dec, on_gpu);
      flac_test::check_locate_noise (rng, f, dec, on_gpu);
      for (int k = 0; k < 5; k++)
        f[f.size () / 4 + (size_t) rng.range (0, (int64_t) f.size () / 2)] ^= 0x24;
      flac_test::check_locate_file (base + " (corrupted)", f, dec, on_gpu);
      f.resize (f.size () * 2 / 3);
      flac_test::check_locate_file (base + " (truncated)", f, dec, on_gpu);
    }
  } else {
    printf ("SKIP (part): no flac encoder, no generated files\n");
  }

  /* More candidates than the GPU list holds (a valid header repeated back to
   * back, one every 6 bytes): locate() must say so, not drop candidates. */
  {
    StreamParams p;
    p.sample_rate = 44100;
    p.channels = 2;
    p.bps = 16;
    p.max_blocksize = 4096;
    /* FFF8, blocksize 4096 (code 12), 44.1 kHz (code 9), stereo, 16 bit, frame 0, CRC-8 */
    uint8_t hdr[6] = { 0xff, 0xf8, 0xc9, 0x18, 0x00, 0 };
    hdr[5] = crc8 (hdr, 5);
    std::vector<uint8_t> d;
    for (int i = 0; i < 200000; i++)
      d.insert (d.end (), hdr, hdr + 6);
    FrameHeader h;
    CHECK (parse_frame_header (d.data (), d.size (), p.defaults (), &h) == kOk && h.header_bytes == 6,
        "test header does not parse");
    uint8_t *in = cuda.input (1, d.size ());
    memcpy (in, d.data (), d.size ());
    std::vector<FoundCandidate> found;
    CHECK (!cuda.locate (1, d.size (), true, p.scan_params (), &found),
        "a chunk of %zu headers was located on the GPU with a list of room %zu", d.size () / 6, d.size () / 16);
    printf ("overfull candidate list: GPU locate declines, as it must\n");
  }
  cuda.close ();
  gst_object_unref (ctx);
  printf ("%d failures\n", flac_test::failures);
  return flac_test::failures ? 1 : 0;
}
