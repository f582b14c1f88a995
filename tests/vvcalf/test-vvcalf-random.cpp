/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Randomised consistency tests of the CPU reference (the GPU comparison
 * comes with the Vulkan element). Random valid parameters with extreme
 * coefficients and clip indices, CTB sizes 32/64/128, picture sizes that
 * are not CTB multiples, every chroma format and bit depth, and checks:
 *  - no read outside the picture: padding in the input rows never matters,
 *    padding in the output rows is never written;
 *  - output in range, CTBs / components with ALF off are copied;
 *  - a CTB with all four edges restricted depends only on its own samples;
 *  - no sample depends on input across a virtual boundary;
 *  - every class 0..24 and every transposeIdx occurs;
 *  - both last-CTB-row line-buffer rules give the same output.
 * Built a second time with the address sanitizer (see README in this folder).
 */
#include <stdio.h>
#include <string.h>

#include "vvcalf-derive.h"
#include "vvcalf-random.h"

using namespace vvcalf_test;

static int failures = 0;

#define CHECK(cond, ...)                                                                         \
  do {                                                                                           \
    if (!(cond)) {                                                                               \
      printf ("FAIL (%s:%d) ", __FILE__, __LINE__);                                              \
      printf (__VA_ARGS__);                                                                      \
      printf ("\n");                                                                             \
      failures++;                                                                                \
      return;                                                                                    \
    }                                                                                            \
  } while (0)

static void fill_padding (gpc_test::Rng &r, Picture &pic)
{
  for (int i = 0; i < pic.planes (); i++)
    for (int y = 0; y < pic.height[i]; y++)
      for (ptrdiff_t x = pic.width[i]; x < pic.stride[i]; x++)
        pic.plane[i][(size_t) y * pic.stride[i] + x] = (uint16_t) r.bits (16);
}

static bool same_region (const Picture &a, const Picture &b, int i, int x0, int y0, int x1, int y1)
{
  for (int y = y0; y < y1 && y < a.height[i]; y++)
    for (int x = x0; x < x1 && x < a.width[i]; x++)
      if (a.at (i, x, y) != b.at (i, x, y))
        return false;
  return true;
}

static long class_hits[25], transpose_hits[4];

static void one_case (gpc_test::Rng &r, int iter)
{
  GstVvcAlfInfo info;
  random_info (r, info);
  gpc::VvcAlfParams params;
  std::string err;
  bool ok = gpc::vvc_alf_params_from_info (info, params, err);
  if (!ok) {
    gst_vvc_alf_info_clear (&info);
    CHECK (false, "case %d: random info rejected: %s", iter, err.c_str ());
  }
  const gpc::VvcAlfPicParams &p = params.pic;
  std::string chk = gpc::vvc_alf_params_check (params);
  CHECK (chk.empty (), "case %d: derived params: %s", iter, chk.c_str ());

  const int pad = (int) r.range (0, 13);
  const int maxv = (1 << p.bit_depth) - 1;
  Picture in, out, out2;
  in.alloc (p, pad);
  out.alloc (p, pad);
  out2.alloc (p, pad);
  random_content (r, in, p.bit_depth);
  fill_padding (r, in);
  for (int i = 0; i < 3; i++) {
    std::fill (out.plane[i].begin (), out.plane[i].end (), 0xBEEF);
    out2.plane[i] = out.plane[i];
  }
  apply (params, in, out);
  fill_padding (r, in);
  apply (params, in, out2);

  for (int i = 0; i < in.planes (); i++) {
    for (int y = 0; y < in.height[i]; y++) {
      for (ptrdiff_t x = 0; x < in.stride[i]; x++) {
        uint16_t v = out.plane[i][(size_t) y * in.stride[i] + x];
        if (x >= in.width[i]) {
          CHECK (v == 0xBEEF, "case %d: plane %d: padding written at (%td,%d)", iter, i, x, y);
          continue;
        }
        CHECK (v <= maxv, "case %d: plane %d: value %d out of range", iter, i, v);
        CHECK (v == out2.at (i, (int) x, y), "case %d: plane %d (%td,%d) depends on row padding",
            iter, i, x, y);
        const int xl = (int) x << (i ? p.shift_x : 0), yl = y << (i ? p.shift_y : 0);
        const gpc::VvcAlfCtbParams &ctb = params.ctbs[gpc::vvc_alf_ctb_index (p, xl, yl)];
        const bool filtered = i == 0 ? (ctb.flags & gpc::kVvcAlfCtbY)
            : ((ctb.flags & (gpc::kVvcAlfCtbCb << (i - 1))) || ctb.cc_filter[i - 1] >= 0);
        if (!filtered)
          CHECK (v == in.at (i, (int) x, y), "case %d: plane %d (%td,%d) changed with ALF off",
              iter, i, x, y);
      }
    }
  }

  /* Line-buffer boundary in the last CTB row, H.266 text vs VTM: they can
   * only differ for a last CTB row of S-7 .. S-4 luma rows, which a picture
   * height that is a multiple of 8 never gives. Both must agree here. */
  {
    gpc::VvcAlfParams other = params;
    other.pic.vb_last_row = !p.vb_last_row;
    Picture o;
    o.alloc (p, pad);
    apply (other, in, o);
    for (int i = 0; i < in.planes (); i++)
      CHECK (same_region (out2, o, i, 0, 0, in.width[i], in.height[i]),
          "case %d: plane %d: last-row line-buffer rule changes the output (height %d)", iter, i,
          p.height);
  }

  /* Class statistics. */
  for (int by = 0; by < p.height; by += 4) {
    for (int bx = 0; bx < p.width; bx += 4) {
      gpc::VvcAlfClass cls = gpc::vvc_alf_classify_block (p, params.ctbs.data (), in.in (0), bx, by);
      CHECK (cls.filt_idx >= 0 && cls.filt_idx < 25 && cls.transpose_idx >= 0
              && cls.transpose_idx < 4, "case %d: class out of range", iter);
      class_hits[cls.filt_idx]++;
      transpose_hits[cls.transpose_idx]++;
    }
  }

  /* Edge isolation: restrict every edge of one CTB; its output must not
   * depend on anything outside it (CC-ALF reads luma: all planes perturbed). */
  {
    const int ci = (int) r.range (0, (int) params.ctbs.size () - 1);
    gpc::VvcAlfParams iso = params;
    iso.ctbs[ci].flags |= gpc::kVvcAlfEdgeLeft | gpc::kVvcAlfEdgeRight | gpc::kVvcAlfEdgeTop
        | gpc::kVvcAlfEdgeBottom;
    const int col = ci % p.ctbs_x, row = ci / p.ctbs_x;
    Picture in2 = in, o1, o2;
    o1.alloc (p, pad);
    o2.alloc (p, pad);
    for (int i = 0; i < in.planes (); i++) {
      const int sx = i ? p.shift_x : 0, sy = i ? p.shift_y : 0;
      const int w = p.ctb_size >> sx, h = p.ctb_size >> sy;
      for (int y = 0; y < in.height[i]; y++)
        for (int x = 0; x < in.width[i]; x++)
          if (x / w != col || y / h != row)
            in2.plane[i][(size_t) y * in.stride[i] + x] = (uint16_t) r.range (0, maxv);
    }
    apply (iso, in, o1);
    apply (iso, in2, o2);
    for (int i = 0; i < in.planes (); i++) {
      const int w = p.ctb_size >> (i ? p.shift_x : 0), h = p.ctb_size >> (i ? p.shift_y : 0);
      CHECK (same_region (o1, o2, i, col * w, row * h, col * w + w, row * h + h),
          "case %d: CTB %d with all edges restricted reads outside itself (plane %d)", iter, ci, i);
    }
  }

  /* Virtual boundaries: nothing on one side depends on the other side. */
  for (int d = 0; d < 2; d++) {
    const int n = d ? p.num_vb_y : p.num_vb_x;
    if (!n)
      continue;
    const int v = d ? p.vb_y[r.range (0, n - 1)] : p.vb_x[r.range (0, n - 1)];
    Picture in2 = in, o1, o2;
    o1.alloc (p, pad);
    o2.alloc (p, pad);
    for (int i = 0; i < in.planes (); i++) {
      const int vp = v >> (i ? (d ? p.shift_y : p.shift_x) : 0);
      for (int y = 0; y < in.height[i]; y++)
        for (int x = 0; x < in.width[i]; x++)
          if ((d ? y : x) >= vp)
            in2.plane[i][(size_t) y * in.stride[i] + x] = (uint16_t) r.range (0, maxv);
    }
    apply (params, in, o1);
    apply (params, in2, o2);
    for (int i = 0; i < in.planes (); i++) {
      const int vp = v >> (i ? (d ? p.shift_y : p.shift_x) : 0);
      CHECK (same_region (o1, o2, i, 0, 0, d ? in.width[i] : vp, d ? vp : in.height[i]),
          "case %d: %s virtual boundary %d leaks (plane %d)", iter, d ? "horizontal" : "vertical",
          v, i);
    }
  }
  gst_vvc_alf_info_clear (&info);
}

int main ()
{
  gpc_test::Rng r = gpc_test::rng ("vvcalf-random");
  const int n = 80;
  for (int i = 0; i < n; i++)
    one_case (r, i);

  printf ("classes:");
  for (int k = 0; k < 25; k++)
    printf (" %ld", class_hits[k]);
  printf ("\ntranspose:");
  for (int k = 0; k < 4; k++)
    printf (" %ld", transpose_hits[k]);
  printf ("\n");
  for (int k = 0; k < 25; k++)
    if (!class_hits[k]) {
      printf ("FAIL: class %d never occurred\n", k);
      failures++;
    }
  for (int k = 0; k < 4; k++)
    if (!transpose_hits[k]) {
      printf ("FAIL: transposeIdx %d never occurred\n", k);
      failures++;
    }
  printf ("%d random cases, %d failures\n", n, failures);
  return failures ? 1 : 0;
}
