/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The decoder's pictures to RGBA without leaving the GPU:
 *   filesrc ! qtdemux ! vkproresdec ! VulkanBuffer ! vkrgbaconvert
 *     ! VulkanImage ! vulkandownload
 * No memory that leaves vkproresdec or vkrgbaconvert is ever mapped
 * (gst_memory_map / vkMapMemory interposed, tests/pipeline/map-recorder.h),
 * no picture-sized Vulkan memory is read back except vulkandownload's own
 * output, the chain makes one VkDevice and its three Vulkan elements report
 * it, and the RGBA pictures equal the CPU reference applied to the same
 * decoder's pictures read back to system memory (a second pipeline).
 */
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "gpc-test.h"
#include "gpc-vk-test.h"
#include "map-recorder.h"
#include "rgba-convert-video.h"

namespace {

/* The memories seen on a pad, with a reference on the GstVulkanMemory
 * inside each (buffers and images alike), so that no other memory can take
 * its address (or its VkDeviceMemory its handle) while the test runs. */
struct Flow {
  std::mutex lock;
  std::map<GstMemory *, VkDeviceMemory> inner;
  int buffers = 0;
  int other_memory = 0; /* neither a Vulkan buffer nor a Vulkan image */
  bool images = false;  /* expect Vulkan images (else Vulkan buffers) */

  ~Flow ()
  {
    for (auto &m : inner)
      gst_memory_unref (m.first);
  }
};

GstPadProbeReturn
collect (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  Flow *flow = static_cast<Flow *> (data);
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  std::lock_guard<std::mutex> g (flow->lock);
  flow->buffers++;
  for (guint i = 0; i < gst_buffer_n_memory (buf); i++) {
    GstMemory *mem = gst_buffer_peek_memory (buf, i);
    GstVulkanMemory *vk = NULL;
    if (flow->images && gst_is_vulkan_image_memory (mem))
      vk = ((GstVulkanImageMemory *) mem)->vk_mem;
    else if (!flow->images && gst_is_vulkan_buffer_memory (mem))
      vk = ((GstVulkanBufferMemory *) mem)->vk_mem;
    if (!vk) {
      flow->other_memory++;
      continue;
    }
    if (flow->inner.find ((GstMemory *) vk) == flow->inner.end ())
      flow->inner[gst_memory_ref ((GstMemory *) vk)] = vk->mem_ptr;
  }
  return GST_PAD_PROBE_OK;
}

/* Pictures reaching a fakesink, as tight rows, and their caps. */
struct Pictures {
  std::vector<std::vector<uint8_t>> frames;
  GstVideoInfo info;
  bool rgba_ref = false; /* apply the CPU reference to each picture */
};

void
on_handoff (GstElement *sink, GstBuffer *buf, GstPad *pad, gpointer data)
{
  Pictures *p = static_cast<Pictures *> (data);
  GstCaps *caps = gst_pad_get_current_caps (pad);
  fail_unless (caps != NULL);
  fail_unless (gst_video_info_from_caps (&p->info, caps));
  gst_caps_unref (caps);
  GstVideoFrame f;
  fail_unless (gst_video_frame_map (&f, &p->info, buf, GST_MAP_READ));
  const guint w = GST_VIDEO_INFO_WIDTH (&p->info), h = GST_VIDEO_INFO_HEIGHT (&p->info);
  std::vector<uint8_t> rgba ((size_t) w * h * 4);
  if (p->rgba_ref) {
    gpc::rgba_convert_ref (gpc::rgba_source_of (&f), gpc::rgba_coeffs_of (&p->info), rgba.data (),
        (size_t) w * 4);
  } else {
    fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&p->info), GST_VIDEO_FORMAT_RGBA);
    for (guint y = 0; y < h; y++)
      memcpy (rgba.data () + (size_t) y * w * 4, (const uint8_t *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0) +
          (size_t) y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0), (size_t) w * 4);
  }
  gst_video_frame_unmap (&f);
  p->frames.push_back (std::move (rgba));
}

void
run (GstElement *pipe)
{
  GstBus *bus = gst_element_get_bus (pipe);
  fail_if (gst_element_set_state (pipe, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      (GstMessageType) (GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  fail_unless (msg != NULL, "timeout");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *e = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &e, &dbg);
    fail ("error from %s: %s (%s)", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), e->message, dbg);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
}

bool
is_vulkan_memory (const map_recorder::GstMap &m)
{
  return m.mem_type && !g_strcmp0 (m.mem_type, GST_VULKAN_MEMORY_ALLOCATOR_NAME);
}

void
connect_sink (GstElement *pipe, Pictures *p)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  g_object_set (sink, "signal-handoffs", TRUE, NULL);
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), p);
  gst_object_unref (sink);
}

/* One clip through the chain (checked) and through the reference path;
 * `caps` forces the decoder's output format (or ""). `devices`: VkDevices
 * the chain may create (the process's first pipeline creates one). */
void
check_clip (const char *clip, const char *format, int devices)
{
  std::string path = gpc_test::media_dir () + "/prores/" + clip;
  std::string fmt = format[0] ? std::string (",format=") + format : "";
  gchar *launch = g_strdup_printf ("filesrc location=\"%s\" ! qtdemux ! vkproresdec name=dec ! "
      "video/x-raw(memory:VulkanBuffer)%s ! vkrgbaconvert name=conv ! "
      "video/x-raw(memory:VulkanImage) ! vulkandownload name=down ! video/x-raw,format=RGBA ! "
      "fakesink name=sink", path.c_str (), fmt.c_str ());
  printf ("%s\n", launch);
  fflush (stdout);
  GstElement *pipe = gst_parse_launch (launch, NULL);
  g_free (launch);
  fail_unless (pipe != NULL);

  static const char *names[] = { "dec", "conv", "down" };
  Flow flow[3];
  flow[1].images = true;
  for (int i = 0; i < 3; i++) {
    GstElement *e = gst_bin_get_by_name (GST_BIN (pipe), names[i]);
    GstPad *pad = gst_element_get_static_pad (e, "src");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, collect, &flow[i], NULL);
    gst_object_unref (pad);
    gst_object_unref (e);
  }
  Pictures got;
  connect_sink (pipe, &got);
  map_recorder::clear ();
  run (pipe);

  /* One device for the three Vulkan elements. */
  GstVulkanDevice *first = NULL;
  for (const char *name : names) {
    GstElement *e = gst_bin_get_by_name (GST_BIN (pipe), name);
    GstVulkanDevice *d = gpc_vk_test_device_of (e);
    fail_unless (d != NULL, "%s reports no device", name);
    if (!first)
      first = (GstVulkanDevice *) gst_object_ref (d);
    fail_unless (d == first, "%s is on another device than dec", name);
    gst_object_unref (d);
    gst_object_unref (e);
  }
  gst_object_unref (first);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);

  std::vector<map_recorder::GstMap> gst_maps = map_recorder::gst_maps ();
  std::vector<map_recorder::VkMap> vk_maps = map_recorder::vk_maps ();
  const gsize picture = (gsize) GST_VIDEO_INFO_WIDTH (&got.info) *
      GST_VIDEO_INFO_HEIGHT (&got.info);
  fail_unless (picture > 0);
  for (int i = 0; i < 2; i++) {
    fail_unless (flow[i].buffers > 0, "no buffer left %s", names[i]);
    fail_unless_equals_int (flow[i].other_memory, 0);
    for (auto &f : flow[i].inner) {
      for (const map_recorder::GstMap &m : gst_maps)
        fail_if (m.mem == f.first, "a memory that left %s was mapped (flags %d)", names[i],
            (int) m.flags);
      for (const map_recorder::VkMap &m : vk_maps)
        fail_if (m.memory == f.second, "a VkDeviceMemory that left %s was mapped", names[i]);
    }
    printf ("%s: %d buffers, %zu distinct %s memories, none mapped\n", names[i],
        flow[i].buffers, flow[i].inner.size (), flow[i].images ? "Vulkan image" :
        "Vulkan buffer");
  }
  /* Reads of picture-sized Vulkan memory (a 16-bit 4:2:2 chroma plane is
   * width * height bytes): only vulkandownload's output (its host-visible
   * buffers, mapped here to compare). Pictures smaller than the decoder's
   * 1 KiB status buffer are left to the check above. */
  int reads = 0;
  for (const map_recorder::GstMap &m : gst_maps) {
    if (!is_vulkan_memory (m) || !(m.flags & GST_MAP_READ) || m.size < picture ||
        picture <= 1024)
      continue;
    fail_unless (flow[2].inner.count ((GstMemory *) m.mem) == 1,
        "a picture-sized Vulkan memory (%" G_GSIZE_FORMAT " bytes) that is not "
        "vulkandownload's output was mapped for reading", m.size);
    reads++;
  }
  printf ("%d reads of vulkandownload's output, none of any other picture-sized Vulkan memory; "
      "%d VkDevice created\n", reads, map_recorder::devices_created ());
  if (devices >= 0)
    fail_unless_equals_int (map_recorder::devices_created (), devices);

  /* The same pictures read back to system memory, through the reference. */
  launch = g_strdup_printf ("filesrc location=\"%s\" ! qtdemux ! vkproresdec ! "
      "video/x-raw%s ! fakesink name=sink", path.c_str (), fmt.c_str ());
  pipe = gst_parse_launch (launch, NULL);
  g_free (launch);
  Pictures want;
  want.rgba_ref = true;
  connect_sink (pipe, &want);
  run (pipe);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);

  fail_unless_equals_int (got.frames.size (), want.frames.size ());
  fail_unless (!got.frames.empty ());
  for (size_t i = 0; i < got.frames.size (); i++)
    if (got.frames[i] != want.frames[i]) {
      size_t k = 0;
      while (got.frames[i][k] == want.frames[i][k])
        k++;
      const guint w = GST_VIDEO_INFO_WIDTH (&got.info);
      fail ("%s picture %zu: pixel (%zu, %zu) component %zu is %u, the reference says %u", clip,
          i, (k / 4) % w, (k / 4) / w, k % 4, got.frames[i][k], want.frames[i][k]);
    }
  printf ("%s (%s): %zu RGBA pictures equal the CPU reference\n", clip,
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&want.info)), got.frames.size ());
}

} // namespace

GST_START_TEST (prores_to_rgba_on_the_gpu)
{
  /* First: the process's first pipeline makes the one device. */
  check_clip ("aw_hq_336x200.mov", "", 1);
  check_clip ("ks_4444_alpha16_97x53.mov", "", -1);
  check_clip ("ks_4444xq_tff_17x9.mov", "", -1);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  return gpc_vk_test_main (&argc, &argv, "rgbaconvert-pipeline", {
        GPC_CHECK_TEST (prores_to_rgba_on_the_gpu) });
}
