/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmaf-svm.h"

#include <glib.h>
#include <math.h>
#include <string.h>

#include <sstream>

namespace gpc {

/* A number libsvm reads with operator>> (strtod, correctly rounded); the
 * locale-independent g_ascii_strtod gives the same double. */
static bool
parse_double (const std::string &s, double *out)
{
  char *end = NULL;
  if (s.empty ())
    return false;
  *out = g_ascii_strtod (s.c_str (), &end);
  return *end == '\0' && isfinite (*out);
}

bool
VmafSvm::parse (const std::string &text, std::string *error)
{
  std::istringstream in (text);
  std::string line;
  bool regression = false, rbf = false, have_gamma = false, have_rho = false, in_sv = false;
  size_t total = 0;
  coef_.clear ();
  sv_.clear ();
  dims_ = 0;
  std::vector<std::vector<std::pair<unsigned, double>>> sparse;
  while (std::getline (in, line)) {
    std::istringstream fields (line);
    std::string word;
    if (!(fields >> word))
      continue;
    if (!in_sv) {
      std::string value;
      fields >> value;
      if (word == "svm_type") {
        regression = value == "nu_svr" || value == "epsilon_svr";
      } else if (word == "kernel_type") {
        rbf = value == "rbf";
      } else if (word == "gamma") {
        have_gamma = parse_double (value, &gamma_);
      } else if (word == "rho") {
        std::string extra;
        have_rho = parse_double (value, &rho_) && !(fields >> extra);
      } else if (word == "total_sv") {
        total = (size_t) g_ascii_strtoull (value.c_str (), NULL, 10);
      } else if (word == "SV") {
        in_sv = true;
      }
      continue;
    }
    double coef;
    if (!parse_double (word, &coef)) {
      *error = "bad support vector coefficient '" + word + "'";
      return false;
    }
    std::vector<std::pair<unsigned, double>> nodes;
    unsigned last = 0;
    while (fields >> word) {
      const size_t colon = word.find (':');
      double v;
      char *end = NULL;
      const guint64 index = g_ascii_strtoull (word.c_str (), &end, 10);
      if (colon == std::string::npos || end != word.c_str () + colon || index <= last
          || index > 64 || !parse_double (word.substr (colon + 1), &v)) {
        *error = "bad support vector attribute '" + word + "'";
        return false;
      }
      last = (unsigned) index;
      nodes.emplace_back (last, v);
    }
    dims_ = MAX (dims_, last);
    coef_.push_back (coef);
    sparse.push_back (std::move (nodes));
  }
  if (!regression || !rbf) {
    *error = "not an RBF-kernel support vector regression (nu_svr or epsilon_svr)";
    return false;
  }
  if (!have_gamma || !have_rho || !in_sv || coef_.empty () || coef_.size () != total) {
    *error = "incomplete libsvm model (gamma, rho, total_sv and the SV list are required)";
    return false;
  }
  sv_.assign (coef_.size (), std::vector<double> (dims_, 0.0));
  for (size_t i = 0; i < sparse.size (); i++)
    for (const auto &n : sparse[i])
      sv_[i][n.first - 1] = n.second;
  return true;
}

double
VmafSvm::predict (const std::vector<double> &x) const
{
  const size_t n = MAX ((size_t) dims_, x.size ());
  double sum = 0;
  for (size_t i = 0; i < coef_.size (); i++) {
    /* Squared distance accumulated in attribute order, as libsvm does; an
     * attribute only one side has adds its square, which (v - 0)^2 is. */
    double d2 = 0;
    for (size_t j = 0; j < n; j++) {
      const double d = (j < x.size () ? x[j] : 0.0) - (j < dims_ ? sv_[i][j] : 0.0);
      d2 += d * d;
    }
    sum += coef_[i] * exp (-gamma_ * d2);
  }
  return sum - rho_;
}

} // namespace gpc
