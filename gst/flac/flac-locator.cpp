/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "flac-locator.h"

#include <string.h>

#include <algorithm>

#include "flac-crc.h"
#include "flac-frame.h"
#include "flac-locate-scan.h"

namespace gpc {
namespace flac {

StreamParams StreamParams::from_streaminfo (const StreamInfo &si)
{
  StreamParams p;
  p.sample_rate = si.sample_rate;
  p.channels = si.channels;
  p.bps = si.bps;
  p.max_blocksize = si.max_blocksize;
  p.max_framesize = si.max_framesize;
  p.legacy_variable = si.min_blocksize != si.max_blocksize;
  p.total_samples = si.total_samples;
  return p;
}

StreamDefaults StreamParams::defaults () const
{
  StreamDefaults d;
  d.sample_rate = sample_rate;
  d.bps = bps;
  d.legacy_variable = legacy_variable;
  return d;
}

bool StreamParams::matches (const FrameHeader &h) const
{
  return scan_matches (scan_params (), h);
}

ScanParams StreamParams::scan_params () const
{
  ScanParams p;
  p.defaults = defaults ();
  if (!any_format) {
    p.sample_rate = sample_rate;
    p.channels = channels;
    p.bps = bps;
    p.max_blocksize = max_blocksize;
  }
  p.frame_bound = frame_bound ();
  return p;
}

size_t StreamParams::frame_bound () const
{
  size_t bs = max_blocksize ? max_blocksize : kMaxBlockSize;
  /* where the format may change between frames, STREAMINFO's largest frame
   * and its channels and depth bound only its own part of the stream: a
   * frame of 24-bit mono after 16-bit stereo can be larger */
  if (max_framesize && !any_format)
    return (size_t) max_framesize + 64;
  size_t ch = channels && !any_format ? channels : kMaxChannels;
  size_t b = bps && !any_format ? bps : 32;
  size_t worst = kMaxHeaderBytes + ch * (2 + (bs * (b + 1) + 7) / 8) + 2;
  return max_framesize ? std::max (worst, (size_t) max_framesize + 64) : worst;
}

bool FrameLocator::continues (const FrameHeader &prev, const FrameHeader &next) const
{
  if (prev.variable != next.variable)
    return false;
  if (next.variable)
    return next.number == prev.number + prev.blocksize;
  return next.number == prev.number + 1;
}

void FrameLocator::scan (const uint8_t *data, size_t size, bool final)
{
  cands_.clear ();
  size_t limit = scan_limit (size, final);
  if (!limit)
    return;
  size_t nseg = std::max<size_t> (1, std::min<size_t> (pool_->size () * 4, limit / 65536 + 1));
  size_t seg = (limit + nseg - 1) / nseg;
  std::vector<std::vector<Candidate>> parts (nseg);
  ScanParams sp = params_.scan_params ();
  pool_->parallel_for (nseg, [&] (size_t s, unsigned) {
    size_t i = s * seg;
    size_t e = std::min (limit, i + seg);
    auto &out = parts[s];
    while (i < e) {
      const void *f = memchr (data + i, 0xff, e - i);
      if (!f)
        break;
      i = (const uint8_t *) f - data;
      Candidate c;
      if (candidate_at (data, size, i, sp, &c.hdr)) {
        c.offset = i;
        c.end = -1;
        out.push_back (c);
      }
      i++;
    }
  });
  for (auto &p : parts)
    cands_.insert (cands_.end (), p.begin (), p.end ());
}

void FrameLocator::locate_found (const uint8_t *data, size_t size, bool final,
    const FoundCandidate *found, size_t n, LocateResult *out)
{
  /* The GPU appends candidates in no particular order. */
  std::vector<FoundCandidate> sorted (found, found + n);
  std::sort (sorted.begin (), sorted.end (),
      [] (const FoundCandidate &a, const FoundCandidate &b) { return a.offset < b.offset; });
  cands_.clear ();
  cands_.reserve (n);
  std::vector<int64_t> ends;
  ends.reserve (n);
  ScanParams sp = params_.scan_params ();
  size_t limit = scan_limit (size, final);
  for (const FoundCandidate &f : sorted) {
    Candidate c;
    /* the same test the GPU ran: an entry that fails it is not trusted */
    if (f.offset >= limit || !candidate_at (data, size, (size_t) f.offset, sp, &c.hdr))
      continue;
    c.offset = (size_t) f.offset;
    c.end = -1;
    cands_.push_back (c);
    ends.push_back (f.end);
  }
  /* ends as candidate indices, as find_ends() gives them */
  for (size_t k = 0; k < cands_.size (); k++) {
    int64_t e = ends[k];
    if (e >= 0 && (size_t) e == size) {
      cands_[k].end = final ? -2 : -1;
    } else if (e > (int64_t) cands_[k].offset) {
      auto it = std::lower_bound (cands_.begin () + k + 1, cands_.end (), (size_t) e,
          [] (const Candidate &a, size_t o) { return a.offset < o; });
      cands_[k].end = it != cands_.end () && it->offset == (size_t) e ? it - cands_.begin () : -1;
    }
  }
  chain (data, size, final, out);
}

int64_t FrameLocator::end_after (const uint8_t *data, size_t size, bool final, size_t k,
    size_t from, const FrameHeader *must_continue) const
{
  const Candidate &c = cands_[k];
  size_t bound = params_.frame_bound ();
  uint16_t crc = 0;
  size_t p = c.offset;
  size_t min_end = c.offset + c.hdr.header_bytes + 3;
  for (size_t m = k + 1; m < cands_.size (); m++) {
    size_t o = cands_[m].offset;
    if (o - c.offset > bound)
      return -1;
    crc = crc16 (data + p, o - p, crc);
    p = o;
    if (m >= from && crc == 0 && o >= min_end &&
        (!must_continue || continues (*must_continue, cands_[m].hdr)))
      return (int64_t) m;
  }
  if (final && size - c.offset <= bound && crc16 (data + p, size - p, crc) == 0 && size >= min_end)
    return -2;
  return -1;
}

void FrameLocator::find_ends (const uint8_t *data, size_t size, bool final)
{
  size_t n = cands_.size ();
  size_t per = 64;
  pool_->parallel_for ((n + per - 1) / per, [&] (size_t b, unsigned) {
    size_t e = std::min (n, (b + 1) * per);
    for (size_t k = b * per; k < e; k++)
      cands_[k].end = end_after (data, size, final, k, k + 1, nullptr);
  });
}

bool FrameLocator::chained (const uint8_t *, size_t, bool, size_t k) const
{
  int64_t e = cands_[k].end;
  if (e == -2)
    return true;
  if (e < 0)
    return false;
  return continues (cands_[k].hdr, cands_[(size_t) e].hdr);
}

/* Most samples that `gap` bytes of lost frames can have held: every frame is
 * at least a header, one constant subframe per channel and a CRC-16. Keeps a
 * resynchronisation on a far-off (false or damaged) frame number from turning
 * a few bytes into hours of silence. */
static uint64_t max_samples_in (size_t gap, const StreamParams &p)
{
  size_t ch = p.channels ? p.channels : 1;
  size_t bps = p.bps ? p.bps : 4;
  size_t min_frame = 6 + ch * (1 + (bps + 7) / 8) + 2;
  uint64_t bs = p.max_blocksize ? p.max_blocksize : kMaxBlockSize;
  return ((uint64_t) gap / min_frame + 1) * bs;
}

static uint64_t first_sample_of (const FrameHeader &h, uint32_t fixed_blocksize)
{
  return h.variable ? h.number : h.number * (uint64_t) fixed_blocksize;
}

void FrameLocator::locate (const uint8_t *data, size_t size, bool final, LocateResult *out)
{
  scan (data, size, final);
  find_ends (data, size, final);
  chain (data, size, final, out);
}

void FrameLocator::chain (const uint8_t *data, size_t size, bool final, LocateResult *out)
{
  out->frames.clear ();
  out->consumed = 0;
  size_t bound = params_.frame_bound ();
  size_t nc = cands_.size ();
  size_t pos = 0;
  size_t k = 0; /* first candidate at or after pos */
  bool check_continuity = have_prev_;

  if (!have_prev_) {
    /* No numbering yet: start at the first frame followed by a continuing one. */
    for (; k < nc; k++) {
      /* a candidate near the end may yet be followed by its successor;
       * one that is already is a start (a live join plays at once) */
      if (!final && size - cands_[k].offset < bound && !chained (data, size, final, k))
        break;
      if (chained (data, size, final, k) &&
          (!at_stream_start_ || first_sample_of (cands_[k].hdr, cands_[k].hdr.blocksize) <=
              max_samples_in (cands_[k].offset, params_)))
        break;
    }
    /* A stream that ends inside its second frame: the frame right after the
     * metadata is the first one even though nothing follows it. */
    if (k == nc && final && at_stream_start_ && nc > 0 && cands_[0].offset == 0)
      k = 0;
    if (k == nc || (!final && size - cands_[k].offset < bound && !chained (data, size, final, k))) {
      size_t keep = final ? size : (k < nc ? cands_[k].offset : (size > bound ? size - bound : 0));
      out->consumed = final ? size : keep;
      return;
    }
    pos = cands_[k].offset;
    const FrameHeader &h = cands_[k].hdr;
    if (at_stream_start_ && pos > 0) {
      /* The stream's first frame(s) are damaged: silence up to this one. */
      LocatedFrame f;
      f.offset = 0;
      f.size = pos;
      f.hdr = h;
      f.hdr.number = 0;
      f.corrupt = true;
      f.first_sample = 0;
      uint64_t first = first_sample_of (h, h.blocksize);
      f.samples = (uint32_t) std::min<uint64_t> (first, 1u << 30);
      if (f.samples)
        out->frames.push_back (f);
    }
    /* the stand-in predecessor that the first frame continues */
    prev_ = h;
    prev_.number = h.variable ? h.number - h.blocksize : h.number - 1;
    prev_first_sample_ = first_sample_of (h, h.blocksize) - h.blocksize;
    have_prev_ = true;
    check_continuity = true;
  }
  at_stream_start_ = false;

  while (pos < size) {
    while (k < nc && cands_[k].offset < pos)
      k++;
    bool at = k < nc && cands_[k].offset == pos;
    if (at && check_continuity && !continues (prev_, cands_[k].hdr))
      at = false;
    if (at && cands_[k].end != -1) {
      int64_t e = cands_[k].end;
      if (e >= 0 && !continues (cands_[k].hdr, cands_[(size_t) e].hdr))
        e = end_after (data, size, final, k, (size_t) e + 1, &cands_[k].hdr);
      if (e != -1) {
        size_t end = e == -2 ? size : cands_[(size_t) e].offset;
        LocatedFrame f;
        f.offset = pos;
        f.size = end - pos;
        f.hdr = cands_[k].hdr;
        f.samples = f.hdr.blocksize;
        f.crc_checked = true;
        f.first_sample = prev_first_sample_ + prev_.blocksize;
        out->frames.push_back (f);
        if (f.samples) {
          double b = (double) f.size / f.samples;
          bytes_per_sample_ = bytes_per_sample_ > 0 ? 0.9 * bytes_per_sample_ + 0.1 * b : b;
        }
        prev_ = f.hdr;
        prev_first_sample_ = f.first_sample;
        have_prev_ = true;
        check_continuity = true;
        pos = end;
        continue;
      }
    }
    /* Nothing decodable starts here. */
    if (!final && size - pos < bound)
      break; /* the frame may just be incomplete: wait for more data */
    size_t r = k + (at ? 1 : 0);
    for (; r < nc; r++) {
      const FrameHeader &h = cands_[r].hdr;
      bool later = h.variable == prev_.variable &&
          (h.variable ? h.number >= prev_.number + prev_.blocksize : h.number > prev_.number);
      if (later) {
        uint64_t lost = h.variable ? h.number - (prev_.number + prev_.blocksize)
                                   : (h.number - prev_.number - 1) * (uint64_t) prev_.blocksize;
        later = lost <= max_samples_in (cands_[r].offset - pos, params_);
      }
      if (later && chained (data, size, final, r))
        break;
      if (!final && size - cands_[r].offset < bound) {
        r = nc;
        break;
      }
    }
    uint64_t first = prev_first_sample_ + prev_.blocksize;
    size_t stop = r < nc ? cands_[r].offset : size;
    uint64_t next_first;
    if (r < nc) {
      /* the numbering gap, counted from our own position (never backwards) */
      const FrameHeader &h = cands_[r].hdr;
      uint64_t lost = h.variable ? h.number - (prev_.number + prev_.blocksize)
                                 : (h.number - prev_.number - 1) * (uint64_t) prev_.blocksize;
      next_first = first + lost;
    } else if (final) {
      /* Damaged end of stream: up to STREAMINFO's total, but no more than
       * the bytes left can have held (a cut download is not hours of
       * silence); at least the frame whose header is here. */
      uint64_t want = params_.total_samples > first ? params_.total_samples - first : 0;
      uint64_t cap = max_samples_in (size - pos, params_);
      if (bytes_per_sample_ > 0) /* what the stream so far suggests those bytes held */
        cap = std::min<uint64_t> (cap, (uint64_t) ((double) (size - pos) / bytes_per_sample_ * 1.5) +
            prev_.blocksize);
      if (at)
        want = std::max<uint64_t> (want, cands_[k].hdr.blocksize);
      next_first = first + std::min (want, std::max<uint64_t> (cap, at ? cands_[k].hdr.blocksize : 0));
    } else {
      next_first = first;
    }
    if (r < nc || final) {
      if (at && next_first - first >= cands_[k].hdr.blocksize) {
        /* A good header whose end was not found: the frame itself may be
         * intact and its successor damaged. Hand it to the decoder, which
         * finds its length and checks its CRC-16 (silence if that fails). */
        LocatedFrame t;
        t.offset = pos;
        t.size = stop - pos;
        t.hdr = cands_[k].hdr;
        t.first_sample = first;
        t.samples = t.hdr.blocksize;
        out->frames.push_back (t);
        prev_ = t.hdr;
        prev_first_sample_ = first;
        first += t.samples;
      }
      LocatedFrame f;
      f.offset = pos;
      f.size = stop - pos;
      f.hdr = prev_;
      f.corrupt = true;
      f.first_sample = first;
      f.samples = (uint32_t) std::min<uint64_t> (next_first - first, 1u << 30);
      if (f.samples)
        out->frames.push_back (f);
      if (r < nc) {
        /* resume at r: a stand-in predecessor that r continues */
        const FrameHeader &h = cands_[r].hdr;
        prev_ = h;
        prev_.number = h.variable ? h.number - h.blocksize : h.number - 1;
        prev_first_sample_ = next_first - h.blocksize;
        pos = stop;
        k = r;
        continue;
      }
      pos = size;
      break;
    }
    LocatedFrame f;
    f.offset = pos;
    f.hdr = prev_;
    f.corrupt = true;
    f.first_sample = first;
    /* Garbage without a resync point in reach: drop what cannot start a frame. */
    size_t drop = size > bound ? size - bound : pos;
    if (drop > pos) {
      f.size = drop - pos;
      f.samples = 0;
      out->frames.push_back (f);
      pos = drop;
    }
    break;
  }
  out->consumed = final ? size : pos;
}

} // namespace flac
} // namespace gpc
