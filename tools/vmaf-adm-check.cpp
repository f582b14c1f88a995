/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Development check of the ADM CPU reference (gst/vmaf/vmaf-adm-ref.cpp)
 * against libvmaf itself: fresh random picture pairs (random sizes, bit
 * depths, distortions and enhancement-gain limits) through both, every value
 * compared for exact equality. Not built by meson (the project does not
 * depend on libvmaf); build it against the libvmaf tools/build-libvmaf.sh
 * installs (its scalar C code, which the reference follows), with the
 * LIBVMAF_PREFIX and LIBVMAF_LIBDIR that script prints:
 *
 *   g++ -O2 -std=c++17 -Igst/vmaf -I$LIBVMAF_PREFIX/include tools/vmaf-adm-check.cpp \
 *       gst/vmaf/vmaf-adm-ref.cpp -L$LIBVMAF_LIBDIR -lvmaf -Wl,-rpath,$LIBVMAF_LIBDIR \
 *       -o vmaf-adm-check
 *   ./vmaf-adm-check [cases] [seed]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <random>
#include <string>
#include <vector>

extern "C" {
#include <libvmaf/libvmaf.h>
}

#include "vmaf-adm-ref.h"

namespace {

std::mt19937_64 rng;

int uniform (int lo, int hi)
{
  return std::uniform_int_distribution<int> (lo, hi) (rng);
}

/* Content with structure at several scales: gradients, blocks, texture. */
std::vector<uint16_t> make_picture (int w, int h, unsigned bpc)
{
  const int maxv = (1 << bpc) - 1;
  std::vector<uint16_t> p ((size_t) w * h);
  const double fx = uniform (1, 40) / 1000.0, fy = uniform (1, 40) / 1000.0;
  const int kind = uniform (0, 3);
  const int block = uniform (2, 24);
  std::vector<int> blocks ((w / block + 1) * (h / block + 1));
  for (int &b : blocks)
    b = uniform (0, maxv);
  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) {
      double v;
      if (kind == 0)
        v = uniform (0, maxv);
      else if (kind == 1)
        v = maxv * (0.5 + 0.45 * sin (x * fx * 6.28 + y * fy * 3.1));
      else if (kind == 2)
        v = blocks[(y / block) * (w / block + 1) + x / block] + uniform (-maxv / 16, maxv / 16);
      else
        v = ((x / block + y / block) & 1) ? maxv : 0;
      p[(size_t) y * w + x] = (uint16_t) std::min (std::max ((int) v, 0), maxv);
    }
  }
  return p;
}

std::vector<uint16_t> distort (const std::vector<uint16_t> &ref, int w, int h, unsigned bpc)
{
  const int maxv = (1 << bpc) - 1;
  std::vector<uint16_t> d = ref;
  const int kind = uniform (0, 5);
  const int amp = std::max (1, maxv / uniform (4, 200));
  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) {
      auto at = [&] (int yy, int xx) {
        yy = std::min (std::max (yy, 0), h - 1);
        xx = std::min (std::max (xx, 0), w - 1);
        return (int) ref[(size_t) yy * w + xx];
      };
      int v;
      if (kind == 0) /* noise */
        v = at (y, x) + uniform (-amp, amp);
      else if (kind == 1) /* blur */
        v = (at (y - 1, x) + at (y + 1, x) + at (y, x - 1) + at (y, x + 1) + 4 * at (y, x) + 4) / 8;
      else if (kind == 2) /* sharpen (enhancement) */
        v = 2 * at (y, x) - (at (y - 1, x) + at (y + 1, x) + at (y, x - 1) + at (y, x + 1)) / 4;
      else if (kind == 3) /* coarse quantisation */
        v = (at (y, x) / amp) * amp;
      else if (kind == 4) /* inverted: the largest opposed coefficients */
        v = maxv - at (y, x);
      else /* identical */
        v = at (y, x);
      d[(size_t) y * w + x] = (uint16_t) std::min (std::max (v, 0), maxv);
    }
  }
  return d;
}

bool fill (VmafPicture *pic, const std::vector<uint16_t> &src, int w, int h, unsigned bpc)
{
  if (vmaf_picture_alloc (pic, VMAF_PIX_FMT_YUV400P, bpc, w, h))
    return false;
  for (int y = 0; y < h; y++) {
    uint8_t *row = (uint8_t *) pic->data[0] + (size_t) y * pic->stride[0];
    for (int x = 0; x < w; x++) {
      if (bpc == 8)
        row[x] = (uint8_t) src[(size_t) y * w + x];
      else
        ((uint16_t *) row)[x] = src[(size_t) y * w + x];
    }
  }
  return true;
}

} // namespace

int main (int argc, char **argv)
{
  const int cases = argc > 1 ? atoi (argv[1]) : 100;
  const uint64_t seed = argc > 2 ? strtoull (argv[2], nullptr, 0) : std::random_device {}();
  rng.seed (seed);
  printf ("seed %" PRIu64 ", %d cases\n", seed, cases);
  static const unsigned depths[] = { 8, 10, 12, 16 };
  static const double gains[] = { 100.0, 1.0, 1.0, 1.5, 4.0 };
  int failures = 0;
  for (int c = 0; c < cases; c++) {
    const bool large = uniform (0, 9) == 0;
    const int w = large ? uniform (500, 1920) : uniform (gpc::kAdmMinSize, 300);
    const int h = large ? uniform (300, 1080) : uniform (gpc::kAdmMinSize, 300);
    const unsigned bpc = depths[uniform (0, 3)];
    gpc::AdmParams params;
    params.enhn_gain_limit = gains[uniform (0, 4)];
    if (uniform (0, 9) == 0)
      params.norm_view_dist = 4.5;
    const std::vector<uint16_t> ref = make_picture (w, h, bpc);
    const std::vector<uint16_t> dis = distort (ref, w, h, bpc);

    VmafConfiguration cfg = {};
    cfg.log_level = VMAF_LOG_LEVEL_NONE;
    VmafContext *vmaf = nullptr;
    if (vmaf_init (&vmaf, cfg)) {
      fprintf (stderr, "vmaf_init failed\n");
      return 2;
    }
    VmafFeatureDictionary *opts = nullptr;
    char val[64];
    vmaf_feature_dictionary_set (&opts, "debug", "true");
    if (params.enhn_gain_limit != 100.0) {
      snprintf (val, sizeof val, "%g", params.enhn_gain_limit);
      vmaf_feature_dictionary_set (&opts, "adm_enhn_gain_limit", val);
    }
    if (params.norm_view_dist != 3.0) {
      snprintf (val, sizeof val, "%g", params.norm_view_dist);
      vmaf_feature_dictionary_set (&opts, "adm_norm_view_dist", val);
    }
    if (vmaf_use_feature (vmaf, "adm", opts)) {
      fprintf (stderr, "vmaf_use_feature failed\n");
      return 2;
    }
    VmafPicture pr, pd;
    if (!fill (&pr, ref, w, h, bpc) || !fill (&pd, dis, w, h, bpc)) {
      fprintf (stderr, "picture alloc failed\n");
      return 2;
    }
    const size_t sample = bpc == 8 ? 1 : 2;
    std::vector<uint8_t> rbuf ((size_t) w * h * sample), dbuf ((size_t) w * h * sample);
    for (size_t i = 0; i < (size_t) w * h; i++) {
      if (bpc == 8) {
        rbuf[i] = (uint8_t) ref[i];
        dbuf[i] = (uint8_t) dis[i];
      } else {
        memcpy (&rbuf[2 * i], &ref[i], 2);
        memcpy (&dbuf[2 * i], &dis[i], 2);
      }
    }
    if (vmaf_read_pictures (vmaf, &pr, &pd, 0) || vmaf_read_pictures (vmaf, nullptr, nullptr, 0)) {
      fprintf (stderr, "vmaf_read_pictures failed\n");
      return 2;
    }
    gpc::AdmScores s;
    gpc::adm_compute ({ rbuf.data (), (size_t) w * sample }, { dbuf.data (), (size_t) w * sample },
        w, h, bpc, params, &s);

    /* Feature names carry the non-default options (libvmaf's naming). */
    std::string opt_suffix;
    if (params.enhn_gain_limit != 100.0) {
      snprintf (val, sizeof val, "_egl_%g", params.enhn_gain_limit);
      opt_suffix += val;
    }
    if (params.norm_view_dist != 3.0) {
      snprintf (val, sizeof val, "_nvd_%g", params.norm_view_dist);
      opt_suffix += val;
    }
    struct Want {
      std::string name;
      double mine;
    };
    std::vector<Want> wants = { { "integer_adm2", s.adm2 } };
    for (int k = 0; k < 4; k++) {
      wants.push_back ({ "integer_adm_scale" + std::to_string (k), s.scale[k] });
      wants.push_back ({ "integer_adm_num_scale" + std::to_string (k), s.num_scale[k] });
      wants.push_back ({ "integer_adm_den_scale" + std::to_string (k), s.den_scale[k] });
    }
    wants.push_back ({ "integer_adm_num", s.num });
    wants.push_back ({ "integer_adm_den", s.den });
    bool ok = true;
    for (const Want &want : wants) {
      double theirs = 0;
      std::string name = want.name + opt_suffix;
      /* With options, libvmaf names adm2 by its long name. */
      if (vmaf_feature_score_at_index (vmaf, name.c_str (), &theirs, 0) && want.name == "integer_adm2")
        name = "VMAF_integer_feature_adm2_score" + opt_suffix;
      if (vmaf_feature_score_at_index (vmaf, name.c_str (), &theirs, 0)) {
        printf ("case %d: libvmaf has no %s\n", c, name.c_str ());
        ok = false;
        continue;
      }
      if (memcmp (&theirs, &want.mine, sizeof theirs) != 0) {
        printf ("case %d %dx%d %u-bit egl %g: %s libvmaf %.17g ours %.17g\n", c, w, h, bpc,
            params.enhn_gain_limit, name.c_str (), theirs, want.mine);
        ok = false;
      }
    }
    if (!ok)
      failures++;
    vmaf_close (vmaf);
  }
  printf ("%d of %d cases differ\n", failures, cases);
  return failures ? 1 : 0;
}
