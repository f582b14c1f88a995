/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The VMAF clips load, cover 8, 10 and 12 bit and odd sizes, carry every value
 * of libvmaf's default, neg and 4k models for every frame, and agree with the
 * motion CPU reference bit for bit (libvmaf computes motion on the reference).
 */
#include <gst/check/gstcheck.h>

#include <algorithm>
#include <set>

#include "gpc-test.h"
#include "vmaf-clips.h"
#include "vmaf-motion-ref.h"

static const char *const model_keys[] = {
  "integer_adm2", "integer_motion2", "integer_vif_scale0", "integer_vif_scale1",
  "integer_vif_scale2", "integer_vif_scale3", "integer_adm_scale0", "integer_adm_scale1",
  "integer_adm_scale2", "integer_adm_scale3", "integer_motion", "integer_adm2_egl_1",
  "integer_vif_scale0_egl_1", "integer_vif_scale1_egl_1", "integer_vif_scale2_egl_1",
  "integer_vif_scale3_egl_1", "vmaf", "vmaf_neg", "vmaf_4k",
};

GST_START_TEST (every_clip_loads)
{
  const std::vector<std::string> names = vmaf_clip_names ();
  fail_unless (names.size () >= 5, "only %zu clips", names.size ());
  std::set<int> depths;
  bool odd = false;
  for (const std::string &name : names) {
    VmafClip clip;
    fail_unless (vmaf_load_clip (name, &clip), "%s does not load", name.c_str ());
    fail_unless (clip.frames >= 4 && (int) clip.ref.size () == clip.frames
        && (int) clip.dist.size () == clip.frames && (int) clip.expect.size () == clip.frames);
    depths.insert (clip.bpc);
    odd |= (clip.width & 1) && (clip.height & 1);
    bool distorted = false;
    for (int f = 0; f < clip.frames; f++) {
      distorted |= clip.ref[f] != clip.dist[f];
      for (const char *key : model_keys)
        fail_unless (clip.expect[f].count (key), "%s frame %d lacks %s", name.c_str (), f, key);
      const double vmaf = clip.expect[f].at ("vmaf");
      fail_unless (vmaf > 0 && vmaf < 100, "%s frame %d: vmaf %g", name.c_str (), f, vmaf);
    }
    fail_unless (distorted, "%s has no coding distortion", name.c_str ());
    printf ("%s: %dx%d %d bit, %d frames\n", name.c_str (), clip.width, clip.height, clip.bpc,
        clip.frames);
  }
  fail_unless (depths.count (8) && depths.count (10) && depths.count (12));
  fail_unless (odd, "no clip of odd width and height");
}
GST_END_TEST;

/* The real clips (camera content from the conformance vectors), where the
 * vectors are: at 8, 10 and 12 bit, distorted, with libvmaf's values. */
GST_START_TEST (every_real_clip_loads)
{
  const std::vector<std::string> names = vmaf_real_clip_names ();
  if (names.empty ()) {
    printf ("SKIP every_real_clip_loads: no real clip's pictures are here\n");
    return;
  }
  std::set<int> depths;
  for (const std::string &name : names) {
    VmafClip clip;
    fail_unless (vmaf_load_clip (name, &clip), "%s does not load", name.c_str ());
    fail_unless (clip.frames >= 2 && (int) clip.ref.size () == clip.frames
        && (int) clip.dist.size () == clip.frames);
    depths.insert (clip.bpc);
    for (int f = 0; f < clip.frames; f++) {
      fail_unless (clip.ref[f] != clip.dist[f], "%s frame %d is not distorted", name.c_str (), f);
      for (const char *key : model_keys)
        fail_unless (clip.expect[f].count (key), "%s frame %d lacks %s", name.c_str (), f, key);
      const double vmaf = clip.expect[f].at ("vmaf");
      fail_unless (vmaf > 0 && vmaf < 100, "%s frame %d: vmaf %g", name.c_str (), f, vmaf);
    }
    /* Consecutive pictures of one scene: the reference moves. */
    fail_unless (clip.expect[1].at ("integer_motion") > 0, "%s does not move", name.c_str ());
    printf ("%s: %dx%d %d bit, %d frames\n", name.c_str (), clip.width, clip.height, clip.bpc,
        clip.frames);
  }
  fail_unless (depths.count (8) && depths.count (10) && depths.count (12));
}
GST_END_TEST;

/* Bit-exact: the motion reference reproduces libvmaf's integer_motion and
 * integer_motion2 of every clip (motion2 is the smaller of a frame's and its
 * successor's score; the last frame keeps its own). */
GST_START_TEST (motion_matches_libvmaf)
{
  for (const std::string &name : vmaf_all_clip_names ()) {
    VmafClip clip;
    fail_unless (vmaf_load_clip (name, &clip));
    std::vector<double> motion (clip.frames, 0.0);
    for (int f = 1; f < clip.frames; f++) {
      gpc::LumaPlane prev = { clip.ref[f - 1].data (), clip.width };
      gpc::LumaPlane cur = { clip.ref[f].data (), clip.width };
      uint64_t sad = gpc::motion_sad_ref (prev, cur, clip.width, clip.height, clip.bpc);
      motion[f] = gpc::motion_score_from_sad (sad, clip.width, clip.height, 1.0, 10000.0);
    }
    for (int f = 0; f < clip.frames; f++) {
      const double m2 = f + 1 < clip.frames ? std::min (motion[f], motion[f + 1]) : motion[f];
      fail_unless (motion[f] == clip.expect[f].at ("integer_motion"),
          "%s frame %d: motion %.17g, libvmaf %.17g", name.c_str (), f, motion[f],
          clip.expect[f].at ("integer_motion"));
      fail_unless (m2 == clip.expect[f].at ("integer_motion2"),
          "%s frame %d: motion2 %.17g, libvmaf %.17g", name.c_str (), f, m2,
          clip.expect[f].at ("integer_motion2"));
    }
  }
}
GST_END_TEST;

static Suite *
vmaf_clips_suite (void)
{
  Suite *s = suite_create ("vmaf-clips");
  TCase *tc = tcase_create ("clips");
  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, every_clip_loads);
  tcase_add_test (tc, every_real_clip_loads);
  tcase_add_test (tc, motion_matches_libvmaf);
  return s;
}

GST_CHECK_MAIN (vmaf_clips);
