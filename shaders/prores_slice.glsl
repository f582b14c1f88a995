/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * ProRes slice parsing shared by the fused decoder (prores_decode.comp) and
 * the split path's entropy pass (prores_vld.comp): slice records and
 * headers, the bit reader, the entropy decoders of Y / Cb / Cr and of alpha.
 * A transliteration of gst/prores/prores-slice.h; see
 * docs/prores-reference.md.
 *
 * The includer declares, before including: the spec constant DEPTH12 and
 * prores_io.glsl. The entropy decoders, for includers that define
 * PRORES_ENTROPY, need besides the shared s_cb[33] (codebooks, filled by
 * load_codebooks()) and
 *   struct CoefSink;  void sink_put (inout CoefSink s, uint pos, int v);
 * which receives a component's coefficients: pos is the position in the
 * component's coded order (scan index << log2 blocks | block), strictly
 * increasing over a component.
 */

/* GpuFrameParams word offsets. */
const uint FP_MB_WIDTH = 2u, FP_PIC_MB_HEIGHT = 3u, FP_CHROMA_444 = 4u, FP_ALPHA_BITS = 6u,
    FP_INTERLACED = 7u, FP_QMAT_LUMA = 15u, FP_QMAT_CHROMA = 31u;
const uint SLICE_DESC_WORD = 48u;

const uint BITS = DEPTH12 != 0u ? 12u : 10u;

/* Slice status codes (as gpc::prores::SliceStatus). */
const uint ST_OK = 0u, ST_TOO_SMALL = 1u, ST_BAD_SIZES = 2u, ST_BAD_CODEWORD = 3u,
    ST_AC_OVERRUN = 4u, ST_OVERREAD = 5u, ST_BAD_DESC = 6u;

const uint PROGRESSIVE_SCAN[64] = uint[64] (
  0, 1, 8, 9, 2, 3, 10, 11, 16, 17, 24, 25, 18, 19, 26, 27,
  4, 5, 12, 20, 13, 6, 7, 14, 21, 28, 29, 22, 15, 23, 30, 31,
  32, 33, 40, 48, 41, 34, 35, 42, 49, 56, 57, 50, 43, 36, 37, 44,
  51, 58, 59, 52, 45, 38, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63);
const uint INTERLACED_SCAN[64] = uint[64] (
  0, 8, 1, 9, 16, 24, 17, 25, 2, 10, 3, 11, 18, 26, 19, 27,
  32, 40, 33, 34, 41, 48, 56, 49, 42, 35, 43, 50, 57, 58, 51, 59,
  4, 12, 5, 6, 13, 20, 28, 21, 14, 7, 15, 22, 29, 36, 44, 37,
  30, 23, 31, 38, 45, 52, 60, 53, 46, 39, 47, 54, 61, 62, 55, 63);
const uint DC_CB[7] = uint[7] (0x04, 0x28, 0x28, 0x4D, 0x4D, 0x70, 0x70);
const uint RUN_CB[16] = uint[16] (0x06, 0x06, 0x05, 0x05, 0x04, 0x29, 0x29, 0x29,
    0x29, 0x28, 0x28, 0x28, 0x28, 0x28, 0x28, 0x4C);
const uint LEV_CB[10] = uint[10] (0x04, 0x0A, 0x05, 0x06, 0x04, 0x28, 0x28, 0x28, 0x28, 0x4C);

int sext16 (int v) { return (v << 16) >> 16; }
int sext16u (uint v) { return int (v << 16) >> 16; }

/* ---------------------------------------------------------- slice records */

struct SliceDesc {
  uint off, size, mb_x, mb_y, mb_count, bottom;
  uint luma_log2, chroma_log2;
};

/* The record of `slice`; false when it is not one the host can have built
 * (checked anyway: ST_BAD_DESC). */
bool slice_desc (uint slice, bool c444, out SliceDesc sd)
{
  const uint d = SLICE_DESC_WORD + slice * 4u;
  sd.off = in_words[d];
  sd.size = in_words[d + 1u];
  sd.mb_x = in_words[d + 2u] & 0xffffu;
  sd.mb_y = in_words[d + 2u] >> 16;
  sd.mb_count = in_words[d + 3u] & 0xffu;
  sd.bottom = (in_words[d + 3u] >> 8) & 1u;
  sd.luma_log2 = 2u + uint (findLSB (sd.mb_count));
  sd.chroma_log2 = sd.luma_log2 - (c444 ? 0u : 1u);
  const uint mb_count = sd.mb_count;
  return !((mb_count != 1u && mb_count != 2u && mb_count != 4u && mb_count != 8u) ||
      sd.mb_x + mb_count > in_words[FP_MB_WIDTH] || sd.mb_y >= in_words[FP_PIC_MB_HEIGHT] ||
      sd.off > pc.data_bytes || sd.size > pc.data_bytes - sd.off);
}

/* ------------------------------------------------------------ bit reader */

/* A reader of one component: absolute bit positions in the frame data and
 * a window of three big-endian words (base .. base + 2) kept in registers:
 * reads need the first two, so most are shifts rather than loads, and the
 * third is loaded one word ahead of its use, its latency hidden behind the
 * decoding of the word before (the entropy decoders are latency-bound). */
struct Reader {
  uint pos, end;
  bool overflow;
  uint base, w0, w1, w2;
};

uint bswap (uint x)
{
  return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
}

uint data_word (uint i)
{
  /* The host pads the data by 16 bytes; min() keeps even a bad offset inside. */
  return bswap (in_words[pc.data_word + min (i, (pc.data_bytes + 7u) >> 2)]);
}

/* The slice header: info = header size, qscale, Y, Cb, Cr, alpha sizes;
 * returns the slice's status. */
uint slice_header (uint s_off, uint s_size, out uint info[6])
{
  uint st = ST_OK;
  uint b1 = 0u, hs = 0u, ys = 0u, us = 0u, vs = 0u;
  if (s_size < 6u) {
    st = ST_TOO_SMALL;
  } else {
    uint w0 = data_word (s_off >> 2), w1 = data_word ((s_off >> 2) + 1u),
        w2 = data_word ((s_off >> 2) + 2u);
    uint sh = (s_off & 3u) * 8u;
    /* 8 header bytes from any alignment. */
    uint h0 = sh == 0u ? w0 : (w0 << sh) | (w1 >> (32u - sh));
    uint h1 = sh == 0u ? w1 : (w1 << sh) | (w2 >> (32u - sh));
    hs = h0 >> 27;
    uint q = clamp ((h0 >> 16) & 0xffu, 1u, 224u);
    b1 = q > 128u ? (q - 96u) << 2 : q;
    ys = h0 & 0xffffu;
    us = h1 >> 16;
    if (hs > 7u) {
      if (s_size < 8u)
        st = ST_BAD_SIZES;
      vs = h1 & 0xffffu;
    } else {
      vs = uint (int (s_size) - int (ys) - int (us) - int (hs));
    }
    if (st == ST_OK && (int (vs) < 0 || hs + ys + us + vs > s_size))
      st = ST_BAD_SIZES;
  }
  info[0] = hs;
  info[1] = b1;
  info[2] = ys;
  info[3] = us;
  info[4] = vs;
  info[5] = st == ST_OK ? s_size - hs - ys - us - vs : 0u;
  return st;
}

#ifdef PRORES_ENTROPY

/* s_cb: DC codebooks at 0, run at 7, level at 23 (a barrier must follow). */
void load_codebooks (uint tid, uint wg)
{
  for (uint i = tid; i < 33u; i += wg)
    s_cb[i] = i < 7u ? DC_CB[i] : i < 23u ? RUN_CB[i - 7u] : LEV_CB[i - 23u];
}

Reader reader_at (uint start_byte, uint size)
{
  Reader r;
  r.pos = start_byte * 8u;
  r.end = r.pos + size * 8u;
  r.overflow = false;
  r.base = r.pos >> 5;
  r.w0 = data_word (r.base);
  r.w1 = data_word (r.base + 1u);
  r.w2 = data_word (r.base + 2u);
  return r;
}

/* The next 32 bits, zeros past the component's end. */
uint peek32 (inout Reader r)
{
  if (r.pos >= r.end)
    return 0u;
  uint i = r.pos >> 5;
  if (i != r.base) {
    if (i == r.base + 1u) {
      r.w0 = r.w1;
      r.w1 = r.w2;
    } else {
      r.w0 = data_word (i);
      r.w1 = data_word (i + 1u);
    }
    r.w2 = data_word (i + 2u);
    r.base = i;
  }
  uint s = r.pos & 31u;
  uint v = s == 0u ? r.w0 : (r.w0 << s) | (r.w1 >> (32u - s));
  uint left = r.end - r.pos;
  if (left < 32u)
    v &= ~0u << (32u - left);
  return v;
}

uint peek (inout Reader r, uint n)
{
  return n == 0u ? 0u : peek32 (r) >> (32u - n);
}

uint bits_left (in Reader r)
{
  return r.pos >= r.end ? 0u : r.end - r.pos;
}

uint getbits (inout Reader r, uint n)
{
  if (n > bits_left (r)) {
    r.overflow = true;
    r.pos = r.end;
    return 0u;
  }
  uint v = peek (r, n);
  r.pos += n;
  return v;
}

void skipbits (inout Reader r, uint n)
{
  if (n > bits_left (r)) {
    r.overflow = true;
    r.pos = r.end;
  } else {
    r.pos += n;
  }
}

/* Rice / exp-Golomb codeword (prores-slice.h read_codeword), taken from a
 * single 32-bit peek: the prefix and the suffix of a valid codeword fit in
 * it (exp-Golomb codes are at most 31 bits, Rice ones at most 4 + 7). Reads
 * that run past the component behave as the CPU reader's: the suffix reads
 * as 0, the position goes to the end and the overflow flag is set. */
bool read_codeword (inout Reader r, uint cb, out uint val)
{
  uint k = cb >> 5, e = (cb >> 2) & 7u, sw = cb & 3u;
  uint w = peek32 (r);
  val = 0u;
  if (w == 0u)
    return false;
  uint q = 31u - uint (findMSB (w));
  uint left = r.end - r.pos; /* > q: w has a 1 bit at q */
  if (q > sw) {
    uint bits = e - sw + (q << 1); /* >= q + 1 */
    if (bits > 31u)
      return false;
    uint raw = 0u;
    if (bits > left) {
      r.overflow = true;
      r.pos = r.end;
    } else {
      raw = w >> (32u - bits);
      r.pos += bits;
    }
    val = raw - (1u << e) + ((sw + 1u) << k);
  } else {
    uint n = q + 1u;
    if (k != 0u && n + k > left) {
      r.overflow = true;
      r.pos = r.end;
      val = q << k;
    } else {
      val = (q << k) + (k != 0u ? (w << n) >> (32u - k) : 0u);
      r.pos += n + k;
    }
  }
  return true;
}

/* ----------------------------------------------------------- coefficients */

/* DC then AC of one component (decode_dc + decode_ac) into `sink`; on an
 * error the coefficients decoded so far stay, as on the CPU. */
uint decode_component (uint start_byte, uint size, uint log2n, inout CoefSink sink)
{
  Reader r = reader_at (start_byte, size);
  const uint nblocks = 1u << log2n;

  uint code;
  if (!read_codeword (r, 0xB8u, code))
    return ST_BAD_CODEWORD;
  int dc = sext16 (int (code >> 1) ^ -int (code & 1u));
  sink_put (sink, 0u, dc);
  code = 5u;
  int sgn = 0;
  for (uint i = 1u; i < nblocks; i++) {
    if (!read_codeword (r, s_cb[min (code, 6u)], code))
      return ST_BAD_CODEWORD;
    if (code != 0u)
      sgn ^= -int (code & 1u);
    else
      sgn = 0;
    int mag = int ((code + 1u) >> 1);
    dc = sext16 (dc + ((mag ^ sgn) - sgn));
    sink_put (sink, i, dc);
  }
  if (r.overflow)
    return ST_OVERREAD;

  const uint max_pos = 64u << log2n;
  uint run = 4u, level = 2u, pos = nblocks - 1u;
  uint fill = r.pos;
  for (;;) {
    uint left = bits_left (r);
    if (left == 0u)
      break;
    if (left < 32u) {
      /* FFmpeg's end test sees only what its 32-bit cache still holds. */
      uint valid = 32u - min (r.pos - fill, 32u);
      if (peek (r, min (left, valid)) == 0u)
        break;
    }
    if (!read_codeword (r, s_cb[7u + min (run, 15u)], run))
      return ST_BAD_CODEWORD;
    pos += run + 1u;
    if (pos >= max_pos)
      return ST_AC_OVERRUN;
    fill = r.pos;
    if (!read_codeword (r, s_cb[23u + min (level, 9u)], level))
      return ST_BAD_CODEWORD;
    level += 1u;
    bool neg = getbits (r, 1u) != 0u;
    sink_put (sink, pos, sext16 (int (neg ? 0u - level : level)));
    if (r.overflow)
      return ST_OVERREAD;
  }
  return ST_OK;
}

/* ------------------------------------------------------------------ alpha */

uint alpha_to_depth (uint a, uint abits)
{
  if (abits == 16u)
    return a >> (16u - BITS);
  return (a << (BITS - 8u)) | (a >> (16u - BITS));
}

/* Writes 16-bit samples pairwise: the pair is stored when its odd sample is
 * known (rows have an even number of samples). */
struct AlphaOut {
  uint idx, width, pending, row0, x0, fields, bottom;
};

void alpha_emit (inout AlphaOut o, uint v)
{
  if ((o.idx & 1u) == 0u) {
    o.pending = v;
  } else {
    uint y = o.idx / o.width, x = (o.idx % o.width) - 1u;
    uint row = (o.row0 + y) * o.fields + o.bottom;
    uint xw = (o.x0 + x) >> 1;
    if (row < pc.rows && xw < pc.plane_words[3])
      out_a[pc.plane_off[3] + row * pc.plane_stride[3] + xw] = o.pending | (v << 16);
  }
  o.idx++;
}

void decode_alpha_run (uint start_byte, uint size, uint abits, inout AlphaOut o)
{
  Reader r = reader_at (start_byte, size);
  const uint num = o.width * 16u;
  const uint mask = (1u << abits) - 1u;
  const uint short_bits = abits == 16u ? 7u : 4u;
  uint a = mask;
  do {
    do {
      int diff;
      if (getbits (r, 1u) != 0u) {
        diff = int (getbits (r, abits));
      } else {
        int v = int (getbits (r, short_bits));
        diff = (v + 2) >> 1;
        if ((v & 1) != 0)
          diff = -diff;
      }
      a = (a + uint (diff)) & mask;
      alpha_emit (o, alpha_to_depth (a, abits));
      if (o.idx >= num)
        break;
    } while (bits_left (r) > 0u && getbits (r, 1u) != 0u);
    uint run = getbits (r, 4u);
    if (run == 0u)
      run = getbits (r, 11u);
    run = min (run, num - o.idx);
    uint v = alpha_to_depth (a, abits);
    for (uint i = 0u; i < run; i++)
      alpha_emit (o, v);
  } while (o.idx < num);
}

/* The alpha plane of a slice (asz bytes at start_byte; zeros when none is
 * coded, as the CPU reference), written straight to out_a. */
void decode_alpha (SliceDesc sd, uint start_byte, uint asz, uint abits, uint fields)
{
  AlphaOut o;
  o.idx = 0u;
  o.width = sd.mb_count * 16u;
  o.pending = 0u;
  o.row0 = sd.mb_y * 16u;
  o.x0 = sd.mb_x * 16u;
  o.fields = fields;
  o.bottom = sd.bottom;
  if (asz > 0u) {
    decode_alpha_run (start_byte, asz, abits, o);
  } else {
    for (uint i = 0u; i < o.width * 16u; i++)
      alpha_emit (o, 0u);
  }
}

#endif /* PRORES_ENTROPY */

/* Per frame slot of the status buffer: [0] failed slices, [1] first failed
 * slice + 1, [2] its status. */
void fail_slice (uint slice, uint st)
{
  if (atomicAdd (status[pc.status_slot * 4u], 1u) == 0u) {
    status[pc.status_slot * 4u + 1u] = slice + 1u;
    status[pc.status_slot * 4u + 2u] = st;
  }
}
