// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// H.266/VVC adaptive loop filter: luma classification + 7x7 diamond filter,
// chroma 5x5 diamond filter and CC-ALF, bit-exact with gst/vvcalf's CPU
// reference (docs/vvcalf-reference.md is the contract: same windows, same
// padding, same integer arithmetic).
//
// One workgroup filters a 32x16 tile of luma, or of both chroma planes
// (sharing the luma that CC-ALF reads); the grid holds the luma tile rows,
// then the chroma tile rows. Each invocation filters 4 horizontally
// adjacent samples (of each chroma plane), which always share one CTB, one
// side of every virtual boundary (they are multiples of 8 luma samples)
// and, for luma, one 4x4 classification block. So the read window, the
// row-dependent tap distances and the coefficients are computed once per
// invocation.
//
// A workgroup first loads its tile plus an apron (3 samples for luma, 2 for
// chroma, the collocated luma area for CC-ALF) into shared memory. When
// every sample of the tile has the same read window (one CTB, no virtual
// boundary inside), the window rule is applied while loading and taps read
// shared memory directly. Otherwise the area is loaded clamped to the
// picture only and every tap applies the full window rule to its
// coordinates exactly as the reference does: a clamped coordinate lies
// between the current sample and the tap, or (slice corner rule) inside the
// current sample's CTB on the tap's side, so always inside the loaded area.
//
// Luma classification is merged into the same pass: the 32 4x4 blocks of a
// luma tile are classified by 4 invocations each (two of the window's eight
// rows per invocation) from 1-D Laplacians computed once per position in
// shared memory (uniform-window tiles) or directly (others); partial sums go
// through shared memory, and every invocation finishes the class of its own
// block from them. A luma tile's filter set is read once into shared memory.
//
// Samples are 8-bit or 16-bit (value = sample) little-endian containers in
// uint[] storage buffers: GStreamer 1.22 enables no 8/16-bit storage feature.
// Output rows start at 4-byte aligned offsets, so each invocation writes
// whole words. No 64-bit types: the one 36-bit product comparison of the
// classification uses umulExtended.
//
// Variants (docs/vvcalf-gpu.md, "Kernel variants"): specialization
// constants choose between techniques at pipeline creation, so each
// pipeline holds only the code of its choices (VkAlfKernel names them and
// reads GPC_ALF_VARIANT).
#version 450
#extension GL_EXT_control_flow_attributes : enable

#define TILE_W 32
#define TILE_H 16
#define NTHREADS 128  // (TILE_W / 4) * TILE_H
#define NBLOCKS 32    // 4x4 blocks per 32x16 tile
// Luma tiles: TILE_W x LTILE_H.
#define LTILE_H (TILE_H * ALF_LROWS)

layout (local_size_x = NTHREADS) in;

// 0: one dispatch, grid rows of luma tiles then of chroma tiles; 1: luma
// tiles only; 2: chroma tiles only (two pipelines, two dispatches).
layout (constant_id = 0) const int ALF_PASS = 0;
// 0: transposition, activity and direction tables as GLSL const arrays
// indexed at run time (which a driver may materialise in per-invocation
// local memory); 1: the same tables packed into integer constants and
// extracted with shifts.
layout (constant_id = 1) const int ALF_TABLES = 0;
// 0: a luma tile copies its filter set (600 words) into shared memory;
// 1: every invocation reads its 24 words from the parameter buffer.
layout (constant_id = 2) const int ALF_COEF = 0;
// 0: every tap's fetch tests whether the tile's window is uniform; 1: the
// test is made once, and uniform tiles run a copy of the filter loops whose
// taps read shared memory directly (no window code in them).
layout (constant_id = 3) const int ALF_HOIST = 0;
// With ALF_HOIST, 1: rows away from the line-buffer boundary (all but 6
// of a CTB) run a further copy whose vertical tap distances are literals,
// so every tap is shared memory at a constant offset (and the 4 samples'
// common taps can be read once).
layout (constant_id = 4) const int ALF_CONSTTAP = 0;
// Luma rows per invocation, 1 or 2 (then a luma tile is 32x32; both rows
// of an invocation lie in one 4x4 block: one class, one coefficient read).
layout (constant_id = 5) const int ALF_LROWS = 1;
// 1: loaded samples are packed two per 32-bit word of shared memory (half
// the footprint and of the words read; a shift and a mask per read).
layout (constant_id = 6) const int ALF_PACK16 = 0;
// 1: areas that lie wholly inside their window (most tiles: inside the
// picture, away from slice and tile edges) are copied as whole words, one
// 32-bit load per 2 or 4 samples, from 4-sample aligned origins; other
// areas are loaded sample by sample through the window rule.
layout (constant_id = 7) const int ALF_WORDLOAD = 0;
// 1: luma coefficients come from a table the CPU laid out per (set, class,
// transposeIdx) in tap order, coefficient and clip value in one word
// (pic.luma_tap): one load per tap, no transposition in the shader.
layout (constant_id = 8) const int ALF_PRETRANS = 0;

layout (std430, binding = 0) readonly buffer InY { uint in_y[]; };
layout (std430, binding = 1) readonly buffer InCb { uint in_cb[]; };
layout (std430, binding = 2) readonly buffer InCr { uint in_cr[]; };
layout (std430, binding = 3) writeonly buffer OutY { uint out_y[]; };
layout (std430, binding = 4) writeonly buffer OutCb { uint out_cb[]; };
layout (std430, binding = 5) writeonly buffer OutCr { uint out_cr[]; };

layout (std430, binding = 6) readonly buffer AlfPicParams {
  int width, height, chroma_format, shift_x, shift_y, bit_depth, ctb_log2, ctb_size;
  int ctbs_x, ctbs_y, vb_last_row, num_vb_x, num_vb_y;
  int vb_x[3];
  int vb_y[3];
  int reserved[13];
  int luma_coeff[24 * 25 * 12];   // [(set * 25 + class) * 12 + j]
  int luma_clip[24 * 25 * 12];
  int chroma_coeff[64 * 6];       // [filter * 6 + j]
  int chroma_clip[64 * 6];
  int cc_coeff[2 * 32 * 8];       // [(c * 32 + filter) * 8 + j]
  // [((set * 25 + class) * 4 + transposeIdx) * 12 + k]: (clip << 8) | (coeff & 0xff)
  // (filled by VkAlfKernel::pack_params for the sets the CTBs use)
  int luma_tap[24 * 25 * 4 * 12];
} pic;

struct AlfCtb {
  int flags;
  int luma_set;
  int chroma_filter[2];
  int cc_filter[2];
  int reserved[2];
};
layout (std430, binding = 7) readonly buffer AlfCtbParams { AlfCtb ctb[]; };

// Byte offsets and strides of each plane (Y, Cb, Cr) in its buffer.
layout (push_constant) uniform Push {
  uint in_off[3];
  uint in_stride[3];
  uint out_off[3];    // multiples of 4
  uint out_stride[3]; // multiples of 4
  uint wide;          // 0: 8-bit containers, 1: 16-bit little-endian
} pc;

#define CTB_Y 1
#define CTB_CB 2
#define EDGE_LEFT 8
#define EDGE_RIGHT 16
#define EDGE_TOP 32
#define EDGE_BOTTOM 64
#define CORNER_TL 128
#define CORNER_BR 256

// Words of pic.reserved that VkAlfKernel::pack_params fills in the GPU copy
// (0 in the CPU block): bit s of the first, luma set s clips nothing (every
// clip value is 2^B); bit f of the next two, chroma filter f likewise.
#define NOCLIP_LUMA_WORD 0
#define NOCLIP_CHROMA_WORD 1
#define PAIR_CLIP(k, a, b) f[k] * (clamp ((a) - cur, -cl[k], cl[k]) + clamp ((b) - cur, -cl[k], cl[k]))
#define PAIR_NO_CLIP(k, a, b) f[k] * ((a) + (b))

const int kActToVar[16] = int[16] (0, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 4);
const int kDirToTranspose[8] = int[8] (0, 1, 0, 2, 2, 3, 1, 3);
const int kTranspose[48] = int[48] (
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
    9, 4, 10, 8, 1, 5, 11, 7, 3, 0, 2, 6,
    0, 3, 2, 1, 8, 7, 6, 5, 4, 9, 10, 11,
    9, 8, 10, 4, 3, 7, 11, 5, 1, 0, 2, 6);

// Index of coefficient k of transposition t: kTranspose[t * 12 + k], or
// the same from nibbles (k is a constant once the caller's loop unrolls).
int transpose_index (int t, int k)
{
  if (ALF_TABLES == 0)
    return kTranspose[t * 12 + k];
  const uint lo = t == 0 ? 0x76543210u : t == 1 ? 0x7b518a49u : t == 2 ? 0x56781230u : 0x5b734a89u;
  const uint hi = t == 0 ? 0xba98u : t == 1 ? 0x6203u : t == 2 ? 0xba94u : 0x6201u;
  return int (((k < 8 ? lo : hi) >> (4 * (k & 7))) & 15u);
}

// Partial gradient sums (sV, sH, sD0, sD1) of each block, per quarter.
// (Shared arrays are sized by specialization constants: each pipeline
// reserves what its pass needs, nothing for the other pass.)
const int PART_SUMS = ALF_PASS == 2 ? 1 : NBLOCKS * 4 * ALF_LROWS;
shared uint part_sums[PART_SUMS][4];

uint load_word (uint p, uint i)
{
  if (p == 0u)
    return in_y[i];
  if (p == 1u)
    return in_cb[i];
  return in_cr[i];
}

int load_sample (uint p, int x, int y)
{
  uint a = pc.in_off[p] + uint (y) * pc.in_stride[p] + (uint (x) << pc.wide);
  uint w = load_word (p, a >> 2);
  if (pc.wide != 0u)
    return int ((w >> ((a & 2u) * 8u)) & 0xffffu);
  return int ((w >> ((a & 3u) * 8u)) & 0xffu);
}

void store_word (uint p, uint i, uint v)
{
  if (p == 0u)
    out_y[i] = v;
  else if (p == 1u)
    out_cb[i] = v;
  else
    out_cr[i] = v;
}

// Writes 4 samples at (x, y), x a multiple of 4.
void store4 (uint p, int x, int y, ivec4 v)
{
  uint a = pc.out_off[p] + uint (y) * pc.out_stride[p] + (uint (x) << pc.wide);
  uvec4 u = uvec4 (v);
  if (pc.wide != 0u) {
    store_word (p, a >> 2, u.x | (u.y << 16));
    store_word (p, (a >> 2) + 1u, u.z | (u.w << 16));
  } else {
    store_word (p, a >> 2, u.x | (u.y << 8) | (u.z << 16) | (u.w << 24));
  }
}

// The read window of vvc_alf_window: CTB (col, row), plane subsampled by
// (sx, sy), current sample (cx, cy).
struct Win {
  int xmin, xmax, ymin, ymax;
  int x0, y0, w, h;
  int corner;
};

Win make_window (int flags, int col, int row, int sx, int sy, int cx, int cy)
{
  Win w;
  w.w = pic.ctb_size >> sx;
  w.h = pic.ctb_size >> sy;
  w.x0 = col * w.w;
  w.y0 = row * w.h;
  w.xmin = 0;
  w.ymin = 0;
  w.xmax = (pic.width >> sx) - 1;
  w.ymax = (pic.height >> sy) - 1;
  if ((flags & EDGE_LEFT) != 0)
    w.xmin = w.x0;
  if ((flags & EDGE_RIGHT) != 0)
    w.xmax = min (w.xmax, w.x0 + w.w - 1);
  if ((flags & EDGE_TOP) != 0)
    w.ymin = w.y0;
  if ((flags & EDGE_BOTTOM) != 0)
    w.ymax = min (w.ymax, w.y0 + w.h - 1);
  for (int i = 0; i < pic.num_vb_x; i++) {
    int v = pic.vb_x[i] >> sx;
    if (v <= cx)
      w.xmin = max (w.xmin, v);
    else
      w.xmax = min (w.xmax, v - 1);
  }
  for (int i = 0; i < pic.num_vb_y; i++) {
    int v = pic.vb_y[i] >> sy;
    if (v <= cy)
      w.ymin = max (w.ymin, v);
    else
      w.ymax = min (w.ymax, v - 1);
  }
  w.corner = flags & (CORNER_TL | CORNER_BR);
  return w;
}

// Loaded samples. Luma tiles: (TILE_W + 6) x (LTILE_H + 6) from offset 0,
// then their Laplacians and filter set (LUMA_WORDS in all).
// Chroma tiles: Cb and Cr, (TILE_W + 4) x (TILE_H + 4) each, then the luma
// area of CC-ALF, at most (2 TILE_W + 1) x (2 TILE_H + 2).
// With ALF_WORDLOAD, areas start 4 samples left of their tile (a word
// boundary for 8- and 16-bit samples) and are a multiple of 4 samples wide.
#define LUMA_AP 3
#define LUMA_APX (ALF_WORDLOAD != 0 ? 4 : LUMA_AP)
#define LW (ALF_WORDLOAD != 0 ? TILE_W + 8 : TILE_W + 2 * LUMA_AP)
#define LH (LTILE_H + 2 * LUMA_AP)
#define CHROMA_AP 2
#define CHROMA_APX (ALF_WORDLOAD != 0 ? 4 : CHROMA_AP)
#define CW (ALF_WORDLOAD != 0 ? TILE_W + 8 : TILE_W + 2 * CHROMA_AP)
#define CH (TILE_H + 2 * CHROMA_AP)
// CC-ALF luma area: ((TILE_W - 1) << sx) + 3 wide from one sample left of
// the collocated luma (+3 on the left and rounded up to 4 with ALF_WORDLOAD).
#define CC_APX (ALF_WORDLOAD != 0 ? 4 : 1)
#define CC_W(sx) (ALF_WORDLOAD != 0 ? (((((TILE_W - 1) << (sx)) + 6) + 3) & ~3) : ((TILE_W - 1) << (sx)) + 3)
#define CC_MAX (CC_W (1) * (2 * TILE_H + 2))
#define LAP_ROW ((TILE_W + 4) / 2)
#define LAP_H (LTILE_H + 4)
// Words of shared memory holding n samples (region bases and sizes are
// counted in samples; every region starts at an even sample index).
#define SAMPLE_WORDS(n) (ALF_PACK16 != 0 ? ((n) + 1) / 2 : (n))
const int LUMA_WORDS = SAMPLE_WORDS (LW * LH) + 2 * LAP_ROW * LAP_H + (ALF_COEF == 0 && ALF_PRETRANS == 0 ? 600 : 0);
const int CHROMA_WORDS = SAMPLE_WORDS (2 * CW * CH + CC_MAX);
const int SMEM_WORDS = ALF_PASS == 1 ? LUMA_WORDS : ALF_PASS == 2 ? CHROMA_WORDS :
    (LUMA_WORDS > CHROMA_WORDS ? LUMA_WORDS : CHROMA_WORDS);
shared int smem[SMEM_WORDS];

// Loaded sample i (index in samples).
int smp (int i)
{
  if (ALF_PACK16 != 0)
    return int ((uint (smem[i >> 1]) >> ((i & 1) << 4)) & 0xffffu);
  return smem[i];
}

// A rectangle of a plane in shared memory. With `mapped`, every sample of
// the tile has the same read window (one CTB, one side of every virtual
// boundary), which was applied while loading: fetches read directly.
struct Region {
  int base, stride, ox, oy;  // smem offset, row length, plane position of its origin
  bool mapped;
};

ivec2 window_map (Win w, int x, int y)
{
  x = clamp (x, w.xmin, w.xmax);
  y = clamp (y, w.ymin, w.ymax);
  if ((w.corner & CORNER_TL) != 0 && x < w.x0 && y < w.y0)
    x = w.x0;
  if ((w.corner & CORNER_BR) != 0 && x >= w.x0 + w.w && y >= w.y0 + w.h)
    x = w.x0 + w.w - 1;
  return ivec2 (x, y);
}

// Loads the w x h area of plane p at (r.ox, r.oy): through the tile's
// window `tw` when r.mapped, else clamped to the picture.
void load_region (uint p, Region r, int w, int h, int pw, int ph, Win tw)
{
  // Row by float division (w may be a run-time value; integer division is
  // slow): exact, as (i + 0.5) / w is at least 0.5 / w from an integer.
  const float inv_w = 1.0 / float (w);
  if (ALF_PACK16 != 0) {
    // Word j: samples 2j and 2j + 1 of the region (r.stride == w).
    for (int j = int (gl_LocalInvocationIndex); 2 * j < w * h; j += NTHREADS) {
      uint v = 0u;
      for (int e = 0; e < 2; e++) {
        const int i = 2 * j + e;
        if (i >= w * h)
          break;
        const int ry = int ((float (i) + 0.5) * inv_w), rx = i - ry * w;
        ivec2 c = r.mapped ? window_map (tw, r.ox + rx, r.oy + ry) :
            clamp (ivec2 (r.ox + rx, r.oy + ry), ivec2 (0), ivec2 (pw - 1, ph - 1));
        v |= uint (load_sample (p, c.x, c.y)) << (16 * e);
      }
      smem[(r.base >> 1) + j] = int (v);
    }
    return;
  }
  for (int i = int (gl_LocalInvocationIndex); i < w * h; i += NTHREADS) {
    const int ry = int ((float (i) + 0.5) * inv_w), rx = i - ry * w;
    ivec2 c = r.mapped ? window_map (tw, r.ox + rx, r.oy + ry) :
        clamp (ivec2 (r.ox + rx, r.oy + ry), ivec2 (0), ivec2 (pw - 1, ph - 1));
    smem[r.base + ry * r.stride + rx] = load_sample (p, c.x, c.y);
  }
}

// Whether the w x h area at (ox, oy) lies inside window `tw` where no
// corner rule applies: every sample is read as it is (ALF_WORDLOAD).
bool area_inside (Win tw, int ox, int oy, int w, int h)
{
  return tw.corner == 0 && ox >= tw.xmin && oy >= tw.ymin && ox + w - 1 <= tw.xmax &&
      oy + h - 1 <= tw.ymax;
}

// Copies the w x h area of plane p at (r.ox, r.oy) into region r as whole
// words: r.ox and w are multiples of 4 and the plane's offset and stride
// multiples of 4 bytes (the caller checks).
void copy_region (uint p, Region r, int w, int h)
{
  const uint row_words = pc.in_stride[p] >> 2;
  const uint first = (pc.in_off[p] >> 2) + uint (r.oy) * row_words + (uint (r.ox) >> (2u - pc.wide));
  const int lid = int (gl_LocalInvocationIndex);
  if (pc.wide != 0u) {
    const int wpr = w >> 1;  // words per row, 2 samples each
    for (int i = lid; i < wpr * h; i += NTHREADS) {
      const int ry = i / wpr, k = i - ry * wpr;
      const uint v = load_word (p, first + uint (ry) * row_words + uint (k));
      const int o = r.base + ry * r.stride + 2 * k;
      if (ALF_PACK16 != 0) {
        smem[o >> 1] = int (v);
      } else {
        smem[o] = int (v & 0xffffu);
        smem[o + 1] = int (v >> 16);
      }
    }
  } else {
    const int wpr = w >> 2;  // 4 samples each
    for (int i = lid; i < wpr * h; i += NTHREADS) {
      const int ry = i / wpr, k = i - ry * wpr;
      const uint v = load_word (p, first + uint (ry) * row_words + uint (k));
      const int o = r.base + ry * r.stride + 4 * k;
      if (ALF_PACK16 != 0) {
        smem[o >> 1] = int ((v & 0xffu) | ((v & 0xff00u) << 8));
        smem[(o >> 1) + 1] = int (((v >> 16) & 0xffu) | ((v >> 8) & 0xff0000u));
      } else {
        smem[o] = int (v & 0xffu);
        smem[o + 1] = int ((v >> 8) & 0xffu);
        smem[o + 2] = int ((v >> 16) & 0xffu);
        smem[o + 3] = int (v >> 24);
      }
    }
  }
}

// load_region, as whole words where ALF_WORDLOAD and the area allow it.
void fill_region (uint p, Region r, int w, int h, int pw, int ph, Win tw)
{
  if (ALF_WORDLOAD != 0 && r.mapped && ((pc.in_off[p] | pc.in_stride[p]) & 3u) == 0u &&
      area_inside (tw, r.ox, r.oy, w, h))
    copy_region (p, r, w, h);
  else
    load_region (p, r, w, h, pw, ph, tw);
}

// A sample of a region whose window was applied while loading.
#define DIRECT(r, xx, yy) smp ((r).base + ((yy) - (r).oy) * (r).stride + ((xx) - (r).ox))

// vvc_alf_fetch: the window rule, then the loaded sample.
int fetch (Region r, Win w, int x, int y)
{
  if (!r.mapped) {
    ivec2 c = window_map (w, x, y);
    x = c.x;
    y = c.y;
  }
  return smp (r.base + (y - r.oy) * r.stride + (x - r.ox));
}

// Whether no virtual boundary lies strictly inside [x0, x0 + w) x [y0, y0 + h)
// (plane coordinates, boundaries scaled by sx, sy).
bool no_boundary_inside (int x0, int y0, int w, int h, int sx, int sy)
{
  for (int i = 0; i < pic.num_vb_x; i++) {
    const int v = pic.vb_x[i] >> sx;
    if (v > x0 && v < x0 + w)
      return false;
  }
  for (int i = 0; i < pic.num_vb_y; i++) {
    const int v = pic.vb_y[i] >> sy;
    if (v > y0 && v < y0 + h)
      return false;
  }
  return true;
}

bool line_buffer_active (int row)
{
  if (pic.vb_last_row != 0)
    return true;
  int y_ctb = row << pic.ctb_log2;
  return !(row == pic.ctbs_y - 1 && pic.height - y_ctb <= pic.ctb_size - 4);
}

// a * b > c * d for values below 2^19 (products up to 38 bits).
bool product_greater (uint a, uint b, uint c, uint d)
{
  uint hi1, lo1, hi2, lo2;
  umulExtended (a, b, hi1, lo1);
  umulExtended (c, d, hi2, lo2);
  return hi1 > hi2 || (hi1 == hi2 && lo1 > lo2);
}

// ------------------------------------------------------------------ luma

// Quarter `q` (window rows -2 + 2q, -1 + 2q) of the gradient sums of the
// block at (bx, by).
uvec4 classify_part (Region rl, int bx, int by, int q)
{
  const int col = bx >> pic.ctb_log2, row = by >> pic.ctb_log2;
  const int flags = ctb[row * pic.ctbs_x + col].flags;
  const Win win = make_window (flags, col, row, 0, 0, bx, by);
  const int y_ctb = row << pic.ctb_log2;
  const int s = pic.ctb_size;
  const bool lb = line_buffer_active (row);
  int j0 = -2, j1 = 5;
  if (lb && by - y_ctb == s - 8)
    j1 = 3;
  else if (lb && by - y_ctb == s - 4)
    j0 = 0;

  uvec4 sums = uvec4 (0u);
  for (int jj = 0; jj < 2; jj++) {
    const int j = -2 + 2 * q + jj;
    if (j < j0 || j > j1)
      continue;
    const int y = by + j;
    int up = y - 1, dn = y + 1;
    if (lb && y - y_ctb == s - 4)
      up = y;
    if (lb && y - y_ctb == s - 5)
      dn = y;
    for (int i = -2 + (j & 1); i <= 5; i += 2) {
      const int x = bx + i;
      const int c2 = 2 * fetch (rl, win, x, y);
      sums.x += uint (abs (c2 - fetch (rl, win, x, up) - fetch (rl, win, x, dn)));
      sums.y += uint (abs (c2 - fetch (rl, win, x - 1, y) - fetch (rl, win, x + 1, y)));
      sums.z += uint (abs (c2 - fetch (rl, win, x - 1, up) - fetch (rl, win, x + 1, dn)));
      sums.w += uint (abs (c2 - fetch (rl, win, x + 1, up) - fetch (rl, win, x - 1, dn)));
    }
  }
  return sums;
}

// Laplacians of the checkerboard positions of [tx - 2, tx + 33] x
// [ty - 2, ty + 17], LAP_ROW per row, two packed words each, in smem after
// the luma tile.
#define LAP_BASE SAMPLE_WORDS (LW * LH)
// The tile's luma filter set: 25 x 12 coefficients, then 25 x 12 clips.
#define COEF_BASE (LAP_BASE + 2 * LAP_ROW * LAP_H)

// classify_part from the precomputed Laplacians.
uvec4 sum_laplacians (int tx, int ty, int bx, int by, int q, int y_ctb, bool lb)
{
  const int s = pic.ctb_size;
  int j0 = -2, j1 = 5;
  if (lb && by - y_ctb == s - 8)
    j1 = 3;
  else if (lb && by - y_ctb == s - 4)
    j0 = 0;
  uvec4 sums = uvec4 (0u);
  for (int jj = 0; jj < 2; jj++) {
    const int j = -2 + 2 * q + jj;
    if (j < j0 || j > j1)
      continue;
    // Positions i = -2 + (j & 1) + 2m: index (bx - tx) / 2 + m in the row.
    const int base = LAP_BASE + 2 * ((by + j - ty + 2) * LAP_ROW + ((bx - tx) >> 1));
    for (int m = 0; m < 4; m++) {
      const uint a = uint (smem[base + 2 * m]), c = uint (smem[base + 2 * m + 1]);
      sums += uvec4 (a & 0xffffu, a >> 16, c & 0xffffu, c >> 16);
    }
  }
  return sums;
}

// (filtIdx, transposeIdx) of block `b` of the tile, whose top-left luma
// row relative to its CTB is `yb`.
ivec2 finish_class (int b, int yb, bool lb)
{
  uvec4 s = uvec4 (0u);
  for (int q = 0; q < 4; q++)
    s += uvec4 (part_sums[b * 4 + q][0], part_sums[b * 4 + q][1],
        part_sums[b * 4 + q][2], part_sums[b * 4 + q][3]);
  const uint sv = s.x, sh = s.y, sd0 = s.z, sd1 = s.w;
  uint ac = 64u;
  if (lb && (yb == pic.ctb_size - 8 || yb == pic.ctb_size - 4))
    ac = 96u;
  const uint act = min (15u, ((sv + sh) * ac) >> uint (pic.bit_depth + 4));
  // kActToVar: 0, 1, 2 (2..6), 3 (7..14), 4 (15).
  const int avg_var = ALF_TABLES != 0 ?
      int (act >= 1u) + int (act >= 2u) + int (act >= 7u) + int (act >= 15u) : kActToVar[act];

  uint hv1, hv0, d1, d0;
  int dir_hv, dir_d;
  if (sv > sh) {
    hv1 = sv; hv0 = sh; dir_hv = 1;
  } else {
    hv1 = sh; hv0 = sv; dir_hv = 3;
  }
  if (sd0 > sd1) {
    d1 = sd0; d0 = sd1; dir_d = 0;
  } else {
    d1 = sd1; d0 = sd0; dir_d = 2;
  }
  int dir1, dir2;
  uint hvd1, hvd0;
  if (product_greater (d1, hv0, hv1, d0)) {
    dir1 = dir_d; dir2 = dir_hv; hvd1 = d1; hvd0 = d0;
  } else {
    dir1 = dir_hv; dir2 = dir_d; hvd1 = hv1; hvd0 = hv0;
  }
  // hvd < 2^19: 9 * hvd0 fits 32 bits.
  int dir_s = 0;
  if (2u * hvd1 > 9u * hvd0)
    dir_s = 2;
  else if (hvd1 > 2u * hvd0)
    dir_s = 1;
  const int filt = avg_var + (dir_s != 0 ? (((dir1 & 1) << 1) + dir_s) * 5 : 0);
  const int di = dir1 * 2 + (dir2 >> 1);
  // kDirToTranspose, 2 bits per entry.
  return ivec2 (filt, ALF_TABLES != 0 ? int ((0xde84u >> (2 * di)) & 3u) : kDirToTranspose[di]);
}

void luma_tile (int tx, int ty)
{
  const uint lid = gl_LocalInvocationIndex;
  // An aligned tile lies in one CTB (CtbSizeY >= 32).
  const int tcol = tx >> pic.ctb_log2, trow = ty >> pic.ctb_log2;
  const Win tw = make_window (ctb[trow * pic.ctbs_x + tcol].flags, tcol, trow, 0, 0, tx, ty);
  const Region rl = Region (0, LW, tx - LUMA_APX, ty - LUMA_AP,
      no_boundary_inside (tx, ty, TILE_W, LTILE_H, 0, 0));
  fill_region (0u, rl, LW, LH, pic.width, pic.height, tw);
  // The tile lies in one CTB: luma ALF is on or off for all of it, with one
  // filter set, whose 25 filters (coefficients, clips) are read once.
  const AlfCtb tc = ctb[trow * pic.ctbs_x + tcol];
  const bool luma_on = (tc.flags & CTB_Y) != 0;
  if (luma_on && ALF_COEF == 0 && ALF_PRETRANS == 0) {
    for (int i = int (lid); i < 25 * 12; i += NTHREADS) {
      smem[COEF_BASE + i] = pic.luma_coeff[tc.luma_set * 300 + i];
      smem[COEF_BASE + 300 + i] = pic.luma_clip[tc.luma_set * 300 + i];
    }
  }
  barrier ();

  const int y_ctb = trow << pic.ctb_log2;
  const bool lb = line_buffer_active (trow);

  // With a uniform window every block reads the same samples for the same
  // position: the four 1-D Laplacians of each checkerboard position of the
  // tile (+2 / -3 apron) are computed once, and shared by the (up to 4)
  // block windows that contain the position.
  if (luma_on && rl.mapped) {
    for (int i = int (lid); i < LAP_H * LAP_ROW; i += NTHREADS) {
      const int ry = i / LAP_ROW, k = i - ry * LAP_ROW;
      const int y = ty - 2 + ry, x = tx - 2 + (y & 1) + 2 * k;
      int up = y - 1, dn = y + 1;
      if (lb && y - y_ctb == pic.ctb_size - 4)
        up = y;
      if (lb && y - y_ctb == pic.ctb_size - 5)
        dn = y;
      const int c2 = 2 * fetch (rl, tw, x, y);
      const uint v = uint (abs (c2 - fetch (rl, tw, x, up) - fetch (rl, tw, x, dn)));
      const uint h = uint (abs (c2 - fetch (rl, tw, x - 1, y) - fetch (rl, tw, x + 1, y)));
      const uint d0 = uint (abs (c2 - fetch (rl, tw, x - 1, up) - fetch (rl, tw, x + 1, dn)));
      const uint d1 = uint (abs (c2 - fetch (rl, tw, x + 1, up) - fetch (rl, tw, x - 1, dn)));
      // each below 2^15
      smem[LAP_BASE + 2 * i] = int (v | (h << 16));
      smem[LAP_BASE + 2 * i + 1] = int (d0 | (d1 << 16));
    }
    barrier ();
  }

  // Classification quarters: block i / 4, quarter i % 4.
  for (int i = int (lid); i < NBLOCKS * 4 * ALF_LROWS; i += NTHREADS) {
    const int b = i >> 2, q = i & 3;
    const int bx = tx + 4 * (b & 7), by = ty + 4 * (b >> 3);
    uvec4 s = uvec4 (0u);
    if (luma_on && bx < pic.width && by < pic.height) {
      if (rl.mapped)
        s = sum_laplacians (tx, ty, bx, by, q, y_ctb, lb);
      else
        s = classify_part (rl, bx, by, q);
    }
    part_sums[i][0] = s.x;
    part_sums[i][1] = s.y;
    part_sums[i][2] = s.z;
    part_sums[i][3] = s.w;
  }
  barrier ();

  // Invocation: 4 samples wide, ALF_LROWS rows (one 4x4 block).
  const int gx = int (lid & 7u), gy = int (lid >> 3);
  const int x = tx + 4 * gx, y0 = ty + ALF_LROWS * gy;
  if (x >= pic.width || y0 >= pic.height)
    return;
  const int col = x >> pic.ctb_log2, row = y0 >> pic.ctb_log2;
  const AlfCtb c = ctb[row * pic.ctbs_x + col];
  if ((c.flags & CTB_Y) == 0) {
    for (int rr = 0; rr < ALF_LROWS; rr++) {
      const int y = y0 + rr;
      const Win win = make_window (c.flags, col, row, 0, 0, x, y);
      ivec4 res;
      for (int k = 0; k < 4; k++)
        res[k] = fetch (rl, win, x + k, y);
      store4 (0u, x, y, res);
    }
    return;
  }

  const ivec2 cls = finish_class (((ALF_LROWS * gy) >> 2) * 8 + gx, (y0 & ~3) - y_ctb, lb);

  int f[12], cl[12];
  if (ALF_PRETRANS != 0) {
    const int base = ((c.luma_set * 25 + cls.x) * 4 + cls.y) * 12;
    [[unroll]] for (int k = 0; k < 12; k++) {
      const int w = pic.luma_tap[base + k];
      f[k] = bitfieldExtract (w, 0, 8);
      cl[k] = w >> 8;
    }
  } else if (ALF_COEF == 0) {
    const int base = COEF_BASE + cls.x * 12;
    [[unroll]] for (int k = 0; k < 12; k++) {
      const int t = transpose_index (cls.y, k);
      f[k] = smem[base + t];
      cl[k] = smem[base + 300 + t];
    }
  } else {
    const int base = (c.luma_set * 25 + cls.x) * 12;
    [[unroll]] for (int k = 0; k < 12; k++) {
      const int t = transpose_index (cls.y, k);
      f[k] = pic.luma_coeff[base + t];
      cl[k] = pic.luma_clip[base + t];
    }
  }
  const int maxv = (1 << pic.bit_depth) - 1;
  // Sets whose clip values are all 2^B clip nothing (differences of valid
  // samples stay below 2^B): flag word filled by VkAlfKernel::pack_params.
  // Then sum f (a - cur) + f (b - cur) = sum f (a + b) - 2 cur sum f, exact
  // (|sum f (a + b)| < 2^24).
  const bool no_clip = ((pic.reserved[NOCLIP_LUMA_WORD] >> c.luma_set) & 1) != 0;
  int fsum = 0;
  for (int k = 0; k < 12; k++)
    fsum += f[k];

  // Tap pair k: (dx, dy) and (-dx, -dy), as in docs/vvcalf-reference.md.
  // PAIR is a pair's term, FIX what the sum needs after the pairs, D1..D3
  // the vertical distances of tap levels 1..3, SH the final shift.
#define LUMA_SAMPLES(F, PAIR, FIX, D1, D2, D3, SH) \
  [[unroll]] for (int s = 0; s < 4; s++) { \
    const int xs = x + s; \
    const int cur = F (xs, y); \
    int sum = 0; \
    LTAP (F, PAIR, 0, 0, D3); \
    LTAP (F, PAIR, 1, 1, D2); LTAP (F, PAIR, 2, 0, D2); LTAP (F, PAIR, 3, -1, D2); \
    LTAP (F, PAIR, 4, 2, D1); LTAP (F, PAIR, 5, 1, D1); LTAP (F, PAIR, 6, 0, D1); \
    LTAP (F, PAIR, 7, -1, D1); LTAP (F, PAIR, 8, -2, D1); \
    LTAP (F, PAIR, 9, 3, 0); LTAP (F, PAIR, 10, 2, 0); LTAP (F, PAIR, 11, 1, 0); \
    FIX; \
    res[s] = clamp (cur + ((sum + (1 << ((SH) - 1))) >> (SH)), 0, maxv); \
  }
#define LTAP(F, PAIR, k, dx, dy) sum += PAIR (k, F (xs + (dx), y + (dy)), F (xs - (dx), y - (dy)))
#define LFETCH(xx, yy) fetch (rl, win, xx, yy)
#define LDIRECT(xx, yy) smp ((yy) * LW + (xx) + ((LUMA_AP - ty) * LW + LUMA_APX - tx))
#define LUMA_BOTH(F, D1, D2, D3, SH) \
  if (no_clip) \
    LUMA_SAMPLES (F, PAIR_NO_CLIP, sum -= 2 * cur * fsum, D1, D2, D3, SH) \
  else \
    LUMA_SAMPLES (F, PAIR_CLIP, , D1, D2, D3, SH)

  [[unroll]] for (int rr = 0; rr < ALF_LROWS; rr++) {
    const int y = y0 + rr;
    if (y >= pic.height)
      break;
    const int r = y - y_ctb, vb = pic.ctb_size - 4;
    // Vertical distances of tap levels 1..3, reduced symmetrically around
    // the line-buffer boundary.
    int d1 = 1, d2 = 2, d3 = 3, shift = 7;
    if (lb) {
      if (r == vb - 1 || r == vb) {
        d1 = 0; d2 = 0; d3 = 0;
        shift = 10;
      } else if (r == vb - 2 || r == vb + 1) {
        d2 = 1; d3 = 1;
      } else if (r == vb - 3 || r == vb + 2) {
        d3 = 2;
      }
    }
    ivec4 res;
    if (ALF_HOIST != 0 && rl.mapped) {
      // Uniform window (applied while loading): straight reads.
      if (ALF_CONSTTAP != 0 && d3 == 3) {
        LUMA_BOTH (LDIRECT, 1, 2, 3, 7)
      } else {
        LUMA_BOTH (LDIRECT, d1, d2, d3, shift)
      }
    } else {
      const Win win = make_window (c.flags, col, row, 0, 0, x, y);
      LUMA_BOTH (LFETCH, d1, d2, d3, shift)
    }
    store4 (0u, x, y, res);
  }
#undef LUMA_BOTH
#undef LDIRECT
#undef LFETCH
#undef LTAP
}

// ---------------------------------------------------------------- chroma

// Chroma component ci (0 Cb, 1 Cr) of the 4 samples at (x, y), from the
// loaded chroma area rc and luma area rl.
void chroma_samples (int ci, Region rc, Region rl, int x, int y)
{
  const uint p = uint (ci + 1);
  const int sx = pic.shift_x, sy = pic.shift_y;
  const int col = (x << sx) >> pic.ctb_log2, row = (y << sy) >> pic.ctb_log2;
  const AlfCtb c = ctb[row * pic.ctbs_x + col];
  const Win win = make_window (c.flags, col, row, sx, sy, x, y);
  const bool lb = line_buffer_active (row);
  const int maxv = (1 << pic.bit_depth) - 1;
  ivec4 res;

  // Chroma ALF (or the input where it is off).
  if ((c.flags & (CTB_CB << ci)) == 0) {
    for (int k = 0; k < 4; k++)
      res[k] = fetch (rc, win, x + k, y);
  } else {
    const int r = y - win.y0, vb = (pic.ctb_size >> sy) - 2;
    int d1 = 1, d2 = 2, shift = 7;
    if (lb) {
      if (r == vb - 1 || r == vb) {
        d1 = 0; d2 = 0;
        shift = 10;
      } else if (r == vb - 2 || r == vb + 1) {
        d2 = 1;
      }
    }
    const int base = c.chroma_filter[ci] * 6;
    int f[6], cl[6];
    for (int k = 0; k < 6; k++) {
      f[k] = pic.chroma_coeff[base + k];
      cl[k] = pic.chroma_clip[base + k];
    }
#define CHROMA_SAMPLES(F, PAIR, FIX, D1, D2, SH) \
    [[unroll]] for (int s = 0; s < 4; s++) { \
      const int xs = x + s; \
      const int cur = F (rc, xs, y); \
      int sum = 0; \
      CTAP (F, PAIR, 0, 0, D2); \
      CTAP (F, PAIR, 1, 1, D1); CTAP (F, PAIR, 2, 0, D1); CTAP (F, PAIR, 3, -1, D1); \
      CTAP (F, PAIR, 4, 2, 0); CTAP (F, PAIR, 5, 1, 0); \
      FIX; \
      res[s] = clamp (cur + ((sum + (1 << ((SH) - 1))) >> (SH)), 0, maxv); \
    }
#define CTAP(F, PAIR, k, dx, dy) sum += PAIR (k, F (rc, xs + (dx), y + (dy)), \
      F (rc, xs - (dx), y - (dy)))
#define CFETCH(r, xx, yy) fetch (r, win, xx, yy)
    const int cf = c.chroma_filter[ci];
    const bool no_clip = ((pic.reserved[NOCLIP_CHROMA_WORD + (cf >> 5)] >> (cf & 31)) & 1) != 0;
    const int fsum = f[0] + f[1] + f[2] + f[3] + f[4] + f[5];
#define CHROMA_BOTH(F, D1, D2, SH) \
    if (no_clip) \
      CHROMA_SAMPLES (F, PAIR_NO_CLIP, sum -= 2 * cur * fsum, D1, D2, SH) \
    else \
      CHROMA_SAMPLES (F, PAIR_CLIP, , D1, D2, SH)
    if (ALF_HOIST != 0 && rc.mapped) {
      if (ALF_CONSTTAP != 0 && d2 == 2) {
        CHROMA_BOTH (DIRECT, 1, 2, 7)
      } else {
        CHROMA_BOTH (DIRECT, d1, d2, shift)
      }
    } else {
      CHROMA_BOTH (CFETCH, d1, d2, shift)
    }
#undef CHROMA_BOTH
#undef CFETCH
#undef CTAP
  }

  // CC-ALF from the pre-ALF luma through the luma window of the CTB.
  const int ccf = c.cc_filter[ci];
  const int yl = y << sy, r = yl - (row << pic.ctb_log2), s = pic.ctb_size;
  bool cc = ccf >= 0;
  int ym1 = -1, yp1 = 1, yp2 = 2;
  if (cc && lb) {
    if (sy == 0 && (r == s - 4 || r == s - 3))
      cc = false;
    if (r == s - 6 || r == s - 3)
      yp2 = 1;
    else if (r == s - 5 || r == s - 4) {
      ym1 = 0; yp1 = 0; yp2 = 0;
    }
  }
  if (cc) {
    const int base = (ci * 32 + ccf) * 8;
    int f[7];
    for (int k = 0; k < 7; k++)
      f[k] = pic.cc_coeff[base + k];
    const Win lw = make_window (c.flags, col, row, 0, 0, x << sx, yl);
    const int hlim = 1 << (pic.bit_depth - 1);
    // sum f (L - cur) = sum f L - cur sum f (no clipping in CC-ALF).
    const int fsum = f[0] + f[1] + f[2] + f[3] + f[4] + f[5] + f[6];
#define CC_SAMPLES(F, YM1, YP1, YP2) \
    [[unroll]] for (int k = 0; k < 4; k++) { \
      const int xl = (x + k) << sx; \
      const int cur = F (rl, xl, yl); \
      const int sum = f[0] * F (rl, xl, yl + (YM1)) \
          + f[1] * F (rl, xl - 1, yl) \
          + f[2] * F (rl, xl + 1, yl) \
          + f[3] * F (rl, xl - 1, yl + (YP1)) \
          + f[4] * F (rl, xl, yl + (YP1)) \
          + f[5] * F (rl, xl + 1, yl + (YP1)) \
          + f[6] * F (rl, xl, yl + (YP2)) - cur * fsum; \
      const int delta = clamp ((sum + 64) >> 7, -hlim, hlim - 1); \
      res[k] = clamp (res[k] + delta, 0, maxv); \
    }
#define LFETCH(r, xx, yy) fetch (r, lw, xx, yy)
    if (ALF_HOIST != 0 && rl.mapped) {
      if (ALF_CONSTTAP != 0 && yp2 == 2) {
        CC_SAMPLES (DIRECT, -1, 1, 2)
      } else {
        CC_SAMPLES (DIRECT, ym1, yp1, yp2)
      }
    } else {
      CC_SAMPLES (LFETCH, ym1, yp1, yp2)
    }
#undef LFETCH
#undef CC_SAMPLES
  }
  store4 (p, x, y, res);
}

void chroma_tile (int tx, int ty)
{
  const int sx = pic.shift_x, sy = pic.shift_y;
  const int wc = pic.width >> sx, hc = pic.height >> sy;
  if (tx >= wc || ty >= hc)
    return;  // uniform: the grid is as wide as the luma plane
  // The tile's windows are uniform when it lies in one CTB (chroma CTBs
  // at least as large as a tile) on one side of every virtual boundary.
  const bool mapped = (pic.ctb_size >> sx) >= TILE_W && (pic.ctb_size >> sy) >= TILE_H
      && no_boundary_inside (tx, ty, TILE_W, TILE_H, sx, sy);
  const int tcol = (tx << sx) >> pic.ctb_log2, trow = (ty << sy) >> pic.ctb_log2;
  const int tflags = ctb[trow * pic.ctbs_x + tcol].flags;  // (the whole tile's when mapped)
  const Win twc = make_window (tflags, tcol, trow, sx, sy, tx, ty);
  const Win twl = make_window (tflags, tcol, trow, 0, 0, tx << sx, ty << sy);
  const Region rcb = Region (0, CW, tx - CHROMA_APX, ty - CHROMA_AP, mapped);
  const Region rcr = Region (CW * CH, CW, tx - CHROMA_APX, ty - CHROMA_AP, mapped);
  const int lw = CC_W (sx), lh = ((TILE_H - 1) << sy) + 4;
  const Region rl = Region (2 * CW * CH, lw, (tx << sx) - CC_APX, (ty << sy) - 1, mapped);
  fill_region (1u, rcb, CW, CH, wc, hc, twc);
  fill_region (2u, rcr, CW, CH, wc, hc, twc);
  // The luma of CC-ALF, unless the tile's one CTB has no CC-ALF.
  const AlfCtb tc = ctb[trow * pic.ctbs_x + tcol];
  if (!mapped || tc.cc_filter[0] >= 0 || tc.cc_filter[1] >= 0)
    fill_region (0u, rl, lw, lh, pic.width, pic.height, twl);
  barrier ();

  const uint lid = gl_LocalInvocationIndex;
  const int x = tx + 4 * int (lid & 7u), y = ty + int (lid >> 3);
  if (x >= wc || y >= hc)
    return;
  chroma_samples (0, rcb, rl, x, y);
  chroma_samples (1, rcr, rl, x, y);
}

void main ()
{
  // Rows of the grid: the luma tiles' rows, then the chroma tiles' rows
  // (chroma tiles use the first columns only).
  const int luma_rows = (pic.height + LTILE_H - 1) / LTILE_H;
  const int gy = int (gl_WorkGroupID.y);
  const int tx = int (gl_WorkGroupID.x) * TILE_W;
  if (ALF_PASS == 1)
    luma_tile (tx, gy * LTILE_H);
  else if (ALF_PASS == 2)
    chroma_tile (tx, gy * TILE_H);
  else if (gy < luma_rows)
    luma_tile (tx, gy * LTILE_H);
  else
    chroma_tile (tx, (gy - luma_rows) * TILE_H);
}
