/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GstVvcAlfMeta: the H.266/VVC adaptive loop filter (ALF) parameters of one
 * decoded picture, attached by a VVC decoder to the picture's pre-ALF buffer
 * so that a downstream element (vkvvcalf) can apply ALF, CC-ALF included.
 *
 * Everything is already resolved to the picture level: the per-CTB fields
 * combine alf_ctb_flag with the slice / picture-header enables, the luma APS
 * slot of each CTB is resolved to an APS id, and each CTB carries the edges
 * across which ALF must not read (slice / tile / subpicture boundaries with
 * loop filtering across them disabled, and the picture boundary). This is the
 * same information as the "vvc-alf-params" JSON format (version 1) of the
 * conformance vectors, field for field.
 *
 * Plain C API, no C++ needed.
 */
#pragma once

#include <gst/gst.h>

#include "gpucodecs-prelude.h"

G_BEGIN_DECLS

#define GST_VVC_ALF_MAX_APS 8           /* aps_adaptation_parameter_set_id 0..7 */
#define GST_VVC_ALF_NUM_CLASSES 25
#define GST_VVC_ALF_LUMA_COEFFS 12      /* centre tap (128) not listed */
#define GST_VVC_ALF_CHROMA_COEFFS 6     /* centre tap (128) not listed */
#define GST_VVC_ALF_MAX_CHROMA_ALTS 8
#define GST_VVC_ALF_CC_COEFFS 7
#define GST_VVC_ALF_MAX_CC_FILTERS 4
#define GST_VVC_ALF_MAX_VIRTUAL_BOUNDARIES 3 /* per direction */

/* Values of sps_chroma_format_idc. */
typedef enum {
  GST_VVC_ALF_CHROMA_400 = 0,
  GST_VVC_ALF_CHROMA_420 = 1,
  GST_VVC_ALF_CHROMA_422 = 2,
  GST_VVC_ALF_CHROMA_444 = 3,
} GstVvcAlfChromaFormat;

/* One ALF APS (aps_params_type = ALF_APS), coefficients in their final form
 * (AlfCoeffL after alf_luma_coeff_delta_idx, AlfCoeffC, CC-ALF coefficients
 * as 0 / +-2^(mapped_abs-1)). Index [0] / [1] of the CC-ALF arrays is Cb / Cr. */
typedef struct {
  gboolean luma_present;                      /* alf_luma_filter_signal_flag */
  gint16 luma_coeff[GST_VVC_ALF_NUM_CLASSES][GST_VVC_ALF_LUMA_COEFFS];
  guint8 luma_clip_idx[GST_VVC_ALF_NUM_CLASSES][GST_VVC_ALF_LUMA_COEFFS];
  guint8 chroma_num_alts;                     /* 0: no chroma filters */
  gint16 chroma_coeff[GST_VVC_ALF_MAX_CHROMA_ALTS][GST_VVC_ALF_CHROMA_COEFFS];
  guint8 chroma_clip_idx[GST_VVC_ALF_MAX_CHROMA_ALTS][GST_VVC_ALF_CHROMA_COEFFS];
  guint8 cc_num_filters[2];                   /* 0: no CC-ALF filters */
  gint16 cc_coeff[2][GST_VVC_ALF_MAX_CC_FILTERS][GST_VVC_ALF_CC_COEFFS];
} GstVvcAlfAps;

/* GstVvcAlfCtb.flags */
typedef enum {
  GST_VVC_ALF_CTB_Y = 1 << 0,           /* ALF filters luma in this CTB */
  GST_VVC_ALF_CTB_CB = 1 << 1,
  GST_VVC_ALF_CTB_CR = 1 << 2,
  GST_VVC_ALF_CTB_EDGE_LEFT = 1 << 3,   /* no reads across this CTB edge */
  GST_VVC_ALF_CTB_EDGE_RIGHT = 1 << 4,
  GST_VVC_ALF_CTB_EDGE_TOP = 1 << 5,
  GST_VVC_ALF_CTB_EDGE_BOTTOM = 1 << 6,
  GST_VVC_ALF_CTB_CORNER_TOP_LEFT = 1 << 7,     /* raster-scan slice corner rule */
  GST_VVC_ALF_CTB_CORNER_BOTTOM_RIGHT = 1 << 8,
} GstVvcAlfCtbFlags;

/* One CTB. APS ids are -1 where none applies. */
typedef struct {
  guint16 flags;        /* GstVvcAlfCtbFlags */
  guint8 luma_set;      /* AlfCtbFiltSetIdxY: 0..15 fixed set, 16+k APS (0 when luma off) */
  gint8 luma_aps;       /* APS id of the luma filters when luma_set >= 16 */
  gint8 chroma_aps;     /* APS id of the chroma filters when Cb or Cr is on */
  guint8 chroma_alt[2]; /* alf_ctb_filter_alt_idx for Cb, Cr */
  gint8 cc_aps[2];      /* APS id of the CC-ALF filters for Cb, Cr when cc_idc > 0 */
  guint8 cc_idc[2];     /* alf_ctb_cc_cb_idc / alf_ctb_cc_cr_idc: 0 off, k: filter k-1 */
} GstVvcAlfCtb;

/* The whole picture. */
typedef struct {
  guint width, height;          /* pps_pic_{width,height}_in_luma_samples */
  GstVvcAlfChromaFormat chroma_format;
  guint bit_depth;              /* BitDepth: 8..12 */
  guint ctb_size;               /* CtbSizeY: 32, 64 or 128 */
  /* TRUE (the VTM / VVdeC behaviour, and that of the conformance vectors):
   * the ALF line-buffer boundary applies in every CTB row. FALSE: as written
   * in H.266 8.8.5.2, it is off in the last CTB row when
   * pic_height - yCtb <= CtbSizeY - 4. Differs only for a last CTB row of
   * CtbSizeY-7 .. CtbSizeY-4 luma rows, which heights that are multiples of
   * 8 (all valid pictures) never give: the output is the same either way. */
  gboolean line_buffer_boundary_in_last_row;
  guint num_vb_x, num_vb_y;     /* VirtualBoundariesPosX / PosY, luma */
  guint vb_x[GST_VVC_ALF_MAX_VIRTUAL_BOUNDARIES];
  guint vb_y[GST_VVC_ALF_MAX_VIRTUAL_BOUNDARIES];
  guint8 aps_present;           /* bit i: aps[i] is valid */
  GstVvcAlfAps aps[GST_VVC_ALF_MAX_APS];
  guint n_ctbs;                 /* ceil(width/ctb_size) * ceil(height/ctb_size) */
  GstVvcAlfCtb *ctbs;           /* raster scan over the picture */
} GstVvcAlfInfo;

/* Sets up @info for a picture (every other field zero, every CTB off with APS
 * ids -1) and allocates its CTB array (g_new0); free with gst_vvc_alf_info_clear.
 * Returns FALSE (and leaves @info empty) when the geometry is unusable. */
GST_GPUCODECS_API gboolean gst_vvc_alf_info_init (GstVvcAlfInfo * info, guint width, guint height,
    GstVvcAlfChromaFormat chroma_format, guint bit_depth, guint ctb_size);
GST_GPUCODECS_API void gst_vvc_alf_info_clear (GstVvcAlfInfo * info);
/* Deep copy; @dest must be cleared or uninitialised. */
GST_GPUCODECS_API void gst_vvc_alf_info_copy (GstVvcAlfInfo * dest, const GstVvcAlfInfo * src);
/* The full validation that vkvvcalf applies. On failure returns FALSE and,
 * if @error is not NULL, a message to free with g_free. */
GST_GPUCODECS_API gboolean gst_vvc_alf_info_validate (const GstVvcAlfInfo * info, gchar ** error);

typedef struct {
  GstMeta meta;
  GstVvcAlfInfo info;
} GstVvcAlfMeta;

GST_GPUCODECS_API GType gst_vvc_alf_meta_api_get_type (void);
#define GST_VVC_ALF_META_API_TYPE (gst_vvc_alf_meta_api_get_type ())
GST_GPUCODECS_API const GstMetaInfo *gst_vvc_alf_meta_get_info (void);
#define GST_VVC_ALF_META_INFO (gst_vvc_alf_meta_get_info ())

/* Attaches a deep copy of @info to @buffer (which must be writable). */
GST_GPUCODECS_API GstVvcAlfMeta *gst_buffer_add_vvc_alf_meta (GstBuffer * buffer,
    const GstVvcAlfInfo * info);
GST_GPUCODECS_API GstVvcAlfMeta *gst_buffer_get_vvc_alf_meta (GstBuffer * buffer);

G_END_DECLS
