/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/audio/audio.h>
#include <gst/audio/gstaudiodecoder.h>

G_BEGIN_DECLS

#define GST_TYPE_CUDA_FLAC_DEC (gst_cuda_flac_dec_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFlacDec, gst_cuda_flac_dec, GST, CUDA_FLAC_DEC, GstAudioDecoder)

typedef enum {
  GST_CUDA_FLAC_DEC_BACKEND_AUTO = 0,
  GST_CUDA_FLAC_DEC_BACKEND_CPU = 1,
  GST_CUDA_FLAC_DEC_BACKEND_CUDA = 2,
} GstCudaFlacDecBackend;

GST_ELEMENT_REGISTER_DECLARE (cudaflacdec);

G_END_DECLS
