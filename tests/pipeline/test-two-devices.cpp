/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Two pipelines in one process, each on the device its application gave it.
 * The application opens two VkDevices (A and B, on two instances; lavapipe
 * has one physical device, and two VkDevices on it are still two devices)
 * and answers each pipeline's need-context from that pipeline's bus sync
 * handler. Both pipelines run at the same time (a rendezvous in the
 * streaming threads proves they overlap), and afterwards every Vulkan
 * element of each - ours and vulkanupload / vulkandownload - must report its
 * pipeline's device and never the other's; no element may announce a third
 * device. The motion scores are checked against the CPU reference on the
 * frames that vkvmafmotion saw, and the ProRes branch must score the same on
 * both devices.
 *
 * Each pipeline:
 *   videotestsrc ! vulkanupload ! VulkanImage NV12 ! vkvmafmotion ! vulkandownload ! fakesink
 *   filesrc ! qtdemux ! vkproresdec ! VulkanBuffer ! vkvvcalf ! vkvmafmotion ! fakesink
 *
 * GStreamer 1.22's vulkanupload / vulkandownload ignore a device handed to
 * them through set_context; they ask their neighbours, and failing that call
 * gst_vulkan_instance_create_device(), whose "create-device" signal the
 * application answers with its device (vulkandownload reaches PAUSED before
 * the element upstream of it has a device to share).
 */
#include <gst/check/gstcheck.h>

#include <vulkan/vulkan.h>
extern "C" {
#include <gst/vulkan/vulkan.h>
}

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "gpc-test.h"
#include "gpc-vk-test.h"
#include "gpcvkcompat.h"
#include "vmaf-motion-ref.h"

namespace {

/* Both pipelines' streaming threads wait here until both arrived. */
struct Rendezvous {
  GMutex lock;
  GCond cond;
  int arrived = 0;
  bool timed_out = false;
};

struct Side {
  const char *tag;
  GstVulkanInstance *instance = NULL;
  GstVulkanDevice *device = NULL;
  GstElement *pipe = NULL;
  Rendezvous *meet = NULL;
  bool met = false;

  std::mutex lock; /* the fields below: bus sync handler, streaming threads */
  int answered = 0;
  int created_by_signal = 0;
  int foreign_announced = 0;
  int own_announced = 0;
  std::vector<std::vector<uint16_t>> luma; /* frames after vulkandownload */
  unsigned width = 0, height = 0;
  /* Per vkvmafmotion element: frame index -> SAD (frames with one). */
  std::map<std::string, std::map<guint64, guint64>> sad;
  std::map<std::string, int> scored;
};

GstBusSyncReply
sync_handler (GstBus *bus, GstMessage *msg, gpointer data)
{
  Side *s = static_cast<Side *> (data);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_NEED_CONTEXT) {
    const gchar *type = NULL;
    gst_message_parse_context_type (msg, &type);
    GstContext *ctx = NULL;
    if (!g_strcmp0 (type, GST_VULKAN_INSTANCE_CONTEXT_TYPE_STR)) {
      ctx = gst_context_new (type, TRUE);
      gst_context_set_vulkan_instance (ctx, s->instance);
    } else if (!g_strcmp0 (type, GST_VULKAN_DEVICE_CONTEXT_TYPE_STR)) {
      ctx = gst_context_new (type, TRUE);
      gst_context_set_vulkan_device (ctx, s->device);
    }
    if (ctx) {
      gst_element_set_context (GST_ELEMENT (GST_MESSAGE_SRC (msg)), ctx);
      gst_context_unref (ctx);
      std::lock_guard<std::mutex> g (s->lock);
      s->answered++;
    }
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_HAVE_CONTEXT) {
    GstContext *ctx = NULL;
    gst_message_parse_have_context (msg, &ctx);
    GstVulkanDevice *dev = NULL;
    if (gst_context_get_vulkan_device (ctx, &dev) && dev) {
      std::lock_guard<std::mutex> g (s->lock);
      if (dev == s->device)
        s->own_announced++;
      else
        s->foreign_announced++;
      gst_object_unref (dev);
    }
    gst_context_unref (ctx);
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT) {
    const GstStructure *st = gst_message_get_structure (msg);
    std::string who = GST_OBJECT_NAME (GST_MESSAGE_SRC (msg));
    if (gst_structure_has_name (st, "vkvmafmotion")) {
      gboolean has_sad = FALSE;
      guint64 index = 0, sad = 0;
      gst_structure_get_boolean (st, "has-sad", &has_sad);
      gst_structure_get_uint64 (st, "index", &index);
      gst_structure_get_uint64 (st, "sad", &sad);
      std::lock_guard<std::mutex> g (s->lock);
      if (has_sad)
        s->sad[who][index] = sad;
    } else if (gst_structure_has_name (st, "vkvmafmotion-scores")) {
      std::lock_guard<std::mutex> g (s->lock);
      s->scored[who]++;
    }
  }
  return GST_BUS_PASS;
}

/* gst_vulkan_instance_create_device() asks the application first. */
GstVulkanDevice *
on_create_device (GPC_VK_CREATE_DEVICE_ARGS)
{
  Side *s = static_cast<Side *> (data);
  std::lock_guard<std::mutex> g (s->lock);
  s->created_by_signal++;
  return (GstVulkanDevice *) gst_object_ref (s->device);
}

/* Keeps the luma plane of every frame vkvmafmotion passed on (8-bit NV12). */
GstPadProbeReturn
keep_luma (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  Side *s = static_cast<Side *> (data);
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstVideoInfo vi;
  fail_unless (gst_video_info_from_caps (&vi, caps));
  gst_caps_unref (caps);
  GstVideoFrame f;
  fail_unless (gst_video_frame_map (&f, &vi, buf, GST_MAP_READ));
  unsigned w = GST_VIDEO_FRAME_WIDTH (&f), h = GST_VIDEO_FRAME_HEIGHT (&f);
  std::vector<uint16_t> y (w * h);
  const guint8 *p = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0);
  int stride = GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0);
  for (unsigned r = 0; r < h; r++)
    for (unsigned c = 0; c < w; c++)
      y[r * w + c] = p[r * stride + c];
  gst_video_frame_unmap (&f);
  std::lock_guard<std::mutex> g (s->lock);
  s->width = w;
  s->height = h;
  s->luma.push_back (std::move (y));
  return GST_PAD_PROBE_OK;
}

/* On the first buffer out of vkvmafmotion: wait for the other pipeline to
 * get as far, so both are known to stream at the same time. */
GstPadProbeReturn
meet_other (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  Side *s = static_cast<Side *> (data);
  Rendezvous *m = s->meet;
  g_mutex_lock (&m->lock);
  m->arrived++;
  g_cond_broadcast (&m->cond);
  gint64 end = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;
  while (m->arrived < 2 && !m->timed_out)
    if (!g_cond_wait_until (&m->cond, &m->lock, end))
      m->timed_out = true;
  s->met = m->arrived >= 2;
  g_mutex_unlock (&m->lock);
  return GST_PAD_PROBE_REMOVE;
}


void
open_side (Side *s, const char *tag)
{
  GError *error = NULL;
  s->tag = tag;
  s->instance = gst_vulkan_instance_new ();
  fail_unless (gst_vulkan_instance_open (s->instance, &error), "%s",
      error ? error->message : "?");
  s->device = gst_vulkan_device_new_with_index (s->instance, 0);
  fail_unless (gst_vulkan_device_open (s->device, &error), "%s", error ? error->message : "?");
  g_signal_connect (s->instance, "create-device", G_CALLBACK (on_create_device), s);
}

/* Runs the two sides' pipelines at the same time and checks that each
 * Vulkan element of each used its side's device only. */
void
run_both (Side side[2], const char *const launch[2], const std::vector<const char *> &vulkan_elements,
    const char *meet_at, const char *luma_at)
{
  Rendezvous meet;
  g_mutex_init (&meet.lock);
  g_cond_init (&meet.cond);
  for (int k = 0; k < 2; k++) {
    Side &s = side[k];
    printf ("pipeline %s: %s\n", s.tag, launch[k]);
    GError *error = NULL;
    s.pipe = gst_parse_launch (launch[k], &error);
    fail_unless (s.pipe != NULL, "%s", error ? error->message : "?");
    s.meet = &meet;
    GstBus *bus = gst_element_get_bus (s.pipe);
    gst_bus_set_sync_handler (bus, sync_handler, &s, NULL);
    gst_object_unref (bus);
    if (luma_at) {
      GstElement *e = gst_bin_get_by_name (GST_BIN (s.pipe), luma_at);
      GstPad *pad = gst_element_get_static_pad (e, "src");
      gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, keep_luma, &s, NULL);
      gst_object_unref (pad);
      gst_object_unref (e);
    }
    GstElement *e = gst_bin_get_by_name (GST_BIN (s.pipe), meet_at);
    GstPad *pad = gst_element_get_static_pad (e, "src");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, meet_other, &s, NULL);
    gst_object_unref (pad);
    gst_object_unref (e);
  }

  /* Both at once: neither waits for the other to finish starting. */
  for (int k = 0; k < 2; k++)
    fail_if (gst_element_set_state (side[k].pipe, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE);
  for (int k = 0; k < 2; k++) {
    Side &s = side[k];
    GstBus *bus = gst_element_get_bus (s.pipe);
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
        (GstMessageType) (GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
    fail_unless (msg != NULL, "pipeline %s: timeout", s.tag);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *e = NULL;
      gchar *dbg = NULL;
      gst_message_parse_error (msg, &e, &dbg);
      fail ("pipeline %s: error from %s: %s (%s)", s.tag, GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
          e->message, dbg ? dbg : "");
    }
    gst_message_unref (msg);
    gst_object_unref (bus);
  }
  fail_unless (side[0].met && side[1].met, "the two pipelines did not stream at the same time");

  /* Asked while the pipelines are still PLAYING: 1.22's upload/download
   * drop their device on READY. */
  for (int k = 0; k < 2; k++) {
    Side &s = side[k];
    Side &other = side[1 - k];
    for (const char *name : vulkan_elements) {
      GstElement *e = gst_bin_get_by_name (GST_BIN (s.pipe), name);
      fail_unless (e != NULL, "no element %s", name);
      GstVulkanDevice *dev = gpc_vk_test_device_of (e);
      fail_unless (dev != NULL, "pipeline %s: %s reports no device", s.tag, name);
      fail_if (dev == other.device, "pipeline %s: %s uses the other pipeline's device", s.tag, name);
      fail_unless (dev == s.device, "pipeline %s: %s uses a device nobody gave it", s.tag, name);
      gst_object_unref (dev);
      gst_object_unref (e);
    }
    fail_unless_equals_int (s.foreign_announced, 0);
    fail_unless (s.answered > 0, "pipeline %s asked the application for nothing", s.tag);
    printf ("pipeline %s: %d contexts answered, %d create-device calls answered, "
        "%d have-context for its device, %zu Vulkan elements all on it\n", s.tag, s.answered,
        s.created_by_signal, s.own_announced, vulkan_elements.size ());
  }
  for (int k = 0; k < 2; k++) {
    gst_element_set_state (side[k].pipe, GST_STATE_NULL);
    gst_clear_object (&side[k].pipe);
  }
  g_mutex_clear (&meet.lock);
  g_cond_clear (&meet.cond);
}

void
close_side (Side *s)
{
  gst_clear_object (&s->device);
  gst_clear_object (&s->instance);
}

} // namespace

/* Upload, our filters and download in one streaming thread per pipeline
 * (tee without queues; sinks with async=false, so that the first branch's
 * preroll does not block the thread the second needs): every frame the
 * analyser saw is checked against the CPU reference. */
GST_START_TEST (uploaded_frames_two_devices)
{
  gpc_test::Rng rng = gpc_test::rng ("uploaded-two-devices");
  static const char *motions[] = { "wavy", "sweep", "hsweep" };
  const int frames = 8;
  Side side[2];
  open_side (&side[0], "A");
  open_side (&side[1], "B");
  fail_unless (side[0].device->device != side[1].device->device, "one VkDevice for both");

  /* I420 through vkvvcalf as well where vulkanupload uploads it; else
   * (1.26 on lavapipe) NV12, which vkvvcalf does not take, without it. */
  const bool i420 = gpc_vk_test_vulkanupload_can ("I420", "VulkanImage");
  std::string launch[2];
  for (int k = 0; k < 2; k++) {
    /* vkvvcalf takes sizes in multiples of 8. */
    unsigned w = 8 * (unsigned) rng.range (2, 20), h = 8 * (unsigned) rng.range (2, 15);
    gchar *alf = g_strdup_printf ("vkvvcalf name=alf fixed-filter-set=%d ! ",
        (int) rng.range (0, 15));
    gchar *d = g_strdup_printf (
        "videotestsrc num-buffers=%d pattern=ball motion=%s foreground-color=0x%08x "
        "background-color=0x%08x ! video/x-raw,format=%s,width=%u,height=%u,framerate=30/1 ! "
        "vulkanupload name=up ! video/x-raw(memory:VulkanImage) ! vkvmafmotion name=m1 ! tee name=t "
        "t. ! vulkandownload name=down ! video/x-raw,format=%s ! fakesink sync=false async=false "
        "t. ! %svkvmafmotion name=m2 ! fakesink sync=false async=false",
        frames, motions[rng.range (0, 2)], (unsigned) rng.bits (32) | 0xff000000u,
        (unsigned) rng.bits (32) | 0xff000000u, i420 ? "I420" : "NV12", w, h,
        i420 ? "I420" : "NV12", i420 ? alf : "");
    launch[k] = d;
    g_free (d);
    g_free (alf);
  }
  const char *l[2] = { launch[0].c_str (), launch[1].c_str () };
  if (i420)
    run_both (side, l, { "up", "m1", "down", "alf", "m2" }, "m1", "down");
  else
    run_both (side, l, { "up", "m1", "down", "m2" }, "m1", "down");

  for (Side &s : side) {
    fail_unless_equals_int ((int) s.luma.size (), frames);
    fail_unless_equals_int (s.scored["m1"], frames);
    fail_unless_equals_int (s.scored["m2"], frames);
    fail_unless_equals_int ((int) s.sad["m1"].size (), frames - 1);
    for (int i = 1; i < frames; i++) {
      gpc::LumaPlane prev = { s.luma[i - 1].data (), (ptrdiff_t) s.width };
      gpc::LumaPlane cur = { s.luma[i].data (), (ptrdiff_t) s.width };
      uint64_t expect = gpc::motion_sad_ref (prev, cur, s.width, s.height, 8);
      fail_unless (s.sad["m1"][(guint64) i] == expect,
          "pipeline %s frame %d: SAD %" G_GUINT64_FORMAT ", reference %" G_GUINT64_FORMAT,
          s.tag, i, s.sad["m1"][(guint64) i], (guint64) expect);
    }
    close_side (&s);
  }
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* The decoder chain on both devices at once: the same clip must score the
 * same on each. */
GST_START_TEST (prores_chain_two_devices)
{
  gpc_test::Rng rng = gpc_test::rng ("prores-two-devices");
  Side side[2];
  open_side (&side[0], "A");
  open_side (&side[1], "B");
  std::string clip = gpc_test::media_dir () + "/prores/aw_hq_336x200.mov";
  gchar *d = g_strdup_printf ("filesrc location=\"%s\" ! qtdemux ! vkproresdec name=dec ! "
      "video/x-raw(memory:VulkanBuffer) ! vkvvcalf name=alf fixed-filter-set=%d ! "
      "vkvmafmotion name=m2 ! fakesink sync=false", clip.c_str (), (int) rng.range (0, 15));
  const char *l[2] = { d, d };
  run_both (side, l, { "dec", "alf", "m2" }, "m2", NULL);
  g_free (d);

  fail_unless (side[0].scored["m2"] > 1);
  fail_unless_equals_int (side[0].scored["m2"], side[1].scored["m2"]);
  fail_unless (!side[0].sad["m2"].empty ());
  fail_unless (side[0].sad["m2"] == side[1].sad["m2"], "the two devices scored the clip differently");
  close_side (&side[0]);
  close_side (&side[1]);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  return gpc_vk_test_main (&argc, &argv, "two-devices", {
        GPC_CHECK_TEST (uploaded_frames_two_devices),
        GPC_CHECK_TEST (prores_chain_two_devices) });
}
