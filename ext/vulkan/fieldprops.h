/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GObject properties that are plain fields of the instance. An element
 * installs each with GPC_FIELD_PROP in class_init, naming the field it
 * lives in; reading and writing them (under the object lock), their
 * defaults and freeing their strings are then done here once, instead of
 * a switch per element that repeats every property's type. Fields may be
 * bool, gboolean, gint, guint or an enum (32-bit fields are accessed
 * atomically, so the streaming thread may read one marked
 * GST_PARAM_MUTABLE_PLAYING with g_atomic_int_get), gdouble or gchar *.
 */
#pragma once

#include <stddef.h>

#include <glib-object.h>

G_BEGIN_DECLS

/* Installs `pspec` on `klass` as property `id`, held in the `size` bytes at
 * `offset` of the instance, and takes over the class's set_property and
 * get_property (every property of the class must be installed so). */
void gpc_field_prop_install (GObjectClass *klass, guint id, GParamSpec *pspec, gsize offset,
    gsize size);

#define GPC_FIELD_PROP(klass, id, Type, member, pspec) \
    gpc_field_prop_install ((klass), (id), (pspec), offsetof (Type, member), \
        sizeof (((Type *) 0)->member))

/* instance_init: every field property of `object`'s own class to its
 * pspec's default. */
void gpc_field_props_reset (GObject *object);

/* finalize: frees the string fields of every class of `object` that
 * installed field properties. */
void gpc_field_props_free (GObject *object);

G_END_DECLS
