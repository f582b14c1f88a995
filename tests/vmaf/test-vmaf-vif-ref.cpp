/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The integer VIF CPU reference reproduces libvmaf's values of every clip bit
 * for bit: the four scale scores of the default model (gain limit 100) and of
 * the neg models (limit 1, the "_egl_1" features), and the debug numerators
 * and denominators. tools/vmaf-vif-check.cpp compares it with libvmaf itself
 * on random frames; here CI, which has no libvmaf, checks the committed
 * values, and random frames check what holds without libvmaf.
 */
#include <gst/check/gstcheck.h>

#include <string.h>

#include <string>

#include "gpc-test.h"
#include "vmaf-clips.h"
#include "vmaf-vif-ref.h"

static gpc::VifScores clip_scores (const VmafClip &clip, int f, double limit)
{
  gpc::VifPlane r = { clip.ref[f].data (), (ptrdiff_t) clip.width * 2, 2 };
  gpc::VifPlane d = { clip.dist[f].data (), (ptrdiff_t) clip.width * 2, 2 };
  gpc::VifAccum acc[gpc::kVifScales];
  fail_unless (gpc::vif_accumulate_ref (r, d, clip.width, clip.height, clip.bpc, limit, acc));
  return gpc::vif_scores (acc);
}

/* Exact equality of the doubles (printed with %.17g, parsed back exactly). */
static void expect_equal (const VmafClip &clip, int f, const std::string &key, double mine)
{
  auto it = clip.expect[f].find (key);
  fail_unless (it != clip.expect[f].end (), "%s frame %d lacks %s", clip.name.c_str (), f,
      key.c_str ());
  fail_unless (memcmp (&it->second, &mine, sizeof mine) == 0,
      "%s frame %d: %s %.17g, libvmaf %.17g", clip.name.c_str (), f, key.c_str (), mine,
      it->second);
}

GST_START_TEST (clips_match_libvmaf)
{
  int checked = 0;
  for (const std::string &name : vmaf_all_clip_names ()) {
    VmafClip clip;
    fail_unless (vmaf_load_clip (name, &clip), "%s does not load", name.c_str ());
    for (int f = 0; f < clip.frames; f++) {
      const gpc::VifScores s = clip_scores (clip, f, gpc::kVifDefaultGainLimit);
      const gpc::VifScores neg = clip_scores (clip, f, 1.0);
      for (int i = 0; i < gpc::kVifScales; i++) {
        const std::string n = std::to_string (i);
        expect_equal (clip, f, "integer_vif_scale" + n, s.scale[i]);
        expect_equal (clip, f, "integer_vif_scale" + n + "_egl_1", neg.scale[i]);
        expect_equal (clip, f, "integer_vif_num_scale" + n, s.num[i]);
        expect_equal (clip, f, "integer_vif_den_scale" + n, s.den[i]);
      }
      expect_equal (clip, f, "integer_vif", s.vif);
      expect_equal (clip, f, "integer_vif_num", s.vif_num);
      expect_equal (clip, f, "integer_vif_den", s.vif_den);
      checked++;
    }
    printf ("%s: %d frames equal to libvmaf\n", name.c_str (), clip.frames);
  }
  fail_unless (checked > 0);
}
GST_END_TEST;

/* Random frames, random sizes and depths: 8-bit samples in bytes and in
 * 16-bit words give the same sums; identical pictures score 1 at every
 * scale without enhancement gain; bad arguments are refused. */
GST_START_TEST (random_frames_invariants)
{
  gpc_test::Rng rng = gpc_test::rng ("vif-ref-random");
  for (int iter = 0; iter < 12; iter++) {
    const unsigned w = (unsigned) rng.range (gpc::kVifMinSize, 150);
    const unsigned h = (unsigned) rng.range (gpc::kVifMinSize, 120);
    const unsigned bpc = iter < 4 ? 8 : (unsigned) rng.range (8, 16);
    const uint32_t maxv = (1u << bpc) - 1;
    std::vector<uint16_t> ref ((size_t) w * h), dist ((size_t) w * h);
    for (size_t i = 0; i < ref.size (); i++) {
      ref[i] = (uint16_t) (rng.next () & maxv);
      dist[i] = (uint16_t) std::min<int64_t> (maxv, std::max<int64_t> (0,
          (int64_t) ref[i] + rng.range (-(int64_t) maxv / 8, maxv / 8)));
    }
    gpc::VifPlane r = { ref.data (), (ptrdiff_t) w * 2, 2 };
    gpc::VifPlane d = { dist.data (), (ptrdiff_t) w * 2, 2 };
    gpc::VifAccum acc[gpc::kVifScales];
    fail_unless (gpc::vif_accumulate_ref (r, d, w, h, bpc, 100.0, acc));
    if (bpc == 8) {
      std::vector<uint8_t> r8 (ref.begin (), ref.end ()), d8 (dist.begin (), dist.end ());
      gpc::VifPlane r1 = { r8.data (), (ptrdiff_t) w, 1 }, d1 = { d8.data (), (ptrdiff_t) w, 1 };
      gpc::VifAccum acc8[gpc::kVifScales];
      fail_unless (gpc::vif_accumulate_ref (r1, d1, w, h, bpc, 100.0, acc8));
      fail_unless (memcmp (acc, acc8, sizeof acc) == 0, "%ux%u: bytes and words differ", w, h);
    }
    gpc::VifAccum same[gpc::kVifScales];
    fail_unless (gpc::vif_accumulate_ref (r, r, w, h, bpc, 1.0, same));
    const gpc::VifScores s = gpc::vif_scores (same);
    for (int i = 0; i < gpc::kVifScales; i++)
      fail_unless (s.scale[i] > 0.999 && s.scale[i] <= 1.0, "%ux%u %u-bit: scale %d %.17g",
          w, h, bpc, i, s.scale[i]);
  }
  std::vector<uint16_t> px (64 * 64);
  gpc::VifPlane p = { px.data (), 128, 2 }, p8 = { px.data (), 64, 1 };
  gpc::VifAccum acc[gpc::kVifScales];
  fail_if (gpc::vif_accumulate_ref (p, p, 15, 64, 8, 100.0, acc));
  fail_if (gpc::vif_accumulate_ref (p, p, 64, 64, 17, 100.0, acc));
  fail_if (gpc::vif_accumulate_ref (p, p, 64, 64, 10, 0.5, acc));
  fail_if (gpc::vif_accumulate_ref (p8, p8, 64, 64, 10, 100.0, acc));
}
GST_END_TEST;

static Suite *
vmaf_vif_ref_suite (void)
{
  Suite *s = suite_create ("vmaf-vif-ref");
  TCase *tc = tcase_create ("vif");
  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, clips_match_libvmaf);
  tcase_add_test (tc, random_frames_invariants);
  return s;
}

GST_CHECK_MAIN (vmaf_vif_ref);
