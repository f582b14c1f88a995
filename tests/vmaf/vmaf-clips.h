/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The VMAF test clips of tests/media/vmaf (see its generate.sh): luma planes
 * of a reference and a coded-and-decoded copy, and libvmaf's values for every
 * frame, printed with full double precision.
 *
 * The real clips (real-clips.txt there) add camera content: their reference
 * frames are decoded pictures of the JVET conformance streams in the
 * conformance vectors (../shared/vectors/vvc-alf), read there, never copied;
 * their distorted frames are gpc_test::block_coder_loss of those. Only
 * libvmaf's values for them are committed.
 */
#pragma once

#include <stdint.h>

#include <map>
#include <string>
#include <vector>

struct VmafClip {
  std::string name;
  int width = 0, height = 0, bpc = 0;
  int frames = 0;
  /* Luma planes, one per frame, width * height samples without padding. */
  std::vector<std::vector<uint16_t>> ref, dist;
  /* Per frame, libvmaf's values by its feature names ("integer_vif_scale0",
   * "integer_adm2", "integer_motion2", ...; "_egl_1" suffixed ones as the neg
   * models compute them) and the scores "vmaf" (vmaf_v0.6.1), "vmaf_neg"
   * (vmaf_v0.6.1neg) and "vmaf_4k" (vmaf_4k_v0.6.1). */
  std::vector<std::map<std::string, double>> expect;
};

/* Loads a clip by name; false, with the reason printed, when it is missing or
 * malformed. */
bool vmaf_load_clip (const std::string &name, VmafClip *clip);

/* Only the size and expectations of NAME.expect (no planes), e.g. those of
 * the example pipeline's files (example-source.mp4, example-encoded.mp4). */
bool vmaf_load_expect (const std::string &name, VmafClip *clip);

/* Every committed clip's name, in tests/media/vmaf/clips.txt's order. */
std::vector<std::string> vmaf_clip_names ();

/* The real clips whose pictures are present, in real-clips.txt's order; a
 * "SKIP real clip ..." line says why for each of the others (no vectors
 * folder, a missing picture, no zstd tool). */
std::vector<std::string> vmaf_real_clip_names ();

/* vmaf_clip_names () followed by vmaf_real_clip_names (). */
std::vector<std::string> vmaf_all_clip_names ();

/* A real clip's size and planes, without its expectations (what
 * tests/media/vmaf/generate.sh --real gives libvmaf); false, with the reason
 * printed, when it is not listed or its pictures are missing. */
bool vmaf_real_clip_planes (const std::string &name, VmafClip *clip);
