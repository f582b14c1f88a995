/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmaf-clips.h"

#include <gio/gio.h>
#include <stdio.h>
#include <stdlib.h>

#include <fstream>
#include <sstream>

#include "block-coder.h"
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

namespace {

/* A line of real-clips.txt: the clip's name and bit depth, its pictures'
 * size and bit depth, the crop taken of them and the pictures, in frame
 * order. */
struct RealClipSpec {
  std::string name;
  int bpc = 0, src_w = 0, src_h = 0, src_bpc = 0, x = 0, y = 0, w = 0, h = 0;
  std::vector<std::string> pictures;
};

std::vector<RealClipSpec>
real_clip_specs ()
{
  std::vector<RealClipSpec> specs;
  const std::string path = clip_path ("real-clips.txt");
  std::ifstream in (path);
  std::string line;
  while (std::getline (in, line)) {
    if (line.empty () || line[0] == '#')
      continue;
    std::istringstream fields (line);
    RealClipSpec s;
    char by = 0;
    fields >> s.name >> s.bpc >> s.src_w >> by >> s.src_h >> s.src_bpc >> s.x >> s.y >> s.w >> s.h;
    const bool read = !fields.fail ();
    std::string picture;
    while (fields >> picture)
      s.pictures.push_back (picture);
    if (!read || by != 'x' || s.bpc < s.src_bpc || s.bpc > 16 || s.src_bpc < 8
        || s.x < 0 || s.y < 0 || s.w <= 0 || s.h <= 0 || s.x + s.w > s.src_w
        || s.y + s.h > s.src_h || s.pictures.empty ())
      g_error ("%s: bad line '%s'", path.c_str (), line.c_str ());
    specs.push_back (s);
  }
  return specs;
}

std::string
picture_path (const std::string &picture)
{
  return gpc_test::vector_path ("vvc-alf/" + picture + ".post.yuv.zst");
}

/* Why the clip's pictures cannot be read, or "". */
std::string
real_clip_missing (const RealClipSpec &s)
{
  if (gpc_test::vectors_dir ().empty ())
    return "no conformance vectors folder (GPC_VECTORS_DIR)";
  for (const std::string &p : s.pictures)
    if (picture_path (p).empty ())
      return "vvc-alf/" + p + ".post.yuv.zst is not in " + gpc_test::vectors_dir ();
  if (!gpc_test::have_zstd ())
    return "no zstd command-line tool";
  return "";
}

/* The crop of a picture's luma plane (16-bit little-endian samples first
 * in the file), raised to the clip's bit depth. */
bool
read_real_frame (const RealClipSpec &s, const std::string &picture, std::vector<uint16_t> *out)
{
  const std::string path = picture_path (picture);
  std::vector<uint8_t> raw;
  if (!gpc_test::read_zstd (path, raw) || raw.size () < (size_t) s.src_w * s.src_h * 2) {
    fprintf (stderr, "%s: unreadable or shorter than a %dx%d luma plane\n", path.c_str (),
        s.src_w, s.src_h);
    return false;
  }
  out->resize ((size_t) s.w * s.h);
  for (int y = 0; y < s.h; y++)
    for (int x = 0; x < s.w; x++) {
      const size_t i = ((size_t) (s.y + y) * s.src_w + s.x + x) * 2;
      const unsigned v = raw[i] | (raw[i + 1] << 8);
      if (v >> s.src_bpc) {
        fprintf (stderr, "%s: sample %u above %d bits\n", path.c_str (), v, s.src_bpc);
        return false;
      }
      (*out)[(size_t) y * s.w + x] = (uint16_t) (v << (s.bpc - s.src_bpc));
    }
  return true;
}

bool
find_real (const std::string &name, RealClipSpec *spec)
{
  for (const RealClipSpec &s : real_clip_specs ())
    if (s.name == name) {
      *spec = s;
      return true;
    }
  return false;
}

/* Fills the size and planes of a real clip from its pictures. */
bool
real_planes (const RealClipSpec &s, VmafClip *clip)
{
  const std::string missing = real_clip_missing (s);
  if (!missing.empty ()) {
    fprintf (stderr, "real clip %s: %s\n", s.name.c_str (), missing.c_str ());
    return false;
  }
  clip->width = s.w;
  clip->height = s.h;
  clip->bpc = s.bpc;
  clip->frames = (int) s.pictures.size ();
  clip->ref.assign (clip->frames, {});
  clip->dist.clear ();
  for (int f = 0; f < clip->frames; f++) {
    if (!read_real_frame (s, s.pictures[f], &clip->ref[f]))
      return false;
    clip->dist.push_back (gpc_test::block_coder_loss (clip->ref[f], s.w, s.h, s.bpc, f));
  }
  return true;
}

} // namespace

bool
vmaf_real_clip_planes (const std::string &name, VmafClip *clip)
{
  RealClipSpec spec;
  if (!find_real (name, &spec)) {
    fprintf (stderr, "%s is not in real-clips.txt\n", name.c_str ());
    return false;
  }
  *clip = VmafClip ();
  clip->name = name;
  return real_planes (spec, clip);
}

std::vector<std::string>
vmaf_real_clip_names ()
{
  /* Each skip is said once a process, however often a test asks. */
  static bool said;
  std::vector<std::string> names;
  for (const RealClipSpec &s : real_clip_specs ()) {
    const std::string missing = real_clip_missing (s);
    if (missing.empty ())
      names.push_back (s.name);
    else if (!said)
      printf ("SKIP real clip %s: %s\n", s.name.c_str (), missing.c_str ());
  }
  said = true;
  fflush (stdout);
  return names;
}

std::vector<std::string>
vmaf_all_clip_names ()
{
  std::vector<std::string> names = vmaf_clip_names ();
  for (const std::string &n : vmaf_real_clip_names ())
    names.push_back (n);
  return names;
}

bool
vmaf_load_expect (const std::string &name, VmafClip *clip)
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
  return true;
}

bool
vmaf_load_clip (const std::string &name, VmafClip *clip)
{
  if (!vmaf_load_expect (name, clip))
    return false;
  RealClipSpec real;
  if (find_real (name, &real)) {
    if (real.w != clip->width || real.h != clip->height || real.bpc != clip->bpc
        || (int) real.pictures.size () != clip->frames) {
      fprintf (stderr, "%s.expect: its size line is not real-clips.txt's\n", name.c_str ());
      return false;
    }
    return real_planes (real, clip);
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
