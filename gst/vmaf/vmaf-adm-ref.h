/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * CPU reference of VMAF's integer ADM feature (libvmaf 3.2 "adm":
 * integer_adm2 and integer_adm_scale0..3), the ground truth the GPU kernel
 * is checked against bit for bit.
 *
 * Per frame pair and scale: a 2-D db2 wavelet step of both pictures (scale 0
 * from the samples, scales 1..3 from the previous approximation band), the
 * decoupling of the distorted detail bands into restored and additive parts,
 * the CSF weighting, contrast masking by a 3x3 neighbourhood and cube sums.
 * Everything up to the per-scale sums is integer arithmetic; those 64-bit
 * sums (AdmAccum) are what the GPU produces too, and adm_finish() turns them
 * into libvmaf's floating-point values.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <string>
#include <vector>

namespace gpc {

/* The options libvmaf's models pass to the feature (names as in libvmaf). */
struct AdmParams {
  double enhn_gain_limit = 100.0; /* adm_enhn_gain_limit, 1..100 */
  double norm_view_dist = 3.0;    /* adm_norm_view_dist, 0.75..24 */
  int ref_display_height = 1080;  /* adm_ref_display_height, 1..4320 */
  double noise_weight = 0.03125;  /* adm_noise_weight, 0..1500 */
};

/* False (with the reason) for options libvmaf refuses. */
bool adm_params_valid (const AdmParams &params, std::string *why);

/* Pictures the feature is defined for, 33 to 32768 samples each way:
 * libvmaf's border handling of the wavelet step reads outside its input
 * when a band (scale 3's included) has fewer than 3 samples a side, and its
 * int arithmetic on width * height bounds the other end. */
constexpr unsigned kAdmMinSize = 33;
bool adm_size_supported (unsigned width, unsigned height);

/* A half-open rectangle of band samples. */
struct AdmRect {
  int left, top, right, bottom;
};

/* Band size and regions of one scale: `ext` is where the decoupling and
 * CSF are computed (the masked region plus a filter tap), `core` the
 * region the sums cover. */
struct AdmScaleGeom {
  int w, h;
  AdmRect ext, core;
};
void adm_geometry (unsigned width, unsigned height, AdmScaleGeom geom[4]);

/* Fixed-point constants of a parameter set (also the GPU's push constants).
 * Bands are ordered h, v, d. */
struct AdmConsts {
  float rfactor[4][3];      /* CSF weights 1 / quantisation step */
  uint32_t i_rfactor[4][3]; /* scale 0: Q21 (h, v) / Q23 (d); scales 1..3: Q32 */
  int32_t gain_limit;       /* enhn_gain_limit when it is an integer, else 0 */
};
void adm_consts (const AdmParams &params, AdmConsts *consts);

/* Shifts of one scale's sums (libvmaf derives them from the band and
 * region sizes): numerator per band (threshold scaling, square, cube), row
 * sums; denominator (square and cube at scales 1..3, row sums). */
struct AdmShifts {
  uint32_t num_sub[3], num_sq[3], num_cub[3], num_row;
  uint32_t den_sq, den_cub, den_row;
};
void adm_shifts (const AdmScaleGeom &geom, int scale, AdmShifts *shifts);

/* Per-scale integer sums of one frame pair, bands h, v, d: `num` of the
 * masked restored detail (signed, as libvmaf keeps it), `den` of the
 * reference's CSF-free detail. Row sums are rounded before they are added,
 * exactly as libvmaf does. */
struct AdmAccum {
  int64_t num[4][3];
  uint64_t den[4][3];
};

/* libvmaf's per-frame values. */
struct AdmScores {
  float num_scale[4], den_scale[4];
  double num, den;  /* after the noise-floor limit */
  double adm2;      /* integer_adm2 */
  double scale[4];  /* integer_adm_scale0..3 */
};

/* A luma plane: uint8_t samples for bpc 8, uint16_t (values < 2^bpc)
 * above. */
struct AdmPlane {
  const void *data;
  size_t stride; /* bytes */
};

/* The integer part of the feature: sums of one frame pair. bpc 8..16. */
void adm_accumulate (const AdmPlane &ref, const AdmPlane &dist, unsigned width,
    unsigned height, unsigned bpc, const AdmParams &params, AdmAccum *accum);

/* Scale 0's wavelet step alone: bands a, h, v, d of one luma plane
 * ((width + 1) / 2 x (height + 1) / 2 each, rows packed), for tests of the
 * GPU's step. */
void adm_wavelet0 (const AdmPlane &in, unsigned width, unsigned height, unsigned bpc,
    std::vector<int16_t> bands[4]);

/* libvmaf's floating-point tail: per-scale numerators and denominators and
 * the scores. */
void adm_finish (const AdmAccum &accum, unsigned width, unsigned height,
    const AdmParams &params, AdmScores *scores);

/* Both steps. */
void adm_compute (const AdmPlane &ref, const AdmPlane &dist, unsigned width,
    unsigned height, unsigned bpc, const AdmParams &params, AdmScores *scores);

/* The decoupling's angle test, "the detail vectors (oh, ov) and (th, tv) of
 * reference and distorted are less than one degree apart", evaluated as
 * libvmaf does (dot product and squared norms rounded to float, compared in
 * double). */
bool adm_angle_flag (int64_t ot_dp, int64_t o_mag_sq, int64_t t_mag_sq);

/* The same test in integer arithmetic only (how the GPU evaluates it,
 * shaders/vmaf_adm_common.glsl); equal to adm_angle_flag for every input. */
bool adm_angle_flag_int (int64_t ot_dp, int64_t o_mag_sq, int64_t t_mag_sq);

/* float (cos^2 (1 degree)) * 2^24, an integer: the constant of the integer
 * form. */
uint32_t adm_cos_1deg_sq_q24 ();

} // namespace gpc
