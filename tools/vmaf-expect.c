/* vmaf-expect: prints libvmaf's per-frame feature values and VMAF scores of
 * two raw luma clips with full double precision, as test expectations.
 *
 * A development tool: tools/build-libvmaf.sh builds it against a libvmaf the
 * user built from source; nothing of libvmaf is part of the project. Only
 * libvmaf's public API is used.
 *
 * Usage: vmaf-expect WIDTH HEIGHT BPC FRAMES REF DIST MODEL_DIR
 *   REF/DIST: raw luma planes, one byte per sample at 8 bit, two
 *   (little-endian) above. Each model of MODEL_DIR that the expectations list
 *   is evaluated in its own context; the debug feature values (numerators
 *   and denominators) come from one more context.
 * Output, one line per value: "FRAME KEY VALUE" (%.17g), sorted by frame. */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf/libvmaf.h>
#include <libvmaf/model.h>

/* Every name the integer extractors can write, with and without the suffix
 * that the neg models' enhancement gain limits (alias "egl") add. Without
 * options, the model features are stored under their long names
 * (long_names), recorded here under libvmaf's short aliases. */
static const char *const base_names[] = {
  "integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3",
  "integer_vif", "integer_vif_num", "integer_vif_den",
  "integer_vif_num_scale0", "integer_vif_den_scale0", "integer_vif_num_scale1",
  "integer_vif_den_scale1", "integer_vif_num_scale2", "integer_vif_den_scale2",
  "integer_vif_num_scale3", "integer_vif_den_scale3",
  "integer_adm2", "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2",
  "integer_adm_scale3", "integer_adm", "integer_adm_num", "integer_adm_den",
  "integer_adm_num_scale0", "integer_adm_den_scale0", "integer_adm_num_scale1",
  "integer_adm_den_scale1", "integer_adm_num_scale2", "integer_adm_den_scale2",
  "integer_adm_num_scale3", "integer_adm_den_scale3",
  "integer_motion2", "integer_motion", NULL,
};

static const char *const long_names[][2] = {
  { "integer_vif_scale0", "VMAF_integer_feature_vif_scale0_score" },
  { "integer_vif_scale1", "VMAF_integer_feature_vif_scale1_score" },
  { "integer_vif_scale2", "VMAF_integer_feature_vif_scale2_score" },
  { "integer_vif_scale3", "VMAF_integer_feature_vif_scale3_score" },
  { "integer_adm2", "VMAF_integer_feature_adm2_score" },
  { "integer_motion2", "VMAF_integer_feature_motion2_score" },
  { "integer_motion", "VMAF_integer_feature_motion_score" },
};

struct model_run {
  const char *file;   /* in MODEL_DIR */
  const char *key;    /* key of its score in the output */
  uint64_t flags;     /* VmafModelFlags */
};

static const struct model_run models[] = {
  { "vmaf_v0.6.1.json", "vmaf", VMAF_MODEL_FLAGS_DEFAULT },
  { "vmaf_v0.6.1neg.json", "vmaf_neg", VMAF_MODEL_FLAGS_DEFAULT },
  { "vmaf_4k_v0.6.1.json", "vmaf_4k", VMAF_MODEL_FLAGS_DEFAULT },
  { "vmaf_4k_v0.6.1neg.json", "vmaf_4k_neg", VMAF_MODEL_FLAGS_DEFAULT },
  /* The "phone" variant: the model's polynomial score transform applied. */
  { "vmaf_v0.6.1.json", "vmaf_transform", VMAF_MODEL_FLAG_ENABLE_TRANSFORM },
};
#define N_MODELS (sizeof (models) / sizeof (models[0]))

#define MAX_FRAMES 64
#define MAX_KEYS 256

struct line {
  char key[96];
  double value;
};

static struct line table[MAX_FRAMES][MAX_KEYS];
static unsigned n_lines[MAX_FRAMES];

static void
record (unsigned frame, const char *key, double value)
{
  for (unsigned i = 0; i < n_lines[frame]; i++) {
    if (!strcmp (table[frame][i].key, key)) {
      if (table[frame][i].value != value) {
        fprintf (stderr, "frame %u: %s differs between contexts\n", frame, key);
        exit (1);
      }
      return;
    }
  }
  if (n_lines[frame] == MAX_KEYS) {
    fprintf (stderr, "too many keys\n");
    exit (1);
  }
  snprintf (table[frame][n_lines[frame]].key, sizeof (table[0][0].key), "%s", key);
  table[frame][n_lines[frame]++].value = value;
}

static uint8_t *
read_file (const char *path, size_t size)
{
  FILE *f = fopen (path, "rb");
  if (!f) {
    fprintf (stderr, "%s: %s\n", path, strerror (errno));
    exit (1);
  }
  uint8_t *data = malloc (size);
  if (!data || fread (data, 1, size, f) != size) {
    fprintf (stderr, "%s: shorter than %zu bytes\n", path, size);
    exit (1);
  }
  fclose (f);
  return data;
}

static void
fill_picture (VmafPicture *pic, const uint8_t *plane, unsigned w, unsigned h, unsigned bpc)
{
  if (vmaf_picture_alloc (pic, VMAF_PIX_FMT_YUV400P, bpc, w, h)) {
    fprintf (stderr, "vmaf_picture_alloc failed\n");
    exit (1);
  }
  const unsigned bytes = bpc > 8 ? 2 : 1;
  for (unsigned y = 0; y < h; y++) {
    uint8_t *row = (uint8_t *) pic->data[0] + y * pic->stride[0];
    for (unsigned x = 0; x < w; x++) {
      const uint8_t *s = plane + ((size_t) y * w + x) * bytes;
      if (bytes == 1)
        row[x] = s[0];
      else
        ((uint16_t *) row)[x] = (uint16_t) (s[0] | (s[1] << 8));
    }
  }
}

/* Runs one context over the clip; with a model, records its features and
 * score under score_key; without, records the extractors' debug output. */
static void
run_context (const uint8_t *ref, const uint8_t *dist, unsigned w, unsigned h, unsigned bpc,
    unsigned frames, const char *model_path, const char *score_key, uint64_t flags)
{
  VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_WARNING, .n_threads = 0,
    .n_subsample = 0, .cpumask = 0, .gpumask = 0 };
  VmafContext *vmaf = NULL;
  VmafModel *model = NULL;
  if (vmaf_init (&vmaf, cfg)) {
    fprintf (stderr, "vmaf_init failed\n");
    exit (1);
  }
  if (model_path) {
    VmafModelConfig mcfg = { .name = score_key, .flags = flags };
    if (vmaf_model_load_from_path (&model, &mcfg, model_path)
        || vmaf_use_features_from_model (vmaf, model)) {
      fprintf (stderr, "%s: cannot load\n", model_path);
      exit (1);
    }
  } else {
    static const char *const extractors[] = { "vif", "adm", "motion" };
    for (unsigned i = 0; i < 3; i++) {
      VmafFeatureDictionary *opts = NULL;
      vmaf_feature_dictionary_set (&opts, "debug", "true");
      if (vmaf_use_feature (vmaf, extractors[i], opts)) {
        fprintf (stderr, "%s: cannot use\n", extractors[i]);
        exit (1);
      }
    }
  }

  const size_t plane = (size_t) w * h * (bpc > 8 ? 2 : 1);
  for (unsigned i = 0; i < frames; i++) {
    VmafPicture r, d;
    fill_picture (&r, ref + i * plane, w, h, bpc);
    fill_picture (&d, dist + i * plane, w, h, bpc);
    if (vmaf_read_pictures (vmaf, &r, &d, i)) {
      fprintf (stderr, "vmaf_read_pictures failed at %u\n", i);
      exit (1);
    }
  }
  if (vmaf_read_pictures (vmaf, NULL, NULL, 0)) {
    fprintf (stderr, "flush failed\n");
    exit (1);
  }

  for (unsigned i = 0; i < frames; i++) {
    for (unsigned k = 0; base_names[k]; k++) {
      static const char *const suffixes[] = { "", "_egl_1" };
      for (unsigned s = 0; s < 2; s++) {
        char name[128];
        double v;
        snprintf (name, sizeof (name), "%s%s", base_names[k], suffixes[s]);
        if (!vmaf_feature_score_at_index (vmaf, name, &v, i))
          record (i, name, v);
      }
    }
    for (unsigned k = 0; k < sizeof (long_names) / sizeof (long_names[0]); k++) {
      double v;
      if (!vmaf_feature_score_at_index (vmaf, long_names[k][1], &v, i))
        record (i, long_names[k][0], v);
    }
    if (model) {
      double score;
      if (vmaf_score_at_index (vmaf, model, &score, i)) {
        fprintf (stderr, "no score at %u\n", i);
        exit (1);
      }
      record (i, score_key, score);
    }
  }
  if (model)
    vmaf_model_destroy (model);
  vmaf_close (vmaf);
}

int
main (int argc, char **argv)
{
  if (argc != 8) {
    fprintf (stderr, "usage: %s WIDTH HEIGHT BPC FRAMES REF DIST MODEL_DIR\n", argv[0]);
    return 2;
  }
  const unsigned w = (unsigned) atoi (argv[1]), h = (unsigned) atoi (argv[2]);
  const unsigned bpc = (unsigned) atoi (argv[3]), frames = (unsigned) atoi (argv[4]);
  if (!w || !h || bpc < 8 || bpc > 16 || !frames || frames > MAX_FRAMES) {
    fprintf (stderr, "bad geometry\n");
    return 2;
  }
  const size_t size = (size_t) w * h * (bpc > 8 ? 2 : 1) * frames;
  uint8_t *ref = read_file (argv[5], size), *dist = read_file (argv[6], size);

  for (unsigned m = 0; m < N_MODELS; m++) {
    char path[4096];
    snprintf (path, sizeof (path), "%s/%s", argv[7], models[m].file);
    run_context (ref, dist, w, h, bpc, frames, path, models[m].key, models[m].flags);
  }
  run_context (ref, dist, w, h, bpc, frames, NULL, NULL, 0);

  for (unsigned i = 0; i < frames; i++)
    for (unsigned k = 0; k < n_lines[i]; k++)
      printf ("%u %s %.17g\n", i, table[i][k].key, table[i][k].value);
  free (ref);
  free (dist);
  return 0;
}
