/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The ADM kernel (ext/vulkan/vkadmkernel.cpp) against the CPU reference,
 * bit for bit on every 64-bit sum: fresh random picture pairs (seeded; random
 * sizes, odd ones included, every bit depth and luma packing, noise, blur,
 * sharpening and quantisation, the default and the neg models' options) and
 * the clips, whose finished values must also equal libvmaf's. The validation
 * layer watches every submission.
 */
#include <gst/check/gstcheck.h>

#include <string.h>

#include <algorithm>
#include <vector>

#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkexec.h"
#include "gpc-test.h"
#include "gpc-vk-test.h"
#include "vkadmkernel.h"
#include "vmaf-adm-ref.h"
#include "vmaf-clips.h"
#include "vmaf-motion-layout.h"

namespace {

/* Two result slots; the kernel writes the second, the first must stay. */
const uint32_t kSlots = 2;

/* Every luma packing, at the depths GStreamer's formats use. */
const gpc::LumaLayout kLayouts[] = {
  { gpc::LUMA_U8, 8, 0, 0 },
  { gpc::LUMA_U16LE, 10, 0, 0 },
  { gpc::LUMA_U16LE, 12, 0, 0 },
  { gpc::LUMA_U16LE, 16, 0, 0 },
  { gpc::LUMA_U16LE, 10, 6, 0 }, /* P010 */
  { gpc::LUMA_U16BE, 12, 0, 0 },
  { gpc::LUMA_10LE32, 10, 0, 0 },
  { gpc::LUMA_10LE40, 10, 0, 0 },
};

/* A plane in its own host-visible storage buffer, `offset` bytes in. */
GstMemory *upload (GpcVkTestDevice &dev, const std::vector<uint16_t> &samples, unsigned w,
    unsigned h, const gpc::LumaLayout &l, uint32_t offset, uint32_t stride)
{
  GError *err = nullptr;
  GstMemory *mem = gpc::vk_storage_alloc (dev.device, offset + (size_t) stride * h, true, &err);
  fail_unless (mem != nullptr, "%s", err ? err->message : "?");
  GstMapInfo map;
  fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
  memset (map.data, 0xa5, map.size);
  for (unsigned y = 0; y < h; y++)
    for (unsigned x = 0; x < w; x++)
      gpc::luma_store (map.data + offset + (size_t) y * stride, l, x, samples[(size_t) y * w + x]);
  gst_memory_unmap (mem, &map);
  return mem;
}

/* The sums, and with bands0 scale 0's bands (VkAdmKernel::copy_scale0_bands). */
void gpu_accum (GpcVkTestDevice &dev, gpc::VkAdmKernel *kernel,
    const std::vector<uint16_t> &ref, const std::vector<uint16_t> &dis, unsigned w, unsigned h,
    const gpc::LumaLayout &l, uint32_t pad, gpc::AdmAccum *accum,
    std::vector<uint32_t> *bands0 = nullptr)
{
  const uint32_t stride = (uint32_t) ((gpc::luma_row_bytes (l, w) + pad + 3) & ~(size_t) 3);
  const uint32_t offset = 4 * (pad % 5);
  GstMemory *rm = upload (dev, ref, w, h, l, offset, stride);
  GstMemory *dm = upload (dev, dis, w, h, l, 0, stride);
  GError *err = nullptr;
  const size_t rbytes = kSlots * gpc::VkAdmKernel::kResultWords * 4;
  GstMemory *results = gpc::vk_storage_alloc (dev.device, rbytes, true, &err);
  fail_unless (results != nullptr);
  GstMapInfo map;
  fail_unless (gst_memory_map (results, &map, (GstMapFlags) (GST_MAP_READ | GST_MAP_WRITE)));
  memset (map.data, 0x5a, rbytes);

  gpc::VkExec *exec = dev.exec;
  fail_unless (exec->begin (&err));
  exec->barrier ((GstVulkanBufferMemory *) rm, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
      VK_ACCESS_SHADER_READ_BIT);
  exec->barrier ((GstVulkanBufferMemory *) dm, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
      VK_ACCESS_SHADER_READ_BIT);
  const gpc::MotionPlane rp = { (GstVulkanBufferMemory *) rm, offset, stride };
  const gpc::MotionPlane dp = { (GstVulkanBufferMemory *) dm, 0, stride };
  fail_unless (kernel->record (exec, rp, dp, (GstVulkanBufferMemory *) results, 1, w, h, l, &err),
      "%s", err ? err->message : "?");
  GstMemory *bm = nullptr;
  if (bands0) {
    bm = gpc::vk_storage_alloc (dev.device, kernel->scale0_bands_bytes (), true, &err);
    fail_unless (bm != nullptr, "%s", err ? err->message : "?");
    kernel->copy_scale0_bands (exec, (GstVulkanBufferMemory *) bm);
  }
  GstVulkanFence *fence = exec->submit (&err);
  fail_unless (fence && exec->wait (fence, 600 * GST_SECOND, &err), "%s",
      err ? err->message : "?");
  gst_vulkan_fence_unref (fence);
  const uint32_t *words = (const uint32_t *) map.data;
  for (uint32_t k = 0; k < gpc::VkAdmKernel::kResultWords; k++)
    fail_unless (words[k] == 0x5a5a5a5au, "slot 0 word %u overwritten", k);
  gpc::VkAdmKernel::read_accum (words + gpc::VkAdmKernel::kResultWords, accum);
  gst_memory_unmap (results, &map);
  gst_memory_unref (results);
  if (bm) {
    fail_unless (gst_memory_map (bm, &map, GST_MAP_READ));
    bands0->resize (map.size / 4);
    memcpy (bands0->data (), map.data, bands0->size () * 4);
    gst_memory_unmap (bm, &map);
    gst_memory_unref (bm);
  }
  gst_memory_unref (rm);
  gst_memory_unref (dm);
  exec->wait_idle ();
}

void expect_equal (const gpc::AdmAccum &gpu, const gpc::AdmAccum &cpu, const char *what)
{
  for (int s = 0; s < 4; s++) {
    for (int b = 0; b < 3; b++) {
      fail_unless (gpu.num[s][b] == cpu.num[s][b], "%s: scale %d band %d num GPU %lld CPU %lld",
          what, s, b, (long long) gpu.num[s][b], (long long) cpu.num[s][b]);
      fail_unless (gpu.den[s][b] == cpu.den[s][b], "%s: scale %d band %d den GPU %llu CPU %llu",
          what, s, b, (unsigned long long) gpu.den[s][b], (unsigned long long) cpu.den[s][b]);
    }
  }
}

/* Samples as the CPU reference takes them: bytes at 8 bits (in *b8). */
gpc::AdmPlane cpu_plane (const std::vector<uint16_t> &s, unsigned w, unsigned bpc,
    std::vector<uint8_t> *b8)
{
  if (bpc != 8)
    return { s.data (), (size_t) w * 2 };
  b8->assign (s.begin (), s.end ());
  return { b8->data (), w };
}

gpc::AdmAccum cpu_accum (const std::vector<uint16_t> &ref, const std::vector<uint16_t> &dis,
    unsigned w, unsigned h, unsigned bpc, const gpc::AdmParams &params)
{
  gpc::AdmAccum acc;
  std::vector<uint8_t> r8, d8;
  gpc::adm_accumulate (cpu_plane (ref, w, bpc, &r8), cpu_plane (dis, w, bpc, &d8), w, h, bpc,
      params, &acc);
  return acc;
}

/* Scale 0's bands from the GPU (gpu_accum's bands0) against the CPU
 * reference's, every sample: the sums cover only the bands' inner regions,
 * their edges reach them through the coarser scales at small sizes only. */
void expect_scale0_bands (const std::vector<uint32_t> &gpu, const std::vector<uint16_t> &ref,
    const std::vector<uint16_t> &dis, unsigned w, unsigned h, unsigned bpc, const char *what)
{
  const unsigned bw = (w + 1) / 2, bh = (h + 1) / 2, stride = (bw + 1) / 2;
  fail_unless (gpu.size () == (size_t) 8 * stride * bh, "%s: %zu band words", what, gpu.size ());
  const std::vector<uint16_t> *pics[2] = { &ref, &dis };
  for (int p = 0; p < 2; p++) {
    std::vector<uint8_t> b8;
    std::vector<int16_t> bands[4];
    gpc::adm_wavelet0 (cpu_plane (*pics[p], w, bpc, &b8), w, h, bpc, bands);
    for (int b = 0; b < 4; b++) {
      for (unsigned i = 0; i < bh; i++) {
        for (unsigned j = 0; j < bw; j++) {
          const uint32_t word = gpu[((size_t) (p * 4 + b) * bh + i) * stride + j / 2];
          const int16_t g = (int16_t) (word >> (j & 1) * 16), c = bands[b][(size_t) i * bw + j];
          fail_unless (g == c, "%s: %s band %c (%u, %u) GPU %d CPU %d", what,
              p ? "distorted" : "reference", "ahvd"[b], i, j, g, c);
        }
      }
    }
  }
}

/* Content with structure at several scales. */
std::vector<uint16_t> make_picture (gpc_test::Rng &rng, unsigned w, unsigned h, unsigned bpc,
    int kind = -1)
{
  const int maxv = (1 << bpc) - 1;
  std::vector<uint16_t> p ((size_t) w * h);
  if (kind < 0)
    kind = (int) rng.range (0, 3);
  const int block = (int) rng.range (2, 24);
  const double fx = rng.range (1, 40) / 1000.0, fy = rng.range (1, 40) / 1000.0;
  std::vector<int> blocks ((w / block + 1) * (h / block + 1));
  for (int &b : blocks)
    b = (int) rng.range (0, maxv);
  for (unsigned y = 0; y < h; y++) {
    for (unsigned x = 0; x < w; x++) {
      double v;
      if (kind == 0)
        v = rng.range (0, maxv);
      else if (kind == 1)
        v = maxv * (0.5 + 0.45 * sin (x * fx * 6.28 + y * fy * 3.1));
      else if (kind == 2)
        v = blocks[(y / block) * (w / block + 1) + x / block] + rng.range (-maxv / 16, maxv / 16);
      else
        v = ((x / block + y / block) & 1) ? maxv : 0;
      p[(size_t) y * w + x] = (uint16_t) std::min (std::max ((int) v, 0), maxv);
    }
  }
  return p;
}

std::vector<uint16_t> distort (gpc_test::Rng &rng, const std::vector<uint16_t> &ref, int w,
    int h, unsigned bpc, int kind = -1)
{
  const int maxv = (1 << bpc) - 1;
  if (kind < 0)
    kind = (int) rng.range (0, 5);
  const int amp = std::max (1, maxv / (int) rng.range (4, 200));
  std::vector<uint16_t> d (ref.size ());
  auto at = [&] (int y, int x) {
    return (int) ref[(size_t) std::min (std::max (y, 0), h - 1) * w + std::min (std::max (x, 0), w - 1)];
  };
  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) {
      const int c = at (y, x), nb = at (y - 1, x) + at (y + 1, x) + at (y, x - 1) + at (y, x + 1);
      int v;
      if (kind == 0)
        v = c + (int) rng.range (-amp, amp);
      else if (kind == 1)
        v = (nb + 4 * c + 4) / 8;
      else if (kind == 2)
        v = 2 * c - nb / 4;
      else if (kind == 3)
        v = (c / amp) * amp;
      else if (kind == 4) /* inverted: the largest opposed coefficients */
        v = maxv - c;
      else
        v = c;
      d[(size_t) y * w + x] = (uint16_t) std::min (std::max (v, 0), maxv);
    }
  }
  return d;
}

gpc::VkAdmKernel *make_kernel (GpcVkTestDevice &dev, const gpc::AdmParams &p)
{
  GError *err = nullptr;
  gpc::VkAdmKernel *k = gpc::VkAdmKernel::create (dev.device, p, &err);
  fail_unless (k != nullptr, "%s", err ? err->message : "?");
  return k;
}

} // namespace

GST_START_TEST (random_pictures)
{
  GpcVkTestDevice dev;
  gpc_test::Rng rng = gpc_test::rng ("adm-random");
  gpc::AdmParams neg;
  neg.enhn_gain_limit = 1.0;
  gpc::AdmParams far;
  far.norm_view_dist = 4.5;
  far.enhn_gain_limit = 4.0;
  gpc::VkAdmKernel *kernels[3] = { make_kernel (dev, gpc::AdmParams ()), make_kernel (dev, neg),
    make_kernel (dev, far) };
  const int cases = 24;
  for (int c = 0; c < cases; c++) {
    /* Case 1: full-range 16-bit blocks against their inverse, the largest
     * coefficients of opposite sign (int32 wrap-around at scales 1..3). */
    const bool extreme = c == 1;
    const gpc::LumaLayout &l =
        kLayouts[extreme ? 3 : rng.range (0, G_N_ELEMENTS (kLayouts) - 1)];
    const bool large = c == 0;
    const unsigned w = large ? 640 : (unsigned) rng.range (gpc::kAdmMinSize, 200);
    const unsigned h = large ? 360 : (unsigned) rng.range (gpc::kAdmMinSize, 160);
    const int ki = (int) rng.range (0, 2);
    const std::vector<uint16_t> ref = make_picture (rng, w, h, l.bpc, extreme ? 3 : -1);
    const std::vector<uint16_t> dis = distort (rng, ref, w, h, l.bpc, extreme ? 4 : -1);
    gpc::AdmAccum gpu;
    std::vector<uint32_t> bands0;
    gpu_accum (dev, kernels[ki], ref, dis, w, h, l, (uint32_t) rng.range (0, 40), &gpu, &bands0);
    const gpc::AdmAccum cpu = cpu_accum (ref, dis, w, h, l.bpc, kernels[ki]->params ());
    char what[128];
    snprintf (what, sizeof what, "case %d: %ux%u %u-bit packing %u, options %d", c, w, h, l.bpc,
        (unsigned) l.packing, ki);
    expect_equal (gpu, cpu, what);
    expect_scale0_bands (bands0, ref, dis, w, h, l.bpc, what);
    gpc_vk_test_check_validation ();
  }
  printf ("%d random picture pairs equal\n", cases);
  for (gpc::VkAdmKernel *k : kernels)
    delete k;
}
GST_END_TEST;

/* Scale 0's wavelet step (vmaf_adm_dwt.comp) reads four columns at a time,
 * whole words inside the picture, per sample at its edges, in tiles of
 * 124 x 4 outputs: widths of every remainder mod 4, with a last tile of one
 * or two output columns and of one output row or a whole tile's, in every
 * packing, its bands compared sample by sample. */
GST_START_TEST (scale0_tile_edges)
{
  GpcVkTestDevice dev;
  gpc_test::Rng rng = gpc_test::rng ("adm-tile-edges");
  gpc::VkAdmKernel *kernel = make_kernel (dev, gpc::AdmParams ());
  static const unsigned widths[] = { 248, 249, 250, 499 };
  static const unsigned heights[] = { 33, 34, 64, 65 };
  int cases = 0;
  for (unsigned li = 0; li < G_N_ELEMENTS (kLayouts); li++) {
    const gpc::LumaLayout &l = kLayouts[li];
    for (unsigned k = 0; k < G_N_ELEMENTS (widths); k++) {
      const unsigned w = widths[k], h = heights[(k + li) % G_N_ELEMENTS (heights)];
      const std::vector<uint16_t> ref = make_picture (rng, w, h, l.bpc);
      const std::vector<uint16_t> dis = distort (rng, ref, w, h, l.bpc);
      gpc::AdmAccum gpu;
      std::vector<uint32_t> bands0;
      gpu_accum (dev, kernel, ref, dis, w, h, l, (uint32_t) rng.range (0, 40), &gpu, &bands0);
      const gpc::AdmAccum cpu = cpu_accum (ref, dis, w, h, l.bpc, kernel->params ());
      char what[128];
      snprintf (what, sizeof what, "%ux%u %u-bit packing %u", w, h, l.bpc, (unsigned) l.packing);
      expect_equal (gpu, cpu, what);
      expect_scale0_bands (bands0, ref, dis, w, h, l.bpc, what);
      gpc_vk_test_check_validation ();
      cases++;
    }
  }
  printf ("%d tile edge picture pairs equal\n", cases);
  delete kernel;
}
GST_END_TEST;

/* Frames of one size after another: the scratch memory is reused, and made
 * again when the size changes. */
GST_START_TEST (clips_match_cpu_and_libvmaf)
{
  GpcVkTestDevice dev;
  gpc::AdmParams neg;
  neg.enhn_gain_limit = 1.0;
  gpc::VkAdmKernel *kernels[2] = { make_kernel (dev, gpc::AdmParams ()), make_kernel (dev, neg) };
  const char *suffix[2] = { "", "_egl_1" };
  for (const std::string &name : vmaf_clip_names ()) {
    VmafClip clip;
    fail_unless (vmaf_load_clip (name, &clip), "%s does not load", name.c_str ());
    const gpc::LumaLayout l = { clip.bpc == 8 ? gpc::LUMA_U8 : gpc::LUMA_U16LE,
      (unsigned) clip.bpc, 0, 0 };
    for (int f = 0; f < clip.frames; f++) {
      for (int k = 0; k < 2; k++) {
        gpc::AdmAccum gpu;
        gpu_accum (dev, kernels[k], clip.ref[f], clip.dist[f], clip.width, clip.height, l, 0,
            &gpu);
        const gpc::AdmAccum cpu = cpu_accum (clip.ref[f], clip.dist[f], clip.width, clip.height,
            clip.bpc, kernels[k]->params ());
        char what[128];
        snprintf (what, sizeof what, "%s frame %d%s", name.c_str (), f, suffix[k]);
        expect_equal (gpu, cpu, what);
        gpc::AdmScores s;
        gpc::adm_finish (gpu, clip.width, clip.height, kernels[k]->params (), &s);
        const std::string adm2 = std::string ("integer_adm2") + suffix[k];
        fail_unless (s.adm2 == clip.expect[f].at (adm2), "%s: adm2 %.17g, libvmaf %.17g", what,
            s.adm2, clip.expect[f].at (adm2));
        for (int sc = 0; sc < 4; sc++) {
          const std::string key = "integer_adm_scale" + std::to_string (sc) + suffix[k];
          fail_unless (s.scale[sc] == clip.expect[f].at (key), "%s: %s %.17g, libvmaf %.17g",
              what, key.c_str (), s.scale[sc], clip.expect[f].at (key));
        }
      }
    }
    gpc_vk_test_check_validation ();
    printf ("%s: %d frames equal\n", name.c_str (), clip.frames);
  }
  for (gpc::VkAdmKernel *k : kernels)
    delete k;
}
GST_END_TEST;

/* Options the GPU path does not take fail at creation with a reason. */
GST_START_TEST (refused_options)
{
  GpcVkTestDevice dev;
  gpc::AdmParams p;
  p.enhn_gain_limit = 1.5;
  GError *err = nullptr;
  fail_unless (gpc::VkAdmKernel::create (dev.device, p, &err) == nullptr);
  fail_unless (err && strstr (err->message, "integer"));
  g_clear_error (&err);
  p = gpc::AdmParams ();
  p.norm_view_dist = 1.0;
  fail_unless (gpc::VkAdmKernel::create (dev.device, p, &err) == nullptr);
  fail_unless (err != nullptr);
  g_clear_error (&err);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  return gpc_vk_test_main (&argc, &argv, "vmaf-adm-gpu", {
        GPC_CHECK_TEST (random_pictures),
        GPC_CHECK_TEST (scale0_tile_edges),
        GPC_CHECK_TEST (clips_match_cpu_and_libvmaf),
        GPC_CHECK_TEST (refused_options) }, 1800);
}
