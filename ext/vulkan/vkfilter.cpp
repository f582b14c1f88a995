/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkfilter.h"

namespace gpc {

bool wait_fence_or_error (GstElement *element, VkExec &exec, GstVulkanFence *fence,
    const char *doing)
{
  GError *error = NULL;
  if (exec.wait (fence, exec.hang_limit_ns (), &error))
    return true;
  if (g_error_matches (error, GST_VULKAN_ERROR, VK_TIMEOUT))
    GST_ELEMENT_ERROR (element, RESOURCE, FAILED,
        ("The Vulkan device did not finish %s within %" G_GUINT64_FORMAT " s: it is lost or "
            "hung", doing, exec.hang_limit_ns () / GST_SECOND), ("%s", error->message));
  else
    GST_ELEMENT_ERROR (element, RESOURCE, FAILED, ("The Vulkan device failed while %s", doing),
        ("%s", error ? error->message : "unknown"));
  g_clear_error (&error);
  return false;
}

void wait_idle_or_error (GstElement *element, VkExec &exec)
{
  if (!exec.wait_idle (exec.hang_limit_ns ()))
    GST_ELEMENT_ERROR (element, RESOURCE, FAILED,
        ("The Vulkan device did not finish its work within %" G_GUINT64_FORMAT " s: it is lost "
            "or hung", exec.hang_limit_ns () / GST_SECOND), (NULL));
}

void FilterState::install_property (GObjectClass *klass, guint prop_id, const char *what,
    const char *one)
{
  gchar *blurb = g_strdup_printf ("%s the GPU may work on while later ones arrive; each adds "
      "one %s of latency, reported in the latency query (0: wait for each before passing it on; "
      "-1: %u when upstream is live, else %u)", what, one, kLiveFrames, kThroughputFrames);
  g_object_class_install_property (klass, prop_id,
      g_param_spec_int ("frames-in-flight", "Frames in flight", blurb, kAutoFrames,
          kMaxFrames, kAutoFrames, (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_NAME |
              G_PARAM_STATIC_NICK | GST_PARAM_MUTABLE_READY)));
  /* The param spec keeps its own copy only without G_PARAM_STATIC_BLURB. */
  g_free (blurb);
}

void FilterState::set_property (const GValue *value)
{
  g_mutex_lock (&lock_);
  property_ = g_value_get_int (value);
  g_mutex_unlock (&lock_);
}

void FilterState::get_property (GValue *value) const
{
  g_mutex_lock (&lock_);
  g_value_set_int (value, property_);
  g_mutex_unlock (&lock_);
}

guint FilterState::frames_locked () const
{
  if (property_ != kAutoFrames)
    return (guint) property_;
  return live_ ? kLiveFrames : kThroughputFrames;
}

guint FilterState::frames_in_flight () const
{
  g_mutex_lock (&lock_);
  guint n = frames_locked ();
  g_mutex_unlock (&lock_);
  return n;
}

void FilterState::set_caps (const GstVideoInfo *info)
{
  g_mutex_lock (&lock_);
  have_info_ = info != NULL;
  if (info)
    info_ = *info;
  else
    live_ = false;
  g_mutex_unlock (&lock_);
}

bool FilterState::negotiated (GstVideoInfo *info) const
{
  g_mutex_lock (&lock_);
  bool have = have_info_;
  if (have)
    *info = info_;
  g_mutex_unlock (&lock_);
  return have;
}

void FilterState::answer_latency (GstQuery *query)
{
  gboolean live;
  GstClockTime min, max;
  gst_query_parse_latency (query, &live, &min, &max);

  g_mutex_lock (&lock_);
  live_ = live;
  const gint n = have_info_ ? GST_VIDEO_INFO_FPS_N (&info_) : 0;
  const gint d = have_info_ ? GST_VIDEO_INFO_FPS_D (&info_) : 0;
  const guint frames = frames_locked ();
  g_mutex_unlock (&lock_);

  if (n <= 0 || d <= 0)
    return;
  GstClockTime extra = gst_util_uint64_scale_int (GST_SECOND * frames, d, n);
  min += extra;
  if (GST_CLOCK_TIME_IS_VALID (max))
    max += extra;
  gst_query_set_latency (query, live, min, max);
}

bool start_fault_injected (GstElement *element, GError **error)
{
  if (!g_object_get_data (G_OBJECT (element), "gpc-fail-start"))
    return false;
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "start failure asked for by a test");
  return true;
}

} // namespace gpc
