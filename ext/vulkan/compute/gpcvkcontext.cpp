/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gpcvkcontext.h"

#include <dlfcn.h>
#include <stdlib.h>

#include <utility>

#include "gpcvklock.h"

GST_DEBUG_CATEGORY_STATIC (gpc_vk_context_debug);
#define GST_CAT_DEFAULT gpc_vk_context_debug

static void
ensure_debug (void)
{
  static gsize once = 0;
  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (gpc_vk_context_debug, "gpcvkcontext", 0,
        "gst-gpucodecs Vulkan context sharing");
    g_once_init_leave (&once, 1);
  }
}

void
gpc_vk_context_init (GpcVkContext * ctx)
{
  ensure_debug ();
  ctx->display = NULL;
  ctx->instance = NULL;
  ctx->device = NULL;
  ctx->queue = NULL;
  ctx->device_index = -1;
}

void
gpc_vk_context_clear (GpcVkContext * ctx)
{
  gst_clear_object (&ctx->queue);
  gst_clear_object (&ctx->device);
  gst_clear_object (&ctx->instance);
  gst_clear_object (&ctx->display);
}

void
gpc_vk_context_set_context (GstElement * element, GpcVkContext * ctx,
    GstContext * context)
{
  gst_vulkan_handle_set_context (element, context, &ctx->display,
      &ctx->instance);

  /* 1.22's helper ignores the device: take it ourselves, so that an
   * application's device (or the one a sibling created) is used. */
  if (g_strcmp0 (gst_context_get_context_type (context),
          GST_VULKAN_DEVICE_CONTEXT_TYPE_STR) == 0) {
    GstVulkanDevice *device = NULL;
    if (gst_context_get_vulkan_device (context, &device) && device) {
      GST_OBJECT_LOCK (element);
      if (!ctx->device) {
        GST_INFO_OBJECT (element, "using device %" GST_PTR_FORMAT
            " from a context", device);
        ctx->device = device;
        device = NULL;
      }
      GST_OBJECT_UNLOCK (element);
      gst_clear_object (&device);
    }
  }
}

gboolean
gpc_vk_context_handle_query (GstElement * element, GpcVkContext * ctx,
    GstQuery * query)
{
  if (GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT)
    return FALSE;
  if (gst_vulkan_handle_context_query (element, query, ctx->display,
          ctx->instance, ctx->device))
    return TRUE;
  return gst_vulkan_queue_handle_context_query (element, query, ctx->queue);
}

static gboolean
find_compute_queue (GstVulkanDevice * device, GstVulkanQueue * queue,
    gpointer user_data)
{
  GstVulkanQueue **found = (GstVulkanQueue **) user_data;
  guint32 flags =
      device->physical_device->queue_family_props[queue->family].queueFlags;

  if (flags & VK_QUEUE_COMPUTE_BIT) {
    *found = (GstVulkanQueue *) gst_object_ref (queue);
    return FALSE;
  }
  return TRUE;
}

/* Process-wide defaults. Drivers limit how many VkInstances a process may
 * create over its life (29 on the NVIDIA H100 driver we test on, device or
 * not), and GStreamer 1.22 makes a new one for every pipeline that shares
 * none: an application that rebuilds pipelines for weeks would run out. So
 * when neither neighbours nor the application provide them, every element
 * of the process uses one instance and one device per index, kept for the
 * life of the process. */
#define MAX_SHARED_DEVICES 16
static GMutex shared_lock;
static GstVulkanInstance *shared_instance;
static GstVulkanDevice *shared_devices[MAX_SHARED_DEVICES];

namespace {

/* A GstVulkanDisplay whose event thread already runs its main loop.
 * GStreamer 1.22 starts that loop after the constructor returns, and a
 * display finalized before the loop runs waits forever for it to quit (seen
 * as a hang in pipeline teardown). An idle callback on the display's context
 * runs only inside the running loop. */
typedef struct
{
  GMutex lock;
  GCond cond;
  gboolean running;
} LoopStarted;

} // namespace

static gboolean
mark_loop_running (gpointer data)
{
  LoopStarted *s = (LoopStarted *) data;
  gpc::MutexGuard g (&s->lock);
  s->running = TRUE;
  g_cond_signal (&s->cond);
  return G_SOURCE_REMOVE;
}

static GstVulkanDisplay *
new_running_display (GstVulkanInstance * instance)
{
  GstVulkanDisplay *display = gst_vulkan_display_new (instance);
  if (!display->main_context)
    return display;
  LoopStarted s;
  g_mutex_init (&s.lock);
  g_cond_init (&s.cond);
  s.running = FALSE;
  GSource *idle = g_idle_source_new ();
  g_source_set_callback (idle, mark_loop_running, &s, NULL);
  g_source_attach (idle, display->main_context);
  g_source_unref (idle);
  {
    gpc::MutexGuard g (&s.lock);
    while (!s.running)
      g_cond_wait (&s.cond, &s.lock);
  }
  g_mutex_clear (&s.lock);
  g_cond_clear (&s.cond);
  return display;
}

static GstVulkanDisplay *shared_display;

/* Returns a new reference to *slot, filling it with `made` (taken) first
 * when empty; `made` is dropped when another thread filled it meanwhile.
 * The shared objects are opened outside shared_lock, so that nothing that
 * fails (or never returns) inside GStreamer or the driver holds it. */
template <typename T>
static T *
publish_shared (T ** slot, T * made)
{
  T *ret = NULL;
  {
    gpc::MutexGuard g (&shared_lock);
    if (!*slot && made) {
      GST_OBJECT_FLAG_SET (made, GST_OBJECT_FLAG_MAY_BE_LEAKED);
      *slot = made;
      made = NULL;
    }
    if (*slot)
      ret = (T *) gst_object_ref (*slot);
  }
  if (made)
    gst_object_unref (made);
  return ret;
}

template <typename T>
static T *
peek_shared (T ** slot)
{
  gpc::MutexGuard g (&shared_lock);
  return *slot ? (T *) gst_object_ref (*slot) : NULL;
}

static GstVulkanDisplay *
get_shared_display (GstVulkanInstance * instance)
{
  GstVulkanDisplay *d = peek_shared (&shared_display);
  return d ? d : publish_shared (&shared_display, new_running_display (instance));
}

/* Whether the Khronos validation layer is loaded in this process. It
 * registers the destructors of its static state lazily, at the first use of
 * each, so an instance or device made after release_shared_at_exit was
 * registered gets layer state that is destroyed before the handler runs,
 * and destroying our objects through the layer then crashes (layer
 * 1.4.309). With the layer loaded, the process's objects are left to the
 * end of the process instead (they are flagged MAY_BE_LEAKED). */
static bool
validation_layer_loaded (void)
{
  void *h = dlopen ("libVkLayer_khronos_validation.so", RTLD_NOW | RTLD_NOLOAD);
  if (h)
    dlclose (h);
  return h != NULL;
}

/* Drops the process's references at exit, before gst-check's and the leaks
 * tracer's own exit handlers (registered earlier, so run later): the device
 * takes down with it what it collected from every element that used it
 * (fence cache, cached fences), and whatever is still alive after it is a
 * real leak. Elements still running hold references of their own. */
static void
release_shared_at_exit (void)
{
  if (validation_layer_loaded ())
    return;
  GstObject *drop[MAX_SHARED_DEVICES + 2] = {};
  {
    gpc::MutexGuard g (&shared_lock);
    drop[0] = GST_OBJECT_CAST (std::exchange (shared_display, nullptr));
    for (guint i = 0; i < MAX_SHARED_DEVICES; i++)
      drop[1 + i] = GST_OBJECT_CAST (std::exchange (shared_devices[i], nullptr));
    drop[MAX_SHARED_DEVICES + 1] = GST_OBJECT_CAST (std::exchange (shared_instance, nullptr));
  }
  for (GstObject *o : drop)
    if (o)
      gst_object_unref (o);
}

/* The shared objects are flagged MAY_BE_LEAKED for applications that call
 * gst_deinit() (and so run the leaks tracer) before exit. */
static GstVulkanInstance *
get_shared_instance (GError ** error)
{
  static gsize exit_handler;
  GstVulkanInstance *ret = peek_shared (&shared_instance);
  if (ret)
    return ret;
  GstVulkanInstance *i = gst_vulkan_instance_new ();
  if (!gst_vulkan_instance_open (i, error)) {
    gst_object_unref (i);
    return NULL;
  }
  ret = publish_shared (&shared_instance, i);
  if (g_once_init_enter (&exit_handler))
    g_once_init_leave (&exit_handler, atexit (release_shared_at_exit) == 0 ? 1 : 2);
  return ret;
}

/* The default device of `index` on the shared instance. */
static GstVulkanDevice *
get_shared_device (GstVulkanInstance * instance, guint index, GError ** error)
{
  if (index >= MAX_SHARED_DEVICES) {
    g_set_error (error, GST_VULKAN_ERROR, VK_ERROR_INITIALIZATION_FAILED,
        "device index %u is over the %u shared devices", index, MAX_SHARED_DEVICES);
    return NULL;
  }
  GstVulkanDevice *ret = peek_shared (&shared_devices[index]);
  if (ret)
    return ret;
  GstVulkanDevice *d = gst_vulkan_device_new_with_index (instance, index);
  if (!gst_vulkan_device_open (d, error)) {
    gst_object_unref (d);
    return NULL;
  }
  return publish_shared (&shared_devices[index], d);
}

void
gpc_vk_element_set_device (GstElement * element, GstVulkanInstance * instance,
    GstVulkanDevice * device)
{
  GstContext *c = gst_context_new (GST_VULKAN_INSTANCE_CONTEXT_TYPE_STR, TRUE);
  gst_context_set_vulkan_instance (c, instance);
  gst_element_set_context (element, c);
  gst_context_unref (c);
  c = gst_context_new (GST_VULKAN_DEVICE_CONTEXT_TYPE_STR, TRUE);
  gst_context_set_vulkan_device (c, device);
  gst_element_set_context (element, c);
  gst_context_unref (c);
}

static void
post_have_context (GstElement * element, GstContext * context)
{
  gst_element_set_context (element, context);
  gst_element_post_message (element,
      gst_message_new_have_context (GST_OBJECT_CAST (element), context));
}

/* GStreamer 1.22 makes a new GstVulkanQueue, with its own submit lock, at
 * every gst_vulkan_device_get_queue / foreach_queue call, while Vulkan wants
 * the submits to one VkQueue externally synchronized. So every element of
 * ours on a device takes the same wrapper (and shares it with neighbours
 * through queue context queries): the device keeps a weak reference to the
 * wrapper in use, which lives as long as some element holds it. */
static GMutex compute_queue_lock;

static void
free_weak_ref (gpointer data)
{
  GWeakRef *ref = (GWeakRef *) data;
  g_weak_ref_clear (ref);
  g_free (ref);
}

GstVulkanQueue *
gpc_vk_device_compute_queue (GstVulkanDevice * device)
{
  static GQuark quark;
  if (!quark)
    quark = g_quark_from_static_string ("gpc-compute-queue");
  gpc::MutexGuard g (&compute_queue_lock);
  GWeakRef *ref = (GWeakRef *) g_object_get_qdata (G_OBJECT (device), quark);
  GstVulkanQueue *queue = ref ? (GstVulkanQueue *) g_weak_ref_get (ref) : NULL;
  if (!queue) {
    gst_vulkan_device_foreach_queue (device, find_compute_queue, &queue);
    if (queue && ref) {
      g_weak_ref_set (ref, queue);
    } else if (queue) {
      ref = g_new0 (GWeakRef, 1);
      g_weak_ref_init (ref, queue);
      g_object_set_qdata_full (G_OBJECT (device), quark, ref, free_weak_ref);
    }
  }
  return queue;
}

static gint
requested_device_index (GpcVkContext * ctx)
{
  if (ctx->device_index >= 0)
    return ctx->device_index;
  const gchar *env = g_getenv (GPC_VULKAN_DEVICE_ENV);
  if (env && *env)
    return atoi (env);
  return -1;
}

static void
post_have_device (GstElement * element, GstVulkanDevice * device)
{
  GstContext *context = gst_context_new (GST_VULKAN_DEVICE_CONTEXT_TYPE_STR,
      TRUE);
  gst_context_set_vulkan_device (context, device);
  GST_INFO_OBJECT (element, "posting have-context for %" GST_PTR_FORMAT,
      device);
  post_have_context (element, context);
}

/* Stores `obj` (a new reference) in *slot unless a context set it
 * meanwhile, and shares what it stored with the pipeline (HAVE_CONTEXT). */
template <typename T>
static void
adopt_and_share (GstElement * element, T ** slot, T * obj, const char *type,
    void (*set) (GstContext *, T *))
{
  GST_OBJECT_LOCK (element);
  const bool take = *slot == NULL;
  if (take)
    *slot = obj;
  GST_OBJECT_UNLOCK (element);
  if (!take) {
    gst_object_unref (obj);
    return;
  }
  GstContext *c = gst_context_new (type, TRUE);
  set (c, obj);
  post_have_context (element, c);
}

gboolean
gpc_vk_context_ensure (GstElement * element, GpcVkContext * ctx)
{
  GError *error = NULL;

  /* Instance: neighbours, then the application (NEED_CONTEXT), then the
   * process-wide one, which the bin then shares (HAVE_CONTEXT). */
  if (!ctx->instance)
    gst_vulkan_instance_run_context_query (element, &ctx->instance);
  if (!ctx->instance)
    gst_vulkan_global_context_query (element,
        GST_VULKAN_INSTANCE_CONTEXT_TYPE_STR);
  if (!ctx->instance) {
    GstVulkanInstance *instance = get_shared_instance (&error);
    if (!instance)
      goto instance_failed;
    adopt_and_share (element, &ctx->instance, instance, GST_VULKAN_INSTANCE_CONTEXT_TYPE_STR,
        gst_context_set_vulkan_instance);
  }

  /* The display (a window-system connection compute does not use, but
   * which GStreamer's Vulkan elements exchange with the instance): a
   * neighbour's, else one whose event loop is known to run (see
   * new_running_display), the process-wide one on the process-wide
   * instance. gst_vulkan_ensure_element_data then finds it. */
  if (!ctx->display)
    gst_vulkan_display_run_context_query (element, &ctx->display);
  if (!ctx->display)
    adopt_and_share (element, &ctx->display, ctx->instance == shared_instance ?
        get_shared_display (ctx->instance) : new_running_display (ctx->instance),
        GST_VULKAN_DISPLAY_CONTEXT_TYPE_STR, gst_context_set_vulkan_display);

  if (!gst_vulkan_ensure_element_data (element, &ctx->display, &ctx->instance)) {
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("No Vulkan instance: is a Vulkan driver installed?"),
        ("gst_vulkan_ensure_element_data failed"));
    return FALSE;
  }

  /* Neighbours first, then the application or the bin (NEED_CONTEXT on the
   * bus, answered synchronously through set_context). */
  if (!ctx->device)
    gst_vulkan_device_run_context_query (element, &ctx->device);
  if (!ctx->device)
    gst_vulkan_global_context_query (element, GST_VULKAN_DEVICE_CONTEXT_TYPE_STR);

  if (!ctx->device) {
    gint index = requested_device_index (ctx);
    GstVulkanDevice *device;

    if (!gst_vulkan_instance_open (ctx->instance, &error))
      goto instance_failed;
    if (index >= 0 && (guint) index >= ctx->instance->n_physical_devices) {
      GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
          ("Vulkan device %d requested, but only %u exist", index,
              ctx->instance->n_physical_devices), (NULL));
      return FALSE;
    }
    if (ctx->instance == shared_instance) {
      /* The process-wide instance: its default device of that index. */
      device = get_shared_device (ctx->instance, index >= 0 ? index : 0, &error);
      if (!device)
        goto device_failed;
    } else if (index >= 0) {
      device = gst_vulkan_device_new_with_index (ctx->instance, index);
      if (!gst_vulkan_device_open (device, &error)) {
        gst_object_unref (device);
        goto device_failed;
      }
    } else {
      device = gst_vulkan_instance_create_device (ctx->instance, &error);
      if (!device)
        goto device_failed;
    }
    GST_OBJECT_LOCK (element);
    if (!ctx->device) {
      ctx->device = device;
      device = NULL;
    }
    GST_OBJECT_UNLOCK (element);
    if (device) {
      gst_object_unref (device);
    } else {
      post_have_device (element, ctx->device);
    }
  }

  if (!ctx->queue) {
    ctx->queue = gpc_vk_device_compute_queue (ctx->device);
    if (!ctx->queue) {
      GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
          ("The Vulkan device has no queue with compute support"), (NULL));
      return FALSE;
    }
  }
  GST_DEBUG_OBJECT (element, "device %" GST_PTR_FORMAT " (%s), queue family %u",
      ctx->device, ctx->device->physical_device->properties.deviceName,
      ctx->queue->family);
  return TRUE;

instance_failed:
  GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
      ("Failed to open the Vulkan instance"), ("%s", error->message));
  g_clear_error (&error);
  return FALSE;
device_failed:
  GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
      ("Failed to open a Vulkan device"), ("%s", error ? error->message : "no device"));
  g_clear_error (&error);
  return FALSE;
}

void
gpc_vk_context_install_properties (GObjectClass * klass, guint prop_id)
{
  g_object_class_install_property (klass, prop_id,
      g_param_spec_int ("device-index", "Device index",
          "Index of the Vulkan physical device to open when no device is "
          "shared through a GstContext (-1: the " GPC_VULKAN_DEVICE_ENV
          " environment variable, else the first device)", -1, G_MAXINT16, -1,
          (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
              GST_PARAM_MUTABLE_READY)));
}
