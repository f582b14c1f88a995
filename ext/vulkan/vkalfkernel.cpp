/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkalfkernel.h"

#include "compute/gpcvkplane.h"

#include <string.h>

#include "vvc_alf.spv.h"
#include "vvcalf-tables.h"

namespace gpc {

static_assert (sizeof (VvcAlfPicParams) <= VkAlfKernel::kCtbOffset, "parameter layout");
static_assert (VkAlfKernel::kCtbOffset % 256 == 0, "storage buffer offset alignment");

namespace {

/* Push constants, in the shader's order. */
struct AlfPush {
  uint32_t in_off[3], in_stride[3], out_off[3], out_stride[3];
  uint32_t wide;
};

/* Output tile of one workgroup (TILE_W x TILE_H in the shader; luma tiles
 * are twice as high with rows2). */
static const uint32_t kTileW = 32, kTileH = 16;

/* The techniques, in the order of their names. */
struct AlfTechnique {
  const char *name;
  bool AlfOptions::*flag;
  const char *what;
};
static const AlfTechnique kTechniques[] = {
  { "tables", &AlfOptions::tables, "const-array tables -> packed integer constants" },
  { "coefbuf", &AlfOptions::coef_buffer, "luma coefficients from the buffer, not shared memory" },
  { "hoist", &AlfOptions::hoist, "uniform-window tiles: taps read shared memory directly" },
  { "split", &AlfOptions::split, "luma and chroma in two specialised dispatches" },
  { "consttap", &AlfOptions::consttap, "with hoist: literal tap distances off the line-buffer rows" },
  { "rows2", &AlfOptions::rows2, "2 luma rows per invocation, 32x32 luma tiles" },
  { "pack16", &AlfOptions::pack16, "samples packed 2 per word in shared memory" },
  { "wordload", &AlfOptions::wordload, "areas inside their window loaded as whole words" },
  { "pretrans", &AlfOptions::pretrans, "luma coefficients pretransposed on the CPU, one word per tap" },
};

} // namespace

AlfOptions AlfOptions::best ()
{
  /* The fastest of the H100 sweeps (docs/performance.md, "vkvvcalf"):
   * 189.8 us for a 2160p 10-bit 4:2:0 picture. */
  AlfOptions o;
  o.hoist = true;
  o.split = true;
  o.pack16 = true;
  o.wordload = true;
  o.pretrans = true;
  return o;
}

bool AlfOptions::parse (const char *variant, AlfOptions *out, std::string &error)
{
  AlfOptions o;
  std::string v = variant ? variant : "";
  size_t pos = 0;
  if (v == "baseline") {
    *out = o;
    return true;
  }
  if (v.compare (0, 7, "default") == 0) {
    o = best ();
    pos = 7;
  } else {
    v = "+" + v;
  }
  while (pos < v.size ()) {
    const char op = v[pos];
    if (op != '+' && op != '-') {
      error = "variant '" + std::string (variant) + "': expected '+' or '-' at '" + v.substr (pos) + "'";
      return false;
    }
    const size_t end = v.find_first_of ("+-", pos + 1);
    const std::string word = v.substr (pos + 1, end == std::string::npos ? std::string::npos : end - pos - 1);
    bool found = false;
    for (const AlfTechnique &t : kTechniques)
      if (word == t.name) {
        o.*(t.flag) = op == '+';
        found = true;
      }
    if (!found) {
      error = "variant '" + std::string (variant) + "': unknown technique '" + word +
          "' (known: tables, coefbuf, hoist, split, consttap, rows2, pack16, wordload, pretrans; or baseline, default)";
      return false;
    }
    pos = end == std::string::npos ? v.size () : end;
  }
  *out = o;
  return true;
}

std::string AlfOptions::name () const
{
  std::string n;
  for (const AlfTechnique &t : kTechniques)
    if (this->*(t.flag))
      n += (n.empty () ? "" : "+") + std::string (t.name);
  return n.empty () ? "baseline" : n;
}

std::string AlfOptions::describe () const
{
  std::string d;
  for (const AlfTechnique &t : kTechniques)
    if (this->*(t.flag))
      d += (d.empty () ? "" : "; ") + std::string (t.what);
  return d.empty () ? "the kernel before the variants" : d;
}

std::vector<std::string> VkAlfKernel::sweep_variants ()
{
  std::vector<std::string> v = { "baseline" };
  for (const AlfTechnique &t : kTechniques)
    v.push_back (t.flag == &AlfOptions::consttap ? "hoist+consttap" : t.name); /* needs hoist */
  v.push_back ("default");
  const AlfOptions best = AlfOptions::best ();
  for (const AlfTechnique &t : kTechniques)
    v.push_back (std::string ("default") + (best.*(t.flag) ? "-" : "+") + t.name);
  /* Every technique at once, and every technique but one. */
  std::string all;
  for (const AlfTechnique &t : kTechniques)
    all += (all.empty () ? "" : "+") + std::string (t.name);
  v.push_back (all);
  for (const AlfTechnique &u : kTechniques) {
    std::string but;
    for (const AlfTechnique &t : kTechniques)
      if (&t != &u && !(t.flag == &AlfOptions::consttap && u.flag == &AlfOptions::hoist))
        but += (but.empty () ? "" : "+") + std::string (t.name);
    v.push_back (but);
  }
  return v;
}

VkAlfKernel *VkAlfKernel::create (GstVulkanDevice *device, GError **error)
{
  return create (device, AlfOptions::best (), error);
}

VkAlfKernel *VkAlfKernel::create (GstVulkanDevice *device, const AlfOptions &o, GError **error)
{
  /* constant_id 0..8 of the shader: pass, tables, coefficients, hoist,
   * constant taps, luma rows per invocation, packed samples, word loads,
   * pretransposed coefficients. */
  auto make = [&] (uint32_t pass) {
    VkKernel::Spec spec = { vvc_alf_spv, sizeof (vvc_alf_spv), 8, sizeof (AlfPush),
      { pass, o.tables ? 1u : 0u, o.coef_buffer ? 1u : 0u, o.hoist ? 1u : 0u,
        o.consttap ? 1u : 0u, o.rows2 ? 2u : 1u, o.pack16 ? 1u : 0u, o.wordload ? 1u : 0u,
        o.pretrans ? 1u : 0u } };
    return VkKernel::create (device, spec, error);
  };
  VkAlfKernel *a = new VkAlfKernel ();
  a->options_ = o;
  a->kernel_ = make (o.split ? 1 : 0);
  if (a->kernel_ && o.split)
    a->chroma_kernel_ = make (2);
  if (!a->kernel_ || (o.split && !a->chroma_kernel_)) {
    delete a;
    return nullptr;
  }
  return a;
}

/* Word offset of luma_tap in the shader's picture block: the header, then
 * luma coefficients and clips, chroma coefficients and clips, CC-ALF. */
static const size_t kLumaTapWord = 32 + 2 * kVvcAlfNumLumaSets * kVvcAlfNumClasses * kVvcAlfLumaTaps +
    2 * kVvcAlfNumChromaFilters * kVvcAlfChromaTaps + 2 * kVvcAlfNumCcFilters * kVvcAlfCcStride;
static_assert (sizeof (VvcAlfPicParams) == kLumaTapWord * 4, "picture block layout");
static_assert ((kLumaTapWord + kVvcAlfNumLumaSets * kVvcAlfNumClasses * 4 * kVvcAlfLumaTaps) * 4 <=
    VkAlfKernel::kCtbOffset, "pretransposed table fits");

void VkAlfKernel::pack_params (const VvcAlfParams &p, uint8_t *dst)
{
  memset (dst, 0, kLumaTapWord * 4);
  VvcAlfPicParams *pic = (VvcAlfPicParams *) dst;
  memcpy (pic, &p.pic, sizeof (p.pic));
  /* Filters that clip nothing (every clip value 2^B): the shader skips
   * their clamps. */
  const int32_t no_clip = 1 << p.pic.bit_depth;
  for (int s = 0; s < kVvcAlfNumLumaSets; s++) {
    bool all = true;
    for (int c = 0; c < kVvcAlfNumClasses; c++)
      for (int j = 0; j < kVvcAlfLumaTaps; j++)
        all = all && p.pic.luma_clip[s][c][j] >= no_clip;
    if (all)
      pic->reserved[0] |= 1 << s;
  }
  for (int f = 0; f < kVvcAlfNumChromaFilters; f++) {
    bool all = true;
    for (int j = 0; j < kVvcAlfChromaTaps; j++)
      all = all && p.pic.chroma_clip[f][j] >= no_clip;
    if (all)
      pic->reserved[1 + (f >> 5)] |= (int32_t) (1u << (f & 31));
  }
  /* The pretransposed luma table, for the sets in use only (a picture
   * with one fixed set fills 1/24 of it). */
  uint32_t used = 0;
  for (const VvcAlfCtbParams &c : p.ctbs)
    if ((c.flags & kVvcAlfCtbY) && c.luma_set >= 0 && c.luma_set < kVvcAlfNumLumaSets)
      used |= 1u << c.luma_set;
  int32_t *tap = (int32_t *) dst + kLumaTapWord;
  for (int s = 0; s < kVvcAlfNumLumaSets; s++) {
    if (!((used >> s) & 1))
      continue;
    for (int c = 0; c < kVvcAlfNumClasses; c++)
      for (int t = 0; t < 4; t++)
        for (int k = 0; k < kVvcAlfLumaTaps; k++) {
          const int j = kVvcAlfTranspose[t][k];
          tap[((s * kVvcAlfNumClasses + c) * 4 + t) * kVvcAlfLumaTaps + k] =
              (int32_t) ((uint32_t) p.pic.luma_clip[s][c][j] << 8) | (p.pic.luma_coeff[s][c][j] & 0xff);
        }
  }
  memcpy (dst + kCtbOffset, p.ctbs.data (), p.ctbs.size () * sizeof (VvcAlfCtbParams));
}

GstBuffer *VkAlfKernel::upload_params (VkExec *exec, const VvcAlfParams &p,
    VkBufferCache *staging_cache, VkBufferCache *device_cache, GError **error)
{
  return vk_upload_bytes (exec, staging_cache, device_cache, params_size (p),
      [&] (uint8_t *dst) { pack_params (p, dst); }, error);
}

bool VkAlfKernel::dispatch (VkExec *exec, const AlfPlane in[3], const AlfPlane out[3],
    GstVulkanBufferMemory *params, const VvcAlfPicParams &pic, bool wide, GError **error,
    unsigned passes)
{
  const int n = pic.chroma_format == 0 ? 1 : 3;
  AlfPush pc = {};
  VkDescriptorBufferInfo bufs[8];
  for (int i = 0; i < 3; i++) {
    /* 4:0:0: the chroma bindings point at luma and are never read. */
    const AlfPlane &ip = in[i < n ? i : 0], &op = out[i < n ? i : 0];
    pc.in_off[i] = ip.offset;
    pc.in_stride[i] = ip.stride;
    pc.out_off[i] = op.offset;
    pc.out_stride[i] = op.stride;
    /* Descriptor ranges start at 0: offsets travel as push constants. */
    bufs[i] = { ip.mem->buffer, 0, VK_WHOLE_SIZE };
    bufs[3 + i] = { op.mem->buffer, 0, VK_WHOLE_SIZE };
  }
  pc.wide = wide ? 1 : 0;
  bufs[6] = { params->buffer, 0, kCtbOffset };
  bufs[7] = { params->buffer, kCtbOffset, VK_WHOLE_SIZE };
  const uint32_t gx = ((uint32_t) pic.width + kTileW - 1) / kTileW;
  const uint32_t lth = kTileH * (options_.rows2 ? 2 : 1); /* luma tile height */
  const uint32_t gy = ((uint32_t) pic.height + lth - 1) / lth;
  const uint32_t cgx = ((uint32_t) (pic.width >> pic.shift_x) + kTileW - 1) / kTileW;
  const uint32_t cgy = ((uint32_t) (pic.height >> pic.shift_y) + kTileH - 1) / kTileH;
  if (options_.split) {
    /* Two independent passes (disjoint outputs, same inputs): no barrier. */
    if ((passes & kLumaPass) && !exec->dispatch (kernel_, bufs, 8, &pc, sizeof pc, gx, gy, 1, error))
      return false;
    return n == 1 || !(passes & kChromaPass) ||
        exec->dispatch (chroma_kernel_, bufs, 8, &pc, sizeof pc, cgx, cgy, 1, error);
  }
  /* Grid: luma tile rows, then chroma tile rows (see main() in the shader). */
  return exec->dispatch (kernel_, bufs, 8, &pc, sizeof pc, gx, gy + (n == 3 ? cgy : 0), 1, error);
}

} // namespace gpc
