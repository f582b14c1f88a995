/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkvmaf-settings.h"

#include <algorithm>

namespace gpc {

namespace {

GType
register_enum (const char *name, const GEnumValue *values)
{
  GType t = g_type_from_name (name);
  return t ? t : g_enum_register_static (name, values);
}

} // namespace

GType
vmaf_pool_method_get_type ()
{
  static GType type = 0;
  static const GEnumValue values[] = {
    { (gint) VmafPoolMethod::MIN, "Minimum", "min" },
    { (gint) VmafPoolMethod::MAX, "Maximum", "max" },
    { (gint) VmafPoolMethod::MEAN, "Arithmetic mean", "mean" },
    { (gint) VmafPoolMethod::HARMONIC_MEAN, "Harmonic mean (libvmaf's: n / sum 1/(x+1) - 1)",
      "harmonic_mean" },
    { 0, NULL, NULL },
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, register_enum ("GstVkVmafPoolMethod", values));
  return type;
}

GType
vmaf_log_format_get_type ()
{
  static GType type = 0;
  static const GEnumValue values[] = {
    { (gint) VmafLogFormat::XML, "libvmaf's XML log", "xml" },
    { (gint) VmafLogFormat::JSON, "libvmaf's JSON log", "json" },
    { (gint) VmafLogFormat::CSV, "libvmaf's CSV log", "csv" },
    { 0, NULL, NULL },
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, register_enum ("GstVkVmafLogFormat", values));
  return type;
}

GType
vmaf_output_get_type ()
{
  static GType type = 0;
  static const GEnumValue values[] = {
    { VMAF_OUTPUT_DISTORTED, "The distorted frames (dist_sink)", "distorted" },
    { VMAF_OUTPUT_REFERENCE, "The reference frames (ref_sink)", "reference" },
    { 0, NULL, NULL },
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, register_enum ("GstVkVmafOutput", values));
  return type;
}

bool
VmafSettings::load_model (VmafModel *model, std::string *error) const
{
  const std::vector<std::string> builtin = VmafModel::builtin_versions ();
  if (std::find (builtin.begin (), builtin.end (), model_filename) != builtin.end ())
    return model->load_builtin (model_filename, error);
  return model->load_file (model_filename, error);
}

void
vmaf_settings_install (GObjectClass *klass, guint first)
{
  const GParamFlags rw = (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
      | GST_PARAM_MUTABLE_READY);
  const VmafSettings d;
  g_object_class_install_property (klass, first + VMAF_PROP_MODEL_FILENAME,
      g_param_spec_string ("model-filename", "Model",
          "A built-in model (vmaf_v0.6.1, vmaf_v0.6.1neg, vmaf_4k_v0.6.1, vmaf_4k_v0.6.1neg) "
          "or the path of a libvmaf JSON model file", d.model_filename.c_str (), rw));
  g_object_class_install_property (klass, first + VMAF_PROP_ENABLE_TRANSFORM,
      g_param_spec_boolean ("enable-transform", "Enable transform",
          "Apply the model's score transform (libvmaf's enable_transform)", FALSE, rw));
  g_object_class_install_property (klass, first + VMAF_PROP_PHONE_MODEL,
      g_param_spec_boolean ("phone-model", "Phone model",
          "Score for phone viewing: the same as enable-transform", FALSE, rw));
  g_object_class_install_property (klass, first + VMAF_PROP_DISABLE_CLIP,
      g_param_spec_boolean ("disable-clip", "Disable clip",
          "Do not clip scores to the model's range (libvmaf's disable_clip)", FALSE, rw));
  g_object_class_install_property (klass, first + VMAF_PROP_SUBSAMPLE,
      g_param_spec_uint ("subsample", "Subsample",
          "Score every Nth frame (motion is still measured on every frame)", 1, 1024, 1, rw));
  g_object_class_install_property (klass, first + VMAF_PROP_POOL_METHOD,
      g_param_spec_enum ("pool-method", "Pool method",
          "How the score of the whole stream (posted at EOS) pools the frames' scores",
          vmaf_pool_method_get_type (), (gint) d.pool_method, rw));
  g_object_class_install_property (klass, first + VMAF_PROP_FRAME_MESSAGE,
      g_param_spec_boolean ("frame-message", "Frame message",
          "Post a \"VMAF\" element message for every scored frame", FALSE,
          (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING)));
  g_object_class_install_property (klass, first + VMAF_PROP_RESULTS_FILENAME,
      g_param_spec_string ("results-filename", "Results filename",
          "File that receives every frame's values and the pooled ones in libvmaf's log "
          "layout, written when the stream ends (NULL: none)", NULL, rw));
  g_object_class_install_property (klass, first + VMAF_PROP_LOG_FORMAT,
      g_param_spec_enum ("log-format", "Log format", "Layout of results-filename",
          vmaf_log_format_get_type (), (gint) d.log_format, rw));
  g_object_class_install_property (klass, first + VMAF_PROP_OUTPUT,
      g_param_spec_enum ("output", "Output",
          "Which input's frames the source pad passes on, untouched",
          vmaf_output_get_type (), d.output, rw));
  g_object_class_install_property (klass, first + VMAF_PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "Frame pairs the GPU may work on while the next ones arrive", 1, 16,
          d.frames_in_flight, rw));
}

bool
vmaf_settings_set (VmafSettings *s, guint id, const GValue *value)
{
  switch (id) {
    case VMAF_PROP_MODEL_FILENAME:
      s->model_filename = g_value_get_string (value) ? g_value_get_string (value) : "vmaf_v0.6.1";
      break;
    case VMAF_PROP_ENABLE_TRANSFORM:
    case VMAF_PROP_PHONE_MODEL:
      s->flags.enable_transform = g_value_get_boolean (value);
      break;
    case VMAF_PROP_DISABLE_CLIP:
      s->flags.disable_clip = g_value_get_boolean (value);
      break;
    case VMAF_PROP_SUBSAMPLE:
      s->subsample = g_value_get_uint (value);
      break;
    case VMAF_PROP_POOL_METHOD:
      s->pool_method = (VmafPoolMethod) g_value_get_enum (value);
      break;
    case VMAF_PROP_FRAME_MESSAGE:
      s->frame_message = g_value_get_boolean (value);
      break;
    case VMAF_PROP_RESULTS_FILENAME:
      s->results_filename = g_value_get_string (value) ? g_value_get_string (value) : "";
      break;
    case VMAF_PROP_LOG_FORMAT:
      s->log_format = (VmafLogFormat) g_value_get_enum (value);
      break;
    case VMAF_PROP_OUTPUT:
      s->output = (VmafOutput) g_value_get_enum (value);
      break;
    case VMAF_PROP_FRAMES_IN_FLIGHT:
      s->frames_in_flight = g_value_get_uint (value);
      break;
    default:
      return false;
  }
  return true;
}

bool
vmaf_settings_get (const VmafSettings *s, guint id, GValue *value)
{
  switch (id) {
    case VMAF_PROP_MODEL_FILENAME:
      g_value_set_string (value, s->model_filename.c_str ());
      break;
    case VMAF_PROP_ENABLE_TRANSFORM:
    case VMAF_PROP_PHONE_MODEL:
      g_value_set_boolean (value, s->flags.enable_transform);
      break;
    case VMAF_PROP_DISABLE_CLIP:
      g_value_set_boolean (value, s->flags.disable_clip);
      break;
    case VMAF_PROP_SUBSAMPLE:
      g_value_set_uint (value, s->subsample);
      break;
    case VMAF_PROP_POOL_METHOD:
      g_value_set_enum (value, (gint) s->pool_method);
      break;
    case VMAF_PROP_FRAME_MESSAGE:
      g_value_set_boolean (value, s->frame_message);
      break;
    case VMAF_PROP_RESULTS_FILENAME:
      g_value_set_string (value, s->results_filename.empty () ? NULL : s->results_filename.c_str ());
      break;
    case VMAF_PROP_LOG_FORMAT:
      g_value_set_enum (value, (gint) s->log_format);
      break;
    case VMAF_PROP_OUTPUT:
      g_value_set_enum (value, s->output);
      break;
    case VMAF_PROP_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, s->frames_in_flight);
      break;
    default:
      return false;
  }
  return true;
}

} // namespace gpc
