/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-check.h"

#include "vmaf-adm-ref.h"
#include "vmaf-model.h"
#include "vmaf-motion-ref.h"
#include "vmaf-vif-ref.h"

namespace gpc_bench {

bool
cpu_reference_scores (const VmafBenchClip &clip, unsigned frames, CpuScores *out,
    std::string *error)
{
  gpc::VmafModel model;
  gpc::VmafScorer scorer;
  if (!model.load_builtin ("vmaf_v0.6.1", error)
      || !scorer.init (model, gpc::VmafScoreFlags (), 1, error))
    return false;
  const unsigned w = clip.width, h = clip.height, bpc = clip.bits;
  const std::vector<std::vector<uint16_t>> &ref = clip.ref, &dist = clip.dist;
  /* The references take 8-bit samples as bytes. */
  auto bytes = [&] (const std::vector<uint16_t> &p) {
    return std::vector<uint8_t> (p.begin (), p.end ());
  };
  out->columns = scorer.columns ();
  out->frames.clear ();
  for (unsigned i = 0; i < frames; i++) {
    const std::vector<uint16_t> &r = ref[i % ref.size ()], &d = dist[i % dist.size ()];
    std::vector<uint8_t> r8, d8;
    if (bpc == 8) {
      r8 = bytes (r);
      d8 = bytes (d);
    }
    const void *rp = bpc == 8 ? (const void *) r8.data () : r.data ();
    const void *dp = bpc == 8 ? (const void *) d8.data () : d.data ();
    const unsigned bps = bpc == 8 ? 1 : 2;
    gpc::VmafSpatial s;
    gpc::VifAccum vif[gpc::kVifScales];
    if (!gpc::vif_accumulate_ref ({ rp, (ptrdiff_t) (w * bps), bps },
            { dp, (ptrdiff_t) (w * bps), bps }, w, h, bpc, gpc::kVifDefaultGainLimit, vif)) {
      *error = "VIF reference refused the frame";
      return false;
    }
    const gpc::VifScores vs = gpc::vif_scores (vif);
    for (int k = 0; k < 4; k++)
      s.vif[k] = vs.scale[k];
    gpc::AdmScores as;
    gpc::adm_compute ({ rp, (size_t) w * bps }, { dp, (size_t) w * bps }, w, h, bpc,
        gpc::AdmParams (), &as);
    s.adm2 = as.adm2;
    for (int k = 0; k < 4; k++)
      s.adm[k] = as.scale[k];
    uint64_t sad = 0;
    if (scorer.next_needs_sad () && i > 0) {
      const std::vector<uint16_t> &prev = ref[(i - 1) % ref.size ()];
      sad = gpc::motion_sad_ref ({ prev.data (), (ptrdiff_t) w }, { r.data (), (ptrdiff_t) w },
          w, h, bpc);
    }
    scorer.add_frame (sad, s, w, h, out->frames);
  }
  scorer.finish (out->frames);
  return true;
}

} // namespace gpc_bench
