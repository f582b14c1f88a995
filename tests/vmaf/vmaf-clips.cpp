/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmaf-clips.h"

#include <gio/gio.h>
#include <stdio.h>
#include <stdlib.h>

#include <fstream>
#include <sstream>

#include "gpc-test.h"

static std::string
clip_path (const std::string &file)
{
  return gpc_test::media_dir () + "/vmaf/" + file;
}

/* The whole gunzipped content of a file, or false. */
static bool
read_gzip (const std::string &path, std::vector<uint8_t> *out)
{
  GFile *file = g_file_new_for_path (path.c_str ());
  GError *error = NULL;
  GFileInputStream *raw = g_file_read (file, NULL, &error);
  g_object_unref (file);
  if (!raw) {
    fprintf (stderr, "%s: %s\n", path.c_str (), error->message);
    g_error_free (error);
    return false;
  }
  GZlibDecompressor *gunzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  GInputStream *in = g_converter_input_stream_new (G_INPUT_STREAM (raw), G_CONVERTER (gunzip));
  g_object_unref (gunzip);
  g_object_unref (raw);
  out->clear ();
  bool ok = true;
  uint8_t chunk[65536];
  for (;;) {
    gssize n = g_input_stream_read (in, chunk, sizeof (chunk), NULL, &error);
    if (n < 0) {
      fprintf (stderr, "%s: %s\n", path.c_str (), error->message);
      g_error_free (error);
      ok = false;
      break;
    }
    if (n == 0)
      break;
    out->insert (out->end (), chunk, chunk + n);
  }
  g_object_unref (in);
  return ok;
}

static bool
read_planes (const VmafClip &clip, const char *which, std::vector<std::vector<uint16_t>> *planes)
{
  std::vector<uint8_t> bytes;
  const std::string path = clip_path (clip.name + "." + which + ".gz");
  if (!read_gzip (path, &bytes))
    return false;
  const size_t samples = (size_t) clip.width * clip.height;
  const size_t bps = clip.bpc > 8 ? 2 : 1;
  if (bytes.size () != samples * bps * clip.frames) {
    fprintf (stderr, "%s: %zu bytes, expected %zu\n", path.c_str (), bytes.size (),
        samples * bps * clip.frames);
    return false;
  }
  planes->assign (clip.frames, std::vector<uint16_t> (samples));
  const uint16_t max = (uint16_t) ((1u << clip.bpc) - 1);
  for (int f = 0; f < clip.frames; f++) {
    const uint8_t *src = bytes.data () + f * samples * bps;
    for (size_t i = 0; i < samples; i++) {
      uint16_t v = bps == 1 ? src[i] : (uint16_t) (src[2 * i] | (src[2 * i + 1] << 8));
      if (v > max) {
        fprintf (stderr, "%s: sample %u above %d bits\n", path.c_str (), v, clip.bpc);
        return false;
      }
      (*planes)[f][i] = v;
    }
  }
  return true;
}

bool
vmaf_load_clip (const std::string &name, VmafClip *clip)
{
  const std::string path = clip_path (name + ".expect");
  std::ifstream in (path);
  if (!in) {
    fprintf (stderr, "%s: missing\n", path.c_str ());
    return false;
  }
  *clip = VmafClip ();
  clip->name = name;
  std::string line;
  while (std::getline (in, line)) {
    if (line.empty () || line[0] == '#')
      continue;
    std::istringstream fields (line);
    std::string first;
    fields >> first;
    if (first == "size") {
      fields >> clip->width >> clip->height >> clip->bpc >> clip->frames;
      if (fields.fail () || clip->width <= 0 || clip->height <= 0 || clip->bpc < 8
          || clip->bpc > 16 || clip->frames <= 0) {
        fprintf (stderr, "%s: bad size line\n", path.c_str ());
        return false;
      }
      clip->expect.resize (clip->frames);
      continue;
    }
    /* "FRAME KEY VALUE"; strtod reads %.17g back to the same double. */
    std::string key, value;
    fields >> key >> value;
    char *end = NULL;
    const long frame = strtol (first.c_str (), &end, 10);
    if (*end || key.empty () || frame < 0 || frame >= clip->frames) {
      fprintf (stderr, "%s: bad line '%s'\n", path.c_str (), line.c_str ());
      return false;
    }
    const double v = strtod (value.c_str (), &end);
    if (*end || value.empty ()) {
      fprintf (stderr, "%s: bad value in '%s'\n", path.c_str (), line.c_str ());
      return false;
    }
    clip->expect[frame][key] = v;
  }
  if (clip->frames == 0) {
    fprintf (stderr, "%s: no size line\n", path.c_str ());
    return false;
  }
  return read_planes (*clip, "ref", &clip->ref) && read_planes (*clip, "dist", &clip->dist);
}

std::vector<std::string>
vmaf_clip_names ()
{
  std::vector<std::string> names;
  std::ifstream in (clip_path ("clips.txt"));
  std::string line;
  while (std::getline (in, line))
    if (!line.empty () && line[0] != '#')
      names.push_back (line);
  return names;
}
