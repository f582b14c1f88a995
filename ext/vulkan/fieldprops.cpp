/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "fieldprops.h"

#include <gst/gst.h>

#include <vector>

namespace {

struct Field {
  guint id;
  gsize offset;
  gsize size;
  GParamSpec *pspec;
};

typedef std::vector<Field> Fields;

GQuark
fields_quark (void)
{
  static GQuark q = g_quark_from_static_string ("gpc-field-props");
  return q;
}

Fields *
fields_of (GType type)
{
  return (Fields *) g_type_get_qdata (type, fields_quark ());
}

const Field *
find (GType owner, guint id)
{
  Fields *fields = fields_of (owner);
  if (fields) {
    for (const Field & f : *fields)
      if (f.id == id)
        return &f;
  }
  return nullptr;
}

/* Whether a field of `size` bytes can hold values of `pspec`. */
bool
storable (GParamSpec * pspec, gsize size)
{
  switch (G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (pspec))) {
    case G_TYPE_BOOLEAN:
      return size == sizeof (bool) || size == sizeof (gboolean);
    case G_TYPE_INT:
    case G_TYPE_UINT:
    case G_TYPE_ENUM:
      return size == sizeof (gint);
    case G_TYPE_DOUBLE:
      return size == sizeof (gdouble);
    case G_TYPE_STRING:
      return size == sizeof (gchar *);
    default:
      return false;
  }
}

void
write (gpointer instance, const Field & f, const GValue * value)
{
  guint8 *p = (guint8 *) instance + f.offset;
  switch (G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (f.pspec))) {
    case G_TYPE_BOOLEAN:
      if (f.size == sizeof (bool))
        *(bool *) p = g_value_get_boolean (value);
      else
        g_atomic_int_set ((gint *) p, g_value_get_boolean (value));
      break;
    case G_TYPE_INT:
      g_atomic_int_set ((gint *) p, g_value_get_int (value));
      break;
    case G_TYPE_UINT:
      g_atomic_int_set ((gint *) p, (gint) g_value_get_uint (value));
      break;
    case G_TYPE_ENUM:
      g_atomic_int_set ((gint *) p, g_value_get_enum (value));
      break;
    case G_TYPE_DOUBLE:
      *(gdouble *) p = g_value_get_double (value);
      break;
    case G_TYPE_STRING:
      g_free (*(gchar **) p);
      *(gchar **) p = g_value_dup_string (value);
      break;
    default:
      g_assert_not_reached ();
  }
}

void
read (gconstpointer instance, const Field & f, GValue * value)
{
  const guint8 *p = (const guint8 *) instance + f.offset;
  switch (G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (f.pspec))) {
    case G_TYPE_BOOLEAN:
      if (f.size == sizeof (bool))
        g_value_set_boolean (value, *(const bool *) p);
      else
        g_value_set_boolean (value, g_atomic_int_get ((const gint *) p));
      break;
    case G_TYPE_INT:
      g_value_set_int (value, g_atomic_int_get ((const gint *) p));
      break;
    case G_TYPE_UINT:
      g_value_set_uint (value, (guint) g_atomic_int_get ((const gint *) p));
      break;
    case G_TYPE_ENUM:
      g_value_set_enum (value, g_atomic_int_get ((const gint *) p));
      break;
    case G_TYPE_DOUBLE:
      g_value_set_double (value, *(const gdouble *) p);
      break;
    case G_TYPE_STRING:
      g_value_set_string (value, *(gchar * const *) p);
      break;
    default:
      g_assert_not_reached ();
  }
}

/* Reads, or writes where `set`, property `id` of `object`. GObject calls
 * the accessors of the class that installed the pspec. */
void
access (GObject * object, guint id, GValue * value, GParamSpec * pspec, bool set)
{
  const Field *f = find (pspec->owner_type, id);
  if (!f) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    return;
  }
  GST_OBJECT_LOCK (object);
  if (set)
    write (object, *f, value);
  else
    read (object, *f, value);
  GST_OBJECT_UNLOCK (object);
}

void
set_property (GObject * object, guint id, const GValue * value, GParamSpec * pspec)
{
  access (object, id, (GValue *) value, pspec, true);
}

void
get_property (GObject * object, guint id, GValue * value, GParamSpec * pspec)
{
  access (object, id, value, pspec, false);
}

} // namespace

void
gpc_field_prop_install (GObjectClass * klass, guint id, GParamSpec * pspec, gsize offset,
    gsize size)
{
  const GType type = G_OBJECT_CLASS_TYPE (klass);
  g_return_if_fail (g_type_is_a (type, GST_TYPE_OBJECT));
  g_return_if_fail (storable (pspec, size));
  Fields *fields = fields_of (type);
  if (!fields) {
    /* Lives as long as the class: static types are never unloaded. */
    fields = new Fields ();
    g_type_set_qdata (type, fields_quark (), fields);
  }
  fields->push_back ({ id, offset, size, pspec });
  klass->set_property = set_property;
  klass->get_property = get_property;
  g_object_class_install_property (klass, id, pspec);
}

void
gpc_field_props_reset (GObject * object)
{
  Fields *fields = fields_of (G_OBJECT_TYPE (object));
  if (!fields)
    return;
  for (const Field & f : *fields)
    write (object, f, g_param_spec_get_default_value (f.pspec));
}

void
gpc_field_props_free (GObject * object)
{
  for (GType t = G_OBJECT_TYPE (object); t; t = g_type_parent (t)) {
    Fields *fields = fields_of (t);
    if (!fields)
      continue;
    for (const Field & f : *fields) {
      if (G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (f.pspec)) == G_TYPE_STRING) {
        gchar **p = (gchar **) ((guint8 *) object + f.offset);
        g_clear_pointer (p, g_free);
      }
    }
  }
}
