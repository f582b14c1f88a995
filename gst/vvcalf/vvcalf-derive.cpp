/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Validation of GstVvcAlfInfo and derivation of the GPU parameter blocks.
 * Ranges are the bitstream conformance requirements of H.266 7.4.3.18 and
 * 7.4.8 / 7.3.11.2 (coefficients, clip indices, filter counts), plus the
 * consistency rules of the vvc-alf-params format.
 */
#include "vvcalf-derive.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vvcalf-tables.h"

namespace gpc {

namespace {

std::string fmt (const char *f, ...) __attribute__ ((format (printf, 1, 2)));

std::string fmt (const char *f, ...)
{
  char buf[256];
  va_list ap;
  va_start (ap, f);
  vsnprintf (buf, sizeof (buf), f, ap);
  va_end (ap);
  return buf;
}

constexpr unsigned kMaxPictureSize = 32768;
constexpr int kMaxLumaSet = 16 + 6;  /* AlfCtbFiltSetIdxY: 16 + index into up to 7 APS */

bool is_cc_coeff (int v)
{
  int a = v < 0 ? -v : v;
  return a == 0 || (a <= 64 && (a & (a - 1)) == 0);
}

bool aps_present (const GstVvcAlfInfo &info, int id)
{
  return id >= 0 && id < GST_VVC_ALF_MAX_APS && (info.aps_present >> id) & 1;
}

std::string check_aps (const GstVvcAlfAps &a, int id)
{
  if (a.luma_present) {
    for (int k = 0; k < GST_VVC_ALF_NUM_CLASSES; k++) {
      for (int j = 0; j < GST_VVC_ALF_LUMA_COEFFS; j++) {
        if (a.luma_coeff[k][j] < -128 || a.luma_coeff[k][j] > 127)
          return fmt ("aps %d: luma coefficient [%d][%d] = %d outside -128..127", id, k, j,
              a.luma_coeff[k][j]);
        if (a.luma_clip_idx[k][j] > 3)
          return fmt ("aps %d: luma clip index [%d][%d] = %u outside 0..3", id, k, j,
              a.luma_clip_idx[k][j]);
      }
    }
  }
  if (a.chroma_num_alts > GST_VVC_ALF_MAX_CHROMA_ALTS)
    return fmt ("aps %d: %u chroma filters, at most 8", id, a.chroma_num_alts);
  for (int k = 0; k < a.chroma_num_alts; k++) {
    for (int j = 0; j < GST_VVC_ALF_CHROMA_COEFFS; j++) {
      if (a.chroma_coeff[k][j] < -128 || a.chroma_coeff[k][j] > 127)
        return fmt ("aps %d: chroma coefficient [%d][%d] = %d outside -128..127", id, k, j,
            a.chroma_coeff[k][j]);
      if (a.chroma_clip_idx[k][j] > 3)
        return fmt ("aps %d: chroma clip index [%d][%d] = %u outside 0..3", id, k, j,
            a.chroma_clip_idx[k][j]);
    }
  }
  for (int c = 0; c < 2; c++) {
    if (a.cc_num_filters[c] > GST_VVC_ALF_MAX_CC_FILTERS)
      return fmt ("aps %d: %u CC-ALF %s filters, at most 4", id, a.cc_num_filters[c],
          c ? "Cr" : "Cb");
    for (int k = 0; k < a.cc_num_filters[c]; k++) {
      for (int j = 0; j < GST_VVC_ALF_CC_COEFFS; j++) {
        if (!is_cc_coeff (a.cc_coeff[c][k][j]))
          return fmt ("aps %d: CC-ALF %s coefficient [%d][%d] = %d is not 0 or +-2^n <= 64",
              id, c ? "Cr" : "Cb", k, j, a.cc_coeff[c][k][j]);
      }
    }
  }
  return "";
}

std::string check_ctb (const GstVvcAlfInfo &info, const GstVvcAlfCtb &t, unsigned i)
{
  const unsigned known = (1u << 9) - 1;
  if (t.flags & ~known)
    return fmt ("ctb %u: unknown flags 0x%x", i, t.flags);

  if (t.flags & GST_VVC_ALF_CTB_Y) {
    if (t.luma_set > kMaxLumaSet)
      return fmt ("ctb %u: luma_set %u outside 0..%d", i, t.luma_set, kMaxLumaSet);
    if (t.luma_set >= 16) {
      if (!aps_present (info, t.luma_aps))
        return fmt ("ctb %u: luma_aps %d is not a present APS", i, t.luma_aps);
      if (!info.aps[t.luma_aps].luma_present)
        return fmt ("ctb %u: APS %d has no luma filters", i, t.luma_aps);
    } else if (t.luma_aps != -1) {
      return fmt ("ctb %u: luma_aps %d given with fixed luma_set %u", i, t.luma_aps, t.luma_set);
    }
  } else if (t.luma_set != 0 || t.luma_aps != -1) {
    return fmt ("ctb %u: luma off but luma_set %u / luma_aps %d given", i, t.luma_set, t.luma_aps);
  }

  const bool chroma_on = (t.flags & (GST_VVC_ALF_CTB_CB | GST_VVC_ALF_CTB_CR)) != 0;
  if (info.chroma_format == GST_VVC_ALF_CHROMA_400 && (chroma_on || t.cc_idc[0] || t.cc_idc[1]))
    return fmt ("ctb %u: chroma filtering in a 4:0:0 picture", i);
  if (chroma_on) {
    if (!aps_present (info, t.chroma_aps))
      return fmt ("ctb %u: chroma_aps %d is not a present APS", i, t.chroma_aps);
    if (info.aps[t.chroma_aps].chroma_num_alts == 0)
      return fmt ("ctb %u: APS %d has no chroma filters", i, t.chroma_aps);
  } else if (t.chroma_aps != -1) {
    return fmt ("ctb %u: chroma off but chroma_aps %d given", i, t.chroma_aps);
  }
  for (int c = 0; c < 2; c++) {
    if (t.flags & (GST_VVC_ALF_CTB_CB << c)) {
      if (t.chroma_alt[c] >= info.aps[t.chroma_aps].chroma_num_alts)
        return fmt ("ctb %u: %s alternative %u, APS %d has %u", i, c ? "Cr" : "Cb",
            t.chroma_alt[c], t.chroma_aps, info.aps[t.chroma_aps].chroma_num_alts);
    } else if (t.chroma_alt[c] != 0) {
      return fmt ("ctb %u: %s off but alternative %u given", i, c ? "Cr" : "Cb", t.chroma_alt[c]);
    }
    if (t.cc_idc[c]) {
      if (!aps_present (info, t.cc_aps[c]))
        return fmt ("ctb %u: CC-ALF %s APS %d is not a present APS", i, c ? "Cr" : "Cb", t.cc_aps[c]);
      if (t.cc_idc[c] > info.aps[t.cc_aps[c]].cc_num_filters[c])
        return fmt ("ctb %u: CC-ALF %s idc %u, APS %d has %u filters", i, c ? "Cr" : "Cb",
            t.cc_idc[c], t.cc_aps[c], info.aps[t.cc_aps[c]].cc_num_filters[c]);
    } else if (t.cc_aps[c] != -1) {
      return fmt ("ctb %u: CC-ALF %s off but APS %d given", i, c ? "Cr" : "Cb", t.cc_aps[c]);
    }
  }
  return "";
}

} // namespace

std::string vvc_alf_info_check (const GstVvcAlfInfo &info)
{
  if (info.width < 8 || info.height < 8 || info.width > kMaxPictureSize
      || info.height > kMaxPictureSize || info.width % 8 || info.height % 8)
    return fmt ("picture size %ux%u: must be multiples of 8 in 8..%u", info.width, info.height,
        kMaxPictureSize);
  if ((unsigned) info.chroma_format > 3)
    return fmt ("chroma format %d unknown", (int) info.chroma_format);
  if (info.bit_depth < 8 || info.bit_depth > 12)
    return fmt ("bit depth %u: supported are 8..12", info.bit_depth);
  if (info.ctb_size != 32 && info.ctb_size != 64 && info.ctb_size != 128)
    return fmt ("CTB size %u: must be 32, 64 or 128", info.ctb_size);
  const guint nums[2] = { info.num_vb_x, info.num_vb_y };
  const guint *pos[2] = { info.vb_x, info.vb_y };
  const guint lim[2] = { info.width, info.height };
  for (int d = 0; d < 2; d++) {
    if (nums[d] > GST_VVC_ALF_MAX_VIRTUAL_BOUNDARIES)
      return fmt ("%u %s virtual boundaries, at most 3", nums[d], d ? "horizontal" : "vertical");
    for (guint k = 0; k < nums[d]; k++) {
      if (pos[d][k] == 0 || pos[d][k] >= lim[d] || pos[d][k] % 8)
        return fmt ("%s virtual boundary at %u: must be a multiple of 8 inside the picture",
            d ? "horizontal" : "vertical", pos[d][k]);
    }
  }
  for (int id = 0; id < GST_VVC_ALF_MAX_APS; id++) {
    if (!aps_present (info, id))
      continue;
    std::string e = check_aps (info.aps[id], id);
    if (!e.empty ())
      return e;
  }
  const unsigned cx = (info.width + info.ctb_size - 1) / info.ctb_size;
  const unsigned cy = (info.height + info.ctb_size - 1) / info.ctb_size;
  if (info.n_ctbs != cx * cy)
    return fmt ("%u CTBs given, a %ux%u picture with %u CTBs has %u", info.n_ctbs, info.width,
        info.height, info.ctb_size, cx * cy);
  if (!info.ctbs)
    return "no CTB array";
  for (unsigned i = 0; i < info.n_ctbs; i++) {
    std::string e = check_ctb (info, info.ctbs[i], i);
    if (!e.empty ())
      return e;
  }
  return "";
}

bool vvc_alf_params_from_info (const GstVvcAlfInfo &info, VvcAlfParams &out, std::string &error)
{
  error = vvc_alf_info_check (info);
  if (!error.empty ())
    return false;

  VvcAlfPicParams &p = out.pic;
  memset (&p, 0, sizeof (p));
  const int b = (int) info.bit_depth;
  p.width = (int32_t) info.width;
  p.height = (int32_t) info.height;
  p.chroma_format = (int32_t) info.chroma_format;
  p.shift_x = (info.chroma_format == GST_VVC_ALF_CHROMA_420 || info.chroma_format == GST_VVC_ALF_CHROMA_422);
  p.shift_y = info.chroma_format == GST_VVC_ALF_CHROMA_420;
  p.bit_depth = b;
  p.ctb_size = (int32_t) info.ctb_size;
  p.ctb_log2 = info.ctb_size == 32 ? 5 : info.ctb_size == 64 ? 6 : 7;
  p.ctbs_x = (p.width + p.ctb_size - 1) >> p.ctb_log2;
  p.ctbs_y = (p.height + p.ctb_size - 1) >> p.ctb_log2;
  p.vb_last_row = info.line_buffer_boundary_in_last_row ? 1 : 0;
  p.num_vb_x = (int32_t) info.num_vb_x;
  p.num_vb_y = (int32_t) info.num_vb_y;
  for (guint k = 0; k < info.num_vb_x; k++)
    p.vb_x[k] = (int32_t) info.vb_x[k];
  for (guint k = 0; k < info.num_vb_y; k++)
    p.vb_y[k] = (int32_t) info.vb_y[k];

  /* Every table entry gets a valid clip value, used or not, so that the
   * parameter block as a whole passes vvc_alf_params_check. */
  const int32_t no_clip = vvc_alf_clip_value (b, 0);
  for (int set = 0; set < kVvcAlfNumLumaSets; set++) {
    const bool fixed = set < kVvcAlfNumFixedSets;
    const int id = set - kVvcAlfNumFixedSets;
    const bool aps = !fixed && aps_present (info, id) && info.aps[id].luma_present;
    for (int k = 0; k < kVvcAlfNumClasses; k++) {
      for (int j = 0; j < kVvcAlfLumaTaps; j++) {
        if (fixed) {
          p.luma_coeff[set][k][j] = kVvcAlfFixFiltCoeff[kVvcAlfClassToFiltMap[set][k]][j];
          p.luma_clip[set][k][j] = no_clip;
        } else if (aps) {
          p.luma_coeff[set][k][j] = info.aps[id].luma_coeff[k][j];
          p.luma_clip[set][k][j] = vvc_alf_clip_value (b, info.aps[id].luma_clip_idx[k][j]);
        } else {
          p.luma_clip[set][k][j] = no_clip;
        }
      }
    }
  }
  for (int f = 0; f < kVvcAlfNumChromaFilters; f++) {
    const int id = f / kVvcAlfMaxChromaAlts, alt = f % kVvcAlfMaxChromaAlts;
    const bool used = aps_present (info, id) && alt < info.aps[id].chroma_num_alts;
    for (int j = 0; j < kVvcAlfChromaTaps; j++) {
      p.chroma_coeff[f][j] = used ? info.aps[id].chroma_coeff[alt][j] : 0;
      p.chroma_clip[f][j] = used ? vvc_alf_clip_value (b, info.aps[id].chroma_clip_idx[alt][j]) : no_clip;
    }
  }
  for (int c = 0; c < 2; c++) {
    for (int f = 0; f < kVvcAlfNumCcFilters; f++) {
      const int id = f / kVvcAlfMaxCcFilters, k = f % kVvcAlfMaxCcFilters;
      if (!aps_present (info, id) || k >= info.aps[id].cc_num_filters[c])
        continue;
      for (int j = 0; j < kVvcAlfCcTaps; j++)
        p.cc_coeff[c][f][j] = info.aps[id].cc_coeff[c][k][j];
    }
  }

  out.ctbs.assign (info.n_ctbs, VvcAlfCtbParams ());
  for (unsigned i = 0; i < info.n_ctbs; i++) {
    const GstVvcAlfCtb &t = info.ctbs[i];
    VvcAlfCtbParams &o = out.ctbs[i];
    memset (&o, 0, sizeof (o));
    o.flags = t.flags;
    if (t.flags & GST_VVC_ALF_CTB_Y)
      o.luma_set = t.luma_set < 16 ? t.luma_set : kVvcAlfNumFixedSets + t.luma_aps;
    for (int c = 0; c < 2; c++) {
      if (t.flags & (GST_VVC_ALF_CTB_CB << c))
        o.chroma_filter[c] = t.chroma_aps * kVvcAlfMaxChromaAlts + t.chroma_alt[c];
      o.cc_filter[c] = t.cc_idc[c] ? t.cc_aps[c] * kVvcAlfMaxCcFilters + t.cc_idc[c] - 1 : -1;
    }
  }
  return true;
}

std::string vvc_alf_params_check (const VvcAlfParams &params)
{
  const VvcAlfPicParams &p = params.pic;
  if (p.chroma_format < 0 || p.chroma_format > 3)
    return "chroma_format out of range";
  const int sx = p.chroma_format == 1 || p.chroma_format == 2;
  const int sy = p.chroma_format == 1;
  if (p.shift_x != sx || p.shift_y != sy)
    return "chroma shifts do not match chroma_format";
  if (p.bit_depth < 8 || p.bit_depth > 12)
    return "bit_depth out of range";
  if (p.ctb_log2 < 5 || p.ctb_log2 > 7 || p.ctb_size != 1 << p.ctb_log2)
    return "CTB size out of range";
  if (p.width < 8 || p.height < 8 || p.width > (int) kMaxPictureSize
      || p.height > (int) kMaxPictureSize || p.width % 8 || p.height % 8)
    return "picture size out of range";
  if (p.ctbs_x != (p.width + p.ctb_size - 1) >> p.ctb_log2
      || p.ctbs_y != (p.height + p.ctb_size - 1) >> p.ctb_log2)
    return "CTB grid does not match the picture";
  if ((size_t) p.ctbs_x * p.ctbs_y != params.ctbs.size ())
    return "CTB array size does not match the CTB grid";
  if (p.vb_last_row != 0 && p.vb_last_row != 1)
    return "vb_last_row must be 0 or 1";
  if (p.num_vb_x < 0 || p.num_vb_x > 3 || p.num_vb_y < 0 || p.num_vb_y > 3)
    return "virtual boundary count out of range";
  for (int k = 0; k < p.num_vb_x; k++)
    if (p.vb_x[k] <= 0 || p.vb_x[k] >= p.width || p.vb_x[k] % 8)
      return "vertical virtual boundary out of range";
  for (int k = 0; k < p.num_vb_y; k++)
    if (p.vb_y[k] <= 0 || p.vb_y[k] >= p.height || p.vb_y[k] % 8)
      return "horizontal virtual boundary out of range";

  auto clip_ok = [&] (int32_t v) {
    for (int i = 0; i < 4; i++)
      if (v == vvc_alf_clip_value (p.bit_depth, i))
        return true;
    return false;
  };
  for (int s = 0; s < kVvcAlfNumLumaSets; s++)
    for (int k = 0; k < kVvcAlfNumClasses; k++)
      for (int j = 0; j < kVvcAlfLumaTaps; j++)
        if (p.luma_coeff[s][k][j] < -128 || p.luma_coeff[s][k][j] > 127 || !clip_ok (p.luma_clip[s][k][j]))
          return fmt ("luma filter set %d class %d tap %d out of range", s, k, j);
  for (int f = 0; f < kVvcAlfNumChromaFilters; f++)
    for (int j = 0; j < kVvcAlfChromaTaps; j++)
      if (p.chroma_coeff[f][j] < -128 || p.chroma_coeff[f][j] > 127 || !clip_ok (p.chroma_clip[f][j]))
        return fmt ("chroma filter %d tap %d out of range", f, j);
  for (int c = 0; c < 2; c++)
    for (int f = 0; f < kVvcAlfNumCcFilters; f++)
      for (int j = 0; j < kVvcAlfCcStride; j++)
        if (!is_cc_coeff (p.cc_coeff[c][f][j]) || (j == kVvcAlfCcTaps && p.cc_coeff[c][f][j]))
          return fmt ("CC-ALF filter %d/%d tap %d out of range", c, f, j);

  for (size_t i = 0; i < params.ctbs.size (); i++) {
    const VvcAlfCtbParams &o = params.ctbs[i];
    if (o.flags & ~((1 << 9) - 1))
      return fmt ("ctb %zu: unknown flags", i);
    if (o.luma_set < 0 || o.luma_set >= kVvcAlfNumLumaSets)
      return fmt ("ctb %zu: luma_set out of range", i);
    for (int c = 0; c < 2; c++) {
      if (o.chroma_filter[c] < 0 || o.chroma_filter[c] >= kVvcAlfNumChromaFilters)
        return fmt ("ctb %zu: chroma filter out of range", i);
      if (o.cc_filter[c] < -1 || o.cc_filter[c] >= kVvcAlfNumCcFilters)
        return fmt ("ctb %zu: CC-ALF filter out of range", i);
    }
    if (p.chroma_format == 0 && ((o.flags & (kVvcAlfCtbCb | kVvcAlfCtbCr)) || o.cc_filter[0] >= 0
            || o.cc_filter[1] >= 0))
      return fmt ("ctb %zu: chroma filtering in a 4:0:0 picture", i);
  }
  return "";
}

} // namespace gpc
