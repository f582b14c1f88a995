/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "flac-cuda-decoder.h"

#include <string.h>

#include <memory>
#include <mutex>
#include <utility>

#include "flac-cuda-arch.h"
#include "flac-kernels.h"

#ifdef GPC_HAVE_CUDA_KERNELS
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>

extern "C" {
extern const unsigned char gpc_flac_fatbin[];
extern const size_t gpc_flac_fatbin_size;
}
#endif

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_flac_dec_debug);
#define GST_CAT_DEFAULT gst_cuda_flac_dec_debug

namespace gpc {
namespace flac {

#ifdef GPC_HAVE_CUDA_KERNELS

namespace {

struct CudaSlot {
  CUstream stream = nullptr;
  CUdeviceptr d_in = 0, d_jobs = 0, d_planar = 0, d_side = 0, d_out = 0, d_status = 0;
  size_t c_in = 0, c_jobs = 0, c_planar = 0, c_side = 0, c_out = 0, c_status = 0;
  void *h_in = nullptr, *h_jobs = nullptr, *h_out = nullptr, *h_status = nullptr;
  size_t hc_in = 0, hc_jobs = 0, hc_out = 0, hc_status = 0;
  /* frame location */
  CUdeviceptr d_bits = 0, d_cands = 0, d_count = 0;
  size_t c_bits = 0, c_cands = 0, c_count = 0;
  void *h_cands = nullptr, *h_count = nullptr;
  size_t hc_cands = 0, hc_count = 0;
  size_t uploaded = 0; /* bytes of h_in already in d_in (locate) */
  uint8_t *out_host = nullptr; /* where the submitted batch's PCM goes */
  size_t n = 0, out_bytes = 0;
  bool busy = false;
};

/* Pinned blocks that carry PCM downstream (output_buffer()). Shared with
 * every block that is out: a block that comes back after its resources
 * were freed frees itself. */
struct OutputBlocks {
  std::mutex lock;
  std::vector<std::pair<void *, size_t>> idle; /* pointer, capacity */
  int out = 0;
  bool orphaned = false;
};

} // namespace

struct CudaResources {
  CUmodule module = nullptr;
  CUfunction k_decode = nullptr, k_interleave = nullptr, k_scan = nullptr, k_ends = nullptr;
  CudaSlot slots[CudaDecoder::kSlots];
  std::shared_ptr<OutputBlocks> blocks = std::make_shared<OutputBlocks> ();
};

namespace {

struct OutputBlock {
  std::shared_ptr<OutputBlocks> blocks;
  GstCudaContext *ctx; /* referenced while the block is out */
  void *ptr;
  size_t cap;
};

} // namespace

/* GstMemory notify: the block goes back to its set, or is freed. */
static void output_block_free (gpointer data)
{
  OutputBlock *b = (OutputBlock *) data;
  bool kept;
  {
    std::lock_guard<std::mutex> g (b->blocks->lock);
    b->blocks->out--;
    kept = !b->blocks->orphaned;
    if (kept)
      b->blocks->idle.emplace_back (b->ptr, b->cap);
  }
  if (!kept && gst_cuda_context_push (b->ctx)) {
    CuMemFreeHost (b->ptr);
    gst_cuda_context_pop (nullptr);
  }
  GstCudaContext *ctx = b->ctx;
  delete b;
  gst_object_unref (ctx); /* last: it may be the context's last reference */
}

static bool cu_ok (CUresult r, const char *what)
{
  if (r == CUDA_SUCCESS)
    return true;
  const char *name = nullptr;
  CuGetErrorName (r, &name);
  GST_WARNING ("%s failed: %s (%d)", what, name ? name : "?", (int) r);
  return false;
}

bool CudaDecoder::runtime_available ()
{
  return gst_cuda_load_library ();
}

bool CudaDecoder::kernels_built ()
{
  return true;
}

/* With the resources' context current. */
static void free_resources (CudaResources *r)
{
  std::vector<std::pair<void *, size_t>> idle;
  {
    std::lock_guard<std::mutex> g (r->blocks->lock);
    r->blocks->orphaned = true;
    idle.swap (r->blocks->idle);
  }
  for (auto &b : idle)
    CuMemFreeHost (b.first);
  for (CudaSlot &s : r->slots) {
    if (s.stream) {
      CuStreamSynchronize (s.stream);
      CuStreamDestroy (s.stream);
    }
    for (CUdeviceptr p : { s.d_in, s.d_jobs, s.d_planar, s.d_side, s.d_out, s.d_status, s.d_bits,
             s.d_cands, s.d_count })
      if (p)
        CuMemFree (p);
    for (void *p : { s.h_in, s.h_jobs, s.h_out, s.h_status, s.h_cands, s.h_count })
      if (p)
        CuMemFreeHost (p);
  }
  if (r->module)
    CuModuleUnload (r->module);
  delete r;
}

namespace {

/* The resources a closed decoder left with a context: one set per context
 * (qdata), freed by a weak reference when the context is disposed, before
 * its finalize destroys the CUDA context they live in. */
struct ResourceCache {
  CudaResources *idle = nullptr;
};

} // namespace

static std::mutex cache_lock;

static GQuark cache_quark ()
{
  static GQuark q = g_quark_from_static_string ("gpc-flac-cuda-resources");
  return q;
}

static void context_gone (gpointer data, GObject *where_the_object_was)
{
  ResourceCache *c = (ResourceCache *) data;
  CudaResources *r;
  {
    std::lock_guard<std::mutex> g (cache_lock);
    r = c->idle;
    c->idle = nullptr;
  }
  delete c;
  if (!r)
    return;
  GstCudaContext *ctx = (GstCudaContext *) where_the_object_was;
  if (gst_cuda_context_push (ctx)) {
    free_resources (r);
    gst_cuda_context_pop (nullptr);
  } else {
    delete r; /* the context's own teardown frees its memory */
  }
}

static CudaResources *take_cached (GstCudaContext *ctx)
{
  std::lock_guard<std::mutex> g (cache_lock);
  ResourceCache *c = (ResourceCache *) g_object_get_qdata (G_OBJECT (ctx), cache_quark ());
  if (!c)
    return nullptr;
  CudaResources *r = c->idle;
  c->idle = nullptr;
  return r;
}

/* False when the context keeps another decoder's set already. */
static bool leave_cached (GstCudaContext *ctx, CudaResources *r)
{
  std::lock_guard<std::mutex> g (cache_lock);
  ResourceCache *c = (ResourceCache *) g_object_get_qdata (G_OBJECT (ctx), cache_quark ());
  if (!c) {
    c = new ResourceCache;
    g_object_set_qdata (G_OBJECT (ctx), cache_quark (), c);
    g_object_weak_ref (G_OBJECT (ctx), context_gone, c);
  }
  if (c->idle)
    return false;
  c->idle = r;
  return true;
}

CudaDecoder::CudaDecoder () {}

CudaDecoder::~CudaDecoder ()
{
  close ();
}

bool CudaDecoder::open (GstCudaContext *ctx, GError **error)
{
  close ();
  CudaResources *r = take_cached (ctx);
  if (r) {
    GST_DEBUG ("reusing the kernels and buffers a decoder left with CUDA context %p", ctx);
  } else {
    if (!gst_cuda_context_push (ctx)) {
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED, "cannot push CUDA context");
      return false;
    }
    /* The GPU's compute capability, for the user to see when the module
     * (built for the meson option cuda-archs) cannot run on it. */
    gint device_id = 0;
    g_object_get (ctx, "cuda-device-id", &device_id, NULL);
    CUdevice dev = 0;
    int major = 0, minor = 0;
    bool known = CuDeviceGet (&dev, device_id) == CUDA_SUCCESS &&
        CuDeviceGetAttribute (&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev) == CUDA_SUCCESS &&
        CuDeviceGetAttribute (&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev) == CUDA_SUCCESS;
    const std::string built = cuda_archs_description (GPC_CUDA_ARCHS, GPC_CUDA_PTX_ARCH);
    if (known && !cuda_module_runs_on (GPC_CUDA_ARCHS, GPC_CUDA_PTX_ARCH, major, minor)) {
      gst_cuda_context_pop (nullptr);
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
          "CUDA device %d has compute capability %d.%d, which the FLAC kernels were not built for "
          "(built: %s; meson option cuda-archs)", device_id, major, minor, built.c_str ());
      return false;
    }
    r = new CudaResources;
    CUresult loaded = CuModuleLoadData (&r->module, gpc_flac_fatbin);
    bool ok = cu_ok (loaded, "cuModuleLoadData") &&
        cu_ok (CuModuleGetFunction (&r->k_decode, r->module, GPC_FLAC_KERNEL_DECODE), "cuModuleGetFunction") &&
        cu_ok (CuModuleGetFunction (&r->k_interleave, r->module, GPC_FLAC_KERNEL_INTERLEAVE),
            "cuModuleGetFunction") &&
        cu_ok (CuModuleGetFunction (&r->k_scan, r->module, GPC_FLAC_KERNEL_SCAN), "cuModuleGetFunction") &&
        cu_ok (CuModuleGetFunction (&r->k_ends, r->module, GPC_FLAC_KERNEL_ENDS), "cuModuleGetFunction");
    for (int i = 0; ok && i < kSlots; i++)
      ok = cu_ok (CuStreamCreate (&r->slots[i].stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    if (!ok)
      free_resources (r);
    gst_cuda_context_pop (nullptr);
    if (!ok) {
      const char *why = nullptr;
      if (loaded != CUDA_SUCCESS)
        CuGetErrorName (loaded, &why);
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
          "cannot load the FLAC CUDA kernels on CUDA device %d (compute capability %d.%d): %s "
          "(built: %s; meson option cuda-archs)", device_id, major, minor,
          why ? why : loaded != CUDA_SUCCESS ? "cuModuleLoadData failed" : "kernel or stream missing",
          built.c_str ());
      return false;
    }
  }
  ctx_ = (GstCudaContext *) gst_object_ref (ctx);
  res_ = r;
  return true;
}

void CudaDecoder::close ()
{
  if (!ctx_)
    return;
  /* Nothing of this decoder may still run on the GPU. Every call pushes
   * the context on its own thread and pops it before it returns (the
   * streaming thread, backend=auto's start-up thread, stop()'s thread, and
   * whichever thread frees an output buffer); a push that fails must not be
   * followed by a pop, which would take another user's context off. */
  const bool pushed = gst_cuda_context_push (ctx_);
  for (CudaSlot &s : res_->slots) {
    if (s.stream && pushed)
      CuStreamSynchronize (s.stream);
    s.busy = false;
    s.uploaded = 0;
    s.n = s.out_bytes = 0;
  }
  if (pushed)
    gst_cuda_context_pop (nullptr);
  if (!leave_cached (ctx_, res_)) {
    if (gst_cuda_context_push (ctx_)) {
      free_resources (res_);
      gst_cuda_context_pop (nullptr);
    } else {
      delete res_; /* the context's own teardown frees its memory */
    }
  }
  res_ = nullptr;
  gst_clear_object (&ctx_);
}

/* Grows a device buffer (geometrically, so that batches settle quickly). */
static bool ensure (CUdeviceptr *p, size_t *cap, size_t bytes)
{
  if (bytes <= *cap)
    return true;
  if (*p)
    CuMemFree (*p);
  *p = 0;
  *cap = 0;
  size_t want = bytes + bytes / 4 + 4096;
  if (!cu_ok (CuMemAlloc (p, want), "cuMemAlloc"))
    return false;
  *cap = want;
  return true;
}

static bool ensure_host (void **host, size_t *cap, size_t bytes)
{
  if (bytes <= *cap)
    return true;
  if (*host)
    CuMemFreeHost (*host);
  *host = nullptr;
  *cap = 0;
  size_t want = bytes + bytes / 4 + 4096;
  if (!cu_ok (CuMemAllocHost (host, want), "cuMemAllocHost"))
    return false;
  *cap = want;
  return true;
}

static bool copy_async (CUdeviceptr dst_dev, void *dst_host, CUdeviceptr src_dev,
    const void *src_host, size_t bytes, CUstream stream)
{
  if (!bytes)
    return true;
  CUDA_MEMCPY2D c;
  memset (&c, 0, sizeof c);
  if (src_host) {
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = src_host;
  } else {
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = src_dev;
  }
  if (dst_host) {
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = dst_host;
  } else {
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = dst_dev;
  }
  c.srcPitch = c.dstPitch = c.WidthInBytes = bytes;
  c.Height = 1;
  return cu_ok (CuMemcpy2DAsync (&c, stream), "cuMemcpy2DAsync");
}

bool CudaDecoder::prepare (size_t in_bytes, size_t out_bytes, unsigned out_format_bytes)
{
  if (!gst_cuda_context_push (ctx_))
    return false;
  bool ok = true;
  size_t planar = out_format_bytes ? out_bytes / out_format_bytes * 4 : 0; /* int32 per sample */
  for (CudaSlot &s : res_->slots)
    ok = ok && !s.busy && ensure_host (&s.h_in, &s.hc_in, in_bytes) && ensure (&s.d_in, &s.c_in, in_bytes + 16) &&
        (!out_bytes || (ensure (&s.d_out, &s.c_out, out_bytes) && ensure (&s.d_planar, &s.c_planar, planar)));
  /* the PCM goes downstream in output blocks: one for the batch in flight
   * and one for the batch being submitted while the one before is pushed
   * and let go (more are made on demand while downstream holds them), if
   * the context does not keep enough from an earlier stream */
  size_t have = 0;
  {
    std::lock_guard<std::mutex> g (res_->blocks->lock);
    for (auto &b : res_->blocks->idle)
      have += b.second >= out_bytes;
  }
  for (size_t i = have; ok && out_bytes && i < kSlots; i++) {
    void *ptr = nullptr;
    size_t cap = out_bytes + out_bytes / 4 + 4096;
    ok = cu_ok (CuMemAllocHost (&ptr, cap), "cuMemAllocHost");
    if (ok) {
      std::lock_guard<std::mutex> g (res_->blocks->lock);
      res_->blocks->idle.emplace_back (ptr, cap);
    }
  }
  gst_cuda_context_pop (nullptr);
  return ok;
}

uint8_t *CudaDecoder::reserve_input (int slot, size_t bytes, size_t keep)
{
  CudaSlot &s = res_->slots[slot];
  s.uploaded = 0;
  if (!s.busy && bytes <= s.hc_in)
    return (uint8_t *) s.h_in;
  if (!gst_cuda_context_push (ctx_))
    return nullptr;
  if (s.busy) { /* the previous batch of this slot must be done with its input */
    CuStreamSynchronize (s.stream);
  }
  if (bytes <= s.hc_in) {
    gst_cuda_context_pop (nullptr);
    return (uint8_t *) s.h_in;
  }
  void *old = s.h_in;
  s.h_in = nullptr;
  s.hc_in = 0;
  bool ok = ensure_host (&s.h_in, &s.hc_in, bytes);
  if (ok && old && keep)
    memcpy (s.h_in, old, keep);
  if (old)
    CuMemFreeHost (old);
  gst_cuda_context_pop (nullptr);
  return ok ? (uint8_t *) s.h_in : nullptr;
}

bool CudaDecoder::locate (int slot, size_t bytes, bool final, const ScanParams &p,
    std::vector<FoundCandidate> *found)
{
  CudaSlot &s = res_->slots[slot];
  found->clear ();
  size_t limit = scan_limit (bytes, final);
  size_t words = (limit + 31) / 32;
  if (!words)
    return true;
  /* Every candidate is a sync code plus a parsed header: real frames are
   * rarely under 16 bytes, and a chunk that has more candidates than this
   * (long digital silence, crafted data) is located on the CPU. */
  size_t cap = bytes / 16 + 1024;
  if (!gst_cuda_context_push (ctx_))
    return false;
  uint64_t size64 = bytes;
  uint32_t fin = final ? 1 : 0;
  uint32_t cap32 = (uint32_t) cap;
  uint64_t words64 = words;
  uint64_t bound = p.frame_bound;
  ScanParams sp = p;
  bool ok = ensure (&s.d_in, &s.c_in, bytes + 16) && ensure (&s.d_bits, &s.c_bits, words * 4) &&
      ensure (&s.d_cands, &s.c_cands, cap * sizeof (GpuCandidate)) &&
      ensure (&s.d_count, &s.c_count, 4) && ensure_host (&s.h_count, &s.hc_count, 4);
  if (ok) {
    *(uint32_t *) s.h_count = 0;
    ok = copy_async (s.d_in, nullptr, 0, s.h_in, bytes, s.stream) &&
        copy_async (s.d_count, nullptr, 0, s.h_count, 4, s.stream);
  }
  if (ok) {
    void *a[] = { &s.d_in, &size64, &fin, &sp, &s.d_bits, &words64, &s.d_cands, &cap32, &s.d_count };
    ok = cu_ok (CuLaunchKernel (res_->k_scan, (unsigned) ((words + 255) / 256), 1, 1, 256, 1, 1,
        0, s.stream, a, nullptr), "cuLaunchKernel (scan)") &&
        copy_async (0, s.h_count, s.d_count, nullptr, 4, s.stream) &&
        cu_ok (CuStreamSynchronize (s.stream), "cuStreamSynchronize");
  }
  size_t n = ok ? *(const uint32_t *) s.h_count : 0;
  if (ok && n > cap) {
    GST_DEBUG ("GPU scan: %zu candidates in %zu bytes, more than its list holds", n, bytes);
    ok = false;
  }
  if (ok && n) {
    void *a[] = { &s.d_in, &size64, &fin, &s.d_bits, &s.d_cands, &cap32, &s.d_count, &bound };
    ok = cu_ok (CuLaunchKernel (res_->k_ends, (unsigned) ((n + 127) / 128), 1, 1, 128, 1, 1, 0,
        s.stream, a, nullptr), "cuLaunchKernel (ends)") &&
        ensure_host (&s.h_cands, &s.hc_cands, n * sizeof (GpuCandidate)) &&
        copy_async (0, s.h_cands, s.d_cands, nullptr, n * sizeof (GpuCandidate), s.stream) &&
        cu_ok (CuStreamSynchronize (s.stream), "cuStreamSynchronize");
  }
  gst_cuda_context_pop (nullptr);
  if (!ok)
    return false;
  s.uploaded = bytes;
  const GpuCandidate *c = (const GpuCandidate *) s.h_cands;
  found->resize (n);
  for (size_t i = 0; i < n; i++)
    (*found)[i] = FoundCandidate { c[i].offset, c[i].end };
  return true;
}

GstBuffer *CudaDecoder::output_buffer (size_t bytes, uint8_t **data)
{
  std::shared_ptr<OutputBlocks> &blocks = res_->blocks;
  void *ptr = nullptr;
  size_t cap = 0;
  void *too_small = nullptr;
  {
    std::lock_guard<std::mutex> g (blocks->lock);
    if (blocks->out >= kMaxOutputBlocks)
      return nullptr;
    for (size_t i = 0; i < blocks->idle.size (); i++) {
      if (blocks->idle[i].second >= bytes) {
        ptr = blocks->idle[i].first;
        cap = blocks->idle[i].second;
        blocks->idle.erase (blocks->idle.begin () + (long) i);
        break;
      }
    }
    if (!ptr && !blocks->idle.empty ()) { /* batches grew: one smaller block goes */
      too_small = blocks->idle.back ().first;
      blocks->idle.pop_back ();
    }
    blocks->out++;
  }
  if (!ptr || too_small) {
    bool ok = gst_cuda_context_push (ctx_);
    if (ok && too_small)
      CuMemFreeHost (too_small);
    if (ok && !ptr) {
      cap = bytes + bytes / 4 + 4096; /* batches vary a little */
      if (!cu_ok (CuMemAllocHost (&ptr, cap), "cuMemAllocHost"))
        ptr = nullptr;
    }
    if (ok)
      gst_cuda_context_pop (nullptr);
    if (!ptr) {
      std::lock_guard<std::mutex> g (blocks->lock);
      blocks->out--;
      return nullptr;
    }
  }
  OutputBlock *b = new OutputBlock { blocks, (GstCudaContext *) gst_object_ref (ctx_), ptr, cap };
  *data = (uint8_t *) ptr;
  return gst_buffer_new_wrapped_full ((GstMemoryFlags) 0, ptr, cap, 0, bytes, b, output_block_free);
}

bool CudaDecoder::submit (int slot, const FrameJob *jobs, size_t n, const BatchFormat &fmt,
    size_t out_samples, uint8_t *out_host)
{
  CudaSlot &s = res_->slots[slot];
  if (!gst_cuda_context_push (ctx_))
    return false;
  const uint8_t *base = (const uint8_t *) s.h_in;
  size_t in_bytes = 0;
  bool ok = ensure_host (&s.h_jobs, &s.hc_jobs, n * sizeof (GpuJob));
  if (ok) {
    GpuJob *gj = (GpuJob *) s.h_jobs;
    for (size_t i = 0; i < n; i++) {
      gj[i].offset = jobs[i].data ? (uint64_t) (jobs[i].data - base) : 0;
      gj[i].out_sample = jobs[i].out_sample;
      gj[i].size = (uint32_t) jobs[i].size;
      gj[i].samples = jobs[i].samples;
      gj[i].silence = jobs[i].silence ? 1 : 0;
      gj[i].crc_checked = jobs[i].crc_checked ? 1 : 0;
      if (jobs[i].data && gj[i].offset + jobs[i].size > in_bytes)
        in_bytes = gj[i].offset + jobs[i].size;
    }
  }
  size_t ch = fmt.channels;
  size_t out_bytes = out_samples * ch * out_format_bytes (fmt.format);
  bool wide = fmt.bps == 32;
  ok = ok && ensure (&s.d_in, &s.c_in, in_bytes + 16) &&
      ensure (&s.d_jobs, &s.c_jobs, n * sizeof (GpuJob)) &&
      ensure (&s.d_planar, &s.c_planar, out_samples * ch * 4) &&
      (!wide || ensure (&s.d_side, &s.c_side, out_samples * 8)) &&
      ensure (&s.d_out, &s.c_out, out_bytes) &&
      ensure (&s.d_status, &s.c_status, n * sizeof (int)) &&
      (out_host || ensure_host (&s.h_out, &s.hc_out, out_bytes)) &&
      ensure_host (&s.h_status, &s.hc_status, n * sizeof (int));
  /* after locate() the chunk is on the device already */
  ok = ok && (in_bytes <= s.uploaded || copy_async (s.d_in, nullptr, 0, s.h_in, in_bytes, s.stream)) &&
      copy_async (s.d_jobs, nullptr, 0, s.h_jobs, n * sizeof (GpuJob), s.stream);
  if (ok && n) {
    GpuFormat gf;
    gf.sample_rate = fmt.defaults.sample_rate;
    gf.bps = fmt.bps;
    gf.legacy_variable = fmt.defaults.legacy_variable;
    gf.channels = fmt.channels;
    gf.out_format = fmt.format;
    gf.pad = 0;
    int ni = (int) n;
    CUdeviceptr side = wide ? s.d_side : 0;
    void *a1[] = { &s.d_in, &s.d_jobs, &ni, &gf, &s.d_planar, &side, &s.d_status };
    /* small blocks spread the frames over every SM: each thread is a frame */
    unsigned threads = 32;
    ok = cu_ok (CuLaunchKernel (res_->k_decode, (unsigned) ((n + threads - 1) / threads), 1, 1,
        threads, 1, 1, 0, s.stream, a1, nullptr), "cuLaunchKernel (decode)");
    void *a2[] = { &s.d_jobs, &gf, &s.d_planar, &s.d_out };
    ok = ok && cu_ok (CuLaunchKernel (res_->k_interleave, (unsigned) n, 1, 1, 256, 1, 1, 0,
        s.stream, a2, nullptr), "cuLaunchKernel (interleave)");
  }
  s.out_host = out_host ? out_host : (uint8_t *) s.h_out;
  ok = ok && copy_async (0, s.out_host, s.d_out, nullptr, out_bytes, s.stream) &&
      copy_async (0, s.h_status, s.d_status, nullptr, n * sizeof (int), s.stream);
  if (!ok) /* nothing queued so far may still write into out_host */
    CuStreamSynchronize (s.stream);
  gst_cuda_context_pop (nullptr);
  s.n = n;
  s.out_bytes = out_bytes;
  s.busy = ok;
  s.uploaded = 0;
  return ok;
}

bool CudaDecoder::collect (int slot, FrameJob *jobs, size_t n, const uint8_t **pcm, size_t *pcm_bytes)
{
  CudaSlot &s = res_->slots[slot];
  if (!s.busy || n != s.n)
    return false;
  if (!gst_cuda_context_push (ctx_))
    return false;
  bool ok = cu_ok (CuStreamSynchronize (s.stream), "cuStreamSynchronize");
  gst_cuda_context_pop (nullptr);
  s.busy = false;
  if (!ok)
    return false;
  const int *st = (const int *) s.h_status;
  for (size_t i = 0; i < n; i++)
    jobs[i].status = jobs[i].silence ? jobs[i].status : st[i];
  *pcm = s.out_host;
  *pcm_bytes = s.out_bytes;
  return true;
}

#else /* no CUDA kernels in this build */

bool CudaDecoder::runtime_available () { return false; }
bool CudaDecoder::kernels_built () { return false; }
CudaDecoder::CudaDecoder () {}
CudaDecoder::~CudaDecoder () {}
bool CudaDecoder::open (GstCudaContext *, GError **error)
{
  g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NOT_IMPLEMENTED,
      "this build of cudaflacdec has no CUDA kernels (built without nvcc or gstreamer-cuda)");
  return false;
}
void CudaDecoder::close () {}
uint8_t *CudaDecoder::reserve_input (int, size_t, size_t) { return nullptr; }
bool CudaDecoder::prepare (size_t, size_t, unsigned) { return false; }
bool CudaDecoder::locate (int, size_t, bool, const ScanParams &, std::vector<FoundCandidate> *) { return false; }
GstBuffer *CudaDecoder::output_buffer (size_t, uint8_t **) { return nullptr; }
bool CudaDecoder::submit (int, const FrameJob *, size_t, const BatchFormat &, size_t, uint8_t *) { return false; }
bool CudaDecoder::collect (int, FrameJob *, size_t, const uint8_t **, size_t *) { return false; }

#endif

} // namespace flac
} // namespace gpc
