/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * LD_PRELOAD shim for ThreadSanitizer runs (tools/sanitize.sh thread).
 *
 * On Linux, GLib implements GMutex and GCond on futexes with atomics
 * compiled without TSan, so TSan sees neither the locks nor the
 * happens-before they give, and reports every access they guard
 * (GST_OBJECT_LOCK, pad and bus locks) as a race. This shim interposes the
 * exported functions, calls GLib's own implementation and tells TSan what
 * happened with its mutex annotations. GRecMutex and GRWLock are built on
 * pthread objects that TSan intercepts already, so they pass through.
 *
 * Only calls that reach GLib through the dynamic linker are seen: GLib's
 * calls to itself are bound inside the library. Two hand-overs happen
 * entirely inside GLib and are annotated at their ends: g_once_init_leave
 * publishes through an atomic (a release, and a completed enter an acquire
 * on the location), and GThreadPool passes work items to its threads
 * through an internal queue (GstTask runs every streaming thread that way):
 * a push releases the item, the pool's function acquires it first.
 *
 * GStreamer's reference counts are atomics of the same uninstrumented kind:
 * the thread that drops the last reference of a buffer or a message frees
 * it after the other holders' accesses only through that count. Each unref
 * of a GstMiniObject is annotated like a reference count: it releases the
 * object, and the last one also acquires what every earlier unref released,
 * so the thread that frees (or recycles) the object is ordered after every
 * other holder. Calls from outside libgstreamer are interposed
 * (gst_mini_object_unref, releasing before the count drops); the unrefs
 * libgstreamer makes itself (a sink dropping a buffer, a bus its message)
 * are bound inside the library, so a tracer hook ("mini-object-unreffed",
 * registered when gst_init returns) annotates those. g_object_unref is
 * interposed the same way (GStreamer calls it across libraries, so every
 * call but GObject's own is seen). Nothing else is
 * ordered by these annotations: two threads writing a buffer they both
 * hold are still a race.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <glib.h>
#include <gst/gst.h>
#include <sanitizer/tsan_interface.h>
#include <stdio.h>
#include <stdlib.h>

/* The next definition of `name` after this library's: GLib's. */
static void *
real (const char *name)
{
  void *f = dlsym (RTLD_NEXT, name);
  if (!f) {
    fprintf (stderr, "tsan-glib: no %s after the shim\n", name);
    abort ();
  }
  return f;
}

/* `real_fn`, looked up once; threads may race to look it up first, so the
 * pointer is read and written atomically (same value either way). */
#define REAL(ret, name, ...) \
  static ret (*real_fn_) (__VA_ARGS__); \
  ret (*real_fn) (__VA_ARGS__) = __atomic_load_n (&real_fn_, __ATOMIC_ACQUIRE); \
  if (!real_fn) { \
    real_fn = (ret (*) (__VA_ARGS__)) real (#name); \
    __atomic_store_n (&real_fn_, real_fn, __ATOMIC_RELEASE); \
  }

/* Tells TSan that `m` is released around GLib's wait, which releases and
 * retakes it inside. */
static void
annotate_unlock (GMutex * m)
{
  __tsan_mutex_pre_unlock (m, 0);
  __tsan_mutex_post_unlock (m, 0);
}

static void
annotate_lock (GMutex * m)
{
  __tsan_mutex_pre_lock (m, 0);
  __tsan_mutex_post_lock (m, 0, 0);
}

void
g_mutex_init (GMutex * m)
{
  REAL (void, g_mutex_init, GMutex *);
  /* No __tsan_mutex_create: it counts as a write, and the first lock on
   * another thread is often ordered after it only through GLib internals
   * (a main context, a queue) that TSan cannot see. TSan creates the mutex
   * at its first lock instead. */
  real_fn (m);
}

void
g_mutex_clear (GMutex * m)
{
  REAL (void, g_mutex_clear, GMutex *);
  __tsan_mutex_destroy (m, __tsan_mutex_not_static);
  real_fn (m);
}

void
g_mutex_lock (GMutex * m)
{
  REAL (void, g_mutex_lock, GMutex *);
  __tsan_mutex_pre_lock (m, 0);
  real_fn (m);
  __tsan_mutex_post_lock (m, 0, 0);
}

gboolean
g_mutex_trylock (GMutex * m)
{
  REAL (gboolean, g_mutex_trylock, GMutex *);
  __tsan_mutex_pre_lock (m, __tsan_mutex_try_lock);
  gboolean ok = real_fn (m);
  __tsan_mutex_post_lock (m, __tsan_mutex_try_lock | (ok ? 0 : __tsan_mutex_try_lock_failed),
      0);
  return ok;
}

void
g_mutex_unlock (GMutex * m)
{
  REAL (void, g_mutex_unlock, GMutex *);
  __tsan_mutex_pre_unlock (m, 0);
  real_fn (m);
  __tsan_mutex_post_unlock (m, 0);
}

void
g_cond_wait (GCond * c, GMutex * m)
{
  REAL (void, g_cond_wait, GCond *, GMutex *);
  annotate_unlock (m);
  real_fn (c, m);
  __tsan_acquire (c);
  annotate_lock (m);
}

gboolean
g_cond_wait_until (GCond * c, GMutex * m, gint64 end_time)
{
  REAL (gboolean, g_cond_wait_until, GCond *, GMutex *, gint64);
  annotate_unlock (m);
  gboolean signalled = real_fn (c, m, end_time);
  __tsan_acquire (c);
  annotate_lock (m);
  return signalled;
}

/* A signal without the mutex held still orders what came before it with
 * what the woken thread does after its wait. */
void
g_cond_signal (GCond * c)
{
  REAL (void, g_cond_signal, GCond *);
  __tsan_release (c);
  real_fn (c);
}

void
g_cond_broadcast (GCond * c)
{
  REAL (void, g_cond_broadcast, GCond *);
  __tsan_release (c);
  real_fn (c);
}

gboolean
(g_once_init_enter) (volatile void *location)
{
  REAL (gboolean, g_once_init_enter, volatile void *);
  gboolean first = real_fn (location);
  if (!first)
    __tsan_acquire ((void *) location);
  return first;
}

void
(g_once_init_leave) (volatile void *location, gsize result)
{
  REAL (void, g_once_init_leave, volatile void *, gsize);
  __tsan_release ((void *) location);
  real_fn (location, result);
}

/* The function and data a pool was created with, called through
 * pool_trampoline. GStreamer's pools live as long as the process; this
 * record is never freed. */
typedef struct
{
  GFunc func;
  gpointer user_data;
} PoolFunc;

static void
pool_trampoline (gpointer data, gpointer user_data)
{
  PoolFunc *p = (PoolFunc *) user_data;
  __tsan_acquire (data);
  p->func (data, p->user_data);
}

static PoolFunc *
pool_func_new (GFunc func, gpointer user_data)
{
  PoolFunc *p = (PoolFunc *) malloc (sizeof (PoolFunc));
  if (!p)
    abort ();
  p->func = func;
  p->user_data = user_data;
  return p;
}

GThreadPool *
g_thread_pool_new (GFunc func, gpointer user_data, gint max_threads, gboolean exclusive,
    GError ** error)
{
  REAL (GThreadPool *, g_thread_pool_new, GFunc, gpointer, gint, gboolean, GError **);
  return real_fn (pool_trampoline, pool_func_new (func, user_data), max_threads, exclusive,
      error);
}

GThreadPool *
g_thread_pool_new_full (GFunc func, gpointer user_data, GDestroyNotify item_free_func,
    gint max_threads, gboolean exclusive, GError ** error)
{
  REAL (GThreadPool *, g_thread_pool_new_full, GFunc, gpointer, GDestroyNotify, gint, gboolean,
      GError **);
  return real_fn (pool_trampoline, pool_func_new (func, user_data), item_free_func, max_threads,
      exclusive, error);
}

gboolean
g_thread_pool_push (GThreadPool * pool, gpointer data, GError ** error)
{
  REAL (gboolean, g_thread_pool_push, GThreadPool *, gpointer, GError **);
  __tsan_release (data);
  return real_fn (pool, data, error);
}

void
gst_mini_object_unref (GstMiniObject * obj)
{
  REAL (void, gst_mini_object_unref, GstMiniObject *);
  __tsan_release (obj);
  __tsan_acquire (obj);
  real_fn (obj);
}

/* GObject's reference count, the same way: an element's last reference is
 * often dropped on another thread (a GThreadPool job of
 * gst_element_call_async), which then clears its locks and frees it. */
void
g_object_unref (gpointer obj)
{
  REAL (void, g_object_unref, gpointer);
  __tsan_release (obj);
  __tsan_acquire (obj);
  real_fn (obj);
}

/* The hook runs just after the count dropped: the last unref acquires what
 * the others released before it frees the object. */
static void
on_mini_object_unreffed (GObject * tracer, GstClockTime ts, GstMiniObject * obj, gint refcount)
{
  (void) tracer;
  (void) ts;
  __tsan_release (obj);
  if (refcount == 0)
    __tsan_acquire (obj);
}

/* GStreamer and GObject are called through dlsym: the shim links neither,
 * since the programs that tests run (flac, gst-launch-1.0, bash) get it
 * too, and GObject's constructor crashes there before ThreadSanitizer is
 * set up. */
static void *
gst_sym (const char *name)
{
  return dlsym (RTLD_DEFAULT, name);
}

static void
tracer_init (GTypeInstance * instance, gpointer klass)
{
  (void) klass;
  /* Lives as long as the process (GStreamer's tracing keeps it): not a leak
   * for the leaks tracer of tests/common/check-leaks.sh. Set before the
   * object exists for the tracers. */
  GST_OBJECT_FLAG_SET (instance, GST_OBJECT_FLAG_MAY_BE_LEAKED);
}

/* Registers the hook once GStreamer is initialised: after gst_init or
 * gst_init_check (gst_init calls gst_init_check inside the library, so
 * both are interposed), or after an option parse that initialised
 * GStreamer through its option group (gst_check_init). */
static void
register_tracer (void)
{
  static int started;
  gboolean (*is_initialized) (void) = gst_sym ("gst_is_initialized");
  if (!is_initialized || !is_initialized () || __atomic_exchange_n (&started, 1, __ATOMIC_ACQ_REL))
    return;
  GType (*tracer_get_type) (void) = gst_sym ("gst_tracer_get_type");
  GType (*register_simple) (GType, const gchar *, guint, GClassInitFunc, guint, GInstanceInitFunc,
      GTypeFlags) = gst_sym ("g_type_register_static_simple");
  gpointer (*object_new) (GType, const gchar *, ...) = gst_sym ("g_object_new");
  gpointer (*ref_sink) (gpointer) = gst_sym ("gst_object_ref_sink");
  void (*unref) (gpointer) = gst_sym ("gst_object_unref");
  void (*register_hook) (GstTracer *, const gchar *, GCallback) = gst_sym ("gst_tracing_register_hook");
  if (!tracer_get_type || !register_simple || !object_new || !ref_sink || !unref || !register_hook) {
    fprintf (stderr, "tsan-glib: GStreamer's tracing functions are missing\n");
    abort ();
  }
  GType type = register_simple (tracer_get_type (), "GpcTsanTracer", sizeof (GstTracerClass), NULL,
      sizeof (GstTracer), tracer_init, (GTypeFlags) 0);
  GstTracer *t = (GstTracer *) ref_sink (object_new (type, NULL));
  register_hook (t, "mini-object-unreffed", G_CALLBACK (on_mini_object_unreffed));
  /* The hook holds its own reference. */
  unref (t);
}

gboolean
gst_init_check (int *argc, char ***argv, GError ** error)
{
  REAL (gboolean, gst_init_check, int *, char ***, GError **);
  gboolean ok = real_fn (argc, argv, error);
  if (ok)
    register_tracer ();
  return ok;
}

void
gst_init (int *argc, char ***argv)
{
  REAL (void, gst_init, int *, char ***);
  real_fn (argc, argv);
  register_tracer ();
}

gboolean
g_option_context_parse (GOptionContext * context, gint * argc, gchar *** argv, GError ** error)
{
  REAL (gboolean, g_option_context_parse, GOptionContext *, gint *, gchar ***, GError **);
  gboolean ok = real_fn (context, argc, argv, error);
  register_tracer ();
  return ok;
}
