/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Channel positions of a FLAC stream: RFC 9639 section 9.1.3 for 1 to 8
 * channels, unless a WAVEFORMATEXTENSIBLE_CHANNEL_MASK Vorbis comment gives
 * the speakers (its set bits, lowest first, in channel order, as in a
 * WAVEFORMATEXTENSIBLE header). A mask that does not name exactly one
 * speaker per channel, or names one GStreamer has no position for, leaves
 * the channels unpositioned rather than guessing.
 */
#pragma once

#include <gst/audio/audio.h>
#include <stdint.h>
#include <stdlib.h>
#include <strings.h>

#include <string>
#include <vector>

namespace gpc {
namespace flac {

/* The WAVEFORMATEXTENSIBLE speaker bits, lowest first. */
static const GstAudioChannelPosition kWaveSpeakers[] = {
  GST_AUDIO_CHANNEL_POSITION_FRONT_LEFT, GST_AUDIO_CHANNEL_POSITION_FRONT_RIGHT,
  GST_AUDIO_CHANNEL_POSITION_FRONT_CENTER, GST_AUDIO_CHANNEL_POSITION_LFE1,
  GST_AUDIO_CHANNEL_POSITION_REAR_LEFT, GST_AUDIO_CHANNEL_POSITION_REAR_RIGHT,
  GST_AUDIO_CHANNEL_POSITION_FRONT_LEFT_OF_CENTER, GST_AUDIO_CHANNEL_POSITION_FRONT_RIGHT_OF_CENTER,
  GST_AUDIO_CHANNEL_POSITION_REAR_CENTER, GST_AUDIO_CHANNEL_POSITION_SIDE_LEFT,
  GST_AUDIO_CHANNEL_POSITION_SIDE_RIGHT, GST_AUDIO_CHANNEL_POSITION_TOP_CENTER,
  GST_AUDIO_CHANNEL_POSITION_TOP_FRONT_LEFT, GST_AUDIO_CHANNEL_POSITION_TOP_FRONT_CENTER,
  GST_AUDIO_CHANNEL_POSITION_TOP_FRONT_RIGHT, GST_AUDIO_CHANNEL_POSITION_TOP_REAR_LEFT,
  GST_AUDIO_CHANNEL_POSITION_TOP_REAR_CENTER, GST_AUDIO_CHANNEL_POSITION_TOP_REAR_RIGHT,
};
static const unsigned kWaveSpeakerCount = sizeof (kWaveSpeakers) / sizeof (kWaveSpeakers[0]);

/* The WAVE speaker bits of RFC 9639's default order for n channels:
 * mono; L R; L R C; FL FR BL BR; FL FR FC BL BR; FL FR FC LFE BL BR;
 * FL FR FC LFE BC SL SR; FL FR FC LFE BL BR SL SR. */
static const uint32_t kRfcMasks[8] = { 0x4, 0x3, 0x7, 0x33, 0x37, 0x3f, 0x70f, 0x63f };

/* The value of a WAVEFORMATEXTENSIBLE_CHANNEL_MASK comment ("0x063F"; the
 * name in any case), if the comments hold a well-formed one. */
inline bool channel_mask_from_comments (const std::vector<std::string> &comments, uint32_t *mask)
{
  static const char kName[] = "WAVEFORMATEXTENSIBLE_CHANNEL_MASK=";
  const size_t n = sizeof (kName) - 1;
  for (const std::string &c : comments) {
    if (c.size () <= n || strncasecmp (c.c_str (), kName, n) != 0)
      continue;
    std::string v = c.substr (n);
    if (v.size () > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
      v = v.substr (2);
    char *end = nullptr;
    unsigned long m = strtoul (v.c_str (), &end, 16);
    if (v.empty () || !end || *end != '\0' || m > 0xffffffffUL)
      return false;
    *mask = (uint32_t) m;
    return true;
  }
  return false;
}

/* Positions of `channels` FLAC channels, in FLAC's channel order. Returns
 * false (positions all NONE: unpositioned) where the mask cannot be
 * expressed. */
inline bool flac_channel_positions (unsigned channels, bool have_mask, uint32_t mask,
    GstAudioChannelPosition *pos)
{
  if (channels < 1 || channels > 8)
    return false;
  if (!have_mask)
    mask = kRfcMasks[channels - 1];
  unsigned bits = 0;
  for (unsigned b = 0; b < 32; b++) {
    if (!(mask & (1u << b)))
      continue;
    if (b >= kWaveSpeakerCount || bits >= channels)
      bits = 99; /* a speaker GStreamer cannot name, or more speakers than channels */
    else
      pos[bits++] = kWaveSpeakers[b];
  }
  if (bits != channels) {
    for (unsigned i = 0; i < channels; i++)
      pos[i] = GST_AUDIO_CHANNEL_POSITION_NONE;
    return false;
  }
  if (channels == 1 && pos[0] == GST_AUDIO_CHANNEL_POSITION_FRONT_CENTER)
    pos[0] = GST_AUDIO_CHANNEL_POSITION_MONO;
  return true;
}

} // namespace flac
} // namespace gpc
