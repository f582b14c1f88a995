#version 450
/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * ProRes slice decoding, one workgroup per slice (GpuSliceDesc): entropy
 * decoding of Y, Cb, Cr by three invocations (and alpha by a fourth) into
 * shared memory, then dequantisation, the FFmpeg-exact integer IDCT (rows,
 * bias, columns, clip) and the store of whole 8-sample rows by the whole
 * workgroup. A transliteration of
 * gst/prores/prores-slice.h and prores-idct.h; see docs/prores-reference.md.
 *
 * 32-bit integers only (GStreamer 1.22 enables no optional device feature):
 * coefficients are int16 values kept two per uint in shared memory, output
 * samples two per uint (little-endian 16-bit, as I422_10LE & co. lay them).
 * Every bit read is bounded by its component's byte range (zeros beyond,
 * as the CPU reader), every store by the plane's limits: corrupt slices can
 * neither read outside their slice nor write outside the planes.
 */

/* Specialisation: output depth 12 (else 10), FFmpeg's x86 IDCT arithmetic,
 * the workgroup size (64, 128 or 256) and where the entropy decoders run:
 * SPREAD 0 puts Y, Cb, Cr on lanes 0, 1, 2 (one subgroup, running the same
 * code in lockstep) and alpha on lane WG / 2; SPREAD 1 puts Y, Cb, Cr,
 * alpha on lanes 0, 32, 64, 96 (one subgroup each; needs WG >= 128). */
layout (constant_id = 0) const uint DEPTH12 = 0;
layout (constant_id = 1) const uint IDCT_X86 = 1;
layout (constant_id = 2) const uint WG = 64;
layout (constant_id = 3) const uint SPREAD = 0;
/* 4:4:4 (else 4:2:2): sizes the coefficient store (12 or 8 KiB), so that
 * more 4:2:2 workgroups fit an SM's shared memory. */
layout (constant_id = 4) const uint C444 = 0;

layout (local_size_x_id = 2) in;

/* The upload: GpuFrameParams at word 0, GpuSliceDesc[] at word 48, the frame
 * bytes at push.data_word (all uint32, std430). */
layout (std430, binding = 0) readonly buffer Input { uint in_words[]; };
layout (std430, binding = 1) writeonly buffer PlaneY { uint out_y[]; };
layout (std430, binding = 2) writeonly buffer PlaneU { uint out_u[]; };
layout (std430, binding = 3) writeonly buffer PlaneV { uint out_v[]; };
layout (std430, binding = 4) writeonly buffer PlaneA { uint out_a[]; };
/* Per frame slot: [0] failed slices, [1] first failed slice + 1, [2] its status. */
layout (std430, binding = 5) buffer Status { uint status[]; };

layout (push_constant) uniform Push {
  uint data_word;   /* first word of the frame bytes in in_words */
  uint data_bytes;  /* frame size */
  uint num_slices;
  uint groups_x;    /* workgroups per row of the dispatch */
  uint status_slot; /* 4 words per slot */
  uint rows;        /* frame rows that may be written (cropping) */
  uint plane_off[4];   /* first word of each plane in its buffer */
  uint plane_stride[4]; /* words per row */
  uint plane_words[4];  /* words of a row that may be written (cropping) */
} pc;

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

/* Coefficients, int16 pairs: Y in blocks 0..31, then Cb and Cr with
 * CHROMA_BLOCKS blocks each. */
const uint CHROMA_BLOCKS = C444 != 0u ? 32u : 16u;
const uint COEF_BLOCKS = 32u + 2u * CHROMA_BLOCKS;
shared uint s_coef[COEF_BLOCKS * 32u];
shared int s_qmat[2][64];
/* The tables the entropy decoders index: dynamic indexing of constant
 * arrays would make glslang copy a whole array into function memory at
 * every lookup (leaving it to the driver to undo); shared copies are
 * plain loads. s_cb: DC codebooks at 0, run at 7, level at 23. */
shared uint s_scan[64];
shared uint s_cb[33];
shared uint s_info[8]; /* header size, qscale, y, u, v, a sizes, status */
shared uint s_fail;

int sext16 (int v) { return (v << 16) >> 16; }
int sext16u (uint v) { return int (v << 16) >> 16; }

/* ------------------------------------------------------------ bit reader */

/* A reader of one component: absolute bit positions in the frame data and
 * a window of two big-endian words (base, base + 1) kept in registers, so
 * that most reads are shifts rather than loads. */
struct Reader {
  uint pos, end;
  bool overflow;
  uint base, w0, w1;
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

Reader reader_at (uint start_byte, uint size)
{
  Reader r;
  r.pos = start_byte * 8u;
  r.end = r.pos + size * 8u;
  r.overflow = false;
  r.base = r.pos >> 5;
  r.w0 = data_word (r.base);
  r.w1 = data_word (r.base + 1u);
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
    } else {
      r.w0 = data_word (i);
    }
    r.w1 = data_word (i + 1u);
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

void put_coef (uint index, int v)
{
  uint w = index >> 1, sh = (index & 1u) << 4;
  s_coef[w] = (s_coef[w] & ~(0xffffu << sh)) | ((uint (v) & 0xffffu) << sh);
}

int get_coef (uint index)
{
  return sext16u (s_coef[index >> 1] >> ((index & 1u) << 4));
}

/* DC then AC of one component (decode_dc + decode_ac); base = first
 * coefficient index of the component in s_coef. */
uint decode_component (uint start_byte, uint size, uint log2n, uint base)
{
  Reader r = reader_at (start_byte, size);
  const uint nblocks = 1u << log2n;

  uint code;
  if (!read_codeword (r, 0xB8u, code))
    return ST_BAD_CODEWORD;
  int dc = sext16 (int (code >> 1) ^ -int (code & 1u));
  put_coef (base, dc);
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
    put_coef (base + i * 64u, dc);
  }
  if (r.overflow)
    return ST_OVERREAD;

  const uint block_mask = nblocks - 1u;
  const uint max_pos = 64u << log2n;
  uint run = 4u, level = 2u, pos = block_mask;
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
    int v = sext16 (int (neg ? 0u - level : level));
    put_coef (base + ((pos & block_mask) << 6) + s_scan[pos >> log2n], v);
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

void decode_alpha (uint start_byte, uint size, uint abits, inout AlphaOut o)
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

/* ------------------------------------------------------------------- IDCT */

const int W1 = DEPTH12 != 0u ? 45451 : 22725;
const int W2 = DEPTH12 != 0u ? 42813 : 21407;
const int W3 = DEPTH12 != 0u ? 38531 : 19265;
const int W4 = DEPTH12 != 0u ? 32767 : 16384;
const int W5 = DEPTH12 != 0u ? 25746 : 12873;
const int W6 = DEPTH12 != 0u ? 17734 : 8867;
const int W7 = DEPTH12 != 0u ? 9041 : 4520;
const int ROW_SHIFT = DEPTH12 != 0u ? 16 : 15;
const int COL_SHIFT = DEPTH12 != 0u ? 17 : 18;
const int COL_ROUND = DEPTH12 != 0u ? 2 : 8;
const bool X86 = IDCT_X86 != 0u && DEPTH12 == 0u;

int store16 (int v)
{
  return X86 ? clamp (v, -32768, 32767) : sext16 (v);
}

/* The butterflies of idct_row / idct_col; e is W4 * x0 plus the rounding.
 * int arithmetic wraps modulo 2^32 in SPIR-V, as FFmpeg's unsigned sums. */
void butterflies (int e, int x1, int x2, int x3, int x4, int x5, int x6, int x7, int s,
    out int y[8])
{
  int a0 = e + W2 * x2 + W4 * x4 + W6 * x6;
  int a1 = e + W6 * x2 - W4 * x4 - W2 * x6;
  int a2 = e - W6 * x2 - W4 * x4 + W2 * x6;
  int a3 = e - W2 * x2 + W4 * x4 - W6 * x6;
  int b0 = W1 * x1 + W3 * x3 + W5 * x5 + W7 * x7;
  int b1 = W3 * x1 - W7 * x3 - W1 * x5 - W5 * x7;
  int b2 = W5 * x1 - W1 * x3 + W7 * x5 + W3 * x7;
  int b3 = W7 * x1 - W5 * x3 + W3 * x5 - W1 * x7;
  y[0] = store16 ((a0 + b0) >> s);
  y[1] = store16 ((a1 + b1) >> s);
  y[2] = store16 ((a2 + b2) >> s);
  y[3] = store16 ((a3 + b3) >> s);
  y[4] = store16 ((a3 - b3) >> s);
  y[5] = store16 ((a2 - b2) >> s);
  y[6] = store16 ((a1 - b1) >> s);
  y[7] = store16 ((a0 - b0) >> s);
}

/* Which component a block of the slice belongs to, and its place. */
struct BlockRef {
  uint comp;   /* 0 Y, 1 Cb, 2 Cr */
  uint index;  /* first coefficient in s_coef */
  uint x, y;   /* sample position of the block's top left in the slice's field rows */
};

BlockRef block_ref (uint b, uint luma_log2, uint chroma_log2, uint mb_x, bool c444)
{
  BlockRef r;
  uint nl = 1u << luma_log2, nc = 1u << chroma_log2;
  if (b < nl) {
    r.comp = 0u;
    r.index = b * 64u;
    uint mb = b >> 2, sub = b & 3u;
    r.x = mb_x * 16u + mb * 16u + (sub & 1u) * 8u;
    r.y = (sub >> 1) * 8u;
  } else {
    b -= nl;
    r.comp = 1u + (b >> chroma_log2);
    b &= nc - 1u;
    r.index = (32u + (r.comp - 1u) * CHROMA_BLOCKS + b) * 64u;
    if (c444) {
      uint mb = b >> 2, sub = b & 3u;
      r.x = mb_x * 16u + mb * 16u + (sub >> 1) * 8u;
      r.y = (sub & 1u) * 8u;
    } else {
      uint mb = b >> 1, sub = b & 1u;
      r.x = mb_x * 8u + mb * 8u;
      r.y = sub * 8u;
    }
  }
  return r;
}

void store_row (uint comp, uint row, uint xw, uint v[4])
{
  if (row >= pc.rows)
    return;
  for (uint i = 0u; i < 4u; i++) {
    if (xw + i >= pc.plane_words[comp])
      return;
    uint at = pc.plane_off[comp] + row * pc.plane_stride[comp] + xw + i;
    if (comp == 0u)
      out_y[at] = v[i];
    else if (comp == 1u)
      out_u[at] = v[i];
    else
      out_v[at] = v[i];
  }
}

/* ------------------------------------------------------------------- main */

void fail_slice (uint slice, uint st)
{
  if (atomicAdd (status[pc.status_slot * 4u], 1u) == 0u) {
    status[pc.status_slot * 4u + 1u] = slice + 1u;
    status[pc.status_slot * 4u + 2u] = st;
  }
}

void main ()
{
  const uint slice = gl_WorkGroupID.y * pc.groups_x + gl_WorkGroupID.x;
  if (slice >= pc.num_slices)
    return;
  const uint tid = gl_LocalInvocationID.x;

  const uint mb_width = in_words[FP_MB_WIDTH];
  const uint pic_mb_height = in_words[FP_PIC_MB_HEIGHT];
  const bool c444 = C444 != 0u; /* the host picks the pipeline by the params */
  const uint alpha_bits = in_words[FP_ALPHA_BITS];
  const bool interlaced = in_words[FP_INTERLACED] != 0u;
  const uint d = SLICE_DESC_WORD + slice * 4u;
  const uint s_off = in_words[d], s_size = in_words[d + 1u];
  const uint mb_x = in_words[d + 2u] & 0xffffu, mb_y = in_words[d + 2u] >> 16;
  const uint mb_count = in_words[d + 3u] & 0xffu, bottom = (in_words[d + 3u] >> 8) & 1u;
  const uint fields = interlaced ? 2u : 1u;

  /* The host builds these records; check them anyway (uniform per group). */
  if ((mb_count != 1u && mb_count != 2u && mb_count != 4u && mb_count != 8u) ||
      mb_x + mb_count > mb_width || mb_y >= pic_mb_height ||
      s_off > pc.data_bytes || s_size > pc.data_bytes - s_off) {
    if (tid == 0u)
      fail_slice (slice, ST_BAD_DESC);
    return;
  }
  const uint luma_log2 = 2u + uint (findLSB (mb_count));
  const uint chroma_log2 = luma_log2 - (c444 ? 0u : 1u);

  /* Header and zeroed coefficients. */
  if (tid == 0u) {
    uint st = ST_OK;
    uint b0 = 0u, b1 = 0u, hs = 0u, ys = 0u, us = 0u, vs = 0u;
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
      b0 = hs;
    }
    s_info[0] = b0;
    s_info[1] = b1;
    s_info[2] = ys;
    s_info[3] = us;
    s_info[4] = vs;
    s_info[5] = st == ST_OK ? s_size - hs - ys - us - vs : 0u;
    s_info[6] = st;
    s_fail = st;
  }
  for (uint i = tid; i < COEF_BLOCKS * 32u; i += WG)
    s_coef[i] = 0u;
  for (uint i = tid; i < 64u; i += WG)
    s_scan[i] = interlaced ? INTERLACED_SCAN[i] : PROGRESSIVE_SCAN[i];
  for (uint i = tid; i < 33u; i += WG)
    s_cb[i] = i < 7u ? DC_CB[i] : i < 23u ? RUN_CB[i - 7u] : LEV_CB[i - 23u];
  barrier ();
  if (s_info[6] != ST_OK) {
    if (tid == 0u)
      fail_slice (slice, s_info[6]);
    return;
  }
  const uint hsize = s_info[0], qscale = s_info[1];
  const uint ysz = s_info[2], usz = s_info[3], vsz = s_info[4], asz = s_info[5];
  const bool no_chroma = usz + vsz == 0u;

  for (uint i = tid; i < 128u; i += WG) {
    uint q = i >> 6, j = i & 63u;
    uint m = q != 0u ? FP_QMAT_CHROMA : FP_QMAT_LUMA;
    uint byte = (in_words[m + (j >> 2)] >> (8u * (j & 3u))) & 0xffu;
    s_qmat[q][j] = sext16 (int (byte * qscale));
  }

  /* Entropy decoding: Y, Cb, Cr by three lanes through one call site. */
  const uint start = s_off + hsize;
  const uint comp = SPREAD != 0u ? tid >> 5 : tid;
  const bool vld_lane = SPREAD != 0u ? (tid & 31u) == 0u && comp < 3u : tid < 3u;
  const uint alpha_lane = SPREAD != 0u ? 96u : WG / 2u;
  uint st = ST_OK;
  if (vld_lane && (comp == 0u || !no_chroma)) {
    const uint c_start = comp == 0u ? start : comp == 1u ? start + ysz : start + ysz + usz;
    const uint c_size = comp == 0u ? ysz : comp == 1u ? usz : vsz;
    st = decode_component (c_start, c_size, comp == 0u ? luma_log2 : chroma_log2,
        comp == 0u ? 0u : (32u + (comp - 1u) * CHROMA_BLOCKS) * 64u);
  } else if (tid == alpha_lane && alpha_bits != 0u) {
    AlphaOut o;
    o.idx = 0u;
    o.width = mb_count * 16u;
    o.pending = 0u;
    o.row0 = mb_y * 16u;
    o.x0 = mb_x * 16u;
    o.fields = fields;
    o.bottom = bottom;
    if (asz > 0u) {
      decode_alpha (start + ysz + usz + vsz, asz, alpha_bits, o);
    } else {
      /* No alpha coded for this slice: zeros, as the CPU reference. */
      for (uint i = 0u; i < o.width * 16u; i++)
        alpha_emit (o, 0u);
    }
  }
  if (st != ST_OK)
    atomicMax (s_fail, st);
  barrier ();

  /* IDCT rows of every block: task = block * 8 + row. */
  const uint n_blocks = (1u << luma_log2) + (no_chroma ? 0u : 2u << chroma_log2);
  for (uint t = tid; t < n_blocks * 8u; t += WG) {
    BlockRef br = block_ref (t >> 3, luma_log2, chroma_log2, mb_x, c444);
    uint q = br.comp == 0u ? 0u : 1u;
    uint base = br.index + (t & 7u) * 8u;
    int x[8];
    for (uint i = 0u; i < 4u; i++) {
      /* base is even: a row is 4 whole words. */
      const uint w = s_coef[(base >> 1) + i];
      x[2u * i] = sext16 (sext16u (w) * s_qmat[q][(t & 7u) * 8u + 2u * i]);
      x[2u * i + 1u] = sext16 ((int (w) >> 16) * s_qmat[q][(t & 7u) * 8u + 2u * i + 1u]);
    }
    int y[8];
    if (!X86 && (x[1] | x[2] | x[3] | x[4] | x[5] | x[6] | x[7]) == 0) {
      int v = sext16 ((x[0] + 1) >> 1);
      for (uint i = 0u; i < 8u; i++)
        y[i] = v;
    } else {
      int x0 = X86 ? sext16 (x[0] + 1) : x[0];
      int e = W4 * x0 + (X86 ? 0 : 1 << (ROW_SHIFT - 1));
      butterflies (e, x[1], x[2], x[3], x[4], x[5], x[6], x[7], ROW_SHIFT, y);
    }
    /* Row pass results are in natural order y0..y7 = a0+b0, a1+b1, ... */
    for (uint i = 0u; i < 4u; i++)
      s_coef[(base >> 1) + i] = (uint (y[2u * i]) & 0xffffu) | (uint (y[2u * i + 1u]) << 16);
  }
  barrier ();

  /* Columns: task = block * 4 + column pair (a word holds two columns, so
   * one invocation owns both); bias on row 0, clip, back in place. */
  const int hi = (1 << BITS) - 5;
  for (uint t = tid; t < n_blocks * 4u; t += WG) {
    BlockRef br = block_ref (t >> 2, luma_log2, chroma_log2, mb_x, c444);
    uint wbase = (br.index >> 1) + (t & 3u);
    uint words[8];
    for (uint i = 0u; i < 8u; i++)
      words[i] = s_coef[wbase + i * 4u];
    int res[2][8];
    for (uint h = 0u; h < 2u; h++) {
      uint sh = h * 16u;
      int c[8];
      for (uint i = 0u; i < 8u; i++)
        c[i] = sext16u (words[i] >> sh);
      int c0 = sext16 (c[0] + 8192 + (X86 ? COL_ROUND : 0));
      int e = W4 * (c0 + (X86 ? 0 : COL_ROUND));
      butterflies (e, c[1], c[2], c[3], c[4], c[5], c[6], c[7], COL_SHIFT, res[h]);
    }
    for (uint i = 0u; i < 8u; i++)
      s_coef[wbase + i * 4u] = uint (clamp (res[0][i], 4, hi)) | (uint (clamp (res[1][i], 4, hi)) << 16);
  }
  barrier ();

  /* Stores: one 8-sample row (4 words) per task. */
  for (uint t = tid; t < n_blocks * 8u; t += WG) {
    BlockRef br = block_ref (t >> 3, luma_log2, chroma_log2, mb_x, c444);
    uint r = t & 7u;
    uint v[4];
    for (uint i = 0u; i < 4u; i++)
      v[i] = s_coef[(br.index >> 1) + r * 4u + i];
    uint row = (mb_y * 16u + br.y + r) * fields + bottom;
    store_row (br.comp, row, br.x >> 1, v);
  }
  if (no_chroma) {
    /* No chroma coded: 511 scaled to the depth, as FFmpeg. */
    uint grey = 511u << (BITS - 10u);
    uint cw = c444 ? 16u : 8u;
    uint words = (mb_count * cw) >> 1;
    uint v[4] = uint[4] (grey | grey << 16, grey | grey << 16, grey | grey << 16,
        grey | grey << 16);
    for (uint t = tid; t < 2u * 16u * words; t += WG) {
      uint comp = 1u + t / (16u * words);
      uint k = t % (16u * words);
      uint row = (mb_y * 16u + k / words) * fields + bottom;
      uint xw = ((mb_x * cw) >> 1) + k % words;
      if (row < pc.rows && xw < pc.plane_words[comp]) {
        uint at = pc.plane_off[comp] + row * pc.plane_stride[comp] + xw;
        if (comp == 1u)
          out_u[at] = v[0];
        else
          out_v[at] = v[0];
      }
    }
  }
  if (tid == 0u && s_fail != ST_OK)
    fail_slice (slice, s_fail);
}
