/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What vkproresdec outputs for a ProRes frame: the GStreamer format chosen
 * as FFmpeg decodes the stream, the GPU plane layout (padded to whole
 * macroblocks, one Vulkan buffer per plane) and the packed host layout
 * used when downloading to system memory. Also the buffer pool of the
 * memory:VulkanBuffer output, and the downloads of system-memory output,
 * lent downstream or copied out.
 */
#pragma once

#include <gst/video/video.h>
#include "compute/gpcvk.h"

#include <atomic>
#include <memory>

#include "prores-frame.h"
#include "prores-gpu-layout.h"

namespace gpc {

class ParallelCopy;
class VkBufferCache;

struct ProResOutConfig {
  GstVideoFormat format = GST_VIDEO_FORMAT_UNKNOWN;
  uint32_t width = 0, height = 0;
  uint32_t depth = 0;         /* 10 or 12 */
  bool chroma_444 = false;
  bool alpha = false;         /* an alpha plane is decoded and output */
  bool pack_ayuv64 = false;   /* 12-bit 4:4:4 + alpha: planes packed to AYUV64 */
  uint32_t interlace = 0;     /* 0 progressive, 1 TFF, 2 BFF */
  uint32_t n_planes = 3;      /* output planes (1 for AYUV64) */
  uint32_t decode_planes = 3; /* planes the kernel decodes (4 with alpha) */
  uint32_t row_bytes[4] = {}; /* bytes of a cropped row of each output plane */

  bool operator== (const ProResOutConfig &o) const {
    return format == o.format && width == o.width && height == o.height && depth == o.depth &&
        chroma_444 == o.chroma_444 && alpha == o.alpha && interlace == o.interlace;
  }
  bool operator!= (const ProResOutConfig &o) const { return !(*this == o); }
};

/* The bit depth that the input caps' variant says (0 if unknown). */
uint32_t prores_caps_depth (const GstStructure *caps);

/* The output for a frame header. variant_depth: bit depth from the caps'
 * variant (0 if unknown). GStreamer 1.22 has no planar 12-bit format with
 * alpha (A444_12LE came later): 4:4:4 goes to AYUV64 (lossless, 12 bits
 * widened to 16); 4:2:2 drops alpha and sets *alpha_dropped. */
ProResOutConfig prores_out_config (const prores::FrameHeader &h, uint32_t variant_depth,
    bool skip_alpha, bool *alpha_dropped);

/* What the output caps say beyond format and size (`info`, from the
 * input caps): interlacing from `c`; frame rate where the input caps have
 * none, colour description and range from the frame header (`probe`). */
void prores_output_info (GstVideoInfo *info, const ProResOutConfig &c,
    const prores::ProbeInfo &probe);

/* Host (download) layout: output planes back to back, cropped rows rounded
 * up to whole words. */
struct ProResHostLayout {
  uint32_t offset[4];    /* bytes */
  uint32_t stride[4];    /* bytes, multiple of 4 */
  size_t size;
};
ProResHostLayout prores_host_layout (const ProResOutConfig &c);

/* GPU layout of the decoded planes (GpuFrameParams's padded strides and
 * height). */
struct ProResGpuLayout {
  uint32_t stride[4];    /* bytes */
  uint32_t size[4];      /* bytes of each plane's buffer */
  uint32_t rows;
};
ProResGpuLayout prores_gpu_layout (const prores::GpuFrameParams &fp, uint32_t n_planes);

/* Layout of the memory:VulkanBuffer output: the decoded planes, or one
 * AYUV64 plane. */
ProResGpuLayout prores_vk_output_layout (const ProResOutConfig &c);

/* A pool of GstBuffers holding one device-local storage GstVulkanBufferMemory
 * per plane and a GstVideoMeta with the padded strides. */
GstBufferPool *prores_vk_pool_new (GstVulkanDevice *device, const GstVideoInfo *info,
    const ProResGpuLayout &layout, uint32_t n_planes);

/* System-memory output: host-visible, host-cached buffers in the host
 * layout that the GPU downloads frames into; a finished one becomes the
 * output buffer itself (read-only, no CPU copy) when its layout is the
 * caps' own and few are lent, else it is copied into a buffer of the
 * negotiated pool. */
class ProResDownloads {
 public:
  explicit ProResDownloads (GstVulkanDevice *device);
  ~ProResDownloads ();
  /* A download buffer for a frame of `c`. */
  GstBuffer *acquire (const ProResOutConfig &c, GError **error);
  /* `download` wrapped as an output buffer: with `video_meta`, in its own
   * layout, described by a GstVideoMeta; else laid out as `info`, NULL when
   * its layout differs. NULL too when kMaxLent are lent already. */
  GstBuffer *lend (GstBuffer *download, const ProResOutConfig &c, const GstVideoInfo *info,
      bool video_meta);
  /* The cropped planes of `download` copied into `out`, laid out as `info`. */
  static bool copy (GstBuffer *download, const ProResOutConfig &c, const GstVideoInfo *info,
      GstBuffer *out, ParallelCopy *copier);
  /* Drops free buffers (after a size change). */
  void trim ();

 private:
  /* More would grow the cache of host memory without bound behind a deep
   * queue downstream. */
  static const int kMaxLent = 16;
  VkBufferCache *cache_;
  /* Shared with the lent buffers, which may come back after we are gone. */
  std::shared_ptr<std::atomic<int>> lent_;
};

} // namespace gpc
