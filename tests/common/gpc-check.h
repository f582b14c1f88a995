/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The gst-check suite every element test builds: one test case "general"
 * holding the test functions in order (GST_CHECKS selects by name).
 */
#pragma once

#include <gst/check/gstcheck.h>

#include <initializer_list>

namespace gpc_test {

struct CheckTest {
  TFun fn;
  const char *name;
};

/* Suite `name` with `tests`; timeout_s 0 keeps gst-check's default. */
inline Suite *
check_suite (const char *name, std::initializer_list<CheckTest> tests, int timeout_s = 0)
{
  Suite *s = suite_create (name);
  TCase *tc = tcase_create ("general");
  if (timeout_s > 0)
    tcase_set_timeout (tc, timeout_s);
  suite_add_tcase (s, tc);
  for (const CheckTest &t : tests)
    _tcase_add_test (tc, t.fn, t.name, 0, 0, 0, 1);
  return s;
}

} // namespace gpc_test

/* An entry of check_suite's list, named as GST_START_TEST named it. */
#define GPC_CHECK_TEST(t) (gpc_test::CheckTest { t, #t })
