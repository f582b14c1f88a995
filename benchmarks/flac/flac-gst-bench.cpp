/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Decodes the same FLAC files with every available decoder, file to
 * fakesink, in one run, and prints wall time, x realtime and the ratio to
 * flacdec, for the first play of a new pipeline and for a second play of
 * the same pipeline (set to READY and played again, as a player does from
 * one file to the next: the pipeline keeps the CUDA context it was given,
 * and cudaflacdec its kernels and buffers with it):
 *   flacdec, avdec_flac (filesrc ! flacparse ! DEC ! fakesink)
 *   cudaflacdec backend=cuda and backend=cpu, framed (after flacparse) and
 *   unframed (filesrc ! cudaflacdec, the element locates frames itself).
 * Usage: flac-gst-bench [--repeat N] [--only TEXT] FILE.flac...
 * (--only: just flacdec and the decoders whose name contains TEXT;
 * --no-flacdec: without the reference; --props: properties added to every cudaflacdec, e.g. chunk-size=33554432)
 * Needs GST_PLUGIN_PATH to include the build's ext/cuda folder.
 */
#include <gst/gst.h>
#include <stdio.h>
#include <string.h>

#include <string>
#include <vector>

#include "flac-metadata.h"

namespace {

struct Decoder {
  const char *name;
  const char *element; /* factory that must exist */
  const char *chain;   /* between filesrc and fakesink */
};

} // namespace

static const Decoder kDecoders[] = {
  { "flacdec", "flacdec", "flacparse ! flacdec" },
  { "avdec_flac", "avdec_flac", "flacparse ! avdec_flac" },
  { "cudaflacdec cuda (flacparse)", "cudaflacdec", "flacparse ! cudaflacdec backend=cuda" },
  { "cudaflacdec cuda (unframed)", "cudaflacdec", "cudaflacdec backend=cuda" },
  { "cudaflacdec cpu (flacparse)", "cudaflacdec", "flacparse ! cudaflacdec backend=cpu" },
  { "cudaflacdec cpu (unframed)", "cudaflacdec", "cudaflacdec backend=cpu" },
  /* flacdec never checks the MD5 signature; cudaflacdec does by default, on
   * one extra thread (MD5 is sequential, ~0.7 GB/s of PCM): without it */
  { "cudaflacdec cuda (unframed,nomd5)", "cudaflacdec",
    "cudaflacdec backend=cuda check-md5=false" },
  { "cudaflacdec cpu (unframed,nomd5)", "cudaflacdec",
    "cudaflacdec backend=cpu check-md5=false" },
  /* auto (the default): the CPU decodes while the CUDA context is made */
  { "cudaflacdec auto (unframed)", "cudaflacdec", "cudaflacdec" },
  { "cudaflacdec auto (unframed,nomd5)", "cudaflacdec", "cudaflacdec check-md5=false" },
  /* filesrc reads on a thread of its own instead of the decoder's */
  { "cudaflacdec auto (queue,nomd5)", "cudaflacdec", "queue ! cudaflacdec check-md5=false" },
};

/* Plays one pipeline to EOS `plays` times (READY in between); returns the
 * wall seconds of each play, or fewer where one failed. */
static std::vector<double> run (const std::string &desc, int plays, std::string *why)
{
  std::vector<double> times;
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc.c_str (), &err);
  if (!p) {
    *why = err ? err->message : "parse error";
    g_clear_error (&err);
    return times;
  }
  GstBus *bus = gst_element_get_bus (p);
  for (int i = 0; i < plays; i++) {
    gint64 t0 = g_get_monotonic_time ();
    gst_element_set_state (p, GST_STATE_PLAYING);
    GstMessage *m = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
        (GstMessageType) (GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
    bool eos = GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS;
    if (eos) {
      times.push_back ((g_get_monotonic_time () - t0) / 1e6);
    } else {
      GError *e = NULL;
      gst_message_parse_error (m, &e, NULL);
      *why = e->message;
      g_error_free (e);
    }
    gst_message_unref (m);
    gst_element_set_state (p, GST_STATE_READY);
    if (!eos)
      break;
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
  return times;
}

static double duration_of (const std::string &path)
{
  FILE *f = fopen (path.c_str (), "rb");
  if (!f)
    return 0;
  std::vector<uint8_t> head (1 << 20);
  size_t n = fread (head.data (), 1, head.size (), f);
  fclose (f);
  gpc::flac::Metadata md;
  if (gpc::flac::parse_metadata (head.data (), n, &md) != gpc::flac::kOk || !md.info.sample_rate)
    return 0;
  return (double) md.info.total_samples / md.info.sample_rate;
}

int main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  int repeat = 1;
  const char *only = NULL;
  bool no_ref = false;
  std::string props;
  std::vector<std::string> files;
  for (int i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--repeat") && i + 1 < argc)
      repeat = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else if (!strcmp (argv[i], "--no-flacdec"))
      no_ref = true;
    else if (!strcmp (argv[i], "--props") && i + 1 < argc)
      props = argv[++i];
    else
      files.push_back (argv[i]);
  }
  if (files.empty ()) {
    fprintf (stderr, "usage: %s [--repeat N] [--only TEXT] FILE.flac...\n", argv[0]);
    return 2;
  }
  for (const std::string &file : files) {
    double dur = duration_of (file);
    printf ("\n%s: %.1f s of audio\n", file.c_str (), dur);
    printf ("  %-34s %8s %11s %10s | %16s %10s\n", "decoder", "wall s", "x realtime", "vs flacdec",
        "2nd play wall s", "vs flacdec");
    double ref = 0, ref2 = 0;
    for (const Decoder &d : kDecoders) {
      if (only && strcmp (d.name, "flacdec") != 0 && !strstr (d.name, only))
        continue;
      if (no_ref && !strcmp (d.name, "flacdec"))
        continue;
      GstElementFactory *fac = gst_element_factory_find (d.element);
      if (!fac) {
        printf ("  %-32s %10s\n", d.name, "not installed");
        continue;
      }
      gst_object_unref (fac);
      gchar *loc = g_strescape (file.c_str (), NULL);
      std::string chain = d.chain;
      size_t at = chain.find ("cudaflacdec");
      if (at != std::string::npos && !props.empty ())
        chain.insert (at + strlen ("cudaflacdec"), " " + props);
      std::string desc = std::string ("filesrc blocksize=1048576 location=\"") + loc + "\" ! " + chain +
          " ! fakesink sync=false";
      g_free (loc);
      double best = -1, best2 = -1;
      std::string why;
      for (int r = 0; r < repeat; r++) {
        std::vector<double> t = run (desc, 2, &why);
        if (t.size () < 2)
          break;
        if (best < 0 || t[0] < best)
          best = t[0];
        if (best2 < 0 || t[1] < best2)
          best2 = t[1];
      }
      if (best < 0) {
        printf ("  %-34s %8s (%s)\n", d.name, "failed", why.c_str ());
        continue;
      }
      if (!strcmp (d.name, "flacdec")) {
        ref = best;
        ref2 = best2;
      }
      gchar *ratio = ref > 0 ? g_strdup_printf ("%.2fx", ref / best) : g_strdup ("-");
      gchar *ratio2 = ref2 > 0 ? g_strdup_printf ("%.2fx", ref2 / best2) : g_strdup ("-");
      printf ("  %-34s %8.3f %11.1f %10s | %16.3f %10s\n", d.name, best, dur / best, ratio, best2, ratio2);
      g_free (ratio);
      g_free (ratio2);
      fflush (stdout);
    }
  }
  return 0;
}
