/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GstVvcAlfMeta: attach / get / deep copy with the buffer, conversion to the
 * GPU parameter blocks identical to the direct path and to the JSON path,
 * validation errors through the C API, no meta on partial copies.
 */
#include <gst/check/gstcheck.h>

#include "gstvvcalfmeta.h"
#include "vvcalf-derive.h"
#include "vvcalf-json.h"
#include "vvcalf-random.h"

static bool params_equal (const gpc::VvcAlfParams &a, const gpc::VvcAlfParams &b)
{
  return memcmp (&a.pic, &b.pic, sizeof (a.pic)) == 0 && a.ctbs.size () == b.ctbs.size ()
      && memcmp (a.ctbs.data (), b.ctbs.data (), a.ctbs.size () * sizeof (a.ctbs[0])) == 0;
}

static bool info_equal (const GstVvcAlfInfo &a, const GstVvcAlfInfo &b)
{
  GstVvcAlfInfo x = a, y = b;
  x.ctbs = y.ctbs = nullptr;
  return memcmp (&x, &y, sizeof (x)) == 0 && a.n_ctbs == b.n_ctbs
      && memcmp (a.ctbs, b.ctbs, sizeof (GstVvcAlfCtb) * a.n_ctbs) == 0;
}

GST_START_TEST (test_meta_round_trip)
{
  gpc_test::Rng r = gpc_test::rng ("vvcalf-meta");
  for (int i = 0; i < 50; i++) {
    GstVvcAlfInfo info;
    memset (&info, 0, sizeof (info));  /* padding bytes compared by memcmp */
    vvcalf_test::random_info (r, info);

    GstBuffer *buf = gst_buffer_new_allocate (NULL, 64, NULL);
    fail_unless (gst_buffer_get_vvc_alf_meta (buf) == NULL);
    GstVvcAlfMeta *meta = gst_buffer_add_vvc_alf_meta (buf, &info);
    fail_unless (meta != NULL);
    fail_unless (meta->info.ctbs != info.ctbs, "meta must own a copy of the CTB array");
    fail_unless (info_equal (meta->info, info));
    fail_unless (gst_buffer_get_vvc_alf_meta (buf) == meta);
    fail_unless (meta->meta.info->api == GST_VVC_ALF_META_API_TYPE);

    /* Full copies carry a deep copy; the original may go away. */
    GstBuffer *copy = gst_buffer_copy (buf);
    gst_buffer_unref (buf);
    GstVvcAlfMeta *cmeta = gst_buffer_get_vvc_alf_meta (copy);
    fail_unless (cmeta != NULL);
    fail_unless (info_equal (cmeta->info, info));

    gchar *err = NULL;
    fail_unless (gst_vvc_alf_info_validate (&cmeta->info, &err), "valid info rejected: %s", err);

    gpc::VvcAlfParams direct, via_meta, via_json;
    std::string e;
    fail_unless (gpc::vvc_alf_params_from_info (info, direct, e));
    fail_unless (gpc::vvc_alf_params_from_meta (*cmeta, via_meta, e));
    fail_unless (params_equal (direct, via_meta));
    if (info.line_buffer_boundary_in_last_row) {
      std::string text = gpc::vvc_alf_info_to_json (cmeta->info);
      fail_unless (gpc::vvc_alf_params_from_json (text.data (), text.size (), via_json, e), "%s",
          e.c_str ());
      fail_unless (params_equal (direct, via_json));
    }

    /* A region copy describes only part of the picture: the meta is dropped. */
    GstBuffer *part = gst_buffer_copy_region (copy, GST_BUFFER_COPY_ALL, 0, 32);
    fail_unless (gst_buffer_get_vvc_alf_meta (part) == NULL);
    gst_buffer_unref (part);
    gst_buffer_unref (copy);
    gst_vvc_alf_info_clear (&info);
  }
}
GST_END_TEST;

GST_START_TEST (test_meta_validation)
{
  GstVvcAlfInfo info;
  fail_unless (gst_vvc_alf_info_init (&info, 416, 240, GST_VVC_ALF_CHROMA_420, 10, 128));
  fail_unless_equals_int (info.n_ctbs, 8);
  fail_unless_equals_int (info.ctbs[3].luma_aps, -1);
  gchar *err = NULL;
  fail_unless (gst_vvc_alf_info_validate (&info, &err));

  /* Chroma on without an APS. */
  info.ctbs[2].flags |= GST_VVC_ALF_CTB_CB;
  info.ctbs[2].chroma_aps = 3;
  fail_if (gst_vvc_alf_info_validate (&info, &err));
  fail_unless (err != NULL && strstr (err, "ctb 2") != NULL, "message: %s", err);
  GST_INFO ("rejected: %s", err);
  g_clear_pointer (&err, g_free);

  /* Provide it, then a bad coefficient. */
  info.aps_present |= 1 << 3;
  info.aps[3].chroma_num_alts = 2;
  fail_unless (gst_vvc_alf_info_validate (&info, NULL));
  info.aps[3].chroma_coeff[1][4] = -200;
  fail_if (gst_vvc_alf_info_validate (&info, &err));
  fail_unless (err != NULL && strstr (err, "-200") != NULL, "message: %s", err);
  g_clear_pointer (&err, g_free);
  info.aps[3].chroma_coeff[1][4] = 0;

  /* Wrong CTB count (decoder bug) is caught, not read past. */
  info.n_ctbs = 9;
  fail_if (gst_vvc_alf_info_validate (&info, &err));
  g_clear_pointer (&err, g_free);
  info.n_ctbs = 8;
  fail_unless (gst_vvc_alf_info_validate (&info, NULL));
  gst_vvc_alf_info_clear (&info);
  fail_unless (info.ctbs == NULL);

  fail_if (gst_vvc_alf_info_init (&info, 416, 240, GST_VVC_ALF_CHROMA_420, 10, 48));
}
GST_END_TEST;

static Suite *
vvcalf_meta_suite (void)
{
  Suite *s = suite_create ("vvcalf-meta");
  TCase *tc = tcase_create ("general");
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_meta_round_trip);
  tcase_add_test (tc, test_meta_validation);
  return s;
}

GST_CHECK_MAIN (vvcalf_meta);
