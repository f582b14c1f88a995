/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What cudaflacdec's scheduler (cudaflacdec-backend.cpp) asks of a backend
 * that decodes batches of frames: the CPU backend decodes a batch on every
 * core and pushes it at once (cudaflacdec-cpu-backend.cpp); the CUDA backend
 * uploads, decodes and downloads it on the GPU and pushes it once the next
 * batch is on its way, one batch in flight (cudaflacdec-cuda-backend.cpp,
 * built only with the CUDA kernels). A backend belongs to one DecState and
 * runs on the streaming thread, but for start(), which backend=auto runs on
 * a thread of its own.
 */
#pragma once

#include <gst/gst.h>

#include <stddef.h>
#include <stdint.h>

#include <memory>

typedef struct _GstCudaFlacDec GstCudaFlacDec;

namespace gpc {
namespace flac {
struct LocateResult;
}
namespace cudaflacdec {

struct Batch;
struct DecState;

class FlacBatchBackend {
 public:
  FlacBatchBackend (GstCudaFlacDec *self, DecState *st) : self_ (self), st_ (st) {}
  virtual ~FlacBatchBackend () = default;
  FlacBatchBackend (const FlacBatchBackend &) = delete;
  FlacBatchBackend &operator= (const FlacBatchBackend &) = delete;

  /* For logs: "CPU", "CUDA". */
  virtual const char *name () const = 0;
  /* Makes the backend ready to decode. False, with *error set, when it
   * cannot (no device, a module the GPU cannot load). */
  virtual bool start (GError **error) = 0;
  /* After the last batch is pushed or discarded. */
  virtual void stop () {}

  /* Framed input: where the frame bytes of batch b go (its jobs point into
   * them). Null with *ret set where that fails or a flow error came. */
  virtual uint8_t *input (Batch &b, size_t bytes, GstFlowReturn *ret) = 0;
  /* Unframed input: makes the chunk gathered in st->in readable by this
   * backend, before it is located and decoded. */
  virtual GstFlowReturn take_chunk () { return GST_FLOW_OK; }
  /* Unframed input: locates the chunk's frames on the device. False: the
   * caller locates them on the CPU. */
  virtual bool locate (bool final, gpc::flac::LocateResult *lr) { (void) final; (void) lr; return false; }
  /* Decodes the batch; it is pushed now, or by the next decode() or by
   * finish() (live input: always now). */
  virtual GstFlowReturn decode (std::unique_ptr<Batch> b) = 0;
  /* Pushes the batch still being decoded, if any. */
  virtual GstFlowReturn finish () { return GST_FLOW_OK; }
  /* Drops the batch still being decoded, if any (flush, stop). */
  virtual void discard () {}
  /* Unframed input: done with the chunk's first `consumed` bytes; the rest
   * waits for the next chunk. */
  virtual GstFlowReturn release_chunk (size_t consumed) = 0;

 protected:
  GstCudaFlacDec *self_;
  DecState *st_; /* backend=auto's start-up thread may run start() after stop() took self->st away */
};

std::unique_ptr<FlacBatchBackend> make_cpu_backend (GstCudaFlacDec *self, DecState *st);
/* Null where the plugin is built without the CUDA kernels. */
std::unique_ptr<FlacBatchBackend> make_cuda_backend (GstCudaFlacDec *self, DecState *st);

} // namespace cudaflacdec
} // namespace gpc
