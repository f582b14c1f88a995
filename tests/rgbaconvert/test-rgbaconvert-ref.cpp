/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The CPU reference of vkrgbaconvert: black, white, grey and the primaries
 * for every matrix, range and depth; no 32-bit overflow anywhere in the
 * sample range; random samples within one step of the exact (floating
 * point) conversion; chroma repetition and alpha; GStreamer's colorimetry
 * defaults.
 */
#include <gst/check/gstcheck.h>

#include <math.h>
#include <stdint.h>

#include <vector>

#include "gpc-check.h"
#include "gpc-test.h"
#include "rgba-convert-ref.h"
#include "rgba-convert-video.h"

using namespace gpc;

namespace {

struct NamedMatrix {
  const char *name;
  RgbaMatrix m;
};
const NamedMatrix kMatrices[] = { { "BT.601", kRgbaBt601 }, { "BT.709", kRgbaBt709 },
  { "BT.2020", kRgbaBt2020 } };
const unsigned kDepths[] = { 8, 10, 12, 16 };

/* Y'CbCr samples of the R'G'B' colour (r, g, b in 0..1), quantised as the
 * standards do (round to nearest, clipped to the sample range). */
void
encode (const RgbaMatrix &m, bool full, unsigned depth, double r, double g, double b,
    uint32_t *y, uint32_t *cb, uint32_t *cr)
{
  const double kg = 1.0 - m.kr - m.kb;
  const double ey = m.kr * r + kg * g + m.kb * b;
  const double pb = (b - ey) / (2.0 * (1.0 - m.kb)), pr = (r - ey) / (2.0 * (1.0 - m.kr));
  const double max = (double) ((1u << depth) - 1), s = (double) (1u << (depth - 8));
  auto q = [max] (double v) { return (uint32_t) fmin (fmax (lround (v), 0.0), max); };
  if (full) {
    *y = q (ey * max);
    *cb = q ((double) (1u << (depth - 1)) + pb * max);
    *cr = q ((double) (1u << (depth - 1)) + pr * max);
  } else {
    *y = q ((16.0 + 219.0 * ey) * s);
    *cb = q ((128.0 + 224.0 * pb) * s);
    *cr = q ((128.0 + 224.0 * pr) * s);
  }
}

/* The exact conversion, in floating point. */
void
decode_exact (const RgbaMatrix &m, bool full, unsigned depth, uint32_t y, uint32_t cb, uint32_t cr,
    double out[3])
{
  const double max = (double) ((1u << depth) - 1), s = (double) (1u << (depth - 8));
  const double ys = full ? max : 219.0 * s, cs = full ? max : 224.0 * s;
  const double yo = full ? 0.0 : 16.0 * s, co = (double) (1u << (depth - 1));
  const double ey = (y - yo) / ys, pb = (cb - co) / cs, pr = (cr - co) / cs;
  const double kg = 1.0 - m.kr - m.kb;
  out[0] = 255.0 * (ey + 2.0 * (1.0 - m.kr) * pr);
  out[1] = 255.0 * (ey - 2.0 * (1.0 - m.kb) * m.kb / kg * pb - 2.0 * (1.0 - m.kr) * m.kr / kg * pr);
  out[2] = 255.0 * (ey + 2.0 * (1.0 - m.kb) * pb);
}

} // namespace

GST_START_TEST (black_white_primaries)
{
  static const double colours[][3] = { { 0, 0, 0 }, { 1, 1, 1 }, { 1, 0, 0 }, { 0, 1, 0 },
    { 0, 0, 1 }, { 1, 1, 0 }, { 0, 1, 1 }, { 1, 0, 1 }, { 0.5, 0.5, 0.5 } };
  int checked = 0;
  for (const NamedMatrix &nm : kMatrices)
    for (int full = 0; full < 2; full++)
      for (unsigned depth : kDepths) {
        const RgbaCoeffs c = rgba_coeffs (nm.m, full, depth);
        /* Black and white exactly, grey to the exact value's rounding. */
        uint8_t px[3];
        const uint32_t zero = 1u << (depth - 1);
        rgba_pixel (c, full ? 0 : 16u << (depth - 8), zero, zero, px);
        fail_unless (px[0] == 0 && px[1] == 0 && px[2] == 0, "%s %s %u-bit: black is %u,%u,%u",
            nm.name, full ? "full" : "limited", depth, px[0], px[1], px[2]);
        rgba_pixel (c, full ? (1u << depth) - 1 : 235u << (depth - 8), zero, zero, px);
        fail_unless (px[0] == 255 && px[1] == 255 && px[2] == 255,
            "%s %s %u-bit: white is %u,%u,%u", nm.name, full ? "full" : "limited", depth,
            px[0], px[1], px[2]);
        fail_unless_equals_int (rgba_gray (c, full ? 0 : 16u << (depth - 8)), 0);
        fail_unless_equals_int (rgba_gray (c, full ? (1u << depth) - 1 : 235u << (depth - 8)),
            255);
        for (const auto &col : colours) {
          uint32_t y, cb, cr;
          encode (nm.m, full, depth, col[0], col[1], col[2], &y, &cb, &cr);
          rgba_pixel (c, y, cb, cr, px);
          double exact[3];
          decode_exact (nm.m, full, depth, y, cb, cr, exact);
          for (int k = 0; k < 3; k++) {
            /* The quantised samples decode exactly to `exact`; we are
             * within one rounding of it. The colour itself comes back
             * within 2 (quantisation of Cb / Cr, e.g. full-range Cr of
             * red is 255.5 clipped to 255). */
            const double want = fmin (fmax (exact[k], 0.0), 255.0);
            fail_unless (fabs (px[k] - want) <= 0.5 + (depth > 12 ? 0.1 : 2e-3),
                "%s %s %u-bit colour (%g,%g,%g) comp %d: %u, exact %f", nm.name,
                full ? "full" : "limited", depth, col[0], col[1], col[2], k, px[k], exact[k]);
            fail_unless (abs (px[k] - (int) lround (col[k] * 255)) <= 2,
                "%s %s %u-bit colour (%g,%g,%g) comp %d: %u", nm.name,
                full ? "full" : "limited", depth, col[0], col[1], col[2], k, px[k]);
          }
          checked++;
        }
      }
  /* Known values by hand: BT.709 limited 8-bit red (63, 102, 240). */
  uint8_t px[3];
  rgba_pixel (rgba_coeffs (kRgbaBt709, false, 8), 63, 102, 240, px);
  fail_unless (px[0] == 255 && px[1] <= 1 && px[2] == 0, "709 red: %u,%u,%u", px[0], px[1], px[2]);
  /* BT.601 limited 8-bit: (81, 90, 240) is red; (145, 54, 34) green;
   * (41, 240, 110) blue. */
  rgba_pixel (rgba_coeffs (kRgbaBt601, false, 8), 81, 90, 240, px);
  fail_unless (px[0] >= 254 && px[1] == 0 && px[2] == 0, "601 red: %u,%u,%u", px[0], px[1], px[2]);
  rgba_pixel (rgba_coeffs (kRgbaBt601, false, 8), 145, 54, 34, px);
  fail_unless (px[0] == 0 && px[1] >= 254 && px[2] <= 1, "601 green: %u,%u,%u", px[0], px[1], px[2]);
  rgba_pixel (rgba_coeffs (kRgbaBt601, false, 8), 41, 240, 110, px);
  fail_unless (px[0] <= 1 && px[1] <= 1 && px[2] == 255, "601 blue: %u,%u,%u", px[0], px[1], px[2]);
  printf ("%d colours checked over 3 matrices x 2 ranges x 4 depths\n", checked);
}
GST_END_TEST;

/* Every sum stays inside int32 for every sample value: checked at the
 * extremes of each term (the sums are linear in each sample). */
GST_START_TEST (no_overflow)
{
  for (const NamedMatrix &nm : kMatrices)
    for (int full = 0; full < 2; full++)
      for (unsigned depth : kDepths) {
        const RgbaCoeffs c = rgba_coeffs (nm.m, full, depth);
        const int64_t lo = 0, hi = (int64_t) c.max;
        for (int64_t y : { lo, hi })
          for (int64_t u : { lo, hi })
            for (int64_t v : { lo, hi }) {
              const int64_t ly = (int64_t) c.y * (y - c.y_off);
              const int64_t cu = u - c.c_off, cv = v - c.c_off;
              const int64_t terms[] = { ly, (int64_t) c.r_cr * cv, (int64_t) c.g_cb * cu,
                (int64_t) c.g_cr * cv, (int64_t) c.b_cb * cu };
              const int64_t sums[] = { ly + terms[1], ly + terms[2] + terms[3], ly + terms[4] };
              for (int64_t s : sums)
                fail_unless (llabs (s) + (1 << (kRgbaFracBits - 1)) < INT32_MAX,
                    "%s %u-bit: sum %lld overflows", nm.name, depth, (long long) s);
            }
        /* Alpha: a * 255 + max / 2 in uint32. */
        fail_unless ((uint64_t) c.max * 255 + c.max / 2 < UINT32_MAX);
      }
}
GST_END_TEST;

/* Random samples: within one step (rounding of the exact value, clamped). */
GST_START_TEST (random_samples_near_exact)
{
  gpc_test::Rng rng = gpc_test::rng ("ref-random");
  for (const NamedMatrix &nm : kMatrices)
    for (int full = 0; full < 2; full++)
      for (unsigned depth : kDepths) {
        const RgbaCoeffs c = rgba_coeffs (nm.m, full, depth);
        /* Coefficients carry 20 - (depth - 8) significant fraction bits
         * per sample step: at 16 bits the sum can be 0.1 off the exact
         * value before rounding. */
        const double tol = 0.5 + (depth > 12 ? 0.1 : 2e-3);
        for (int i = 0; i < 20000; i++) {
          uint32_t y = rng.bits (depth), cb = rng.bits (depth), cr = rng.bits (depth);
          uint8_t px[3];
          rgba_pixel (c, y, cb, cr, px);
          double exact[3];
          decode_exact (nm.m, full, depth, y, cb, cr, exact);
          for (int k = 0; k < 3; k++) {
            const double want = fmin (fmax (exact[k], 0.0), 255.0);
            fail_unless (fabs (px[k] - want) <= tol, "%s %u-bit (%u,%u,%u) comp %d: %u, "
                "exact %f", nm.name, depth, y, cb, cr, k, px[k], exact[k]);
          }
          const uint32_t a = rng.bits (depth);
          fail_unless_equals_int (rgba_alpha (a, c.max), (int) lround (a * 255.0 / c.max));
        }
      }
}
GST_END_TEST;

/* Chroma by repetition, alpha passed through, grey to grey. */
GST_START_TEST (frame_layouts)
{
  const RgbaCoeffs c = rgba_coeffs (kRgbaBt709, true, 10);
  /* 3x3 4:2:0 10-bit with alpha-free planes: chroma (x/2, y/2). */
  uint16_t Y[9], U[4], V[4], A[9];
  for (int i = 0; i < 9; i++) {
    Y[i] = (uint16_t) (100 * i);
    A[i] = (uint16_t) (127 * i);
  }
  for (int i = 0; i < 4; i++) {
    U[i] = (uint16_t) (400 + 50 * i);
    V[i] = (uint16_t) (600 - 40 * i);
  }
  RgbaSource s = {};
  s.layout = RgbaLayout::PlanarAlpha;
  s.bytes = 2;
  s.sub_x = s.sub_y = 1;
  s.width = s.height = 3;
  s.plane[0] = (const uint8_t *) Y;
  s.plane[1] = (const uint8_t *) U;
  s.plane[2] = (const uint8_t *) V;
  s.plane[3] = (const uint8_t *) A;
  s.stride[0] = s.stride[3] = 6;
  s.stride[1] = s.stride[2] = 4;
  uint8_t out[9 * 4];
  rgba_convert_ref (s, c, out, 12);
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 3; x++) {
      uint8_t px[3];
      const int ci = (y / 2) * 2 + x / 2;
      rgba_pixel (c, Y[y * 3 + x], U[ci], V[ci], px);
      const uint8_t *o = out + y * 12 + x * 4;
      fail_unless (o[0] == px[0] && o[1] == px[1] && o[2] == px[2], "pixel %d,%d", x, y);
      fail_unless_equals_int (o[3], rgba_alpha (A[y * 3 + x], 1023));
    }
  /* AYUV64: A, Y, U, V words. */
  const uint16_t ayuv[4] = { 65535, 4096, 32768, 32768 };
  s = {};
  s.layout = RgbaLayout::Ayuv64;
  s.bytes = 2;
  s.width = s.height = 1;
  s.plane[0] = (const uint8_t *) ayuv;
  s.stride[0] = 8;
  rgba_convert_ref (s, rgba_coeffs (kRgbaBt601, false, 16), out, 4);
  fail_unless (out[0] == 0 && out[1] == 0 && out[2] == 0 && out[3] == 255);
  /* Grey, full range 8-bit: identity. */
  uint8_t g[256];
  for (int i = 0; i < 256; i++)
    g[i] = (uint8_t) i;
  s = {};
  s.layout = RgbaLayout::Gray;
  s.bytes = 1;
  s.width = 256;
  s.height = 1;
  s.plane[0] = g;
  s.stride[0] = 256;
  std::vector<uint8_t> go (256 * 4);
  rgba_convert_ref (s, rgba_coeffs (kRgbaBt601, true, 8), go.data (), 256 * 4);
  for (int i = 0; i < 256; i++)
    fail_unless (go[4 * i] == i && go[4 * i + 1] == i && go[4 * i + 2] == i && go[4 * i + 3] == 255);
}
GST_END_TEST;

/* Matrix and range from caps, with GStreamer's defaults. */
GST_START_TEST (colorimetry_from_caps)
{
  struct {
    const char *caps;
    RgbaMatrix m;
    bool full;
  } cases[] = {
    { "video/x-raw,format=I420,width=720,height=576", kRgbaBt601, false },
    { "video/x-raw,format=I420,width=1280,height=720", kRgbaBt709, false },
    { "video/x-raw,format=I420_10LE,width=3840,height=2160", kRgbaBt709, false },
    { "video/x-raw,format=I420,width=1280,height=720,colorimetry=bt601", kRgbaBt601, false },
    { "video/x-raw,format=I420,width=320,height=200,colorimetry=bt709", kRgbaBt709, false },
    { "video/x-raw,format=Y444_12LE,width=320,height=200,colorimetry=bt2020", kRgbaBt2020, false },
    { "video/x-raw,format=Y444,width=320,height=200,colorimetry=1:3:5:1", kRgbaBt709, true },
    { "video/x-raw,format=Y444,width=320,height=200,colorimetry=2:4:5:4", kRgbaBt601, false },
    { "video/x-raw,format=GRAY8,width=320,height=200", kRgbaBt601, true },
  };
  for (const auto &c : cases) {
    GstCaps *caps = gst_caps_from_string (c.caps);
    GstVideoInfo info;
    fail_unless (gst_video_info_from_caps (&info, caps), "%s", c.caps);
    gst_caps_unref (caps);
    const RgbaMatrix m = rgba_matrix_of (&info);
    if (GST_VIDEO_INFO_IS_YUV (&info))
      fail_unless (m.kr == c.m.kr && m.kb == c.m.kb, "%s: Kr %f Kb %f", c.caps, m.kr, m.kb);
    fail_unless (rgba_full_range_of (&info) == c.full, "%s: range %d", c.caps, info.colorimetry.range);
  }
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  gpc_test::seed ();
  return gst_check_run_suite (gpc_test::check_suite ("rgbaconvert-ref", {
            GPC_CHECK_TEST (black_white_primaries),
            GPC_CHECK_TEST (no_overflow),
            GPC_CHECK_TEST (random_samples_near_exact),
            GPC_CHECK_TEST (frame_layouts),
            GPC_CHECK_TEST (colorimetry_from_caps) }), "rgbaconvert-ref", "rgbaconvert-ref");
}
