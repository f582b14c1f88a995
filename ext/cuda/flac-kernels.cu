/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * CUDA kernels of cudaflacdec. Decoding is the host's per-frame code
 * (gst/flac/flac-frame.h) compiled for the device: one thread decodes one
 * frame into planar int32 scratch; a second kernel, one block per frame,
 * interleaves and converts to the output format with coalesced stores.
 */
#include "flac-frame.h"
#include "flac-kernels.h"

using namespace gpc::flac;

extern "C" __global__ void gpc_flac_decode_frames (const uint8_t *data, const GpuJob *jobs,
    int n, GpuFormat fmt, int32_t *planar, int64_t *side, int *status)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  GpuJob j = jobs[i];
  int32_t *planes = planar + j.out_sample * fmt.channels;
  int r = kBadCrc16;
  if (!j.silence) {
    StreamDefaults d;
    d.sample_rate = fmt.sample_rate;
    d.bps = fmt.bps;
    d.legacy_variable = fmt.legacy_variable != 0;
    FrameHeader h;
    r = parse_frame_header (data + j.offset, j.size, d, &h);
    if (r == kOk && (h.channels != fmt.channels || h.bps != fmt.bps || h.blocksize != j.samples))
      r = kParamMismatch;
    if (r == kOk) {
      FrameBuffers fb;
      fb.planes = planes;
      fb.stride = j.samples;
      fb.side64 = side ? side + j.out_sample : nullptr;
      size_t bytes = 0;
      r = decode_frame (data + j.offset, j.size, h, fb, &bytes, j.crc_checked != 0);
    }
  }
  if (r != kOk)
    for (uint32_t k = 0; k < j.samples * fmt.channels; k++)
      planes[k] = 0;
  status[i] = r;
}

extern "C" __global__ void gpc_flac_interleave (const GpuJob *jobs, GpuFormat fmt,
    const int32_t *planar, void *out)
{
  GpuJob j = jobs[blockIdx.x];
  unsigned ch = fmt.channels;
  OutFormat f = (OutFormat) fmt.out_format;
  unsigned shift = out_format_depth (f) - fmt.bps;
  const int32_t *planes = planar + j.out_sample * ch;
  uint32_t total = j.samples * ch;
  for (uint32_t k = threadIdx.x; k < total; k += blockDim.x) {
    uint32_t t = k / ch, c = k - t * ch;
    store_sample (out, (size_t) j.out_sample * ch + k, f, shift, planes[c * j.samples + t]);
  }
}
