/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The support vector regression of a VMAF model: libsvm's text format (nu-SVR
 * or epsilon-SVR with the RBF kernel, the only kind VMAF models use) and its
 * prediction, in double precision and the same order of operations as libsvm,
 * so the result is the same double.
 */
#pragma once

#include <string>
#include <vector>

namespace gpc {

class VmafSvm {
 public:
  /* Parses libsvm's model text; false with *error set when it is not an
   * RBF regression model. */
  bool parse (const std::string &text, std::string *error);

  /* sum_i coef_i * exp (-gamma * |x - sv_i|^2) - rho, for x of dimensions()
   * values (attribute j of libsvm is x[j - 1]). */
  double predict (const std::vector<double> &x) const;

  /* Highest attribute index of any support vector. */
  unsigned dimensions () const { return dims_; }
  size_t support_vectors () const { return coef_.size (); }

 private:
  double gamma_ = 0, rho_ = 0;
  unsigned dims_ = 0;
  std::vector<double> coef_;
  /* Dense support vectors, dims_ values each; an attribute a vector leaves
   * out is 0, which gives libsvm's sparse sum exactly (x - 0 == x). */
  std::vector<std::vector<double>> sv_;
};

} // namespace gpc
