/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The validation check every Vulkan test relies on still sees an error: a
 * deliberately invalid call (a buffer of size 0) on a device opened as the
 * elements open theirs must be reported, on every GStreamer and layer
 * release the suite runs on; so must a missing barrier (two copies into the
 * same bytes), which only synchronization validation sees, and, with the
 * layers that check across submissions (gpc-vk-test.cpp), one between two
 * submissions.
 */
#include <gst/check/gstcheck.h>

#include <vector>

#include <vulkan/vulkan.h>
extern "C" {
#include <gst/vulkan/vulkan.h>
}

#include "gpc-test.h"
#include "gpc-vk-test.h"
#include "gpcvkbuffer.h"
#include "gpcvkexec.h"

/* Fails unless the layer reported at least one error since the last call
 * (`n` of them). */
static void
expect_reported (size_t n, const char *what)
{
  printf ("%zu validation error(s) reported for %s (expected)\n", n, what);
  fail_unless (n >= 1, "the validation layer reported nothing for %s", what);
}

GST_START_TEST (invalid_call_is_reported)
{
  GstVulkanInstance *instance = gst_vulkan_instance_new ();
  fail_unless (gst_vulkan_instance_open (instance, NULL));
  GstVulkanDevice *device = gst_vulkan_device_new_with_index (instance, 0);
  fail_unless (gst_vulkan_device_open (device, NULL));
  fail_unless_equals_int ((int) gpc_vk_test_validation_errors (), 0);

  VkBufferCreateInfo info = {};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = 0;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkResult res = vkCreateBuffer (device->device, &info, NULL, &buffer);
  if (res == VK_SUCCESS && buffer != VK_NULL_HANDLE)
    vkDestroyBuffer (device->device, buffer, NULL);
  expect_reported (gpc_vk_test_validation_errors (), "a buffer of size 0");

  gst_object_unref (device);
  gst_object_unref (instance);
}
GST_END_TEST;

/* On `dev`, two copies into the same bytes with no barrier between, waited
 * for. */
static void
copy_twice_without_barrier (GpcVkTestDevice & dev)
{
  GstMemory *src = gpc::vk_storage_alloc (dev.device, 256, gpc::VkMemKind::Device, NULL);
  GstMemory *dst = gpc::vk_storage_alloc (dev.device, 256, gpc::VkMemKind::Device, NULL);
  fail_unless (src && dst);
  gpc::VkExec *exec = dev.exec;
  fail_unless (exec->begin (NULL));
  exec->fill ((GstVulkanBufferMemory *) src, 0, 256, 1);
  exec->barrier ((GstVulkanBufferMemory *) src, VK_PIPELINE_STAGE_TRANSFER_BIT,
      VK_ACCESS_TRANSFER_READ_BIT);
  exec->barrier ((GstVulkanBufferMemory *) dst, VK_PIPELINE_STAGE_TRANSFER_BIT,
      VK_ACCESS_TRANSFER_WRITE_BIT);
  /* The second copy writes what the first wrote, with no barrier between. */
  exec->copy ((GstVulkanBufferMemory *) src, 0, (GstVulkanBufferMemory *) dst, 0, 256);
  exec->copy ((GstVulkanBufferMemory *) src, 0, (GstVulkanBufferMemory *) dst, 0, 256);
  GstVulkanFence *fence = exec->submit (NULL);
  fail_unless (fence && exec->wait (fence, exec->hang_limit_ns (), NULL));
  gst_vulkan_fence_unref (fence);
  gst_memory_unref (src);
  gst_memory_unref (dst);
}

/* On `dev`, two fills of the same bytes, each in a submission of its own,
 * with nothing between, then waited for. Submitted here rather than through
 * VkExec: it polls its fences when it submits, and the layer counts a fence
 * seen signalled as waited for, which orders the two (on a fast GPU the
 * first can be done before the second is submitted). */
static void
fill_in_two_submissions (GpcVkTestDevice & dev)
{
  GstMemory *dst = gpc::vk_storage_alloc (dev.device, 256, gpc::VkMemKind::Device, NULL);
  fail_unless (dst != NULL);
  VkDevice vk = dev.device->device;
  VkCommandPoolCreateInfo pi = {};
  pi.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pi.queueFamilyIndex = dev.queue->family;
  VkCommandPool pool = VK_NULL_HANDLE;
  fail_unless (vkCreateCommandPool (vk, &pi, NULL, &pool) == VK_SUCCESS);
  VkCommandBufferAllocateInfo ai = {};
  ai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  ai.commandPool = pool;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 2;
  VkCommandBuffer cmd[2];
  fail_unless (vkAllocateCommandBuffers (vk, &ai, cmd) == VK_SUCCESS);
  for (uint32_t i = 0; i < 2; i++) {
    VkCommandBufferBeginInfo bi = {};
    bi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    fail_unless (vkBeginCommandBuffer (cmd[i], &bi) == VK_SUCCESS);
    vkCmdFillBuffer (cmd[i], ((GstVulkanBufferMemory *) dst)->buffer, 0, 256, i);
    fail_unless (vkEndCommandBuffer (cmd[i]) == VK_SUCCESS);
  }
  gst_vulkan_queue_submit_lock (dev.queue);
  for (uint32_t i = 0; i < 2; i++) {
    VkSubmitInfo si = {};
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd[i];
    fail_unless (vkQueueSubmit (dev.queue->queue, 1, &si, VK_NULL_HANDLE) == VK_SUCCESS);
  }
  fail_unless (vkQueueWaitIdle (dev.queue->queue) == VK_SUCCESS);
  gst_vulkan_queue_submit_unlock (dev.queue);
  vkFreeCommandBuffers (vk, pool, 2, cmd);
  vkDestroyCommandPool (vk, pool, NULL);
  gst_memory_unref (dst);
}

GST_START_TEST (missing_barrier_is_reported)
{
  fail_unless_equals_int ((int) gpc_vk_test_validation_errors (), 0);
  GpcVkTestDevice dev;
  copy_twice_without_barrier (dev);
  expect_reported (gpc_vk_test_validation_errors (), "two copies without a barrier");
}
GST_END_TEST;

/* The validation layer's release (its specVersion), 0 when it is absent. */
static uint32_t
layer_version (void)
{
  uint32_t n = 0;
  if (vkEnumerateInstanceLayerProperties (&n, NULL) != VK_SUCCESS)
    return 0;
  std::vector<VkLayerProperties> layers (n);
  if (vkEnumerateInstanceLayerProperties (&n, layers.data ()) != VK_SUCCESS)
    return 0;
  for (uint32_t i = 0; i < n; i++) {
    if (!strcmp (layers[i].layerName, "VK_LAYER_KHRONOS_validation"))
      return layers[i].specVersion;
  }
  return 0;
}

GST_START_TEST (missing_barrier_between_submissions_is_reported)
{
  fail_unless_equals_int ((int) gpc_vk_test_validation_errors (), 0);
  const uint32_t v = layer_version ();
  GpcVkTestDevice dev;
  fill_in_two_submissions (dev);
  const size_t n = gpc_vk_test_validation_errors ();
  /* 1.3.290 replaced the legacy flag that turns these checks off. */
  if (v < VK_MAKE_API_VERSION (0, 1, 3, 290)) {
    printf ("validation layer %u.%u.%u: checks across submissions off, %zu error(s) reported\n",
        VK_API_VERSION_MAJOR (v), VK_API_VERSION_MINOR (v), VK_API_VERSION_PATCH (v), n);
    fail_unless (n == 0, "checks across submissions are still on");
    return;
  }
  expect_reported (n, "two fills in two submissions without a barrier");
}
GST_END_TEST;

/* Elements and tests create instances of their own while others are alive:
 * an error an instance reported must still be seen after another instance
 * was created, and errors of two instances alive at once must both be. */
GST_START_TEST (errors_of_instances_alive_at_once_are_reported)
{
  fail_unless_equals_int ((int) gpc_vk_test_validation_errors (), 0);
  GpcVkTestDevice first;
  copy_twice_without_barrier (first);
  {
    GpcVkTestDevice second;
    expect_reported (gpc_vk_test_validation_errors (),
        "the first instance's copies, read after a second instance was created");
    copy_twice_without_barrier (first);
    copy_twice_without_barrier (second);
    const size_t both = gpc_vk_test_validation_errors ();
    printf ("%zu validation error(s) reported for both instances' copies\n", both);
    fail_unless (both >= 2, "only %zu error(s) reported for two instances' copies", both);
  }
  copy_twice_without_barrier (first);
  expect_reported (gpc_vk_test_validation_errors (),
      "the first instance's copies, after the second was destroyed");
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  if (!g_strrstr (g_getenv ("VK_INSTANCE_LAYERS") ? g_getenv ("VK_INSTANCE_LAYERS") : "",
          "VK_LAYER_KHRONOS_validation"))
    gpc_test::skip ("VK_INSTANCE_LAYERS does not request VK_LAYER_KHRONOS_validation");
  return gpc_vk_test_main (&argc, &argv, "vk-validation",
      { GPC_CHECK_TEST (invalid_call_is_reported), GPC_CHECK_TEST (missing_barrier_is_reported),
        GPC_CHECK_TEST (missing_barrier_between_submissions_is_reported),
        GPC_CHECK_TEST (errors_of_instances_alive_at_once_are_reported) });
}
