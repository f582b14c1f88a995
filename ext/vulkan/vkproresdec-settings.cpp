/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkproresdec-settings.h"

namespace gpc {

GType prores_output_memory_get_type ()
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {PRORES_OUTPUT_MEMORY_AUTO, "memory:VulkanBuffer when downstream asks for it by "
          "name, else system memory", "auto"},
    {PRORES_OUTPUT_MEMORY_VULKAN, "memory:VulkanBuffer whenever downstream accepts it",
        "vulkan"},
    {PRORES_OUTPUT_MEMORY_SYSTEM, "System memory", "system"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstVkProResDecOutputMemory", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType prores_idct_get_type ()
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {PRORES_IDCT_X86, "FFmpeg's x86 SIMD arithmetic (Debian amd64 ffmpeg)", "x86"},
    {PRORES_IDCT_C, "FFmpeg's C arithmetic (builds without SIMD, e.g. arm64)",
        "c"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstVkProResDecIdct", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

void prores_settings_install (GObjectClass *klass, guint first_id)
{
  const GParamFlags rw = (GParamFlags) (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY);
  const ProResDecSettings d;
  g_object_class_install_property (klass, first_id + PRORES_PROP_SKIP_ALPHA,
      g_param_spec_boolean ("skip-alpha", "Skip alpha",
          "Do not decode the alpha channel (output without alpha)", d.skip_alpha, rw));
  g_object_class_install_property (klass, first_id + PRORES_PROP_FRAMES_IN_FLIGHT,
      g_param_spec_int ("frames-in-flight", "Frames in flight",
          "Frames the GPU may decode while later ones arrive; each adds one "
          "frame of reported latency (0: wait for every frame; -1: 32 when "
          "upstream is not live, 2 when it is)", ProResPacing::kAuto,
          ProResPacing::kMaxInFlight, d.frames_in_flight, rw));
  g_object_class_install_property (klass, first_id + PRORES_PROP_OUTPUT_MEMORY,
      g_param_spec_enum ("output-memory", "Output memory",
          "Where decoded frames go", prores_output_memory_get_type (), d.output_memory, rw));
  g_object_class_install_property (klass, first_id + PRORES_PROP_IDCT,
      g_param_spec_enum ("idct", "IDCT arithmetic",
          "Which of FFmpeg's 10-bit IDCT arithmetics to reproduce (they differ "
          "only on crafted streams)", prores_idct_get_type (), d.idct, rw));
  g_object_class_install_property (klass, first_id + PRORES_PROP_BATCH,
      g_param_spec_int ("batch", "Batch",
          "Frames recorded and submitted together: their decoding overlaps on "
          "the GPU even where the driver drains the queue at every barrier; a "
          "batch goes out when full or when its oldest frame is due (at most "
          "frames-in-flight + 1 frames; -1: 16 when upstream is not live, 1 "
          "when it is)", ProResPacing::kAuto, ProResPacing::kMaxInFlight, d.batch, rw));
}

bool prores_settings_set (ProResDecSettings *s, guint id, const GValue *value)
{
  switch (id) {
    case PRORES_PROP_SKIP_ALPHA:
      s->skip_alpha = g_value_get_boolean (value);
      return true;
    case PRORES_PROP_FRAMES_IN_FLIGHT:
      s->frames_in_flight = g_value_get_int (value);
      return true;
    case PRORES_PROP_OUTPUT_MEMORY:
      s->output_memory = (ProResOutputMemory) g_value_get_enum (value);
      return true;
    case PRORES_PROP_IDCT:
      s->idct = (ProResIdct) g_value_get_enum (value);
      return true;
    case PRORES_PROP_BATCH:
      s->batch = g_value_get_int (value);
      return true;
  }
  return false;
}

bool prores_settings_get (const ProResDecSettings *s, guint id, GValue *value)
{
  switch (id) {
    case PRORES_PROP_SKIP_ALPHA:
      g_value_set_boolean (value, s->skip_alpha);
      return true;
    case PRORES_PROP_FRAMES_IN_FLIGHT:
      g_value_set_int (value, s->frames_in_flight);
      return true;
    case PRORES_PROP_OUTPUT_MEMORY:
      g_value_set_enum (value, s->output_memory);
      return true;
    case PRORES_PROP_IDCT:
      g_value_set_enum (value, s->idct);
      return true;
    case PRORES_PROP_BATCH:
      g_value_set_int (value, s->batch);
      return true;
  }
  return false;
}

} // namespace gpc
