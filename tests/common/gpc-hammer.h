/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Concurrent use of a running pipeline, for the thread sanitizer to watch:
 * the application thread queries and reconfigures a pipeline while its
 * streaming threads work.
 */
#pragma once

/* Runs `launch` (gst-launch syntax; a seekable source, e.g. videotestsrc or
 * filesrc) and, for `rounds` rounds from the calling thread, asks for its
 * latency, position and duration, seeks back to the start with a flush,
 * pauses and resumes it and, with `ready_cycles`, takes it down to READY
 * and back, which stops the elements and renegotiates their caps (not for
 * demuxers: gst_parse_launch links their pads once). End of stream
 * restarts it with a seek. Fails the test on an error message; checks
 * nothing about timing. */
void gpc_test_hammer (const char *launch, int rounds, bool ready_cycles = true);
