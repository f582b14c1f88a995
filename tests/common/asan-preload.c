/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * LD_PRELOAD shim for AddressSanitizer runs (tools/sanitize.sh address).
 * Built without the sanitizer (tools/sanitize.sh compiles it), so that it
 * can be preloaded into the uninstrumented programs that tests run too.
 *
 * dlclose does nothing, so every library stays loaded until the process
 * exits. LeakSanitizer looks for leaks at exit and names the module of each
 * stack frame then. The Vulkan loader closes the driver (lavapipe) and the
 * layers when the last instance goes away, so what they allocated and never
 * freed showed as "<unknown module>" frames that no suppression can name,
 * or as frames of whatever library was loaded at those addresses later.
 * Kept loaded, their frames carry their names, and what their globals still
 * point to stays reachable, as in a process that never closes them. Our
 * code calls dlclose only to drop what a RTLD_NOLOAD probe took.
 *
 * __register_frame and __deregister_frame do nothing, so the unwind tables
 * of code that LLVM compiles at run time (lavapipe's shaders) are not
 * registered with libgcc. ASan records a stack for every allocation; the
 * exact unwinder (fast_unwind_on_malloc=0), the only one that walks through
 * libraries built without frame pointers (GLib, GStreamer), deadlocks when
 * such tables are registered: libgcc sorts them on first use under its lock
 * and allocates while it does, and that allocation unwinds again into the
 * same lock. Nothing unwinds through shader code (it neither throws nor
 * calls back), so stacks lose nothing.
 */

int
dlclose (void *handle)
{
  (void) handle;
  return 0;
}

void
__register_frame (void *begin)
{
  (void) begin;
}

void
__deregister_frame (void *begin)
{
  (void) begin;
}
