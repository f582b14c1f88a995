/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Writes music-like synthetic PCM (raw, signed little-endian, (bps+7)/8
 * bytes a sample, interleaved) to stdout for the benchmark files: notes of
 * three partials per channel with decaying envelopes, a slow chord
 * progression, a little noise. Never silence, so that the encoder has to
 * work like on real music. Oscillators are rotated phasors (no sin() per
 * sample) so hours of audio take seconds.
 * Usage: flac-bench-gen CHANNELS BPS RATE SECONDS [SEED] > file.raw
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <vector>

namespace {

struct Osc {
  double c = 1, s = 0, rc = 1, rs = 0;
  void set (double freq, double rate) {
    rc = cos (2 * M_PI * freq / rate);
    rs = sin (2 * M_PI * freq / rate);
  }
  double step () {
    double nc = c * rc - s * rs, ns = c * rs + s * rc;
    c = nc;
    s = ns;
    return s;
  }
  void normalize () {
    double m = sqrt (c * c + s * s);
    c /= m;
    s /= m;
  }
};

} // namespace

int main (int argc, char **argv)
{
  if (argc < 5) {
    fprintf (stderr, "usage: %s CHANNELS BPS RATE SECONDS [SEED]\n", argv[0]);
    return 2;
  }
  unsigned ch = (unsigned) atoi (argv[1]), bps = (unsigned) atoi (argv[2]);
  unsigned rate = (unsigned) atoi (argv[3]);
  double seconds = atof (argv[4]);
  uint64_t rng = argc > 5 ? strtoull (argv[5], NULL, 0) : 0x1234567;
  if (ch < 1 || ch > 8 || bps < 4 || bps > 32 || rate == 0)
    return 2;
  auto rnd = [&] () {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
  };
  unsigned nb = (bps + 7) / 8;
  double full = ldexp (1.0, (int) bps - 1) - 1;
  uint64_t total = (uint64_t) (seconds * rate);
  const double scale[7] = { 0, 2, 4, 5, 7, 9, 11 };
  std::vector<Osc> osc (ch * 3);
  std::vector<double> env (ch, 1.0), pan (ch);
  for (unsigned c = 0; c < ch; c++)
    pan[c] = 0.6 + 0.4 * ((c * 37) % 10) / 10.0;
  uint64_t note_len = rate / 4, next_note = 0;
  double decay = exp (-5.0 / rate);
  std::vector<uint8_t> out (4096 * ch * nb);
  size_t fill = 0;
  for (uint64_t i = 0; i < total; i++) {
    if (i == next_note) {
      unsigned chord = (unsigned) ((i / (rate * 2)) % 4);
      for (unsigned c = 0; c < ch; c++) {
        double semis = scale[(rnd () % 7)] + 12 * (double) (c % 3) + chord * 5;
        double f0 = 110.0 * pow (2.0, semis / 12.0);
        for (unsigned p = 0; p < 3; p++) {
          osc[c * 3 + p].set (f0 * (p + 1) * (1 + 0.001 * p), rate);
          osc[c * 3 + p].normalize ();
        }
        env[c] = 1.0;
      }
      note_len = rate / 8 + rnd () % (rate / 2);
      next_note = i + note_len;
    }
    for (unsigned c = 0; c < ch; c++) {
      double v = 0.5 * osc[c * 3].step () + 0.25 * osc[c * 3 + 1].step () + 0.12 * osc[c * 3 + 2].step ();
      env[c] *= decay;
      v = v * (0.25 + 0.75 * env[c]) * pan[c];
      v += 0.001 * ((double) (rnd () & 0xffff) / 32768.0 - 1.0);
      int64_t s = llrint (v * full * 0.9);
      for (unsigned b = 0; b < nb; b++)
        out[fill++] = (uint8_t) ((uint64_t) s >> (8 * b));
    }
    if (fill == out.size ()) {
      if (fwrite (out.data (), 1, fill, stdout) != fill)
        return 1;
      fill = 0;
    }
  }
  if (fill && fwrite (out.data (), 1, fill, stdout) != fill)
    return 1;
  return 0;
}
