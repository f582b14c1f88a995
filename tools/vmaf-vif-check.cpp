/* vmaf-vif-check: compares gst/vmaf's integer VIF reference with libvmaf on
 * fresh random frame pairs, value for value (per scale the score, numerator
 * and denominator, and the combined integer_vif).
 *
 * A development tool, not built by meson: libvmaf is never a dependency of
 * the project. Build against a libvmaf from tools/build-libvmaf.sh (scalar C
 * code, the default there):
 *   g++ -O2 -std=c++17 -Igst/vmaf -Igst/vmafmotion -I$LIBVMAF_PREFIX/include tools/vmaf-vif-check.cpp \
 *     gst/vmaf/vmaf-vif-ref.cpp -L$LIBVMAF_LIBDIR -lvmaf -o vmaf-vif-check
 *   LD_LIBRARY_PATH=$LIBVMAF_LIBDIR ./vmaf-vif-check [CASES [SEED [MAX_WIDTH]]]
 * Each case draws a size (16 to MAX_WIDTH, default 400, by 3/4 of it high;
 * odd ones included), a bit depth (8 to
 * 16), a content (smooth gradients, texture, full-range noise, flat areas)
 * and a distortion (noise, blur, contrast change, identical, constant), and
 * a gain limit (libvmaf's default 100, the neg models' 1, or a random one in
 * between). Exit status 1 at the first difference. */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <string>
#include <vector>

extern "C" {
#include <libvmaf/libvmaf.h>
}

#include "vmaf-vif-ref.h"

namespace {

uint64_t rng_state;

uint64_t next ()
{
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int range (int lo, int hi)
{
  return lo + (int) (next () % (uint64_t) (hi - lo + 1));
}

struct Case {
  int w, h, bpc;
  double egl;
  std::string egl_text;
  std::vector<uint16_t> ref, dist;
};

void make_content (Case &c)
{
  const int maxv = (1 << c.bpc) - 1;
  const int kind = range (0, 4);
  c.ref.resize ((size_t) c.w * c.h);
  const double fx = range (1, 40) / 100.0, fy = range (1, 40) / 100.0;
  for (int y = 0; y < c.h; y++) {
    for (int x = 0; x < c.w; x++) {
      double v;
      switch (kind) {
        case 0: /* smooth */
          v = 0.5 + 0.4 * sin (x * fx) * cos (y * fy);
          break;
        case 1: /* texture plus noise */
          v = 0.5 + 0.3 * sin (x * fx + y * fy) + (range (-100, 100) / 1000.0);
          break;
        case 2: /* full-range noise */
          v = range (0, maxv) / (double) maxv;
          break;
        case 3: /* blocks of flat areas */
          v = ((x / 8 + y / 8) % 3) / 2.0;
          break;
        default: /* gradient with steps */
          v = ((x * 7 + y * 3) % 97) / 96.0;
          break;
      }
      v = v < 0 ? 0 : (v > 1 ? 1 : v);
      c.ref[(size_t) y * c.w + x] = (uint16_t) lrint (v * maxv);
    }
  }
}

void make_distortion (Case &c)
{
  const int maxv = (1 << c.bpc) - 1;
  const int kind = range (0, 4);
  c.dist = c.ref;
  const int amp = range (1, 1 << (c.bpc - 3));
  for (int y = 0; y < c.h; y++) {
    for (int x = 0; x < c.w; x++) {
      int v = c.ref[(size_t) y * c.w + x];
      switch (kind) {
        case 0: /* noise */
          v += range (-amp, amp);
          break;
        case 1: { /* 3x3 box blur */
          int s = 0;
          for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
              int yy = y + dy < 0 ? 0 : (y + dy >= c.h ? c.h - 1 : y + dy);
              int xx = x + dx < 0 ? 0 : (x + dx >= c.w ? c.w - 1 : x + dx);
              s += c.ref[(size_t) yy * c.w + xx];
            }
          v = s / 9;
          break;
        }
        case 2: /* contrast gain (enhancement) */
          v = (v - maxv / 2) * 3 / 2 + maxv / 2;
          break;
        case 3: /* identical */
          break;
        default: /* constant */
          v = maxv / 3;
          break;
      }
      c.dist[(size_t) y * c.w + x] = (uint16_t) (v < 0 ? 0 : (v > maxv ? maxv : v));
    }
  }
}

void fill (VmafPicture *pic, const Case &c, const std::vector<uint16_t> &plane)
{
  if (vmaf_picture_alloc (pic, VMAF_PIX_FMT_YUV400P, c.bpc, c.w, c.h)) {
    fprintf (stderr, "vmaf_picture_alloc failed\n");
    exit (2);
  }
  for (int y = 0; y < c.h; y++) {
    uint8_t *row = (uint8_t *) pic->data[0] + y * pic->stride[0];
    for (int x = 0; x < c.w; x++) {
      if (c.bpc == 8)
        row[x] = (uint8_t) plane[(size_t) y * c.w + x];
      else
        ((uint16_t *) row)[x] = plane[(size_t) y * c.w + x];
    }
  }
}

bool run_case (int index, Case &c)
{
  VmafConfiguration cfg = {};
  cfg.log_level = VMAF_LOG_LEVEL_WARNING;
  VmafContext *vmaf = nullptr;
  if (vmaf_init (&vmaf, cfg)) {
    fprintf (stderr, "vmaf_init failed\n");
    exit (2);
  }
  VmafFeatureDictionary *opts = nullptr;
  vmaf_feature_dictionary_set (&opts, "debug", "true");
  std::string suffix;
  if (c.egl != gpc::kVifDefaultGainLimit) {
    vmaf_feature_dictionary_set (&opts, "vif_enhn_gain_limit", c.egl_text.c_str ());
    suffix = "_egl_" + c.egl_text;
  }
  if (vmaf_use_feature (vmaf, "vif", opts)) {
    fprintf (stderr, "vmaf_use_feature failed\n");
    exit (2);
  }
  VmafPicture r, d;
  fill (&r, c, c.ref);
  fill (&d, c, c.dist);
  if (vmaf_read_pictures (vmaf, &r, &d, 0) || vmaf_read_pictures (vmaf, nullptr, nullptr, 0)) {
    fprintf (stderr, "vmaf_read_pictures failed\n");
    exit (2);
  }

  gpc::VifPlane pr = { c.ref.data (), (ptrdiff_t) c.w * 2, 2 };
  gpc::VifPlane pd = { c.dist.data (), (ptrdiff_t) c.w * 2, 2 };
  /* 8-bit: also the one-byte path, which must agree with the two-byte one. */
  std::vector<uint8_t> r8, d8;
  if (c.bpc == 8 && (index & 1)) {
    r8.assign (c.ref.begin (), c.ref.end ());
    d8.assign (c.dist.begin (), c.dist.end ());
    pr = { r8.data (), (ptrdiff_t) c.w, 1 };
    pd = { d8.data (), (ptrdiff_t) c.w, 1 };
  }
  gpc::VifAccum acc[gpc::kVifScales];
  if (!gpc::vif_accumulate_ref (pr, pd, c.w, c.h, c.bpc, c.egl, acc)) {
    fprintf (stderr, "vif_accumulate_ref refused %dx%d %d-bit\n", c.w, c.h, c.bpc);
    exit (2);
  }
  const gpc::VifScores s = gpc::vif_scores (acc);

  bool ok = true;
  auto check = [&] (const std::string &name, double mine) {
    double theirs;
    const std::string full = name + suffix;
    if (vmaf_feature_score_at_index (vmaf, full.c_str (), &theirs, 0)) {
      fprintf (stderr, "libvmaf has no %s\n", full.c_str ());
      exit (2);
    }
    if (memcmp (&theirs, &mine, sizeof mine)) {
      printf ("case %d (%dx%d %d-bit egl %s): %s libvmaf %.17g reference %.17g\n", index, c.w,
          c.h, c.bpc, c.egl_text.c_str (), full.c_str (), theirs, mine);
      ok = false;
    }
  };
  for (int i = 0; i < gpc::kVifScales; i++) {
    const std::string n = std::to_string (i);
    /* With options libvmaf stores the short alias, without them the long name. */
    check (suffix.empty () ? "VMAF_integer_feature_vif_scale" + n + "_score"
                           : "integer_vif_scale" + n, s.scale[i]);
    check ("integer_vif_num_scale" + n, s.num[i]);
    check ("integer_vif_den_scale" + n, s.den[i]);
  }
  check ("integer_vif", s.vif);
  check ("integer_vif_num", s.vif_num);
  check ("integer_vif_den", s.vif_den);
  vmaf_close (vmaf);
  return ok;
}

} // namespace

int main (int argc, char **argv)
{
  const int cases = argc > 1 ? atoi (argv[1]) : 200;
  rng_state = argc > 2 ? strtoull (argv[2], nullptr, 0) : (uint64_t) time (nullptr);
  const int max_w = argc > 3 ? atoi (argv[3]) : 400;
  printf ("seed %llu\n", (unsigned long long) rng_state);
  static const int depths[] = { 8, 8, 10, 10, 12, 16, 9, 14 };
  int failed = 0;
  for (int i = 0; i < cases; i++) {
    Case c;
    c.w = range (0, 3) == 0 ? range (16, 40) : range (16, max_w);
    c.h = range (0, 3) == 0 ? range (16, 40) : range (16, max_w * 3 / 4);
    c.bpc = depths[range (0, 7)];
    switch (range (0, 3)) {
      case 0:
        c.egl = 1.0;
        c.egl_text = "1";
        break;
      case 1: {
        char buf[32];
        snprintf (buf, sizeof buf, "%g", range (1000, 100000) / 1000.0);
        c.egl_text = buf;
        c.egl = strtod (buf, nullptr);
        break;
      }
      default:
        c.egl = gpc::kVifDefaultGainLimit;
        c.egl_text = "100";
        break;
    }
    make_content (c);
    make_distortion (c);
    if (!run_case (i, c)) {
      failed++;
      if (failed > 5)
        break;
    }
  }
  printf ("%d cases, %d differ\n", cases, failed);
  return failed ? 1 : 0;
}
