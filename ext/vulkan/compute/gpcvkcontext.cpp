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
#include <vector>

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
  ctx->declined_offer = FALSE;
}

void
gpc_vk_context_clear (GpcVkContext * ctx)
{
  gst_clear_object (&ctx->queue);
  gst_clear_object (&ctx->device);
  gst_clear_object (&ctx->instance);
  gst_clear_object (&ctx->display);
  ctx->declined_offer = FALSE;
}

/* Whether `device` may serve the element: any device when no index was
 * set on the element, else one of that physical device. The property wins
 * over what neighbours, the bin or the application offer, so that branches
 * of one pipeline can run on different GPUs. */
static gboolean
device_fits (GstElement * element, GpcVkContext * ctx, GstVulkanDevice * device)
{
  GST_OBJECT_LOCK (element);
  const gint want = ctx->device_index;
  GST_OBJECT_UNLOCK (element);
  if (want < 0 || device->physical_device->device_index == (guint) want)
    return TRUE;
  GST_INFO_OBJECT (element, "declining %" GST_PTR_FORMAT " (physical device %u): "
      "device-index is %d", device, device->physical_device->device_index, want);
  return FALSE;
}

void
gpc_vk_context_set_context (GstElement * element, GpcVkContext * ctx,
    GstContext * context)
{
  gst_vulkan_handle_set_context (element, context, &ctx->display,
      &ctx->instance);

  /* 1.22's helper ignores the device: take it ourselves, so that an
   * application's device (or the one a sibling created) is used, unless
   * device-index names another physical device. */
  if (g_strcmp0 (gst_context_get_context_type (context),
          GST_VULKAN_DEVICE_CONTEXT_TYPE_STR) == 0) {
    GstVulkanDevice *device = NULL;
    if (gst_context_get_vulkan_device (context, &device) && device) {
      const gboolean fits = device_fits (element, ctx, device);
      GST_OBJECT_LOCK (element);
      if (!fits) {
        ctx->declined_offer = TRUE;
      } else if (!ctx->device) {
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

/* "NAME (device N, UUID ...)": the UUID tells two GPUs of one model apart
 * (Vulkan 1.1's VkPhysicalDeviceIDProperties). */
static gchar *
describe_physical_device (GstVulkanInstance * instance, VkPhysicalDevice phys, guint index)
{
  VkPhysicalDeviceProperties props;
  auto get = (PFN_vkGetPhysicalDeviceProperties) gst_vulkan_instance_get_proc_address (instance,
      "vkGetPhysicalDeviceProperties");
  if (!get)
    return g_strdup_printf ("device %u", index);
  get (phys, &props);
  auto get2 = (PFN_vkGetPhysicalDeviceProperties2) NULL;
  if (gst_vulkan_instance_check_version (instance, 1, 1, 0) &&
      props.apiVersion >= VK_MAKE_VERSION (1, 1, 0))
    get2 = (PFN_vkGetPhysicalDeviceProperties2) gst_vulkan_instance_get_proc_address (instance,
        "vkGetPhysicalDeviceProperties2");
  if (!get2)
    return g_strdup_printf ("%s (device %u)", props.deviceName, index);
  VkPhysicalDeviceIDProperties id = {};
  id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
  VkPhysicalDeviceProperties2 p2 = {};
  p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  p2.pNext = &id;
  get2 (phys, &p2);
  const uint8_t *u = id.deviceUUID;
  return g_strdup_printf ("%s (device %u, UUID %02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
      "%02x%02x%02x%02x%02x%02x)", props.deviceName, index, u[0], u[1], u[2], u[3], u[4], u[5],
      u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

static gchar *
describe_device (GstVulkanDevice * device)
{
  GstVulkanPhysicalDevice *phys = device->physical_device;
  return describe_physical_device (phys->instance, phys->device, phys->device_index);
}

/* Every physical device, described, for an error message. */
static gchar *
list_devices (GstVulkanInstance * instance)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < instance->n_physical_devices; i++) {
    gchar *d = describe_physical_device (instance, instance->physical_devices[i], i);
    g_string_append_printf (s, "%s%s", i ? "; " : "", d);
    g_free (d);
  }
  return g_string_free (s, FALSE);
}

/* device-index -2: the process's devices in turn, so that pipelines left
 * unpinned spread over the GPUs. Devices that run on the CPU (lavapipe)
 * take part only where there is nothing else. */
static gint
spread_device_index (GstVulkanInstance * instance)
{
  static gint next;
  auto get = (PFN_vkGetPhysicalDeviceProperties) gst_vulkan_instance_get_proc_address (instance,
      "vkGetPhysicalDeviceProperties");
  std::vector<gint> gpus, all;
  for (guint i = 0; i < instance->n_physical_devices; i++) {
    VkPhysicalDeviceProperties props;
    if (get)
      get (instance->physical_devices[i], &props);
    all.push_back (i);
    if (get && props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU)
      gpus.push_back (i);
  }
  const std::vector<gint> &from = gpus.empty () ? all : gpus;
  if (from.empty ())
    return -1;
  return from[(guint) g_atomic_int_add (&next, 1) % from.size ()];
}

static gint
requested_device_index (GpcVkContext * ctx)
{
  if (ctx->device_index == GPC_VULKAN_DEVICE_SPREAD)
    return spread_device_index (ctx->instance);
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
  if (!ctx->device) {
    GstVulkanDevice *offered = NULL;
    gst_vulkan_device_run_context_query (element, &offered);
    if (offered) {
      const gboolean fits = device_fits (element, ctx, offered);
      GST_OBJECT_LOCK (element);
      if (!fits)
        ctx->declined_offer = TRUE;
      else if (!ctx->device)
        std::swap (ctx->device, offered);
      GST_OBJECT_UNLOCK (element);
    }
    gst_clear_object (&offered);
  }
  if (!ctx->device)
    gst_vulkan_global_context_query (element, GST_VULKAN_DEVICE_CONTEXT_TYPE_STR);

  if (!ctx->device) {
    GstVulkanDevice *device;

    if (!gst_vulkan_instance_open (ctx->instance, &error))
      goto instance_failed;
    gint index = requested_device_index (ctx);
    if (index >= 0 && (guint) index >= ctx->instance->n_physical_devices) {
      gchar *present = list_devices (ctx->instance);
      GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
          ("Vulkan device %d requested, but only %u exist: %s", index,
              ctx->instance->n_physical_devices, present), (NULL));
      g_free (present);
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
    const gboolean share = !device && !ctx->declined_offer;
    GST_OBJECT_UNLOCK (element);
    if (device)
      gst_object_unref (device);
    else if (share)
      post_have_device (element, ctx->device);
  }

  if (!ctx->queue) {
    ctx->queue = gpc_vk_device_compute_queue (ctx->device);
    if (!ctx->queue) {
      GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
          ("The Vulkan device has no queue with compute support"), (NULL));
      return FALSE;
    }
  }
  {
    gchar *name = describe_device (ctx->device);
    GST_INFO_OBJECT (element, "on %s: %" GST_PTR_FORMAT ", queue family %u", name,
        ctx->device, ctx->queue->family);
    g_free (name);
  }
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
          "Index of the Vulkan physical device to run on; it wins over a device of "
          "another physical device shared through a GstContext (-1: the shared device, "
          "else the " GPC_VULKAN_DEVICE_ENV " environment variable, else the first "
          "device; -2: the shared device, else the process's GPUs in turn)",
          GPC_VULKAN_DEVICE_SPREAD, G_MAXINT16, -1,
          (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
              GST_PARAM_MUTABLE_READY)));
  g_object_class_install_property (klass, prop_id + 1,
      g_param_spec_string ("device-name", "Device name",
          "The Vulkan device in use: its name, index and UUID (NULL before the element "
          "reaches READY)", NULL,
          (GParamFlags) (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));
}

gboolean
gpc_vk_context_set_property (GpcVkContext * ctx, guint prop_id, guint first_id,
    const GValue * value)
{
  if (prop_id != first_id)
    return FALSE;
  ctx->device_index = g_value_get_int (value);
  return TRUE;
}

gboolean
gpc_vk_context_get_property (GpcVkContext * ctx, guint prop_id, guint first_id, GValue * value)
{
  if (prop_id == first_id)
    g_value_set_int (value, ctx->device_index);
  else if (prop_id == first_id + 1)
    g_value_take_string (value, ctx->device ? describe_device (ctx->device) : NULL);
  else
    return FALSE;
  return TRUE;
}

/* The device that the peer of `pad` answers a context query with (a new
 * reference), or NULL. */
static GstVulkanDevice *
peer_device (GstPad * pad)
{
  GstQuery *q = gst_query_new_context (GST_VULKAN_DEVICE_CONTEXT_TYPE_STR);
  GstVulkanDevice *device = NULL;
  if (gst_pad_peer_query (pad, q)) {
    GstContext *c = NULL;
    gst_query_parse_context (q, &c);
    if (c)
      gst_context_get_vulkan_device (c, &device);
  }
  gst_query_unref (q);
  return device;
}

GstCaps *
gpc_vk_context_restrict_sink_caps (GstElement * element, GpcVkContext * ctx, GstPad * sinkpad,
    GstCaps * caps)
{
  GST_OBJECT_LOCK (element);
  GstVulkanDevice *ours = ctx->device ? (GstVulkanDevice *) gst_object_ref (ctx->device) : NULL;
  GST_OBJECT_UNLOCK (element);
  if (!ours)
    return caps;
  GstVulkanDevice *theirs = peer_device (sinkpad);
  if (theirs && theirs != ours) {
    GST_DEBUG_OBJECT (sinkpad, "upstream is on %" GST_PTR_FORMAT ", not on %" GST_PTR_FORMAT
        ": system memory only", theirs, ours);
    caps = gst_caps_make_writable (caps);
    for (guint i = gst_caps_get_size (caps); i-- > 0;) {
      GstCapsFeatures *f = gst_caps_get_features (caps, i);
      if (f && (gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE) ||
              gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER)))
        gst_caps_remove_structure (caps, i);
    }
  }
  gst_clear_object (&theirs);
  gst_object_unref (ours);
  return caps;
}
