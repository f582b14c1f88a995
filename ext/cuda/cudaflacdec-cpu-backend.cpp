/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * cudaflacdec's CPU backend: a batch is decoded by every core straight into
 * its output buffer and pushed at once; unframed chunks are located and
 * decoded where they were gathered, in host memory.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaflacdec-private.h"

#define GST_CAT_DEFAULT gst_cuda_flac_dec_debug

namespace gpc {
namespace cudaflacdec {

namespace {

class CpuBatchBackend final : public FlacBatchBackend {
 public:
  using FlacBatchBackend::FlacBatchBackend;

  const char *name () const override { return "CPU"; }
  bool start (GError **) override { return true; }

  uint8_t *input (Batch &b, size_t bytes, GstFlowReturn *ret) override
  {
    *ret = GST_FLOW_OK;
    b.host_bytes.resize (MAX (bytes, 1));
    return b.host_bytes.data ();
  }

  GstFlowReturn decode (std::unique_ptr<Batch> b) override
  {
    size_t pcm_bytes = b->samples * b->fmt.channels * out_format_bytes (b->fmt.format);
    b->out = alloc_output (self_, pcm_bytes);
    GstMapInfo map;
    if (!gst_buffer_map (b->out, &map, GST_MAP_WRITE)) {
      GST_ELEMENT_ERROR (self_, RESOURCE, FAILED, ("Cannot map the output buffer"), (NULL));
      return GST_FLOW_ERROR;
    }
    {
      StageTimer timer (&st_->stage_s[kStageSubmit]);
      st_->cpu->decode (b->jobs.data (), b->jobs.size (), b->fmt, map.data);
    }
    gst_buffer_unmap (b->out, &map);
    gst_buffer_set_size (b->out, pcm_bytes);
    return push_batch (self_, *b, nullptr, pcm_bytes);
  }

  GstFlowReturn release_chunk (size_t consumed) override
  {
    st_->in->drop_front (consumed);
    return GST_FLOW_OK;
  }
};

} // namespace

std::unique_ptr<FlacBatchBackend> make_cpu_backend (GstCudaFlacDec *self, DecState *st)
{
  return std::unique_ptr<FlacBatchBackend> (new CpuBatchBackend (self, st));
}

} // namespace cudaflacdec
} // namespace gpc
