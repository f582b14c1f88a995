/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The VIF kernel (ext/vulkan/vkvifkernel) against the CPU reference, bit for
 * bit: the four scales' integer sums of fresh random frame pairs (seeded,
 * random sizes, depths, luma packings, distortions and gain limits) through
 * both the integer fast path and the exact double emulation; the per-pixel
 * gain term of random and chosen sigma triples through both; and libvmaf's
 * values of the committed clips. The validation layer is on; any error
 * fails.
 */
#include <gst/check/gstcheck.h>

#include <math.h>
#include <string.h>

#include <algorithm>
#include <string>
#include <vector>

#include "compute/gpcvkbuffer.h"
#include "gpc-test.h"
#include "gpc-vk-test.h"
#include "vkvifkernel.h"
#include "vmaf-clips.h"
#include "vmaf-motion-layout.h"
#include "vmaf-vif-ref.h"
#include "vmaf_vif_gain_test.spv.h"

namespace {

struct Frame {
  unsigned w = 0, h = 0;
  gpc::LumaLayout layout = {};
  double limit = 100.0;
  std::vector<uint16_t> ref, dist; /* sample values, stride w */
};

/* One plane in a host-visible storage buffer, packed as `layout`, at a
 * random word offset with a random padded stride. */
struct GpuPlane {
  GstMemory *mem = nullptr;
  gpc::MotionPlane plane = {};

  GpuPlane (GstVulkanDevice *device, gpc_test::Rng &rng, const Frame &f,
      const std::vector<uint16_t> &px)
  {
    const uint32_t offset = 4 * (uint32_t) rng.range (0, 3);
    const uint32_t stride = (uint32_t) GST_ROUND_UP_4 (gpc::luma_row_bytes (f.layout, f.w)) +
        4 * (uint32_t) rng.range (0, 2);
    const gsize size = offset + (gsize) stride * f.h + 8;
    mem = gpc::vk_storage_alloc (device, size, true, NULL);
    fail_unless (mem != NULL);
    GstMapInfo map;
    fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
    memset (map.data, 0xa5, size);
    for (unsigned y = 0; y < f.h; y++)
      for (unsigned x = 0; x < f.w; x++)
        gpc::luma_store (map.data + offset + (gsize) y * stride, f.layout, x,
            px[(size_t) y * f.w + x]);
    gst_memory_unmap (mem, &map);
    GstVulkanBufferMemory *vm = (GstVulkanBufferMemory *) mem;
    vm->barrier.parent.pipeline_stages = VK_PIPELINE_STAGE_HOST_BIT;
    vm->barrier.parent.access_flags = VK_ACCESS_HOST_WRITE_BIT;
    plane = { vm, offset, stride };
  }
  ~GpuPlane () { gst_memory_unref (mem); }
};

/* The GPU's sums for `f` with `kernel`. */
void gpu_accumulate (GpcVkTestDevice &dev, gpc::VkVifKernel *kernel, gpc_test::Rng &rng,
    const Frame &f, gpc::VifAccum accum[gpc::kVifScales])
{
  GpuPlane r (dev.device, rng, f, f.ref), d (dev.device, rng, f, f.dist);
  /* Slot 1 of 3, the others poisoned: the kernel touches its slot only. */
  const gsize slot_bytes = gpc::VkVifKernel::kResultWords * 4;
  GstMemory *results = gpc::vk_storage_alloc (dev.device, 3 * slot_bytes, true, NULL);
  fail_unless (results != NULL);
  GstMapInfo map;
  fail_unless (gst_memory_map (results, &map, GST_MAP_WRITE));
  memset (map.data, 0x5a, map.size);
  gst_memory_unmap (results, &map);
  GstVulkanBufferMemory *res = (GstVulkanBufferMemory *) results;
  res->barrier.parent.pipeline_stages = VK_PIPELINE_STAGE_HOST_BIT;
  res->barrier.parent.access_flags = VK_ACCESS_HOST_WRITE_BIT;

  GError *err = NULL;
  fail_unless (dev.exec->begin (&err));
  fail_unless (kernel->record (dev.exec, r.plane, d.plane, res, 1, f.w, f.h, f.layout, f.limit,
                   &err),
      "%s", err ? err->message : "");
  GstVulkanFence *fence = dev.exec->submit (&err);
  fail_unless (fence && dev.exec->wait (fence, 120 * GST_SECOND, &err), "%s",
      err ? err->message : "");
  gst_vulkan_fence_unref (fence);
  dev.exec->collect ();

  fail_unless (gst_memory_map (results, &map, GST_MAP_READ));
  const uint32_t *words = (const uint32_t *) map.data;
  for (gsize i = 0; i < 3 * gpc::VkVifKernel::kResultWords; i++)
    if (i / gpc::VkVifKernel::kResultWords != 1)
      fail_unless (words[i] == 0x5a5a5a5au, "word %zu of another slot written", i);
  gpc::VkVifKernel::read_accum (words + gpc::VkVifKernel::kResultWords, accum);
  gst_memory_unmap (results, &map);
  gst_memory_unref (results);
}

void cpu_accumulate (const Frame &f, gpc::VifAccum accum[gpc::kVifScales])
{
  gpc::VifPlane r = { f.ref.data (), (ptrdiff_t) f.w * 2, 2 };
  gpc::VifPlane d = { f.dist.data (), (ptrdiff_t) f.w * 2, 2 };
  fail_unless (gpc::vif_accumulate_ref (r, d, f.w, f.h, f.layout.bpc, f.limit, accum));
}

std::string describe (const Frame &f)
{
  char buf[128];
  snprintf (buf, sizeof buf, "%ux%u %u-bit packing %u shift %u limit %.17g", f.w, f.h,
      f.layout.bpc, (unsigned) f.layout.packing, f.layout.shift, f.limit);
  return buf;
}

void expect_same (const Frame &f, const char *what, const gpc::VifAccum *gpu,
    const gpc::VifAccum *cpu)
{
  for (int s = 0; s < gpc::kVifScales; s++) {
    const uint64_t g[4] = { gpu[s].num_log, gpu[s].den_log, gpu[s].num_non_log,
      gpu[s].den_non_log };
    const uint64_t c[4] = { cpu[s].num_log, cpu[s].den_log, cpu[s].num_non_log,
      cpu[s].den_non_log };
    static const char *const names[4] = { "num_log", "den_log", "num_non_log", "den_non_log" };
    for (int i = 0; i < 4; i++)
      fail_unless (g[i] == c[i], "%s, %s: scale %d %s GPU %llu, CPU %llu", describe (f).c_str (),
          what, s, names[i], (unsigned long long) g[i], (unsigned long long) c[i]);
  }
}

/* A random layout of depth bpc: every packing that holds it. */
gpc::LumaLayout random_layout (gpc_test::Rng &rng, unsigned bpc)
{
  std::vector<gpc::LumaLayout> l;
  if (bpc == 8)
    l.push_back ({ gpc::LUMA_U8, 8, 0, 0 });
  l.push_back ({ gpc::LUMA_U16LE, bpc, 0, 0 });
  l.push_back ({ gpc::LUMA_U16BE, bpc, 0, 0 });
  if (bpc < 16)
    l.push_back ({ gpc::LUMA_U16LE, bpc, 16 - bpc, 0 });
  if (bpc == 10) {
    l.push_back ({ gpc::LUMA_10LE32, 10, 0, 0 });
    l.push_back ({ gpc::LUMA_10LE40, 10, 0, 0 });
  }
  return l[(size_t) rng.range (0, (int64_t) l.size () - 1)];
}

/* Random content and a random distortion of it (noise, blur, contrast gain
 * beyond the limit, identical, flat), so that every branch of the per-pixel
 * statistics runs. */
void random_frame (gpc_test::Rng &rng, Frame &f, unsigned max_w, unsigned max_h)
{
  f.w = (unsigned) rng.range (gpc::kVifMinSize, max_w);
  f.h = (unsigned) rng.range (gpc::kVifMinSize, max_h);
  static const unsigned depths[] = { 8, 8, 10, 10, 12, 16, 9, 14 };
  const unsigned bpc = depths[rng.range (0, 7)];
  f.layout = random_layout (rng, bpc);
  const int64_t lim = rng.range (0, 3);
  f.limit = lim == 0 ? 1.0 : lim == 1 ? 1.0 + (double) rng.range (0, 99000) / 1000.0 : 100.0;
  const int maxv = (1 << bpc) - 1;
  const double fx = (double) rng.range (1, 40) / 100.0, fy = (double) rng.range (1, 40) / 100.0;
  const int64_t content = rng.range (0, 3);
  f.ref.resize ((size_t) f.w * f.h);
  for (unsigned y = 0; y < f.h; y++)
    for (unsigned x = 0; x < f.w; x++) {
      double v;
      if (content == 0)
        v = 0.5 + 0.4 * sin (x * fx) * cos (y * fy);
      else if (content == 1)
        v = 0.5 + 0.3 * sin (x * fx + y * fy) + (double) rng.range (-100, 100) / 1000.0;
      else if (content == 2)
        v = (double) rng.range (0, maxv) / maxv;
      else
        v = ((x / 8 + y / 8) % 3) / 2.0;
      v = v < 0 ? 0 : (v > 1 ? 1 : v);
      f.ref[(size_t) y * f.w + x] = (uint16_t) lrint (v * maxv);
    }
  const int64_t distortion = rng.range (0, 4);
  const int amp = (int) rng.range (1, 1 << (bpc - 3));
  f.dist = f.ref;
  for (unsigned y = 0; y < f.h; y++)
    for (unsigned x = 0; x < f.w; x++) {
      const size_t i = (size_t) y * f.w + x;
      int v = f.ref[i];
      if (distortion == 0)
        v += (int) rng.range (-amp, amp);
      else if (distortion == 1)
        v = (f.ref[i] + f.ref[y * f.w + (x + 1 < f.w ? x + 1 : x)] +
                f.ref[(y + 1 < f.h ? y + 1 : y) * f.w + x]) / 3;
      else if (distortion == 2)
        v = (v - maxv / 2) * 3 / 2 + maxv / 2;
      else if (distortion == 4)
        v = maxv / 3;
      f.dist[i] = (uint16_t) (v < 0 ? 0 : (v > maxv ? maxv : v));
    }
}

} // namespace

/* Random frames: the fast path on all of them, the exact emulation on the
 * smaller ones (it is slow on lavapipe), against the CPU reference. By
 * default scales 0 and 1 go along the rows, 2 and 3 down the columns. On
 * the default strips of tiles, every pixel emulated makes more than a
 * workgroup lists, so the tail dispatches filter the strips again; single
 * 16x4 tiles list theirs (at most 64), in a list of all or only 40 of each
 * scale's pixels. Strips of 5 and 3 tiles a workgroup, the last strip
 * short, the latter with every pixel emulated: the tails filter whole
 * strips again; the former down the columns at every scale, with the
 * filters' other form (each tap multiplied, low parts split). Strips along
 * the rows at every scale: the default tile; strips of 3 with every pixel
 * emulated, queued whole, one output per invocation; and at scales 0, 1
 * and 3 (2 down a column) strips of 5 8x4 tiles (narrower than scale 0's
 * halo: the kept columns move in steps) in the filters' other form. The
 * odd tile goes down the columns at every scale. */
GST_START_TEST (random_frames)
{
  GpcVkTestDevice dev;
  GError *err = NULL;
  gpc::VkVifKernel *fast = gpc::VkVifKernel::create (dev.device, &err);
  fail_unless (fast != NULL, "%s", err ? err->message : "");
  gpc::VifKernelOptions o;
  o.exact_only = true;
  gpc::VkVifKernel *exact = gpc::VkVifKernel::create (dev.device, &err, o);
  fail_unless (exact != NULL, "%s", err ? err->message : "");
  o.tile_w = 16;
  o.tile_h = 4;
  o.strip = 1;
  /* One output per invocation (the default filters two down a column). */
  o.block_v = 1;
  gpc::VkVifKernel *listed = gpc::VkVifKernel::create (dev.device, &err, o);
  o.exact_capacity = 40;
  /* The tails' other placement (VifKernelOptions::tails_last). */
  o.tails_last = true;
  gpc::VkVifKernel *queued = gpc::VkVifKernel::create (dev.device, &err, o);
  o.tile_w = o.tile_h = 0;
  o.strip = 3;
  gpc::VkVifKernel *strips_queued = gpc::VkVifKernel::create (dev.device, &err, o);
  gpc::VifKernelOptions strip_o;
  strip_o.strip = 5;
  /* The filters' other form (VifKernelOptions::symmetric, wrap). */
  strip_o.symmetric = 0;
  strip_o.wrap = 0;
  strip_o.along_rows = 0;
  gpc::VkVifKernel *strips = gpc::VkVifKernel::create (dev.device, &err, strip_o);
  fail_unless (listed && queued && strips_queued && strips, "%s", err ? err->message : "");
  /* The tile of devices with Vulkan's minimum of shared memory, and an odd
   * one (tiles narrower than the coarse scales' halos, fewer invocations),
   * both with several outputs per invocation. */
  gpc::VifKernelOptions small_o, odd_o;
  small_o.tile_w = 32;
  small_o.tile_h = 8;
  small_o.block_v = 8;
  small_o.block_h = 4;
  odd_o.tile_w = 18;
  odd_o.tile_h = 2;
  odd_o.threads = 96;
  odd_o.block_v = 2;
  odd_o.block_h = 2;
  odd_o.along_rows = 0;
  gpc::VkVifKernel *small = gpc::VkVifKernel::create (dev.device, &err, small_o);
  gpc::VkVifKernel *odd = gpc::VkVifKernel::create (dev.device, &err, odd_o);
  fail_unless (small && odd, "%s", err ? err->message : "");
  gpc::VifKernelOptions along_o;
  along_o.along_rows = 15;
  gpc::VkVifKernel *along = gpc::VkVifKernel::create (dev.device, &err, along_o);
  along_o.exact_only = true;
  along_o.strip = 3;
  along_o.block_v = 1;
  gpc::VkVifKernel *along_queued = gpc::VkVifKernel::create (dev.device, &err, along_o);
  gpc::VifKernelOptions along_odd_o = strip_o;
  along_odd_o.along_rows = 11;
  along_odd_o.tile_w = 8;
  along_odd_o.tile_h = 4;
  gpc::VkVifKernel *along_odd = gpc::VkVifKernel::create (dev.device, &err, along_odd_o);
  fail_unless (along && along_queued && along_odd, "%s", err ? err->message : "");
  gpc::VifKernelOptions bad_o;
  bad_o.tile_w = 33;
  bad_o.tile_h = 8;
  fail_if (gpc::VkVifKernel::create (dev.device, &err, bad_o));
  g_clear_error (&err);
  bad_o.tile_w = 18;
  bad_o.tile_h = 2;
  bad_o.block_h = 4;
  fail_if (gpc::VkVifKernel::create (dev.device, &err, bad_o));
  g_clear_error (&err);
  bad_o = {};
  bad_o.along_rows = 16;
  fail_if (gpc::VkVifKernel::create (dev.device, &err, bad_o));
  g_clear_error (&err);
  gpc_test::Rng rng = gpc_test::rng ("vif-gpu-random");
  for (int iter = 0; iter < 24; iter++) {
    Frame f;
    random_frame (rng, f, iter < 20 ? 120 : 300, iter < 20 ? 90 : 200);
    gpc::VifAccum cpu[gpc::kVifScales], gpu[gpc::kVifScales];
    cpu_accumulate (f, cpu);
    gpu_accumulate (dev, fast, rng, f, gpu);
    expect_same (f, "fast path", gpu, cpu);
    gpu_accumulate (dev, along, rng, f, gpu);
    expect_same (f, "strips along the rows", gpu, cpu);
    if (iter < 20) {
      gpu_accumulate (dev, exact, rng, f, gpu);
      expect_same (f, "exact emulation", gpu, cpu);
      if (iter % 4 == 1) {
        gpu_accumulate (dev, listed, rng, f, gpu);
        expect_same (f, "exact emulation, pixels listed", gpu, cpu);
        gpu_accumulate (dev, queued, rng, f, gpu);
        expect_same (f, "exact emulation, short list", gpu, cpu);
        gpu_accumulate (dev, strips_queued, rng, f, gpu);
        expect_same (f, "exact emulation, strips of 3 tiles queued", gpu, cpu);
        gpu_accumulate (dev, along_queued, rng, f, gpu);
        expect_same (f, "exact emulation, strips of 3 tiles along the rows queued", gpu, cpu);
      }
    }
    if (iter % 3 == 0) {
      gpu_accumulate (dev, strips, rng, f, gpu);
      expect_same (f, "strips of 5 tiles", gpu, cpu);
      gpu_accumulate (dev, along_odd, rng, f, gpu);
      expect_same (f, "strips of 5 8x4 tiles along the rows at scales 0, 1, 3", gpu, cpu);
    }
    if (iter % 6 == 0) {
      gpu_accumulate (dev, small, rng, f, gpu);
      expect_same (f, "32x8 tiles, 4x8 blocks", gpu, cpu);
      gpu_accumulate (dev, odd, rng, f, gpu);
      expect_same (f, "18x2 tiles, 96 invocations, 2x2 blocks", gpu, cpu);
    }
  }
  dev.exec->wait_idle ();
  delete fast;
  delete exact;
  delete listed;
  delete strips;
  delete strips_queued;
  delete queued;
  delete small;
  delete odd;
  delete along;
  delete along_queued;
  delete along_odd;
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

namespace {

/* Random and chosen (sigma1_sq, sigma2_sq, sigma12) triples of the log
 * branch: sigma1_sq >= 2^17, the others > 0, all below 2^31 - 2^17. */
std::vector<uint32_t> gain_triples (gpc_test::Rng &rng, double limit, size_t n,
    std::vector<int> &kind)
{
  const int64_t top = (1ll << 31) - (1 << 17) - 1;
  /* The fraction of limit^2 as 64 bits, for case 3. */
  uint32_t w[gpc::VkVifKernel::kLimitWords];
  gpc::VkVifKernel::limit_words (limit, w);
  const uint64_t sq_frac = (uint64_t) w[6] << 32 | w[5];
  std::vector<uint32_t> t;
  int k = 0;
  auto push = [&] (int64_t s1, int64_t s2, int64_t s12) {
    s1 = std::min (std::max<int64_t> (s1, 1 << 17), top);
    s2 = std::min (std::max<int64_t> (s2, 1), top);
    s12 = std::min (std::max<int64_t> (s12, 1), top);
    t.insert (t.end (), { (uint32_t) s1, (uint32_t) s2, (uint32_t) s12 });
    kind.push_back (k);
  };
  while (t.size () < 3 * n) {
    /* Mostly the magnitudes of real pictures, sometimes any. */
    const int64_t s1 = rng.range (1 << 17, rng.chance (80) ? (1 << 30) : top);
    const int64_t s2 = rng.range (1, rng.chance (80) ? (1 << 30) : top);
    const double cs = sqrt ((double) s1 * (double) s2);
    k = (int) rng.range (0, 6);
    switch (k) {
      case 0: /* anything Cauchy-Schwarz allows, give or take rounding */
        push (s1, s2, rng.range (1, (int64_t) (cs * 1.01) + 1));
        break;
      case 1: /* identical pictures, and nearly */
        push (s1, s1 + rng.range (-2, 2), s1 + rng.range (-2, 2));
        break;
      case 2: { /* s12^2 at or next to a multiple of s1 (F, Z near 0 or 1) */
        const int64_t q = rng.range (1, s2);
        const int64_t s12 = (int64_t) sqrt ((double) q * (double) s1);
        push (s1, s2, s12 + rng.range (-1, 1));
        break;
      }
      case 3: { /* the gain at the limit; half of the time with the fraction
                 * of limit^2 sigma1_sq the closest to 1 of 64 tries (the
                 * fast path's bound for a clamped gain) */
        int64_t s1c = s1;
        if (rng.chance (50)) {
          uint64_t best = 0;
          for (int i = 0; i < 64; i++) {
            const int64_t c = rng.range (1 << 17, 1 << 30);
            const uint64_t f = (uint64_t) ((unsigned __int128) sq_frac * (uint64_t) c);
            if (f >= best) {
              best = f;
              s1c = c;
            }
          }
        }
        push (s1c, s2, (int64_t) (limit * (double) s1c) + rng.range (-2, 2));
        break;
      }
      case 4: /* gains far above the limit, or tiny */
        push (s1, s2, rng.chance (50) ? rng.range (1, 8) : (int64_t) (cs * 1.5));
        break;
      case 5: /* sigma2_sq - g sigma12 near an integer or 0 */
        push (s1, (int64_t) ((double) s1 * 0.25) + rng.range (-1, 1), s1 / 2 + rng.range (-1, 1));
        break;
      default: { /* sigma1_sq at its smallest */
        const int64_t s1_min = (1 << 17) + rng.range (0, 3);
        push (s1_min, s2, rng.range (1, (int64_t) sqrt ((double) s1_min * (double) s2) + 1));
        break;
      }
    }
  }
  return t;
}

} // namespace

/* The gain term alone: every triple through the exact emulation equals the
 * CPU reference; every one the fast path decides too, and it decides nearly
 * all triples of picture-like magnitudes. */
GST_START_TEST (gain_terms)
{
  GpcVkTestDevice dev;
  GError *err = NULL;
  gpc::VkKernel::Spec spec = { vmaf_vif_gain_test_spv, sizeof (vmaf_vif_gain_test_spv), 3,
    (1 + gpc::VkVifKernel::kLimitWords) * 4, {} };
  gpc::VkKernel *kernel = gpc::VkKernel::create (dev.device, spec, &err);
  fail_unless (kernel != NULL, "%s", err ? err->message : "");
  GstMemory *table = gpc::vk_storage_alloc (dev.device, gpc::VkVifKernel::kTableBytes, true, NULL);
  GstMapInfo map;
  fail_unless (table && gst_memory_map (table, &map, GST_MAP_WRITE));
  gpc::VkVifKernel::fill_table (map.data);
  gst_memory_unmap (table, &map);
  gpc_test::Rng rng = gpc_test::rng ("vif-gain-terms");
  const size_t n = 40000;
  for (double limit : { 100.0, 1.0, 1.0 + (double) rng.range (1, 98999) / 1000.0 }) {
    /* The shaders' limit * limit: integer part and fraction * 2^64, exact. */
    uint32_t w[gpc::VkVifKernel::kLimitWords];
    gpc::VkVifKernel::limit_words (limit, w);
    fail_unless ((double) w[4] + ldexp ((double) ((uint64_t) w[6] << 32 | w[5]), -64)
        == limit * limit, "limit %.17g: limit^2 words", limit);
    std::vector<int> kind;
    const std::vector<uint32_t> triples = gain_triples (rng, limit, n, kind);
    GstMemory *in = gpc::vk_storage_alloc (dev.device, triples.size () * 4, true, NULL);
    GstMemory *out = gpc::vk_storage_alloc (dev.device, n * 8, true, NULL);
    fail_unless (in && out && gst_memory_map (in, &map, GST_MAP_WRITE));
    memcpy (map.data, triples.data (), triples.size () * 4);
    gst_memory_unmap (in, &map);
    for (GstMemory *m : { table, in, out }) {
      GstVulkanBufferMemory *vm = (GstVulkanBufferMemory *) m;
      vm->barrier.parent.pipeline_stages = VK_PIPELINE_STAGE_HOST_BIT;
      vm->barrier.parent.access_flags = VK_ACCESS_HOST_WRITE_BIT;
    }
    uint32_t push[1 + gpc::VkVifKernel::kLimitWords] = { (uint32_t) n };
    gpc::VkVifKernel::limit_words (limit, push + 1);
    VkDescriptorBufferInfo bufs[3] = {
      { ((GstVulkanBufferMemory *) in)->buffer, 0, VK_WHOLE_SIZE },
      { ((GstVulkanBufferMemory *) out)->buffer, 0, VK_WHOLE_SIZE },
      { ((GstVulkanBufferMemory *) table)->buffer, 0, VK_WHOLE_SIZE },
    };
    fail_unless (dev.exec->begin (&err));
    dev.exec->barrier ((GstVulkanBufferMemory *) in, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_SHADER_READ_BIT);
    dev.exec->barrier ((GstVulkanBufferMemory *) table, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_SHADER_READ_BIT);
    dev.exec->barrier ((GstVulkanBufferMemory *) out, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_SHADER_WRITE_BIT);
    fail_unless (dev.exec->dispatch (kernel, bufs, 3, push, sizeof push,
        (uint32_t) ((n + 63) / 64), 1, 1, &err));
    dev.exec->barrier ((GstVulkanBufferMemory *) out, VK_PIPELINE_STAGE_HOST_BIT,
        VK_ACCESS_HOST_READ_BIT);
    GstVulkanFence *fence = dev.exec->submit (&err);
    fail_unless (fence && dev.exec->wait (fence, 300 * GST_SECOND, &err), "%s",
        err ? err->message : "");
    gst_vulkan_fence_unref (fence);
    dev.exec->collect ();

    fail_unless (gst_memory_map (out, &map, GST_MAP_READ));
    const uint32_t *terms = (const uint32_t *) map.data;
    /* The fast path's share of the first kind (random, within Cauchy-Schwarz
     * and below 2^30 as filtered pictures give); the others aim at its
     * boundaries. */
    size_t decided = 0, typical = 0, typical_decided = 0;
    for (size_t i = 0; i < n; i++) {
      const uint32_t s1 = triples[3 * i], s2 = triples[3 * i + 1], s12 = triples[3 * i + 2];
      gpc::VifAccum acc = {};
      gpc::vif_pixel_ref (0, 0, s1, s2, s12, limit, &acc);
      fail_unless (terms[2 * i + 1] == acc.num_log,
          "limit %.17g, sigmas (%u, %u, %u): exact emulation %u, CPU %llu", limit, s1, s2, s12,
          terms[2 * i + 1], (unsigned long long) acc.num_log);
      const bool fast = terms[2 * i] != 0xffffffffu;
      if (fast) {
        decided++;
        fail_unless (terms[2 * i] == acc.num_log,
            "limit %.17g, sigmas (%u, %u, %u): fast path %u, CPU %llu", limit, s1, s2, s12,
            terms[2 * i], (unsigned long long) acc.num_log);
      }
      if (kind[i] == 0 && s1 < (1u << 30) && s2 < (1u << 30)
          && (double) s12 * s12 <= (double) s1 * s2) {
        typical++;
        typical_decided += fast;
      }
    }
    gst_memory_unmap (out, &map);
    printf ("limit %.17g: %zu triples equal, the fast path decided %zu (%zu of %zu typical)\n",
        limit, n, decided, typical_decided, typical);
    fflush (stdout);
    fail_unless (typical_decided * 100 >= typical * 99);
    gst_memory_unref (in);
    gst_memory_unref (out);
  }
  dev.exec->wait_idle ();
  gst_memory_unref (table);
  delete kernel;
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* The clips: the GPU's sums equal the CPU reference's and their scores
 * libvmaf's, with the default model's gain limit and the neg models'. */
GST_START_TEST (clips_match_libvmaf)
{
  GpcVkTestDevice dev;
  GError *err = NULL;
  gpc::VkVifKernel *kernel = gpc::VkVifKernel::create (dev.device, &err);
  fail_unless (kernel != NULL, "%s", err ? err->message : "");
  gpc_test::Rng rng = gpc_test::rng ("vif-gpu-clips");
  int checked = 0;
  for (const std::string &name : vmaf_clip_names ()) {
    VmafClip clip;
    fail_unless (vmaf_load_clip (name, &clip), "%s does not load", name.c_str ());
    for (int fi = 0; fi < clip.frames; fi++) {
      for (double limit : { 100.0, 1.0 }) {
        Frame f;
        f.w = (unsigned) clip.width;
        f.h = (unsigned) clip.height;
        f.layout = clip.bpc == 8 ? gpc::LumaLayout { gpc::LUMA_U8, 8, 0, 0 }
                                 : gpc::LumaLayout { gpc::LUMA_U16LE, (unsigned) clip.bpc, 0, 0 };
        f.limit = limit;
        f.ref = clip.ref[fi];
        f.dist = clip.dist[fi];
        gpc::VifAccum cpu[gpc::kVifScales], gpu[gpc::kVifScales];
        cpu_accumulate (f, cpu);
        gpu_accumulate (dev, kernel, rng, f, gpu);
        expect_same (f, name.c_str (), gpu, cpu);
        const gpc::VifScores s = gpc::vif_scores (gpu);
        const std::string suffix = limit == 1.0 ? "_egl_1" : "";
        for (int i = 0; i < gpc::kVifScales; i++) {
          const std::string key = "integer_vif_scale" + std::to_string (i) + suffix;
          const double want = clip.expect[fi].at (key);
          fail_unless (memcmp (&want, &s.scale[i], sizeof want) == 0,
              "%s frame %d: %s GPU %.17g, libvmaf %.17g", name.c_str (), fi, key.c_str (),
              s.scale[i], want);
        }
        checked++;
      }
    }
  }
  fail_unless (checked > 0);
  dev.exec->wait_idle ();
  delete kernel;
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Sizes below the minimum and gain limits out of range are errors, not
 * GPU faults. */
GST_START_TEST (bad_arguments)
{
  GpcVkTestDevice dev;
  GError *err = NULL;
  gpc::VkVifKernel *kernel = gpc::VkVifKernel::create (dev.device, &err);
  fail_unless (kernel != NULL);
  gpc::MotionPlane p = {};
  const gpc::LumaLayout l = { gpc::LUMA_U8, 8, 0, 0 };
  fail_unless (dev.exec->begin (&err));
  fail_if (kernel->record (dev.exec, p, p, NULL, 0, 15, 64, l, 100.0, &err));
  fail_unless (err != NULL);
  g_clear_error (&err);
  fail_if (kernel->record (dev.exec, p, p, NULL, 0, 64, 64, l, 0.5, &err));
  fail_unless (err != NULL);
  g_clear_error (&err);
  GstVulkanFence *fence = dev.exec->submit (&err);
  fail_unless (fence && dev.exec->wait (fence, 10 * GST_SECOND, &err));
  gst_vulkan_fence_unref (fence);
  dev.exec->wait_idle ();
  delete kernel;
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  return gpc_vk_test_main (&argc, &argv, "vmaf-vif-gpu", {
        GPC_CHECK_TEST (random_frames),
        GPC_CHECK_TEST (gain_terms),
        GPC_CHECK_TEST (clips_match_libvmaf),
        GPC_CHECK_TEST (bad_arguments) }, 1500);
}
