/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gpc-vk-devices.h"

#include <dlfcn.h>
#include <glib/gstdio.h>
#include <vulkan/vulkan.h>

#include <string>
#include <vector>

namespace {

std::string tmp_dir;
std::vector<std::string> written;

/* Physical devices the loader shows a new instance now (it reads the
 * driver list again at every vkCreateInstance). */
guint
count_devices (void)
{
  void *lib = dlopen ("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return 0;
  auto gipa = (PFN_vkGetInstanceProcAddr) dlsym (lib, "vkGetInstanceProcAddr");
  auto create = gipa ? (PFN_vkCreateInstance) gipa (NULL, "vkCreateInstance") : NULL;
  guint n = 0;
  VkInstanceCreateInfo ci = {};
  ci.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  VkInstance inst;
  if (create && create (&ci, NULL, &inst) == VK_SUCCESS) {
    auto enumerate = (PFN_vkEnumeratePhysicalDevices) gipa (inst, "vkEnumeratePhysicalDevices");
    auto destroy = (PFN_vkDestroyInstance) gipa (inst, "vkDestroyInstance");
    uint32_t count = 0;
    if (enumerate && enumerate (inst, &count, NULL) == VK_SUCCESS)
      n = count;
    destroy (inst, NULL);
  }
  dlclose (lib);
  return n;
}

/* The string value of "key" in a small JSON text, or "". */
std::string
json_string (const std::string &text, const char *key)
{
  size_t k = text.find (std::string ("\"") + key + "\"");
  if (k == std::string::npos)
    return "";
  size_t colon = text.find (':', k);
  size_t open = colon == std::string::npos ? colon : text.find ('"', colon);
  size_t close = open == std::string::npos ? open : text.find ('"', open + 1);
  return close == std::string::npos ? "" : text.substr (open + 1, close - open - 1);
}

/* The manifests the loader reads: VK_DRIVER_FILES (or the older
 * VK_ICD_FILENAMES) where set, else the standard folders. */
std::vector<std::string>
driver_manifests (void)
{
  std::vector<std::string> out;
  const char *env = g_getenv ("VK_DRIVER_FILES");
  if (!env || !*env)
    env = g_getenv ("VK_ICD_FILENAMES");
  std::vector<std::string> dirs;
  if (env && *env) {
    gchar **parts = g_strsplit (env, ":", -1);
    for (gchar **p = parts; *p; p++) {
      if (g_file_test (*p, G_FILE_TEST_IS_DIR))
        dirs.push_back (*p);
      else if (**p)
        out.push_back (*p);
    }
    g_strfreev (parts);
  } else {
    for (const char *d : { "/etc/vulkan/icd.d", "/usr/local/share/vulkan/icd.d",
             "/usr/share/vulkan/icd.d" })
      dirs.push_back (d);
  }
  for (const std::string &d : dirs) {
    GDir *dir = g_dir_open (d.c_str (), 0, NULL);
    if (!dir)
      continue;
    while (const gchar *name = g_dir_read_name (dir))
      if (g_str_has_suffix (name, ".json"))
        out.push_back (d + "/" + name);
    g_dir_close (dir);
  }
  return out;
}

bool
write_file (const std::string &path, const void *data, gsize size)
{
  if (!g_file_set_contents (path.c_str (), (const gchar *) data, size, NULL))
    return false;
  written.push_back (path);
  return true;
}

} // namespace

guint
gpc_vk_test_want_devices (guint n)
{
  guint have = count_devices ();
  if (have >= n || have == 0)
    return have;
  std::string manifest, library, api = "1.1.0";
  std::vector<std::string> all = driver_manifests ();
  for (const std::string &m : all) {
    gchar *text = NULL;
    if (!g_file_get_contents (m.c_str (), &text, NULL, NULL))
      continue;
    std::string lib = json_string (text, "library_path");
    std::string version = json_string (text, "api_version");
    g_free (text);
    if (lib.find ("lvp") != std::string::npos) {
      manifest = m;
      library = lib;
      if (!version.empty ())
        api = version;
      break;
    }
  }
  if (manifest.empty ())
    return have;
  gchar *lib_text = NULL;
  gsize lib_size = 0;
  if (!g_path_is_absolute (library.c_str ())) {
    /* A bare name: the loader's dlopen() finds it in the library path. */
    void *h = dlopen (library.c_str (), RTLD_NOW | RTLD_LOCAL);
    Dl_info info;
    void *sym = h ? dlsym (h, "vk_icdGetInstanceProcAddr") : NULL;
    if (sym && dladdr (sym, &info) && info.dli_fname)
      library = info.dli_fname;
    if (h)
      dlclose (h);
  }
  if (!g_file_get_contents (library.c_str (), &lib_text, &lib_size, NULL))
    return have;
  gchar *dir = g_dir_make_tmp ("gpc-lavapipe-XXXXXX", NULL);
  if (!dir) {
    g_free (lib_text);
    return have;
  }
  tmp_dir = dir;
  g_free (dir);
  std::string files;
  for (const std::string &m : all)
    files += (files.empty () ? "" : ":") + m;
  for (guint i = have; i < n; i++) {
    /* A copy under another name: dlopen() would return the first one for
     * the same file. */
    std::string lib = tmp_dir + "/libvulkan_lvp_copy" + std::to_string (i) + ".so";
    std::string json = tmp_dir + "/lvp_copy" + std::to_string (i) + ".json";
    gchar *m = g_strdup_printf ("{ \"file_format_version\": \"1.0.0\", \"ICD\": "
        "{ \"library_path\": \"%s\", \"api_version\": \"%s\" } }\n", lib.c_str (),
        api.c_str ());
    bool ok = write_file (lib, lib_text, lib_size) && write_file (json, m, strlen (m));
    g_free (m);
    if (!ok)
      break;
    files += ":" + json;
  }
  g_free (lib_text);
  g_setenv ("VK_DRIVER_FILES", files.c_str (), TRUE);
  g_unsetenv ("VK_ICD_FILENAMES");
  return count_devices ();
}

void
gpc_vk_test_devices_cleanup (void)
{
  for (const std::string &f : written)
    g_unlink (f.c_str ());
  written.clear ();
  if (!tmp_dir.empty ())
    g_rmdir (tmp_dir.c_str ());
  tmp_dir.clear ();
}
