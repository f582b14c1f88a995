/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * No readback between our elements, proven rather than assumed: every
 * gst_memory_map() / vkMapMemory() that a library makes is recorded (see
 * map-recorder.h), every memory that flows between two of our elements is
 * collected from pad probes, and none of those may ever be mapped. Two
 * controls show the recorder sees what it must: mapping a Vulkan buffer
 * ourselves, and vkproresdec's own readback when it outputs system memory.
 * The chain must also create exactly one VkDevice.
 */
#include <gst/check/gstcheck.h>

#include <map>
#include <mutex>
#include <set>
#include <string>

#include "gpc-test.h"
#include "gpc-vk-test.h"
#include "map-recorder.h"

namespace {

const char *kClip = "/prores/aw_hq_336x200.mov";

/* The memories seen on a pad, with a reference on the GstVulkanMemory
 * inside each, so that no other memory can take its address (or its
 * VkDeviceMemory its handle) while the test runs. */
struct Flow {
  std::mutex lock;
  std::map<GstMemory *, VkDeviceMemory> inner; /* GstVulkanMemory -> its VkDeviceMemory */
  int buffers = 0;
  int not_vulkan_buffer = 0;
  int caps_not_vulkan_buffer = 0;

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
  GstCaps *caps = gst_pad_get_current_caps (pad);
  bool vk_caps = caps && gst_caps_features_contains (gst_caps_get_features (caps, 0),
      GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER);
  gst_clear_caps (&caps);
  std::lock_guard<std::mutex> g (flow->lock);
  flow->buffers++;
  if (!vk_caps)
    flow->caps_not_vulkan_buffer++;
  for (guint i = 0; i < gst_buffer_n_memory (buf); i++) {
    GstMemory *mem = gst_buffer_peek_memory (buf, i);
    if (!gst_is_vulkan_buffer_memory (mem)) {
      flow->not_vulkan_buffer++;
      continue;
    }
    GstVulkanMemory *vk = ((GstVulkanBufferMemory *) mem)->vk_mem;
    if (flow->inner.find ((GstMemory *) vk) == flow->inner.end ())
      flow->inner[gst_memory_ref ((GstMemory *) vk)] = vk->mem_ptr;
  }
  return GST_PAD_PROBE_OK;
}

/* Runs a launch line to EOS; fails on an error. */
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
    gst_message_parse_error (msg, &e, NULL);
    fail ("error from %s: %s", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), e->message);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
}

bool
is_vulkan_memory (const map_recorder::GstMap &m)
{
  return m.mem_type && !g_strcmp0 (m.mem_type, GST_VULKAN_MEMORY_ALLOCATOR_NAME);
}

/* Bytes of the smallest plane of a decoded picture of the clip (4:2:2
 * 10-bit in 16-bit words): any Vulkan memory this large that is mapped for
 * reading holds picture data. */
const gsize kSmallestPlane = 168 * 200 * 2;

/* Control: the recorder sees a map of a Vulkan buffer, both the
 * GstVulkanMemory inside it and its VkDeviceMemory. */
GST_START_TEST (recorder_sees_a_map)
{
  GstVulkanInstance *instance = gst_vulkan_instance_new ();
  fail_unless (gst_vulkan_instance_open (instance, NULL));
  GstVulkanDevice *device = gst_vulkan_device_new_with_index (instance, 0);
  map_recorder::clear ();
  fail_unless (gst_vulkan_device_open (device, NULL));
  fail_unless_equals_int (map_recorder::devices_created (), 1);

  GstMemory *mem = gst_vulkan_buffer_memory_alloc (device, 4096,
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  GstVulkanMemory *inner = ((GstVulkanBufferMemory *) mem)->vk_mem;
  GstBuffer *buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  GstMapInfo map;
  /* Through gst_buffer_map: libgstreamer's own path, which the recorder
   * cannot see at the outer memory, only inside. */
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  gst_buffer_unmap (buf, &map);

  bool seen_gst = false, seen_vk = false;
  for (const map_recorder::GstMap &m : map_recorder::gst_maps ())
    if (m.mem == (GstMemory *) inner && (m.flags & GST_MAP_READ))
      seen_gst = true;
  for (const map_recorder::VkMap &m : map_recorder::vk_maps ())
    if (m.memory == inner->mem_ptr)
      seen_vk = true;
  fail_unless (seen_gst, "gst_memory_map of a GstVulkanMemory went unseen");
  fail_unless (seen_vk, "vkMapMemory went unseen");

  gst_buffer_unref (buf);
  gst_object_unref (device);
  gst_object_unref (instance);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Control: an element's readback is seen. vkproresdec asked for system
 * memory reads its host-visible pictures back. */
GST_START_TEST (recorder_sees_element_readback)
{
  std::string clip = gpc_test::media_dir () + kClip;
  gchar *launch = g_strdup_printf ("filesrc location=\"%s\" ! qtdemux ! vkproresdec ! "
      "video/x-raw ! fakesink", clip.c_str ());
  GstElement *pipe = gst_parse_launch (launch, NULL);
  g_free (launch);
  fail_unless (pipe != NULL);
  map_recorder::clear ();
  run (pipe);
  gst_object_unref (pipe);

  int picture_reads = 0;
  for (const map_recorder::GstMap &m : map_recorder::gst_maps ())
    if (is_vulkan_memory (m) && (m.flags & GST_MAP_READ) && m.size >= kSmallestPlane)
      picture_reads++;
  printf ("control: vkproresdec to system memory: %d picture-sized Vulkan memory read maps, "
      "%zu vkMapMemory calls\n", picture_reads, map_recorder::vk_maps ().size ());
  fail_unless (picture_reads > 0, "the decoder's readback went unseen");
  fail_unless (!map_recorder::vk_maps ().empty ());
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Runs `launch` and checks that nothing leaving the named elements was
 * ever mapped (for reading: vulkanupload, named "up", writes its own
 * output through a map, which is the upload itself), that no Vulkan memory of `smallest_plane` bytes or more (a
 * picture's) was mapped for reading at all, and that one VkDevice was made
 * (`devices`: the process's first pipeline creates the default one). */
void
check_chain (const char *launch, const std::vector<const char *> &names, gsize smallest_plane,
    int devices)
{
  printf ("%s\n", launch);
  GstElement *pipe = gst_parse_launch (launch, NULL);
  fail_unless (pipe != NULL);
  std::vector<Flow> flow (names.size ());
  for (size_t i = 0; i < names.size (); i++) {
    GstElement *e = gst_bin_get_by_name (GST_BIN (pipe), names[i]);
    GstPad *pad = gst_element_get_static_pad (e, "src");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, collect, &flow[i], NULL);
    gst_object_unref (pad);
    gst_object_unref (e);
  }
  map_recorder::clear ();
  run (pipe);
  gst_object_unref (pipe);

  std::vector<map_recorder::GstMap> gst_maps = map_recorder::gst_maps ();
  std::vector<map_recorder::VkMap> vk_maps = map_recorder::vk_maps ();
  int vk_reads = 0, vk_writes = 0;
  gsize largest_read = 0;
  for (const map_recorder::GstMap &m : gst_maps)
    if (is_vulkan_memory (m)) {
      if (m.flags & GST_MAP_READ) {
        vk_reads++;
        largest_read = MAX (largest_read, m.size);
      } else {
        vk_writes++;
      }
      fail_if ((m.flags & GST_MAP_READ) && m.size >= smallest_plane,
          "a picture-sized Vulkan memory (%" G_GSIZE_FORMAT " bytes) was mapped for reading",
          m.size);
    }
  for (size_t i = 0; i < names.size (); i++) {
    fail_unless (flow[i].buffers > 0, "no buffer left %s", names[i]);
    fail_unless_equals_int (flow[i].not_vulkan_buffer, 0);
    fail_unless_equals_int (flow[i].caps_not_vulkan_buffer, 0);
    const bool ours = g_strcmp0 (names[i], "up") != 0;
    for (auto &f : flow[i].inner) {
      for (const map_recorder::GstMap &m : gst_maps)
        fail_if (m.mem == f.first && (ours || (m.flags & GST_MAP_READ)),
            "a memory that left %s was mapped (flags %d)", names[i], (int) m.flags);
      for (const map_recorder::VkMap &m : vk_maps)
        fail_if (ours && m.memory == f.second, "a VkDeviceMemory that left %s was mapped",
            names[i]);
    }
    printf ("%s: %d buffers, %zu distinct Vulkan memories (all planes), none %s\n", names[i],
        flow[i].buffers, flow[i].inner.size (), ours ? "mapped" : "mapped for reading");
  }
  printf ("whole run: %d Vulkan memory maps for reading (largest %" G_GSIZE_FORMAT
      " bytes; a plane is %" G_GSIZE_FORMAT "), %d for writing, %zu vkMapMemory calls, "
      "%d VkDevice created\n", vk_reads, largest_read, smallest_plane, vk_writes,
      vk_maps.size (), map_recorder::devices_created ());
  fail_unless_equals_int (map_recorder::devices_created (), devices);
}

} // namespace

/* The product chain: decoder, filter, analyser. */
GST_START_TEST (chain_never_reads_back)
{
  std::string clip = gpc_test::media_dir () + kClip;
  gpc_test::Rng rng = gpc_test::rng ("no-readback");
  gchar *launch = g_strdup_printf ("filesrc location=\"%s\" ! qtdemux ! vkproresdec name=dec ! "
      "video/x-raw(memory:VulkanBuffer) ! vkvvcalf name=alf fixed-filter-set=%d ! "
      "vkvmafmotion name=motion ! fakesink", clip.c_str (), (int) rng.range (-1, 15));
  check_chain (launch, { "dec", "alf", "motion" }, kSmallestPlane, 1);
  g_free (launch);

  /* More frames, so that buffers go round their pools: uploaded once by
   * vulkanupload, then only our elements, on the device made above. Where
   * vulkanupload does not upload I420 (1.26 on lavapipe), a vkvvcalf that
   * filters nothing uploads instead. */
  unsigned w = 8 * (unsigned) rng.range (16, 40), h = 8 * (unsigned) rng.range (12, 30);
  const char *uploader = gpc_vk_test_vulkanupload_can ("I420", "VulkanBuffer") ?
      "vulkanupload name=up" : "vkvvcalf name=up params-source=synthetic fixed-filter-set=-1 "
      "cb=false cr=false cc-cb=false cc-cr=false";
  launch = g_strdup_printf ("videotestsrc num-buffers=24 pattern=ball ! "
      "video/x-raw,format=I420,width=%u,height=%u ! %s ! "
      "video/x-raw(memory:VulkanBuffer) ! vkvvcalf name=alf fixed-filter-set=%d ! "
      "vkvmafmotion name=motion ! vkvvcalf name=alf2 ! vkvmafmotion name=motion2 ! fakesink",
      w, h, uploader, (int) rng.range (-1, 15));
  check_chain (launch, { "up", "alf", "motion", "alf2", "motion2" }, (w / 2) * (h / 2), 0);
  g_free (launch);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  /* chain_never_reads_back first: it counts the process's device creations. */
  return gpc_vk_test_main (&argc, &argv, "no-readback", {
        GPC_CHECK_TEST (chain_never_reads_back),
        GPC_CHECK_TEST (recorder_sees_a_map),
        GPC_CHECK_TEST (recorder_sees_element_readback) });
}
