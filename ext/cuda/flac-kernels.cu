/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * CUDA kernels of cudaflacdec. Decoding is the host's per-frame code
 * (gst/flac/flac-frame.h) compiled for the device: one thread decodes one
 * frame into planar int32 scratch; a second kernel, one block per frame,
 * interleaves and converts to the output format with coalesced stores.
 *
 * Frame location of unframed input runs here too, with the locator's own
 * per-position and per-candidate functions (flac-locate-scan.h): one thread
 * scans 32 byte positions, then one thread per candidate walks its CRC-16 to
 * the candidate that ends it. The host chains the result (flac-locator.h).
 */
#include "flac-frame.h"
#include "flac-kernels.h"
#include "flac-locate-scan.h"

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

/* Step 1: thread w marks the candidates among positions [32w, 32w + 32) in
 * bitmap word w and appends them (in no order) to cands; *count may pass cap,
 * which tells the host that the list is incomplete. */
extern "C" __global__ void gpc_flac_scan (const uint8_t *data, uint64_t size, uint32_t final,
    ScanParams p, uint32_t *bitmap, uint64_t words, GpuCandidate *cands, uint32_t cap,
    uint32_t *count)
{
  size_t w = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= words)
    return;
  size_t limit = scan_limit ((size_t) size, final != 0);
  size_t start = w * 32;
  size_t end = start + 32 < limit ? start + 32 : limit;
  uint32_t bits = 0;
  for (size_t i = start; i < end; i++) {
    FrameHeader h;
    if (!candidate_at (data, (size_t) size, i, p, &h))
      continue;
    bits |= 1u << (i - start);
    unsigned k = atomicAdd (count, 1u);
    if (k < cap) {
      GpuCandidate c;
      c.offset = i;
      c.end = -1;
      c.header_bytes = h.header_bytes;
      c.pad = 0;
      cands[k] = c;
    }
  }
  bitmap[w] = bits;
}

/* Step 2: one thread per candidate (all of step 1 done). */
extern "C" __global__ void gpc_flac_ends (const uint8_t *data, uint64_t size, uint32_t final,
    const uint32_t *bitmap, GpuCandidate *cands, uint32_t cap, const uint32_t *count,
    uint64_t frame_bound)
{
  size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  size_t n = *count < cap ? *count : cap;
  if (i >= n)
    return;
  GpuCandidate c = cands[i];
  cands[i].end = walk_end (data, (size_t) size, final != 0, bitmap, (size_t) c.offset, c.header_bytes,
      frame_bound);
}
