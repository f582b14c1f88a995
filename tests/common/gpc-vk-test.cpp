/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gpc-vk-test.h"

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <vulkan/vulkan.h>
extern "C" {
#include <gst/vulkan/vulkan.h>
}

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <mutex>
#include <string>
#include <vector>

#include "gpc-test.h"
#include "gpcvkbuffer.h"
#include "gpcvkcontext.h"
#include "gpcvkexec.h"

/* The validation layer reports to a log of this process, configured
 * through the layer's own settings file (VK_LAYER_SETTINGS_PATH), the same
 * way on every GStreamer version:
 * - errors only: the layer's informational and performance messages, which
 *   differ between layer releases, never fail a test;
 * - GPU-assisted validation off: it instruments every shader and makes
 *   lavapipe too slow for the suite;
 * - synchronization validation on (`enables` for 1.3 layers, `validate_sync` for 1.4): it checks every
 *   command's buffer and image ranges against the commands before it, so a
 *   missing barrier, or two dispatches between barriers binding the same
 *   bytes where one writes, fails the test;
 * - its checks across submissions are left to the layers whose setting for
 *   them is `syncval_submit_time_validation` (1.4.309 on Debian 13, in CI):
 *   the 1.3 layers that turn them on by default (Ubuntu 24.04's 1.3.275,
 *   through the legacy `enables` we use) report hazards that 1.4.309 does
 *   not on the same binaries, ours and GStreamer's alike, each a prior write
 *   with `write_barriers: 0` although a barrier that made it visible was
 *   submitted between (docs/testing.md). Their legacy `disables` flag for
 *   it is a name that other releases ignore; Debian 12's 1.3.239 has these
 *   checks off unless enabled;
 * - GStreamer's own "vulkandebug" reporting is left off: since 1.26 it also
 *   turns on GPU-assisted validation and raises every message it receives
 *   as a GLib warning.
 *
 * The log is a pipe, named /proc/self/fd/N after its write end: every
 * instance the layer creates opens the log anew, and a file would be
 * truncated by each new instance and written by instances alive at once
 * each at its own position, so one instance's messages could erase
 * another's. Opening the pipe's name opens the pipe itself, which keeps
 * every write, in order. A thread drains it so that the layer never waits
 * on a full pipe; a check drains the rest. */
static std::mutex lock;
static std::string settings_path;
static pid_t settings_owner;
static int log_read_fd = -1, log_write_fd = -1;
/* Read from the pipe, not yet looked at by a check; never freed, since the
 * drain thread runs until the process ends. */
static std::string *log_unread = new std::string;
static std::vector<std::string> tolerated_ids;
static int tolerated_count;
static bool seen_message; /* a message was read from the log before */

/* Moves what the pipe holds into log_unread (lock held). */
static void
read_log_pipe (void)
{
  char buf[4096];
  for (ssize_t n; (n = read (log_read_fd, buf, sizeof buf)) > 0;)
    log_unread->append (buf, (size_t) n);
}

static void *
drain_log_pipe (void *)
{
  for (;;) {
    struct pollfd p = { log_read_fd, POLLIN, 0 };
    if (poll (&p, 1, -1) < 0 && errno != EINTR)
      return NULL;
    std::lock_guard<std::mutex> g (lock);
    read_log_pipe ();
  }
}

/* A new pipe on the same descriptor numbers (where there are any), so that
 * the log's name stays valid in a forked child, and the thread that drains
 * it. */
static void
open_log_pipe (void)
{
  int fds[2];
  if (pipe2 (fds, O_CLOEXEC) != 0)
    g_error ("pipe2: %s", g_strerror (errno));
  if (log_read_fd < 0) {
    log_read_fd = fds[0];
    log_write_fd = fds[1];
  } else {
    if (dup3 (fds[0], log_read_fd, O_CLOEXEC) < 0 || dup3 (fds[1], log_write_fd, O_CLOEXEC) < 0)
      g_error ("dup3: %s", g_strerror (errno));
    close (fds[0]);
    close (fds[1]);
  }
  fcntl (log_read_fd, F_SETFL, fcntl (log_read_fd, F_GETFL) | O_NONBLOCK);
  log_unread->clear ();
  seen_message = false;
  pthread_t thread;
  if (pthread_create (&thread, NULL, drain_log_pipe, NULL) != 0)
    g_error ("cannot start the validation log's drain thread");
  pthread_detach (thread);
}

/* The layer's settings file at `path` (see above), logging to `log`. */
static void
write_settings_file (const std::string & path, const char *log)
{
  FILE *f = fopen (path.c_str (), "w");
  if (!f)
    g_error ("cannot write %s", path.c_str ());
  fprintf (f, "khronos_validation.report_flags = error\n"
      "khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG\n"
      "khronos_validation.log_filename = %s\n"
      "khronos_validation.gpuav_enable = false\n"
      "khronos_validation.validate_gpu_based = GPU_BASED_NONE\n"
      "khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT\n"
      "khronos_validation.validate_sync = true\n"
      "khronos_validation.disables = VALIDATION_CHECK_DISABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT\n",
      log);
  fclose (f);
}

static void
write_settings (void)
{
  gchar *path = g_strdup_printf ("%s/gpc-vk-validation-%d.txt", g_get_tmp_dir (), (int) getpid ());
  settings_path = path;
  settings_owner = getpid ();
  g_free (path);
  gchar *log = g_strdup_printf ("/proc/self/fd/%d", log_write_fd);
  write_settings_file (settings_path, log);
  g_free (log);
  g_setenv ("VK_LAYER_SETTINGS_PATH", settings_path.c_str (), TRUE);
}

/* gst-check runs each test in a forked child by default. The drain thread
 * does not live on in a child, and may hold the lock when the process
 * forks: the fork waits for it, and the child starts a pipe and thread of
 * its own. */
static void
lock_before_fork (void)
{
  lock.lock ();
}

static void
unlock_after_fork (void)
{
  lock.unlock ();
}

static void
own_log_in_child (void)
{
  lock.unlock ();
  open_log_pipe ();
}

static void
remove_settings_at_exit (void)
{
  if (!settings_path.empty () && getpid () == settings_owner)
    unlink (settings_path.c_str ());
}

/* The messages the layer logged since the last call (one string each). */
static std::vector<std::string>
new_messages (void)
{
  std::vector<std::string> out;
  read_log_pipe ();
  const std::string cur = *log_unread;
  log_unread->clear ();
  /* A message starts on the line that names its severity (first in 1.4's
   * format, after the VUID in 1.3's); the lines after it belong to it. The
   * layer writes a message in parts, from whichever thread raised it: lines
   * before the first start continue the last message of the previous read,
   * which has been counted (or tolerated) already. Any other text is a
   * message of its own. */
  bool continued = seen_message;
  for (size_t at = 0, end; at < cur.size (); at = end) {
    end = cur.find ('\n', at);
    end = end == std::string::npos ? cur.size () : end + 1;
    const std::string line = cur.substr (at, end - at);
    const bool start = line.find ("Validation Error") != std::string::npos ||
        line.find ("Validation Warning") != std::string::npos ||
        line.find ("Validation Performance") != std::string::npos ||
        line.find ("Validation Information") != std::string::npos;
    if (start || (out.empty () && !continued))
      out.emplace_back (line);
    else if (!out.empty ())
      out.back () += line;
    continued = continued && !start;
  }
  seen_message = seen_message || !out.empty ();
  return out;
}

void
gpc_vk_test_tolerate (const char *message_id)
{
  std::lock_guard<std::mutex> g (lock);
  tolerated_ids.emplace_back (message_id);
}

int
gpc_vk_test_tolerated (void)
{
  std::lock_guard<std::mutex> g (lock);
  return tolerated_count;
}

void
gpc_vk_test_init (void)
{
  static bool started;
  if (!started) {
    started = true;
    open_log_pipe ();
    write_settings ();
    pthread_atfork (lock_before_fork, unlock_after_fork, own_log_in_child);
    atexit (remove_settings_at_exit);
  }
  /* The probe runs without the validation layer: gst-check forks each test
   * from this process, and a child that inherits the state of a layer
   * already initialised here crashes in it (layer 1.4.309). */
  gchar *layers = g_strdup (g_getenv ("VK_INSTANCE_LAYERS"));
  g_unsetenv ("VK_INSTANCE_LAYERS");
  GstVulkanInstance *instance = gst_vulkan_instance_new ();
  GError *error = NULL;
  gboolean opened = gst_vulkan_instance_open (instance, &error);
  if (layers)
    g_setenv ("VK_INSTANCE_LAYERS", layers, TRUE);
  if (!opened) {
    gst_object_unref (instance);
    gpc_test::skip ("no Vulkan instance (%s): install a Vulkan driver, e.g. mesa-vulkan-drivers",
        error ? error->message : "?");
  }
  if (instance->n_physical_devices == 0) {
    gst_object_unref (instance);
    gpc_test::skip ("no Vulkan physical device");
  }
  GstVulkanPhysicalDevice *pd = gst_vulkan_physical_device_new (instance, 0);
  printf ("gpc-vk-test: Vulkan device 0: %s, validation layer %s\n",
      pd->properties.deviceName,
      g_strrstr (layers ? layers : "", "VK_LAYER_KHRONOS_validation") ? "requested" :
          "NOT requested");
  fflush (stdout);
  g_free (layers);
  gst_object_unref (pd);
  gst_object_unref (instance);
}

size_t
gpc_vk_test_validation_errors (void)
{
  std::lock_guard<std::mutex> g (lock);
  size_t n = 0;
  for (const std::string &m : new_messages ()) {
    bool tolerated = false;
    for (const std::string &id : tolerated_ids)
      tolerated = tolerated || m.find (id) != std::string::npos;
    if (tolerated) {
      tolerated_count++;
      continue;
    }
    printf ("VALIDATION ERROR: %s", m.c_str ());
    n++;
  }
  /* A failing check ends a forked test's process before its buffered
   * output would be written. */
  fflush (stdout);
  return n;
}

void
gpc_vk_test_check_validation (void)
{
  size_t n = gpc_vk_test_validation_errors ();
  fail_unless (n == 0, "%zu Vulkan validation errors (printed above)", n);
}

int
gpc_vk_test_main (int *argc, char ***argv, const char *name,
    std::initializer_list<gpc_test::CheckTest> tests, int timeout_s)
{
  gst_check_init (argc, argv);
  gpc_test::seed ();
  gpc_vk_test_init ();
  return gst_check_run_suite (gpc_test::check_suite (name, tests, timeout_s), name, name);
}

GpcVkTestDevice::GpcVkTestDevice ()
{
  instance = gst_vulkan_instance_new ();
  fail_unless (gst_vulkan_instance_open (instance, NULL));
  device = gst_vulkan_device_new_with_index (instance, 0);
  fail_unless (gst_vulkan_device_open (device, NULL));
  queue = gpc_vk_device_compute_queue (device);
  fail_unless (queue != NULL);
  exec = gpc::VkExec::create (queue, NULL);
  fail_unless (exec != NULL);
}

GpcVkTestDevice::~GpcVkTestDevice ()
{
  delete exec;
  gst_object_unref (queue);
  gst_object_unref (device);
  gst_object_unref (instance);
}

void
GpcVkTestDevice::share_with (GstElement * element)
{
  gpc_vk_element_set_device (element, instance, device);
}

GstVulkanDevice *
gpc_vk_test_device_of (GstElement * element)
{
  GstQuery *q = gst_query_new_context (GST_VULKAN_DEVICE_CONTEXT_TYPE_STR);
  GstVulkanDevice *dev = NULL;
  if (gst_element_query (element, q)) {
    GstContext *ctx = NULL;
    gst_query_parse_context (q, &ctx);
    if (ctx)
      gst_context_get_vulkan_device (ctx, &dev);
  }
  gst_query_unref (q);
  return dev;
}

GstBuffer *
gpc_vk_test_to_vulkan_buffers (GstVulkanDevice * device, GstBuffer * sys, const GstVideoInfo * info,
    bool storage, bool skew)
{
  GstVideoFrame f;
  fail_unless (gst_video_frame_map (&f, info, sys, GST_MAP_READ));
  GstBuffer *out = gst_buffer_new ();
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0 }, total = 0;
  gint stride[GST_VIDEO_MAX_PLANES] = { 0 };
  const gsize pad = skew ? 2 : 0;
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&f); p++) {
    /* a plane's rows: those of its first component (packed formats too) */
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component (info->finfo, p, comp);
    gsize size = (gsize) GST_VIDEO_FRAME_PLANE_STRIDE (&f, p) * GST_VIDEO_FRAME_COMP_HEIGHT (&f, comp[0]);
    VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (storage)
      usage |= VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    GstMemory *mem = gst_vulkan_buffer_memory_alloc (device, size + pad, usage,
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    GstMapInfo map;
    fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
    memcpy (map.data + pad, GST_VIDEO_FRAME_PLANE_DATA (&f, p), size);
    gst_memory_unmap (mem, &map);
    gst_buffer_append_memory (out, mem);
    offset[p] = total + pad;
    stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (&f, p);
    total += size + pad;
  }
  gst_buffer_add_video_meta_full (out, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info), offset,
      stride);
  gst_video_frame_unmap (&f);
  return out;
}

/* An 8-bit plane's image format by its components per texel. */
static VkFormat
image_format_for (guint pixel_stride)
{
  return pixel_stride == 2 ? VK_FORMAT_R8G8_UNORM : VK_FORMAT_R8_UNORM;
}

GstBuffer *
gpc_vk_test_to_vulkan_images (gpc::VkExec * exec, GstBuffer * sys, const GstVideoInfo * info)
{
  GstVideoFrame f;
  fail_unless (gst_video_frame_map (&f, info, sys, GST_MAP_READ));
  GstVulkanDevice *device = exec->device ();
  GstBuffer *out = gst_buffer_new ();
  fail_unless (exec->begin (NULL));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&f); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component (info->finfo, p, comp);
    const guint w = GST_VIDEO_FRAME_COMP_WIDTH (&f, comp[0]);
    const guint h = GST_VIDEO_FRAME_COMP_HEIGHT (&f, comp[0]);
    const guint texel = GST_VIDEO_FRAME_COMP_PSTRIDE (&f, comp[0]);
    fail_unless (GST_VIDEO_FRAME_COMP_DEPTH (&f, comp[0]) == 8, "8-bit planes only");
    GstMemory *img = gst_vulkan_image_memory_alloc (device, image_format_for (texel), w, h,
        VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
            VK_IMAGE_USAGE_SAMPLED_BIT, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    fail_unless (img != NULL);
    GstMemory *staging = gpc::vk_storage_alloc (device, (gsize) w * h * texel, true, NULL);
    fail_unless (staging != NULL);
    GstMapInfo map;
    fail_unless (gst_memory_map (staging, &map, GST_MAP_WRITE));
    for (guint y = 0; y < h; y++)
      memcpy (map.data + (gsize) y * w * texel,
          (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, p) +
              (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, p), (gsize) w * texel);
    gst_memory_unmap (staging, &map);
    GstVulkanImageMemory *im = (GstVulkanImageMemory *) img;
    exec->barrier (im, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    exec->barrier ((GstVulkanBufferMemory *) staging, VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_ACCESS_TRANSFER_READ_BIT);
    VkBufferImageCopy region = {};
    region.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    region.imageSubresource.layerCount = 1;
    region.imageExtent = { w, h, 1 };
    vkCmdCopyBufferToImage (exec->cmd (), ((GstVulkanBufferMemory *) staging)->buffer, im->image,
        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    exec->keep (GST_MINI_OBJECT_CAST (staging));
    gst_memory_unref (staging);
    gst_buffer_append_memory (out, img);
  }
  GstVulkanFence *fence = exec->submit (NULL);
  fail_unless (fence != NULL);
  /* Not waited for: the element orders itself after the copy through the
   * images' barrier state, on the same queue. */
  gst_vulkan_fence_unref (fence);
  gst_video_frame_unmap (&f);
  gst_buffer_copy_into (out, sys, GST_BUFFER_COPY_METADATA, 0, -1);
  return out;
}

bool
gpc_vk_test_vulkanupload_can (const char *format, const char *feature, bool own_memory)
{
  /* In a gst-launch-1.0 process of its own, first without the validation
   * layer: where the upload fails, upstream's own validation errors (and,
   * seen with two devices on 1.26, crashes inside the layer) stay out of
   * the test. Then, where the tests run the layer, with it: an upload that
   * works but is invalid (1.24's creates an image of format UNDEFINED for
   * I420) is not used either. Under a time limit: when an element fails
   * while the pipeline prerolls, 1.26's gst-launch-1.0 now and then prints
   * the error and then waits for ever (seen once in about 30 runs of this
   * very line under load, with upstream's elements only); a run that hangs
   * uploads nothing. */
  gchar *caps = g_strdup_printf ("video/x-raw(memory:%s)", feature);
  gchar *in = g_strdup_printf ("video/x-raw,format=%s,width=64,height=48", format);
  std::vector<const gchar *> argv = { "timeout", "-s", "KILL", "60", "gst-launch-1.0", "-q",
    "videotestsrc", "num-buffers=2", "!", in, "!" };
  /* identity drop-allocation keeps vulkanupload's pool from videotestsrc. */
  if (own_memory)
    argv.insert (argv.end (), { "identity", "drop-allocation=true", "!" });
  argv.insert (argv.end (), { "vulkanupload", "!", caps, "!", "fakesink", NULL });
  gchar **envp = g_environ_unsetenv (g_get_environ (), "VK_INSTANCE_LAYERS");
  gint status = -1;
  gboolean ran = g_spawn_sync (NULL, (gchar **) argv.data (), envp,
      (GSpawnFlags) (G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL),
      NULL, NULL, NULL, NULL, &status, NULL);
  g_strfreev (envp);
  bool ok = ran && g_spawn_check_wait_status (status, NULL);
  const gchar *layers = g_getenv ("VK_INSTANCE_LAYERS");
  bool invalid = false;
  if (ok && layers && g_strrstr (layers, "VK_LAYER_KHRONOS_validation")) {
    gchar *path = g_strdup_printf ("%s/gpc-vk-probe-%d.txt", g_get_tmp_dir (), (int) getpid ());
    write_settings_file (path, "stdout");
    envp = g_environ_setenv (g_get_environ (), "VK_LAYER_SETTINGS_PATH", path, TRUE);
    gchar *out = NULL;
    ran = g_spawn_sync (NULL, (gchar **) argv.data (), envp,
        (GSpawnFlags) (G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL), NULL, NULL, &out, NULL,
        &status, NULL);
    invalid = !ran || !g_spawn_check_wait_status (status, NULL) ||
        (out && strstr (out, "Validation Error"));
    g_free (out);
    g_strfreev (envp);
    unlink (path);
    g_free (path);
    ok = !invalid;
  }
  g_free (in);
  g_free (caps);
  printf ("gpc-vk-test: vulkanupload %s %s%s to %s%s\n", ok ? "uploads" : "does not upload", format,
      own_memory ? " in a source's own memory" : "", feature,
      invalid ? " without validation errors (upstream's)" : "");
  return ok;
}

/* The pipeline's next error or EOS message (30 s at most). */
static GstMessage *
pop_error_or_eos (GstElement * pipe)
{
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *m = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
      (GstMessageType) (GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
  gst_object_unref (bus);
  fail_unless (m != NULL, "neither an error nor EOS within 30 s");
  return m;
}

void
gpc_vk_test_start_failures (const char *launch)
{
  for (int after_exec = 0; after_exec < 2; after_exec++) {
    GError *error = NULL;
    GstElement *pipe = gst_parse_launch (launch, &error);
    fail_unless (pipe != NULL, "%s: %s", launch, error ? error->message : "?");
    GstElement *e = gst_bin_get_by_name (GST_BIN (pipe), "e");
    fail_unless (e != NULL);
    if (after_exec)
      g_object_set_data (G_OBJECT (e), "gpc-fail-start", GINT_TO_POINTER (1));
    else
      g_object_set (e, "device-index", 9999, NULL);
    fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PAUSED),
        GST_STATE_CHANGE_FAILURE);
    GstMessage *m = pop_error_or_eos (pipe);
    fail_unless_equals_int (GST_MESSAGE_TYPE (m), GST_MESSAGE_ERROR);
    fail_unless (GST_MESSAGE_SRC (m) == GST_OBJECT (e), "error from %s",
        GST_OBJECT_NAME (GST_MESSAGE_SRC (m)));
    gst_message_unref (m);
    gst_element_set_state (pipe, GST_STATE_NULL);

    /* The same element starts once the cause is gone. */
    if (after_exec)
      g_object_set_data (G_OBJECT (e), "gpc-fail-start", NULL);
    else
      g_object_set (e, "device-index", -1, NULL);
    fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
    m = pop_error_or_eos (pipe);
    fail_unless_equals_int (GST_MESSAGE_TYPE (m), GST_MESSAGE_EOS);
    gst_message_unref (m);
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (e);
    gst_object_unref (pipe);
  }
  gpc_vk_test_check_validation ();
}

/* The minimum latency a LATENCY query on `e`'s pad `pad` (or on its
 * peer) answers. */
static GstClockTime
latency_min (GstElement * e, const char *pad, bool peer)
{
  GstPad *p = gst_element_get_static_pad (e, pad);
  GstQuery *q = gst_query_new_latency ();
  fail_unless (peer ? gst_pad_peer_query (p, q) : gst_pad_query (p, q));
  GstClockTime min;
  gst_query_parse_latency (q, NULL, &min, NULL);
  gst_query_unref (q);
  gst_object_unref (p);
  return min;
}

void
gpc_vk_test_live_latency (const char *launch)
{
  for (int live = 0; live < 2; live++) {
    for (int frames = -1; frames <= 3; frames += 4) {
      gchar *desc = g_strdup_printf (launch, live ? "true" : "false");
      GstElement *pipe = gst_parse_launch (desc, NULL);
      fail_unless (pipe != NULL, "%s", desc);
      g_free (desc);
      GstElement *e = gst_bin_get_by_name (GST_BIN (pipe), "e");
      g_object_set (e, "frames-in-flight", frames, NULL);
      fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
      fail_unless (gst_element_get_state (pipe, NULL, NULL, 30 * GST_SECOND)
          == GST_STATE_CHANGE_SUCCESS);
      /* In frames of 1/30 s. */
      const GstClockTime added = latency_min (e, "src", false) - latency_min (e, "sink", true);
      const guint64 want = frames >= 0 ? (guint64) frames : live ? 1 : 2;
      fail_unless_equals_uint64 (gst_util_uint64_scale_round (added, 30, GST_SECOND), want);
      gst_element_set_state (pipe, GST_STATE_NULL);
      gst_object_unref (e);
      gst_object_unref (pipe);
    }
  }
  gpc_vk_test_check_validation ();
}

/* A picture of `caps` with random bytes. */
static GstBuffer *
random_picture (const GstVideoInfo * info, gpc_test::Rng & rng, GstClockTime pts)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  GstMapInfo map;
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (gsize i = 0; i < map.size; i++)
    map.data[i] = (guint8) rng.range (0, 255);
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = 40 * GST_MSECOND;
  return buf;
}

/* Samples of each plane of `a` and `b` (laid out as their GstVideoMetas
 * say) are equal. */
static void
check_same_picture (GstBuffer * a, GstBuffer * b, const GstVideoInfo * info)
{
  GstVideoFrame fa, fb;
  fail_unless (gst_video_frame_map (&fa, info, a, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, info, b, GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fa); p++) {
    const guint rows = GST_VIDEO_FRAME_COMP_HEIGHT (&fa, p);
    const gsize row_bytes = (gsize) GST_VIDEO_FRAME_COMP_WIDTH (&fa, p) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&fa, p);
    for (guint y = 0; y < rows; y++) {
      const guint8 *ra = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, p);
      const guint8 *rb = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, p);
      fail_unless (memcmp (ra, rb, row_bytes) == 0, "plane %u row %u differs", p, y);
    }
  }
  gst_video_frame_unmap (&fb);
  gst_video_frame_unmap (&fa);
}

void
gpc_vk_test_padded_alignment (GstVideoAlignment * align)
{
  gst_video_alignment_reset (align);
  align->padding_top = 2;
  align->padding_left = 8;
  align->padding_right = 24;
  align->padding_bottom = 3;
  for (guint p = 0; p < GST_VIDEO_MAX_PLANES; p++)
    align->stride_align[p] = 63;
}

/* The pool the harness sink offers in gpc_vk_test_allocation, and the
 * harness's own query function for every other query. */
static GstBufferPool *offered_pool;
static GstPadQueryFunction harness_query;

static gboolean
offer_padded_pool (GstPad * pad, GstObject * parent, GstQuery * query)
{
  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return harness_query (pad, parent, query);
  GstCaps *caps;
  gst_query_parse_allocation (query, &caps, NULL);
  GstVideoInfo info;
  fail_unless (gst_video_info_from_caps (&info, caps));
  GstVideoAlignment align;
  gpc_vk_test_padded_alignment (&align);
  GstStructure *config = gst_buffer_pool_get_config (offered_pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info), 0, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
  gst_buffer_pool_config_set_video_alignment (config, &align);
  fail_unless (gst_buffer_pool_set_config (offered_pool, config));
  gst_query_add_allocation_pool (query, offered_pool, GST_VIDEO_INFO_SIZE (&info), 0, 0);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

void
gpc_vk_test_allocation (const char *element, const char *in_caps, const char *out_caps)
{
  gpc_test::Rng rng = gpc_test::rng ("allocation");
  GstCaps *caps = gst_caps_from_string (in_caps);
  GstVideoInfo in_info, out_info;
  fail_unless (gst_video_info_from_caps (&in_info, caps));
  GstCaps *ocaps = gst_caps_from_string (out_caps);
  fail_unless (gst_video_info_from_caps (&out_info, ocaps));
  gst_caps_unref (ocaps);
  const int n = 4;
  std::vector<GstBuffer *> in, plain;

  /* Without a pool downstream; what upstream is offered. */
  GstHarness *h = gst_harness_new_parse (element);
  gst_harness_set_sink_caps_str (h, out_caps);
  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  GstQuery *q = gst_query_new_allocation (caps, TRUE);
  fail_unless (gst_pad_peer_query (h->srcpad, q));
  fail_unless (gst_query_find_allocation_meta (q, GST_VIDEO_META_API_TYPE, NULL));
  fail_unless (gst_query_get_n_allocation_pools (q) > 0);
  GstBufferPool *proposed = NULL;
  gst_query_parse_nth_allocation_pool (q, 0, &proposed, NULL, NULL, NULL);
  fail_unless (proposed != NULL);
  fail_unless (gst_buffer_pool_has_option (proposed, GST_BUFFER_POOL_OPTION_VIDEO_META));
  gst_object_unref (proposed);
  gst_query_unref (q);
  for (int i = 0; i < n; i++) {
    in.push_back (random_picture (&in_info, rng, i * 40 * GST_MSECOND));
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in.back ())), GST_FLOW_OK);
  }
  gst_harness_push_event (h, gst_event_new_eos ());
  for (int i = 0; i < n; i++) {
    plain.push_back (gst_harness_pull (h));
    fail_unless (plain.back () != NULL);
    /* Nothing to copy into: the download itself goes downstream. */
    fail_unless (gst_is_vulkan_buffer_memory (gst_buffer_peek_memory (plain.back (), 0)));
  }
  gst_harness_teardown (h);

  /* Into downstream's pool of padded pictures. */
  offered_pool = gst_video_buffer_pool_new ();
  h = gst_harness_new_parse (element);
  harness_query = GST_PAD_QUERYFUNC (h->sinkpad);
  gst_pad_set_query_function (h->sinkpad, offer_padded_pool);
  gst_harness_set_sink_caps_str (h, out_caps);
  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  for (int i = 0; i < n; i++)
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in[i])), GST_FLOW_OK);
  gst_harness_push_event (h, gst_event_new_eos ());
  for (int i = 0; i < n; i++) {
    GstBuffer *out = gst_harness_pull (h);
    fail_unless (out != NULL);
    fail_unless (out->pool == offered_pool, "picture %d is not from downstream's pool", i);
    GstVideoMeta *meta = gst_buffer_get_video_meta (out);
    fail_unless (meta != NULL);
    fail_unless (meta->stride[0] % 64 == 0 && meta->stride[0] > GST_VIDEO_INFO_PLANE_STRIDE (&out_info, 0),
        "stride %d", meta->stride[0]);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (in[i]));
    check_same_picture (out, plain[i], &out_info);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
  gst_object_unref (offered_pool);
  offered_pool = NULL;
  for (GstBuffer *b : in)
    gst_buffer_unref (b);
  for (GstBuffer *b : plain)
    gst_buffer_unref (b);
  gst_caps_unref (caps);
  gpc_vk_test_check_validation ();
}

void
gpc_vk_test_qos (const char *element, const char *in_caps, bool drops)
{
  gpc_test::Rng rng = gpc_test::rng ("qos");
  GstCaps *caps = gst_caps_from_string (in_caps);
  GstVideoInfo info;
  fail_unless (gst_video_info_from_caps (&info, caps));
  GstHarness *h = gst_harness_new_parse (element);
  GstBus *bus = gst_bus_new ();
  gst_element_set_bus (h->element, bus);
  gst_harness_set_src_caps (h, caps);
  /* Pictures up to 80 ms of running time are late. */
  fail_unless (gst_harness_push_upstream_event (h, gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW,
              1.5, 0, 80 * GST_MSECOND)));
  const int n = 6, dropped = drops ? 3 : 0;
  for (int i = 0; i < n; i++)
    fail_unless_equals_int (gst_harness_push (h, random_picture (&info, rng,
                i * 40 * GST_MSECOND)), GST_FLOW_OK);
  gst_harness_push_event (h, gst_event_new_eos ());
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), n - dropped);
  for (int i = dropped; i < n; i++) {
    GstBuffer *out = gst_harness_pull (h);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * 40 * GST_MSECOND);
    if (drops && i == dropped)
      fail_unless (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_DISCONT));
    gst_buffer_unref (out);
  }
  int qos_messages = 0;
  while (GstMessage *m = gst_bus_pop_filtered (bus, GST_MESSAGE_QOS)) {
    qos_messages++;
    gst_message_unref (m);
  }
  fail_unless_equals_int (qos_messages, dropped);
  /* The event went on upstream. */
  bool forwarded = false;
  while (GstEvent *e = gst_harness_try_pull_upstream_event (h)) {
    forwarded |= GST_EVENT_TYPE (e) == GST_EVENT_QOS;
    gst_event_unref (e);
  }
  fail_unless (forwarded);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  gpc_vk_test_check_validation ();
}
