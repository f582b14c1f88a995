/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The ADM CPU reference reproduces libvmaf's integer_adm2 and
 * integer_adm_scale0..3 of every clip bit for bit, with the default options
 * and with the neg models' enhancement-gain limit of 1; and the integer form
 * of the decoupling's angle test (the GPU's) equals libvmaf's floating-point
 * one on random and boundary inputs.
 */
#include <gst/check/gstcheck.h>

#include <math.h>
#include <string.h>

#include "gpc-test.h"
#include "vmaf-adm-ref.h"
#include "vmaf-clips.h"

static bool same_double (double a, double b)
{
  return memcmp (&a, &b, sizeof a) == 0;
}

/* 8-bit clips go through the uint8_t sample path, as libvmaf read them. */
static void check_clip_values (const VmafClip &clip, const gpc::AdmParams &params,
    const char *suffix)
{
  for (int f = 0; f < clip.frames; f++) {
    const std::vector<uint8_t> r8 (clip.ref[f].begin (), clip.ref[f].end ());
    const std::vector<uint8_t> d8 (clip.dist[f].begin (), clip.dist[f].end ());
    const bool u8 = clip.bpc == 8;
    const gpc::AdmPlane ref = { u8 ? (const void *) r8.data () : clip.ref[f].data (),
      (size_t) clip.width * (u8 ? 1 : 2) };
    const gpc::AdmPlane dist = { u8 ? (const void *) d8.data () : clip.dist[f].data (),
      (size_t) clip.width * (u8 ? 1 : 2) };
    gpc::AdmScores s;
    gpc::adm_compute (ref, dist, clip.width, clip.height, clip.bpc, params, &s);
    const std::map<std::string, double> &e = clip.expect[f];
    const std::string adm2 = std::string ("integer_adm2") + suffix;
    fail_unless (same_double (s.adm2, e.at (adm2)), "%s frame %d: %s %.17g, libvmaf %.17g",
        clip.name.c_str (), f, adm2.c_str (), s.adm2, e.at (adm2));
    for (int k = 0; k < 4; k++) {
      const std::string key = "integer_adm_scale" + std::to_string (k) + suffix;
      fail_unless (same_double (s.scale[k], e.at (key)), "%s frame %d: %s %.17g, libvmaf %.17g",
          clip.name.c_str (), f, key.c_str (), s.scale[k], e.at (key));
    }
  }
}

GST_START_TEST (clips_match_libvmaf)
{
  for (const std::string &name : vmaf_all_clip_names ()) {
    VmafClip clip;
    fail_unless (vmaf_load_clip (name, &clip), "%s does not load", name.c_str ());
    gpc::AdmParams params;
    check_clip_values (clip, params, "");
    params.enhn_gain_limit = 1.0;
    check_clip_values (clip, params, "_egl_1");
    printf ("%s: %d frames equal\n", name.c_str (), clip.frames);
  }
}
GST_END_TEST;

/* Inputs near the test's boundary: (th, tv) rotated from (oh, ov) by about
 * one degree, and magnitudes where float rounding matters. */
GST_START_TEST (angle_test_integer_form)
{
  gpc_test::Rng rng = gpc_test::rng ("angle");
  int64_t flags = 0, checked = 0, near = 0;
  for (int i = 0; i < 2000000; i++) {
    const int bits = (int) rng.range (1, 31);
    auto value = [&] () { return (int64_t) rng.range (-(1ll << bits), (1ll << bits) - 1); };
    int64_t oh = value (), ov = value (), th, tv;
    if (rng.chance (50)) {
      const double angle = (rng.range (-2000000, 2000000) / 1e6) * M_PI / 180.0;
      const double scale = rng.range (1, 3000) / 1000.0;
      th = (int64_t) llround ((oh * cos (angle) - ov * sin (angle)) * scale);
      tv = (int64_t) llround ((oh * sin (angle) + ov * cos (angle)) * scale);
      th = std::max<int64_t> (std::min<int64_t> (th, INT32_MAX), INT32_MIN);
      tv = std::max<int64_t> (std::min<int64_t> (tv, INT32_MAX), INT32_MIN);
    } else {
      th = value ();
      tv = value ();
    }
    if (rng.chance (5)) {
      th = 0;
      tv = rng.chance (50) ? 0 : tv;
    }
    /* Wrapping int64 arithmetic, as libvmaf's sums of huge coefficients. */
    auto mul = [] (int64_t a, int64_t b) { return (uint64_t) a * (uint64_t) b; };
    const int64_t dp = (int64_t) (mul (oh, th) + mul (ov, tv));
    const int64_t om = (int64_t) (mul (oh, oh) + mul (ov, ov));
    const int64_t tm = (int64_t) (mul (th, th) + mul (tv, tv));
    const bool want = gpc::adm_angle_flag (dp, om, tm);
    const bool got = gpc::adm_angle_flag_int (dp, om, tm);
    fail_unless (want == got, "(%lld, %lld) (%lld, %lld): float test %d, integer %d",
        (long long) oh, (long long) ov, (long long) th, (long long) tv, want, got);
    flags += want;
    checked++;
    /* Inputs the float shortcut leaves to the exact comparison. */
    const double lhs = (double) dp * dp, rhs = 0.99969541 * (double) om * tm;
    near += dp >= 0 && om > 0 && tm > 0 && fabs (lhs / rhs - 1) < 2e-5;
  }
  printf ("angle test: %lld inputs, %lld within one degree, %lld near the boundary\n",
      (long long) checked, (long long) flags, (long long) near);
  fail_unless (near > 1000, "too few inputs near the boundary");
}
GST_END_TEST;

static Suite *
vmaf_adm_ref_suite (void)
{
  Suite *s = suite_create ("vmaf-adm-ref");
  TCase *tc = tcase_create ("adm");
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  gpc_test::seed ();
  tcase_add_test (tc, clips_match_libvmaf);
  tcase_add_test (tc, angle_test_integer_form);
  return s;
}

GST_CHECK_MAIN (vmaf_adm_ref);
