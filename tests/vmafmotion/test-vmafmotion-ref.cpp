/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GPU-free checks of the motion feature's host logic: the streaming scorer
 * against a batch rendering of libvmaf's flush rules on random score
 * sequences and options, luma packings round-tripping for every format, and
 * libvmaf's number formatting.
 */
#include <gst/check/gstcheck.h>

#include <math.h>

#include <vector>

#include "gpc-test.h"
#include "vmaf-motion-layout.h"
#include "vmaf-motion-log.h"
#include "vmaf-motion-ref.h"
#include "vmaf-motion-scorer.h"

using namespace gpc;

/* libvmaf's flush, over the whole sequence at once. */
static void
batch_flush (const std::vector<double> &s, const MotionOptions &o,
    std::vector<double> &m2, std::vector<double> &m3)
{
  const unsigned n = s.size (), min_idx = o.min_index (), stride = o.five_frame_window ? 2 : 1;
  double stamp = 0;
  if (n > min_idx)
    stamp = std::min (motion_blend (s[min_idx], o.blend_factor, o.blend_offset), o.max_val);
  double prev = 0;
  m2.assign (n, 0);
  m3.assign (n, 0);
  for (unsigned i = 0; i < n; i++) {
    if (i < min_idx) {
      m2[i] = 0;
    } else {
      int lo = (int) i - (int) (stride - 1), hi = (int) i + 1;
      if (hi >= (int) n)
        m2[i] = s[i];
      else if (lo >= (int) min_idx)
        m2[i] = std::min (s[lo], s[hi]);
      else
        m2[i] = s[hi];
    }
    if (i < min_idx) {
      m3[i] = stamp;
      prev = stamp;
    } else {
      double p = std::min (motion_blend (m2[i], o.blend_factor, o.blend_offset), o.max_val);
      m3[i] = o.moving_average ? (p + prev) / 2.0 : p;
      prev = p;
    }
  }
}

GST_START_TEST (scorer_matches_libvmaf_flush)
{
  gpc_test::Rng rng = gpc_test::rng ("scorer");
  for (int iter = 0; iter < 2000; iter++) {
    MotionOptions o;
    o.force_zero = rng.chance (5);
    o.blend_factor = rng.chance (50) ? 1.0 : rng.range (0, 1000) / 1000.0;
    o.blend_offset = rng.range (0, 100);
    o.fps_weight = rng.range (0, 5000) / 1000.0;
    o.max_val = rng.chance (70) ? 10000.0 : rng.range (1, 50);
    o.five_frame_window = rng.chance (50);
    o.moving_average = rng.chance (50);
    const unsigned w = rng.range (3, 100), h = rng.range (3, 100);
    const unsigned n = rng.range (0, 12);

    MotionScorer sc (o);
    std::vector<double> scores;
    std::vector<MotionFrameResult> done;
    for (unsigned i = 0; i < n; i++) {
      uint64_t sad = rng.range (0, (int64_t) w * h * 256 * 40);
      double expect = sc.next_needs_sad () ?
          motion_score_from_sad (sad, w, h, o.fps_weight, o.max_val) : 0.0;
      double got = sc.add_frame (sad, w, h, done);
      fail_unless_equals_float (got, expect);
      scores.push_back (got);
      /* Streaming: a frame completes once its successor (and, before
       * min_index, frame min_index) is known. */
      const unsigned seen = i + 1;
      fail_unless_equals_int (done.size (), seen > o.min_index () ? seen - 1 : 0);
    }
    sc.finish (done);
    std::vector<double> m2, m3;
    batch_flush (scores, o, m2, m3);
    fail_unless_equals_int (done.size (), n);
    for (unsigned i = 0; i < n; i++) {
      fail_unless_equals_int (done[i].index, i);
      fail_unless_equals_float (done[i].motion, scores[i]);
      fail_unless_equals_float (done[i].motion2, m2[i]);
      fail_unless_equals_float (done[i].motion3, m3[i]);
    }
    /* Pools over every frame, as libvmaf pools frames 0 .. n-1. */
    if (n > 0) {
      double mean = 0, mn = 1e300, mx = -1e300, inv = 0;
      for (double v : m3) {
        mean += v;
        mn = std::min (mn, v);
        mx = std::max (mx, v);
        inv += 1.0 / (v + 1.0);
      }
      fail_unless (fabs (sc.pool (2).mean () - mean / n) < 1e-9);
      fail_unless_equals_float (sc.pool (2).min, mn);
      fail_unless_equals_float (sc.pool (2).max, mx);
      fail_unless (fabs (sc.pool (2).harmonic_mean () - (n / inv - 1.0)) < 1e-9);
    }
  }
}
GST_END_TEST;

GST_START_TEST (layouts_round_trip)
{
  gpc_test::Rng rng = gpc_test::rng ("layouts");
  std::vector<std::string> formats = luma_supported_formats ();
  fail_unless (formats.size () >= 40, "only %zu formats", formats.size ());
  for (const std::string &f : formats) {
    LumaLayout l;
    fail_unless (luma_layout_for_format (gst_video_format_from_string (f.c_str ()), &l));
    const unsigned w = rng.range (1, 50);
    std::vector<uint8_t> row (luma_row_bytes (l, w) + 8, 0);
    std::vector<uint16_t> v (w);
    for (unsigned x = 0; x < w; x++) {
      v[x] = rng.bits (l.bpc);
      luma_store (row.data (), l, x, v[x]);
    }
    for (unsigned x = 0; x < w; x++)
      fail_unless_equals_int (luma_fetch (row.data (), l, x), v[x]);
  }
  /* Formats the feature must refuse. */
  LumaLayout l;
  fail_if (luma_layout_for_format (GST_VIDEO_FORMAT_RGBA, &l));
  fail_if (luma_layout_for_format (GST_VIDEO_FORMAT_YUY2, &l));
  fail_if (luma_layout_for_format (GST_VIDEO_FORMAT_NV12_4L4, &l));
  fail_if (luma_layout_for_format (GST_VIDEO_FORMAT_v210, &l));
}
GST_END_TEST;

GST_START_TEST (sad_reference_properties)
{
  /* Identical frames: zero. A constant offset: zero as well, the filter
   * sums to 65536 and the difference is flat... except for rounding, which
   * floors: check against a hand computation on a 3x3 frame. */
  gpc_test::Rng rng = gpc_test::rng ("sadref");
  for (int iter = 0; iter < 50; iter++) {
    unsigned w = rng.range (3, 40), h = rng.range (3, 40), bpc = 8 + rng.range (0, 8);
    std::vector<uint16_t> a (w * h), b (w * h);
    for (size_t i = 0; i < a.size (); i++)
      a[i] = b[i] = rng.bits (bpc);
    LumaPlane pa = { a.data (), (ptrdiff_t) w }, pb = { b.data (), (ptrdiff_t) w };
    fail_unless_equals_int (motion_sad_ref (pa, pb, w, h, bpc), 0);
  }
  /* prev - cur = +1 everywhere: vertical (65536 + 2^(bpc-1)) >> bpc,
   * horizontal of that constant: the same constant. */
  for (unsigned bpc = 8; bpc <= 16; bpc++) {
    std::vector<uint16_t> a (9, 5), b (9, 4);
    LumaPlane pa = { a.data (), 3 }, pb = { b.data (), 3 };
    int64_t v = (65536 + (1 << (bpc - 1))) >> bpc;
    int64_t hsum = (65536 * v + 32768) >> 16;
    fail_unless_equals_int (motion_sad_ref (pa, pb, 3, 3, bpc), 9 * hsum);
    /* The other way round floors differently: operand order matters. */
    int64_t vn = (-65536 + (1 << (bpc - 1))) >> bpc;
    int64_t hn = (65536 * vn + 32768) >> 16;
    fail_unless_equals_int (motion_sad_ref (pb, pa, 3, 3, bpc), 9 * (hn < 0 ? -hn : hn));
  }
}
GST_END_TEST;

GST_START_TEST (log_number_format)
{
  const std::pair<double, const char *> cases[] = {
    {0, "0.000000"}, {1.5, "1.500000"}, {0.0000001234, "0.0000001234000000"}, {NAN, "null"},
  };
  for (auto &c : cases) {
    std::string s = motion_log_number (c.first);
    fail_unless_equals_string (s.c_str (), c.second);
  }
  MotionLogFormat f;
  fail_unless (motion_log_format_from_string ("csv", &f) && f == MotionLogFormat::CSV);
  fail_if (motion_log_format_from_string ("yaml", &f));
}
GST_END_TEST;

static Suite *
vmafmotion_ref_suite (void)
{
  Suite *s = suite_create ("vmafmotion-ref");
  TCase *tc = tcase_create ("general");
  suite_add_tcase (s, tc);
  tcase_add_test (tc, scorer_matches_libvmaf_flush);
  tcase_add_test (tc, layouts_round_trip);
  tcase_add_test (tc, sad_reference_properties);
  tcase_add_test (tc, log_number_format);
  gpc_test::seed ();
  return s;
}

GST_CHECK_MAIN (vmafmotion_ref);
