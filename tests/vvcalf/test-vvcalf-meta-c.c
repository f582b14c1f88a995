/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gstvvcalfmeta.h from plain C, as a VVC decoder would use it: describe a
 * picture, attach it, read it back downstream, validate. Built with the
 * installed include path and linked with libgstgpucodecs-1.0 alone, as an
 * application outside this project would be.
 */
#include <stdio.h>
#include <string.h>

#include <gst/gpucodecs/gstvvcalfmeta.h>

#define CHECK(c)                                                        \
  do {                                                                  \
    if (!(c)) {                                                         \
      printf ("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c);              \
      return 1;                                                         \
    }                                                                   \
  } while (0)

int
main (int argc, char **argv)
{
  GstVvcAlfInfo info;
  GstBuffer *buf;
  GstVvcAlfMeta *meta;
  gchar *err = NULL;
  guint i;

  gst_init (&argc, &argv);

  /* 4:2:2 10-bit 1920x1080 with 128x128 CTBs: 15 x 9 CTBs. */
  CHECK (gst_vvc_alf_info_init (&info, 1920, 1080, GST_VVC_ALF_CHROMA_422, 10, 128));
  CHECK (info.n_ctbs == 135);
  info.aps_present = 1 << 2;
  info.aps[2].luma_present = TRUE;
  info.aps[2].luma_coeff[24][11] = -128;
  info.aps[2].luma_clip_idx[24][11] = 3;
  info.aps[2].chroma_num_alts = 2;
  info.aps[2].cc_num_filters[1] = 4;
  info.aps[2].cc_coeff[1][3][6] = -64;
  info.num_vb_y = 1;
  info.vb_y[0] = 512;
  for (i = 0; i < info.n_ctbs; i++) {
    GstVvcAlfCtb *t = &info.ctbs[i];
    t->flags = GST_VVC_ALF_CTB_Y | GST_VVC_ALF_CTB_CR;
    t->luma_set = (i & 1) ? 16 : (guint8) (i % 16);
    t->luma_aps = (i & 1) ? 2 : -1;
    t->chroma_aps = 2;
    t->chroma_alt[1] = 1;
    t->cc_aps[1] = 2;
    t->cc_idc[1] = 4;
  }
  CHECK (gst_vvc_alf_info_validate (&info, &err));

  buf = gst_buffer_new ();
  meta = gst_buffer_add_vvc_alf_meta (buf, &info);
  CHECK (meta != NULL);
  gst_vvc_alf_info_clear (&info);       /* the meta owns its copy */

  meta = gst_buffer_get_vvc_alf_meta (buf);
  CHECK (meta != NULL);
  CHECK (meta->info.ctbs[133].luma_aps == 2);
  CHECK (meta->info.aps[2].cc_coeff[1][3][6] == -64);
  CHECK (gst_vvc_alf_info_validate (&meta->info, NULL));

  /* A decoder bug: CC-ALF idc beyond the APS's filters. */
  meta->info.aps[2].cc_num_filters[1] = 3;
  CHECK (!gst_vvc_alf_info_validate (&meta->info, &err));
  CHECK (err != NULL && strstr (err, "CC-ALF") != NULL);
  printf ("rejected as expected: %s\n", err);
  g_free (err);

  gst_buffer_unref (buf);
  printf ("C API OK\n");
  return 0;
}
