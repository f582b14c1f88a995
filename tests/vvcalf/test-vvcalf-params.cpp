/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vvc-alf-params reader and the shared validation:
 *  - write / read round trip of random parameters;
 *  - every vector JSON parses (when the vectors are present);
 *  - targeted corruptions, each rejected with a message;
 *  - random text mutations (seed printed): never a crash, and whatever is
 *    accepted passes vvc_alf_params_check and runs through the reference.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include <functional>

#include "vvcalf-builder.h"
#include "vvcalf-derive.h"
#include "vvcalf-json.h"
#include "vvcalf-random.h"

using namespace vvcalf_test;

static int failures = 0;

static void expect (bool cond, const char *what)
{
  if (!cond) {
    printf ("FAIL: %s\n", what);
    failures++;
  }
}

static bool params_equal (const gpc::VvcAlfParams &a, const gpc::VvcAlfParams &b)
{
  return memcmp (&a.pic, &b.pic, sizeof (a.pic)) == 0 && a.ctbs.size () == b.ctbs.size ()
      && memcmp (a.ctbs.data (), b.ctbs.data (), a.ctbs.size () * sizeof (a.ctbs[0])) == 0;
}

static void test_round_trip (gpc_test::Rng &r)
{
  int n = 0;
  for (int i = 0; i < 200; i++) {
    GstVvcAlfInfo info;
    random_info (r, info);
    info.line_buffer_boundary_in_last_row = TRUE; /* the format has no field for FALSE */
    std::string text = gpc::vvc_alf_info_to_json (info), err;
    gpc::VvcAlfParams a, b;
    bool ok_a = gpc::vvc_alf_params_from_info (info, a, err);
    bool ok_b = gpc::vvc_alf_params_from_json (text.data (), text.size (), b, err);
    if (!ok_a || !ok_b) {
      printf ("round trip %d: %s\n", i, err.c_str ());
      expect (false, "round trip: random info must be accepted");
    } else {
      expect (params_equal (a, b), "round trip: JSON gives other parameters");
      n++;
    }
    gst_vvc_alf_info_clear (&info);
  }
  printf ("round trip: %d random parameter sets written and read back identically\n", n);
}

static void test_vectors ()
{
  std::string dir = gpc_test::vector_path ("vvc-alf");
  if (dir.empty ()) {
    printf ("SKIP part: vectors folder absent, vector JSON files not parsed\n");
    return;
  }
  int n = 0;
  if (DIR *d = opendir (dir.c_str ())) {
    while (dirent *e = readdir (d)) {
      std::string f = e->d_name;
      if (f.size () <= 5 || f.compare (f.size () - 5, 5, ".json") != 0)
        continue;
      gchar *text;
      gsize len;
      if (!g_file_get_contents ((dir + "/" + f).c_str (), &text, &len, nullptr))
        continue;
      GstVvcAlfInfo info;
      std::string err;
      bool ok = gpc::vvc_alf_json_to_info (text, len, info, err);
      if (ok) {
        /* Writing and re-reading a real vector must give the same parameters. */
        std::string again = gpc::vvc_alf_info_to_json (info);
        gpc::VvcAlfParams a, b;
        ok = gpc::vvc_alf_params_from_info (info, a, err)
            && gpc::vvc_alf_params_from_json (again.data (), again.size (), b, err)
            && params_equal (a, b);
        gst_vvc_alf_info_clear (&info);
      }
      if (!ok)
        printf ("FAIL: %s: %s\n", f.c_str (), err.c_str ());
      failures += !ok;
      n++;
      g_free (text);
    }
    closedir (d);
  }
  printf ("vectors: %d JSON files parsed and round-tripped\n", n);
}

/* A small valid base document to corrupt. */
static std::string base_json ()
{
  gpc::VvcAlfSyntheticConfig cfg;
  cfg.width = 200;
  cfg.height = 136;
  cfg.ctb_size = 64;
  cfg.fixed_set = 3;
  cfg.cc_cb = cfg.cc_cr = true;
  GstVvcAlfInfo info;
  std::string err;
  gpc::vvc_alf_build_synthetic_info (cfg, info, err);
  /* Add an APS with luma filters so that luma APS references exist. */
  info.aps_present |= 1 << 5;
  gpc_test::Rng r = gpc_test::rng ("base");
  vvcalf_test::random_aps (r, info.aps[5]);
  info.aps[5].luma_present = TRUE;
  info.ctbs[1].luma_set = 16;
  info.ctbs[1].luma_aps = 5;
  std::string s = gpc::vvc_alf_info_to_json (info);
  gst_vvc_alf_info_clear (&info);
  return s;
}

static bool replace_once (std::string &s, const std::string &from, const std::string &to)
{
  size_t p = s.find (from);
  if (p == std::string::npos)
    return false;
  s.replace (p, from.size (), to);
  return true;
}

/* Replaces the number that follows the last of @anchors (searched in order). */
static bool replace_first_number (std::string &s, std::initializer_list<const char *> anchors,
    const char *to)
{
  size_t p = 0;
  for (const char *a : anchors) {
    p = s.find (a, p);
    if (p == std::string::npos)
      return false;
    p += strlen (a);
  }
  size_t e = s.find_first_of (",]", p);
  s.replace (p, e - p, to);
  return true;
}

static void test_targeted ()
{
  const std::string base = base_json ();
  gpc::VvcAlfParams params;
  std::string err;
  expect (gpc::vvc_alf_params_from_json (base.data (), base.size (), params, err),
      "base document must be valid");
  if (!err.empty ())
    printf ("  base: %s\n", err.c_str ());

  struct Case {
    const char *name;
    std::function<bool (std::string &)> edit;
  };
  const Case cases[] = {
    { "not JSON", [] (std::string &s) { s = s.substr (0, s.size () / 2); return true; } },
    { "top level array", [] (std::string &s) { s = "[" + s + "]"; return true; } },
    { "wrong format", [] (std::string &s) { return replace_once (s, "vvc-alf-params", "vvc-alf-param"); } },
    { "version 2", [] (std::string &s) { return replace_once (s, "\"version\":1", "\"version\":2"); } },
    { "missing width", [] (std::string &s) { return replace_once (s, "\"width\":200, ", ""); } },
    { "width as string", [] (std::string &s) { return replace_once (s, "\"width\":200", "\"width\":\"200\""); } },
    { "width as float", [] (std::string &s) { return replace_once (s, "\"width\":200", "\"width\":200.5"); } },
    { "width not multiple of 8", [] (std::string &s) { return replace_once (s, "\"width\":200", "\"width\":204"); } },
    { "CTB grid mismatch (wider picture)", [] (std::string &s) { return replace_once (s, "\"width\":200", "\"width\":264"); } },
    { "CTB grid mismatch (smaller CTB)", [] (std::string &s) { return replace_once (s, "\"ctb_size_y\":64", "\"ctb_size_y\":32"); } },
    { "CTB size 16", [] (std::string &s) { return replace_once (s, "\"ctb_size_y\":64", "\"ctb_size_y\":16"); } },
    { "bit depths differ", [] (std::string &s) { return replace_once (s, "\"bit_depth_chroma\":10", "\"bit_depth_chroma\":8"); } },
    { "bit depth 14", [] (std::string &s) { return replace_once (s, "\"bit_depth_luma\":10, \"bit_depth_chroma\":10", "\"bit_depth_luma\":14, \"bit_depth_chroma\":14"); } },
    { "chroma format 411", [] (std::string &s) { return replace_once (s, "\"420\"", "\"411\""); } },
    { "4:0:0 with chroma CTBs", [] (std::string &s) { return replace_once (s, "\"420\"", "\"400\""); } },
    { "luma coefficient 128", [] (std::string &s) { return replace_first_number (s, {"\"luma\":{\"coeff\":[["}, "128"); } },
    { "luma coefficient -129", [] (std::string &s) { return replace_first_number (s, {"\"luma\":{\"coeff\":[["}, "-129"); } },
    { "luma clip index 4", [] (std::string &s) { return replace_first_number (s, {"\"luma\":{\"coeff\":[[", "\"clip_idx\":[["}, "4"); } },
    { "luma clip index -1", [] (std::string &s) { return replace_first_number (s, {"\"luma\":{\"coeff\":[[", "\"clip_idx\":[["}, "-1"); } },
    { "chroma clip index 4", [] (std::string &s) { return replace_first_number (s, {"\"chroma\":{\"coeff\":[[", "\"clip_idx\":[["}, "4"); } },
    { "coefficient beyond int16", [] (std::string &s) { return replace_first_number (s, {"\"luma\":{\"coeff\":[["}, "70000"); } },
    { "luma row with 11 values", [] (std::string &s) {
        size_t p = s.find ("\"luma\":{\"coeff\":[[");
        if (p == std::string::npos) return false;
        p += strlen ("\"luma\":{\"coeff\":[[");
        size_t e = s.find (',', p);
        s.erase (p, e - p + 1);
        return true; } },
    { "chroma coefficient 200", [] (std::string &s) { return replace_once (s, "\"chroma\":{\"coeff\":[[3,", "\"chroma\":{\"coeff\":[[200,"); } },
    { "chroma clip rows differ", [] (std::string &s) { return replace_once (s, "\"clip_idx\":[[0,1,0,1,2,0]]", "\"clip_idx\":[[0,1,0,1,2,0],[0,0,0,0,0,0]]"); } },
    { "CC-ALF coefficient 3", [] (std::string &s) { return replace_once (s, "\"cc_cb\":[[-4,", "\"cc_cb\":[[3,"); } },
    { "CC-ALF coefficient 128", [] (std::string &s) { return replace_once (s, "\"cc_cb\":[[-4,", "\"cc_cb\":[[128,"); } },
    { "five CC-ALF filters", [] (std::string &s) { return replace_once (s, "\"cc_cr\":[[", "\"cc_cr\":[[0,0,0,0,0,0,0],[0,0,0,0,0,0,0],[0,0,0,0,0,0,0],[0,0,0,0,0,0,0],["); } },
    { "APS id 8", [] (std::string &s) { return replace_once (s, "{\"id\":0,", "{\"id\":8,"); } },
    { "APS listed twice", [] (std::string &s) { return replace_once (s, "{\"id\":5,", "{\"id\":0,"); } },
    { "missing chroma APS", [] (std::string &s) { return replace_once (s, "{\"id\":0,", "{\"id\":1,"); } },
    { "missing luma APS", [] (std::string &s) { return replace_once (s, "\"luma_set\":16,\"luma_aps\":5", "\"luma_set\":16,\"luma_aps\":6"); } },
    { "luma APS without luma", [] (std::string &s) { return replace_once (s, "\"luma_set\":16,\"luma_aps\":5", "\"luma_set\":16,\"luma_aps\":0"); } },
    { "luma_set 16 without APS", [] (std::string &s) { return replace_once (s, "\"luma_set\":16,\"luma_aps\":5", "\"luma_set\":16,\"luma_aps\":null"); } },
    { "fixed luma_set with APS", [] (std::string &s) { return replace_once (s, "\"luma_set\":3,\"luma_aps\":null", "\"luma_set\":3,\"luma_aps\":5"); } },
    { "luma_set 23", [] (std::string &s) { return replace_once (s, "\"luma_set\":16,", "\"luma_set\":23,"); } },
    { "luma off with luma_set", [] (std::string &s) { return replace_once (s, "{\"y\":1,\"cb\":1,\"cr\":1,\"luma_set\":3", "{\"y\":0,\"cb\":1,\"cr\":1,\"luma_set\":3"); } },
    { "y = 2", [] (std::string &s) { return replace_once (s, "{\"y\":1,", "{\"y\":2,"); } },
    { "chroma alt out of range", [] (std::string &s) { return replace_once (s, "\"chroma_alt\":[0,0]", "\"chroma_alt\":[1,0]"); } },
    { "chroma_alt with 3 entries", [] (std::string &s) { return replace_once (s, "\"chroma_alt\":[0,0]", "\"chroma_alt\":[0,0,0]"); } },
    { "chroma on without APS", [] (std::string &s) { return replace_once (s, "\"chroma_aps\":0", "\"chroma_aps\":null"); } },
    { "CC-ALF idc 2 of 1 filter", [] (std::string &s) { return replace_once (s, "\"cc_cb_idc\":1", "\"cc_cb_idc\":2"); } },
    { "CC-ALF on without APS", [] (std::string &s) { return replace_once (s, "\"cc_cb_aps\":0", "\"cc_cb_aps\":null"); } },
    { "CC-ALF off with APS", [] (std::string &s) { return replace_once (s, "\"cc_cb_idc\":1", "\"cc_cb_idc\":0"); } },
    { "edge as integer", [] (std::string &s) { return replace_once (s, "\"left\":true", "\"left\":1"); } },
    { "missing edges", [] (std::string &s) { return replace_once (s, ",\"edges\":{", ",\"edgez\":{"); } },
    { "one CTB too many", [] (std::string &s) {
        size_t p = s.find ("\n  {\"y\"");
        size_t e = s.find ("}}", p);
        return replace_once (s, "\"ctbs\":[", "\"ctbs\":[" + s.substr (p + 3, e + 2 - p - 3) + ","); } },
    { "one CTB missing", [] (std::string &s) {
        size_t p = s.find ("\"ctbs\":[\n  {");
        size_t e = s.find ("}},", p);
        s.erase (p + 8, e + 3 - p - 8);
        return true; } },
    { "four virtual boundaries", [] (std::string &s) { return replace_once (s, "\"x\":[]", "\"x\":[8,16,24,32]"); } },
    { "virtual boundary not multiple of 8", [] (std::string &s) { return replace_once (s, "\"x\":[]", "\"x\":[12]"); } },
    { "virtual boundary outside", [] (std::string &s) { return replace_once (s, "\"y\":[]", "\"y\":[136]"); } },
    { "corner of CTB 99", [] (std::string &s) { return replace_once (s, "\"raster_slice_corners\":[]", "\"raster_slice_corners\":[{\"ctb\":99,\"top_left\":true,\"bottom_right\":false}]"); } },
    { "alf_enabled missing", [] (std::string &s) { return replace_once (s, "\"alf_enabled\"", "\"alf_enable\""); } },
  };

  int n = 0;
  for (const Case &c : cases) {
    std::string s = base;
    if (!c.edit (s)) {
      printf ("FAIL: corruption \"%s\" did not apply to the base document\n", c.name);
      failures++;
      continue;
    }
    gpc::VvcAlfParams p;
    std::string e;
    bool ok = gpc::vvc_alf_params_from_json (s.data (), s.size (), p, e);
    if (ok || e.empty ()) {
      printf ("FAIL: corruption \"%s\" accepted\n", c.name);
      failures++;
    } else {
      printf ("  rejected %-36s -> %s\n", c.name, e.c_str ());
      n++;
    }
  }
  printf ("targeted corruptions: %d of %zu rejected\n", n, sizeof (cases) / sizeof (cases[0]));
}

static void test_mutations (gpc_test::Rng &r)
{
  static const char *tokens[] = { "0", "-1", "9", "128", "-129", "999999999999", "1.5", "null", "true",
    "\"x\"", "[", "]", "{", "}", ",", ":", "\"", "-", "e9", "[]", "{}" };
  int accepted = 0, rejected = 0;
  const int n = 1500;
  GstVvcAlfInfo binfo;
  RandomLimits lim;
  lim.max_width = 96;
  lim.max_height = 80;
  for (int i = 0; i < n; i++) {
    if (i % 100 == 0 && i)
      gst_vvc_alf_info_clear (&binfo);
    if (i % 100 == 0)
      random_info (r, binfo, lim);
    std::string s = gpc::vvc_alf_info_to_json (binfo);
    int edits = (int) r.range (1, 4);
    for (int k = 0; k < edits; k++) {
      size_t pos = (size_t) r.range (0, (int64_t) s.size () - 1);
      switch (r.range (0, 4)) {
        case 0: s[pos] = (char) r.range (32, 126); break;
        case 1: s.erase (pos, (size_t) r.range (1, 8)); break;
        case 2: s.insert (pos, tokens[r.range (0, sizeof (tokens) / sizeof (tokens[0]) - 1)]); break;
        case 3: s.insert (pos, s.substr (pos, (size_t) r.range (1, 40))); break;
        default: {
          /* change a number */
          size_t d = s.find_first_of ("0123456789", pos);
          if (d != std::string::npos)
            s[d] = (char) ('0' + r.range (0, 9));
          break;
        }
      }
    }
    gpc::VvcAlfParams p;
    std::string e;
    if (gpc::vvc_alf_params_from_json (s.data (), s.size (), p, e)) {
      accepted++;
      std::string chk = gpc::vvc_alf_params_check (p);
      if (!chk.empty ()) {
        printf ("FAIL: mutation %d accepted but derived parameters are bad: %s\n", i, chk.c_str ());
        failures++;
        continue;
      }
      Picture in, out;
      in.alloc (p.pic);
      out.alloc (p.pic);
      random_content (r, in, p.pic.bit_depth);
      apply (p, in, out);
    } else {
      rejected++;
      if (e.empty ()) {
        printf ("FAIL: mutation %d rejected without a message\n", i);
        failures++;
      }
    }
  }
  gst_vvc_alf_info_clear (&binfo);
  printf ("random mutations: %d, %d rejected with a message, %d still valid (checked and run)\n", n,
      rejected, accepted);
}

int main ()
{
  gpc_test::Rng r = gpc_test::rng ("vvcalf-params");
  test_round_trip (r);
  test_vectors ();
  test_targeted ();
  test_mutations (r);
  printf ("%d failures\n", failures);
  return failures ? 1 : 0;
}
