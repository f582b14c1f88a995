/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vvc-alf-params (version 1) reader on json-glib. Every member is required
 * and type-checked; numbers must be integers that fit the field. Semantic
 * ranges (coefficients, indices, APS references, CTB grid) are left to
 * vvc_alf_info_check so that JSON and GstVvcAlfMeta share one validation.
 */
#include "vvcalf-json.h"

#include <json-glib/json-glib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vvcalf-derive.h"

namespace gpc {

namespace {

/* Generous syntax-level limits: they only keep values representable and
 * allocations bounded; vvc_alf_info_check applies the real ranges. */
constexpr int64_t kMaxDim = 65535;
constexpr guint kMaxCtbs = 1u << 20;

class Reader {
 public:
  std::string error;

  bool fail (const char *f, ...) __attribute__ ((format (printf, 2, 3)))
  {
    if (!error.empty ())
      return false;
    char buf[256];
    va_list ap;
    va_start (ap, f);
    vsnprintf (buf, sizeof (buf), f, ap);
    va_end (ap);
    error = buf;
    return false;
  }

  JsonNode *member (JsonObject *o, const char *where, const char *key)
  {
    JsonNode *n = json_object_get_member (o, key);
    if (!n)
      fail ("%s: missing \"%s\"", where, key);
    return n;
  }

  bool to_int (JsonNode *n, const char *where, const char *key, int64_t lo, int64_t hi, int64_t *v)
  {
    *v = 0;
    if (!n || JSON_NODE_TYPE (n) != JSON_NODE_VALUE || json_node_get_value_type (n) != G_TYPE_INT64)
      return fail ("%s: \"%s\" must be an integer", where, key);
    *v = json_node_get_int (n);
    if (*v < lo || *v > hi)
      return fail ("%s: \"%s\" = %lld outside %lld..%lld", where, key, (long long) *v,
          (long long) lo, (long long) hi);
    return true;
  }

  bool get_int (JsonObject *o, const char *where, const char *key, int64_t lo, int64_t hi, int64_t *v)
  {
    JsonNode *n = member (o, where, key);
    return n && to_int (n, where, key, lo, hi, v);
  }

  /* An APS id or null (-1). */
  bool get_aps_id (JsonObject *o, const char *where, const char *key, gint8 *id)
  {
    JsonNode *n = member (o, where, key);
    if (!n)
      return false;
    if (JSON_NODE_HOLDS_NULL (n)) {
      *id = -1;
      return true;
    }
    int64_t v;
    if (!to_int (n, where, key, 0, GST_VVC_ALF_MAX_APS - 1, &v))
      return false;
    *id = (gint8) v;
    return true;
  }

  bool get_bool (JsonObject *o, const char *where, const char *key, bool *v)
  {
    JsonNode *n = member (o, where, key);
    if (!n)
      return false;
    if (JSON_NODE_TYPE (n) != JSON_NODE_VALUE || json_node_get_value_type (n) != G_TYPE_BOOLEAN)
      return fail ("%s: \"%s\" must be true or false", where, key);
    *v = json_node_get_boolean (n);
    return true;
  }

  JsonObject *get_object (JsonObject *o, const char *where, const char *key, bool nullable)
  {
    JsonNode *n = member (o, where, key);
    if (!n)
      return nullptr;
    if (nullable && JSON_NODE_HOLDS_NULL (n))
      return nullptr;
    if (!JSON_NODE_HOLDS_OBJECT (n)) {
      fail ("%s: \"%s\" must be an object%s", where, key, nullable ? " or null" : "");
      return nullptr;
    }
    return json_node_get_object (n);
  }

  JsonArray *get_array (JsonObject *o, const char *where, const char *key, bool nullable)
  {
    JsonNode *n = member (o, where, key);
    if (!n)
      return nullptr;
    if (nullable && JSON_NODE_HOLDS_NULL (n))
      return nullptr;
    if (!JSON_NODE_HOLDS_ARRAY (n)) {
      fail ("%s: \"%s\" must be an array%s", where, key, nullable ? " or null" : "");
      return nullptr;
    }
    return json_node_get_array (n);
  }

  /* A rows x cols integer matrix; rows in [min_rows, max_rows]. */
  bool get_matrix (JsonObject *o, const char *where, const char *key, guint min_rows,
      guint max_rows, guint cols, int64_t lo, int64_t hi, int64_t *out, guint *rows)
  {
    JsonArray *a = get_array (o, where, key, false);
    if (!a)
      return false;
    guint n = json_array_get_length (a);
    if (n < min_rows || n > max_rows)
      return fail ("%s: \"%s\" has %u rows, expected %u..%u", where, key, n, min_rows, max_rows);
    for (guint r = 0; r < n; r++) {
      JsonNode *rn = json_array_get_element (a, r);
      if (!JSON_NODE_HOLDS_ARRAY (rn) || json_array_get_length (json_node_get_array (rn)) != cols)
        return fail ("%s: \"%s\" row %u must be an array of %u integers", where, key, r, cols);
      JsonArray *ra = json_node_get_array (rn);
      for (guint c = 0; c < cols; c++) {
        if (!to_int (json_array_get_element (ra, c), where, key, lo, hi, &out[r * cols + c]))
          return false;
      }
    }
    *rows = n;
    return true;
  }

  bool read_aps (JsonNode *node, GstVvcAlfInfo &info, guint index);
  bool read_ctb (JsonNode *node, GstVvcAlfCtb &t, guint index);
  bool read_picture (JsonObject *root, GstVvcAlfInfo &info);
};

bool Reader::read_aps (JsonNode *node, GstVvcAlfInfo &info, guint index)
{
  char where[32];
  snprintf (where, sizeof (where), "aps[%u]", index);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail ("%s: must be an object", where);
  JsonObject *o = json_node_get_object (node);
  int64_t id = 0;
  if (!get_int (o, where, "id", 0, GST_VVC_ALF_MAX_APS - 1, &id))
    return false;
  if ((info.aps_present >> id) & 1)
    return fail ("%s: APS id %lld listed twice", where, (long long) id);
  GstVvcAlfAps &a = info.aps[id];
  memset (&a, 0, sizeof (a));

  int64_t m[GST_VVC_ALF_NUM_CLASSES * GST_VVC_ALF_LUMA_COEFFS];
  guint rows = 0, rows2 = 0;
  char lw[48], cw[48];
  snprintf (lw, sizeof (lw), "aps[%u].luma", index);
  snprintf (cw, sizeof (cw), "aps[%u].chroma", index);
  if (!member (o, where, "luma"))
    return false;
  if (JsonObject *l = get_object (o, where, "luma", true)) {
    if (!get_matrix (l, lw, "coeff", 25, 25, 12, G_MININT16, G_MAXINT16, m, &rows))
      return false;
    for (guint i = 0; i < 25 * 12; i++)
      a.luma_coeff[i / 12][i % 12] = (gint16) m[i];
    if (!get_matrix (l, lw, "clip_idx", 25, 25, 12, 0, 255, m, &rows))
      return false;
    for (guint i = 0; i < 25 * 12; i++)
      a.luma_clip_idx[i / 12][i % 12] = (guint8) m[i];
    a.luma_present = TRUE;
  }
  if (!error.empty ())
    return false;
  if (JsonObject *c = get_object (o, where, "chroma", true)) {
    if (!get_matrix (c, cw, "coeff", 1, 8, 6, G_MININT16, G_MAXINT16, m, &rows))
      return false;
    for (guint i = 0; i < rows * 6; i++)
      a.chroma_coeff[i / 6][i % 6] = (gint16) m[i];
    if (!get_matrix (c, cw, "clip_idx", 1, 8, 6, 0, 255, m, &rows2))
      return false;
    if (rows2 != rows)
      return fail ("%s: chroma clip_idx has %u rows, coeff has %u", where, rows2, rows);
    for (guint i = 0; i < rows * 6; i++)
      a.chroma_clip_idx[i / 6][i % 6] = (guint8) m[i];
    a.chroma_num_alts = (guint8) rows;
  }
  if (!error.empty ())
    return false;
  static const char *cc_keys[2] = { "cc_cb", "cc_cr" };
  for (int c = 0; c < 2; c++) {
    JsonNode *n = member (o, where, cc_keys[c]);
    if (!n)
      return false;
    if (JSON_NODE_HOLDS_NULL (n))
      continue;
    if (!get_matrix (o, where, cc_keys[c], 1, 4, 7, G_MININT16, G_MAXINT16, m, &rows))
      return false;
    for (guint i = 0; i < rows * 7; i++)
      a.cc_coeff[c][i / 7][i % 7] = (gint16) m[i];
    a.cc_num_filters[c] = (guint8) rows;
  }
  info.aps_present |= (guint8) (1u << id);
  return true;
}

bool Reader::read_ctb (JsonNode *node, GstVvcAlfCtb &t, guint index)
{
  char where[32];
  snprintf (where, sizeof (where), "ctbs[%u]", index);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail ("%s: must be an object", where);
  JsonObject *o = json_node_get_object (node);
  int64_t y, cb, cr, set, idc;
  if (!get_int (o, where, "y", 0, 1, &y) || !get_int (o, where, "cb", 0, 1, &cb)
      || !get_int (o, where, "cr", 0, 1, &cr) || !get_int (o, where, "luma_set", 0, 255, &set)
      || !get_aps_id (o, where, "luma_aps", &t.luma_aps)
      || !get_aps_id (o, where, "chroma_aps", &t.chroma_aps))
    return false;
  t.flags = (guint16) ((y ? GST_VVC_ALF_CTB_Y : 0) | (cb ? GST_VVC_ALF_CTB_CB : 0)
      | (cr ? GST_VVC_ALF_CTB_CR : 0));
  t.luma_set = (guint8) set;

  JsonArray *alt = get_array (o, where, "chroma_alt", false);
  if (!alt)
    return false;
  if (json_array_get_length (alt) != 2)
    return fail ("%s: \"chroma_alt\" must have 2 entries", where);
  for (guint c = 0; c < 2; c++) {
    int64_t v;
    if (!to_int (json_array_get_element (alt, c), where, "chroma_alt", 0, 255, &v))
      return false;
    t.chroma_alt[c] = (guint8) v;
  }
  if (!get_aps_id (o, where, "cc_cb_aps", &t.cc_aps[0])
      || !get_int (o, where, "cc_cb_idc", 0, 255, &idc))
    return false;
  t.cc_idc[0] = (guint8) idc;
  if (!get_aps_id (o, where, "cc_cr_aps", &t.cc_aps[1])
      || !get_int (o, where, "cc_cr_idc", 0, 255, &idc))
    return false;
  t.cc_idc[1] = (guint8) idc;

  JsonObject *e = get_object (o, where, "edges", false);
  if (!e)
    return false;
  static const char *keys[4] = { "left", "right", "top", "bottom" };
  for (int k = 0; k < 4; k++) {
    bool b;
    if (!get_bool (e, where, keys[k], &b))
      return false;
    if (b)
      t.flags |= (guint16) (GST_VVC_ALF_CTB_EDGE_LEFT << k);
  }
  return true;
}

bool Reader::read_picture (JsonObject *root, GstVvcAlfInfo &info)
{
  const char *w = "picture";
  JsonNode *n = member (root, w, "format");
  if (!n)
    return false;
  if (JSON_NODE_TYPE (n) != JSON_NODE_VALUE || json_node_get_value_type (n) != G_TYPE_STRING
      || strcmp (json_node_get_string (n), "vvc-alf-params") != 0)
    return fail ("picture: \"format\" must be \"vvc-alf-params\"");
  int64_t version, poc, width, height, bdl, bdc, ctb;
  if (!get_int (root, w, "version", 1, 1, &version)
      || !get_int (root, w, "poc", G_MININT32, G_MAXINT32, &poc)
      || !get_int (root, w, "width", 1, kMaxDim, &width)
      || !get_int (root, w, "height", 1, kMaxDim, &height)
      || !get_int (root, w, "bit_depth_luma", 1, 32, &bdl)
      || !get_int (root, w, "bit_depth_chroma", 1, 32, &bdc)
      || !get_int (root, w, "ctb_size_y", 1, 1024, &ctb))
    return false;
  if (bdl != bdc)
    return fail ("picture: bit_depth_luma %lld differs from bit_depth_chroma %lld",
        (long long) bdl, (long long) bdc);
  n = member (root, w, "chroma_format");
  if (!n)
    return false;
  static const char *formats[4] = { "400", "420", "422", "444" };
  int cf = -1;
  if (JSON_NODE_TYPE (n) == JSON_NODE_VALUE && json_node_get_value_type (n) == G_TYPE_STRING) {
    for (int i = 0; i < 4; i++)
      if (strcmp (json_node_get_string (n), formats[i]) == 0)
        cf = i;
  }
  if (cf < 0)
    return fail ("picture: \"chroma_format\" must be \"400\", \"420\", \"422\" or \"444\"");

  /* Informational, but must be well formed. */
  JsonObject *en = get_object (root, w, "alf_enabled", false);
  if (!en)
    return false;
  static const char *en_keys[5] = { "y", "cb", "cr", "cc_cb", "cc_cr" };
  for (int k = 0; k < 5; k++) {
    bool b;
    if (!get_bool (en, "alf_enabled", en_keys[k], &b))
      return false;
  }

  JsonArray *aps = get_array (root, w, "aps", false);
  JsonArray *ctbs = aps ? get_array (root, w, "ctbs", false) : nullptr;
  JsonObject *vb = ctbs ? get_object (root, w, "virtual_boundaries", false) : nullptr;
  JsonArray *corners = vb ? get_array (root, w, "raster_slice_corners", false) : nullptr;
  if (!corners)
    return false;

  guint n_ctbs = json_array_get_length (ctbs);
  if (n_ctbs > kMaxCtbs)
    return fail ("picture: %u CTBs, at most %u", n_ctbs, kMaxCtbs);

  memset (&info, 0, sizeof (info));
  info.width = (guint) width;
  info.height = (guint) height;
  info.chroma_format = (GstVvcAlfChromaFormat) cf;
  info.bit_depth = (guint) bdl;
  info.ctb_size = (guint) ctb;
  info.line_buffer_boundary_in_last_row = TRUE; /* what the format specifies */

  for (guint i = 0; i < json_array_get_length (aps); i++)
    if (!read_aps (json_array_get_element (aps, i), info, i))
      return false;

  JsonArray *vbs[2] = { get_array (vb, "virtual_boundaries", "x", false), nullptr };
  if (!vbs[0])
    return false;
  vbs[1] = get_array (vb, "virtual_boundaries", "y", false);
  if (!vbs[1])
    return false;
  for (int d = 0; d < 2; d++) {
    guint cnt = json_array_get_length (vbs[d]);
    if (cnt > GST_VVC_ALF_MAX_VIRTUAL_BOUNDARIES)
      return fail ("virtual_boundaries: %u in %s, at most 3", cnt, d ? "y" : "x");
    for (guint k = 0; k < cnt; k++) {
      int64_t v;
      if (!to_int (json_array_get_element (vbs[d], k), "virtual_boundaries", d ? "y" : "x", 0,
              kMaxDim, &v))
        return false;
      (d ? info.vb_y : info.vb_x)[k] = (guint) v;
    }
    (d ? info.num_vb_y : info.num_vb_x) = cnt;
  }

  info.n_ctbs = n_ctbs;
  info.ctbs = g_new0 (GstVvcAlfCtb, n_ctbs ? n_ctbs : 1);
  for (guint i = 0; i < n_ctbs; i++)
    if (!read_ctb (json_array_get_element (ctbs, i), info.ctbs[i], i))
      return false;

  for (guint i = 0; i < json_array_get_length (corners); i++) {
    JsonNode *cn = json_array_get_element (corners, i);
    if (!JSON_NODE_HOLDS_OBJECT (cn))
      return fail ("raster_slice_corners[%u]: must be an object", i);
    JsonObject *co = json_node_get_object (cn);
    int64_t idx;
    bool tl, br;
    if (!get_int (co, "raster_slice_corners", "ctb", 0, (int64_t) n_ctbs - 1, &idx)
        || !get_bool (co, "raster_slice_corners", "top_left", &tl)
        || !get_bool (co, "raster_slice_corners", "bottom_right", &br))
      return false;
    if (tl)
      info.ctbs[idx].flags |= GST_VVC_ALF_CTB_CORNER_TOP_LEFT;
    if (br)
      info.ctbs[idx].flags |= GST_VVC_ALF_CTB_CORNER_BOTTOM_RIGHT;
  }
  return true;
}

} // namespace

bool vvc_alf_json_to_info (const char *text, size_t len, GstVvcAlfInfo &info, std::string &error)
{
  memset (&info, 0, sizeof (info));
  JsonParser *parser = json_parser_new ();
  GError *gerr = nullptr;
  if (!json_parser_load_from_data (parser, text, (gssize) len, &gerr)) {
    error = std::string ("invalid JSON: ") + (gerr ? gerr->message : "unknown error");
    g_clear_error (&gerr);
    g_object_unref (parser);
    return false;
  }
  JsonNode *root = json_parser_get_root (parser);
  Reader r;
  if (!root || !JSON_NODE_HOLDS_OBJECT (root))
    r.fail ("top level must be an object");
  else
    r.read_picture (json_node_get_object (root), info);
  g_object_unref (parser);
  if (!r.error.empty ()) {
    error = r.error;
    gst_vvc_alf_info_clear (&info);
    return false;
  }
  return true;
}

bool vvc_alf_params_from_json (const char *text, size_t len, VvcAlfParams &out, std::string &error)
{
  GstVvcAlfInfo info;
  if (!vvc_alf_json_to_info (text, len, info, error))
    return false;
  bool ok = vvc_alf_params_from_info (info, out, error);
  gst_vvc_alf_info_clear (&info);
  return ok;
}

bool vvc_alf_params_from_json_file (const char *path, VvcAlfParams &out, std::string &error)
{
  gchar *text = nullptr;
  gsize len = 0;
  GError *gerr = nullptr;
  if (!g_file_get_contents (path, &text, &len, &gerr)) {
    error = std::string ("cannot read ") + path + ": " + (gerr ? gerr->message : "");
    g_clear_error (&gerr);
    return false;
  }
  bool ok = vvc_alf_params_from_json (text, len, out, error);
  g_free (text);
  return ok;
}

} // namespace gpc
