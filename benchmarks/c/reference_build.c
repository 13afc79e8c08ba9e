/*
 * A plain C reference of yahtzee_rules' table build: the same backward induction, for
 * Hasbro's Classic rules with the forced Joker (the library's default Rules()), in the
 * same arithmetic order, so that its values are the library's to the last bit.
 *
 * benchmarks/bench_build.py compiles it (C99, -O2 -ffp-contract=off, no fast-math:
 * every sum is added in the order written here) and sets its CPU time beside the
 * library's one-worker build, comparing every state's value.
 *
 * Usage: reference_build [--start MASK,UPPER,FLAG] [--values PATH]
 *
 *   --start   solve only the states whose filled boxes include MASK's (as the library's
 *             build_table(start=card) does), and report the value of the state
 *             (MASK, UPPER, FLAG); default 0,0,0, the empty card.
 *   --values  write every state's value to PATH: 8192 * 64 * 2 native doubles, at
 *             (mask * 64 + upper) * 2 + flag, 0 for states not solved (the layout of
 *             the library's Table.values).
 *
 * Prints one line of JSON: {"value": ..., "cpu_seconds": ..., "solved": ..., "copied": ...},
 * the value of the start state (the expected score of optimal play, from the empty card),
 * the CPU time of the induction itself (clock()), and the states solved and copied.
 *
 * The states: a mask of the filled boxes (bit c for box c, the card's order: Aces to
 * Sixes, Three of a Kind, Four of a Kind, Full House, Small Straight, Large Straight,
 * Yahtzee, Chance), the upper subtotal capped at 63, and a flag set when the Yahtzee box
 * holds 50. Per state, from the values of the states one box fuller:
 *
 *   1. each roll's best fill: its points, plus the upper bonus it completes, plus the
 *      next state's value, plus the extra-Yahtzee bonus where due;
 *   2. each keep's value: the values of its six keeps one die larger, added in face
 *      order, left to right, then multiplied by 1/6 (from four dice down to none);
 *   3. each roll's value with a roll left: the largest over its sub-keeps;
 *   4. steps 2 and 3 again (two rolls left);
 *   5. the state's value: each roll's probability times its value, summed in the
 *      library's roll order.
 *
 * The order of every addition is the library's (see the comments at each); maxima are
 * exact in any order.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the rules ------------------------------------------------------------------- */

enum {
    BOXES = 13,
    THREE_KIND = 6,
    FOUR_KIND = 7,
    FULL_HOUSE = 8,
    SMALL_STRAIGHT = 9,
    LARGE_STRAIGHT = 10,
    YAHTZEE = 11,
    CHANCE = 12,
    LOWER_FIRST = THREE_KIND,
    LOWER_BOXES = BOXES - LOWER_FIRST
};

#define THRESHOLD 63       /* the upper bonus's threshold */
#define UPPER_BONUS 35.0   /* and its value */
#define YAHTZEE_BONUS 100.0 /* each extra Yahtzee, while the Yahtzee box holds 50 */
#define LEVELS 64          /* capped upper subtotals: 0 to 63 */
#define FLAGS 2
#define MASKS (1 << BOXES)
#define STATES ((size_t)MASKS * LEVELS * FLAGS)
#define YAHTZEE_BIT (1 << YAHTZEE)
#define UPPER_MASK 63

/* ---- dice and keeps -------------------------------------------------------------- */

#define KEEPS 462 /* multisets of 0 to 5 dice */
#define ROLLS 252 /* of exactly 5 */
#define FIVE (KEEPS - ROLLS) /* the first roll among the keeps */

/* States solved together, one lane each. Every loop over the lanes runs over all of
 * them (a chunk of fewer states repeats its last), on arrays that do not overlap
 * (restrict): plain loops GCC vectorises at -O2. */
#define LANES 64
/* The library solves a level's states in chunks of this many; it matters only for a
 * chunk of one state (see expected_lone). */
#define CHUNK 512

typedef struct {
    int size;
    int distinct;
    int faces[5]; /* sorted, the first `size` */
    int counts[6];
} Keep;

static Keep keeps[KEEPS]; /* the library's internal order: by size, distinct faces, faces */
static int child[FIVE][6]; /* the keep one die larger, by the face added */
static int parents[KEEPS][5]; /* the keeps one die smaller (a distinct face removed) */
static int parent_count[KEEPS];
static int points[ROLLS][BOXES]; /* a roll's points in each box, plainly */
static double probability[ROLLS];

static int keep_order(const void *a, const void *b) {
    const Keep *x = a, *y = b;
    if (x->size != y->size) return x->size - y->size;
    if (x->distinct != y->distinct) return x->distinct - y->distinct;
    for (int i = 0; i < x->size; i++)
        if (x->faces[i] != y->faces[i]) return x->faces[i] - y->faces[i];
    return 0;
}

static int code_of(const int counts[6]) {
    int code = 0;
    for (int f = 0; f < 6; f++) code = code * 6 + counts[f];
    return code;
}

static int keep_by_code[6 * 6 * 6 * 6 * 6 * 6];

static int has_run(const int counts[6], int first, int length) {
    for (int f = first; f < first + length; f++)
        if (counts[f] == 0) return 0;
    return 1;
}

static void make_geometry(void) {
    int n = 0, counts[6];
    for (counts[0] = 0; counts[0] <= 5; counts[0]++)
    for (counts[1] = 0; counts[1] <= 5; counts[1]++)
    for (counts[2] = 0; counts[2] <= 5; counts[2]++)
    for (counts[3] = 0; counts[3] <= 5; counts[3]++)
    for (counts[4] = 0; counts[4] <= 5; counts[4]++)
    for (counts[5] = 0; counts[5] <= 5; counts[5]++) {
        int size = 0, distinct = 0;
        for (int f = 0; f < 6; f++) {
            size += counts[f];
            distinct += counts[f] > 0;
        }
        if (size > 5) continue;
        Keep *k = &keeps[n++];
        k->size = size;
        k->distinct = distinct;
        memcpy(k->counts, counts, sizeof k->counts);
        for (int f = 0, i = 0; f < 6; f++)
            for (int c = 0; c < counts[f]; c++) k->faces[i++] = f + 1;
    }
    qsort(keeps, KEEPS, sizeof keeps[0], keep_order);
    for (int i = 0; i < KEEPS; i++) keep_by_code[code_of(keeps[i].counts)] = i;
    for (int i = 0; i < KEEPS; i++) {
        int c[6];
        memcpy(c, keeps[i].counts, sizeof c);
        for (int f = 0; f < 6; f++) {
            if (keeps[i].size < 5) {
                c[f]++;
                child[i][f] = keep_by_code[code_of(c)];
                c[f]--;
            }
            if (c[f] > 0) {
                c[f]--;
                parents[i][parent_count[i]++] = keep_by_code[code_of(c)];
                c[f]++;
            }
        }
    }
    for (int r = 0; r < ROLLS; r++) {
        const int *c = keeps[FIVE + r].counts;
        int total = 0, most = 0, ways = 120, pair = 0, three = 0;
        for (int f = 0; f < 6; f++) {
            total += (f + 1) * c[f];
            most = c[f] > most ? c[f] : most;
            pair += c[f] == 2;
            three += c[f] == 3;
            for (int m = 2; m <= c[f]; m++) ways /= m;
        }
        for (int f = 0; f < 6; f++) points[r][f] = (f + 1) * c[f];
        points[r][THREE_KIND] = most >= 3 ? total : 0;
        points[r][FOUR_KIND] = most >= 4 ? total : 0;
        points[r][FULL_HOUSE] = three && pair ? 25 : 0;
        points[r][SMALL_STRAIGHT] =
            has_run(c, 0, 4) || has_run(c, 1, 4) || has_run(c, 2, 4) ? 30 : 0;
        points[r][LARGE_STRAIGHT] = has_run(c, 0, 5) || has_run(c, 1, 5) ? 40 : 0;
        points[r][YAHTZEE] = most == 5 ? 50 : 0;
        points[r][CHANCE] = total;
        probability[r] = (double)ways / 7776.0;
    }
    /* the five-equal-dice rolls come first, Aces to Sixes */
    for (int f = 0; f < 6; f++)
        if (keeps[FIVE + f].counts[f] != 5) {
            fprintf(stderr, "reference_build: unexpected roll order\n");
            exit(2);
        }
}

/* Under the forced Joker, five equal dice in a lower box score these points. */
static int joker_points(int box, int face) {
    switch (box) {
    case FULL_HOUSE: return 25;
    case SMALL_STRAIGHT: return 30;
    case LARGE_STRAIGHT: return 40;
    default: return 5 * (face + 1); /* Three and Four of a Kind, Chance: the total */
    }
}

/* ---- the table and its states ---------------------------------------------------- */

static double *values; /* STATES values, at flat(mask, upper, flag) */

static size_t flat(int mask, int upper, int flag) {
    return ((size_t)mask * LEVELS + upper) * FLAGS + flag;
}

static unsigned long long reachable[64]; /* subtotals reachable, by filled upper boxes */
static int upper_left[64]; /* the most points the open upper boxes can add */

static void make_subtotals(void) {
    for (int upper = 0; upper < 64; upper++) {
        unsigned long long sums = 1; /* {0} */
        upper_left[upper] = 0;
        for (int f = 0; f < 6; f++) {
            if (!(upper >> f & 1)) {
                upper_left[upper] += 5 * (f + 1);
                continue;
            }
            unsigned long long next = 0;
            for (int u = 0; u < LEVELS; u++) {
                if (!(sums >> u & 1)) continue;
                for (int k = 0; k <= 5; k++) {
                    int s = u + (f + 1) * k;
                    next |= 1ULL << (s < LEVELS - 1 ? s : LEVELS - 1);
                }
            }
            sums = next;
        }
        reachable[upper] = sums;
    }
}

/* A subtotal too low to reach the bonus has the future of subtotal 0: copied from it. */
static int is_dead(int mask, int upper) {
    return upper < THRESHOLD - upper_left[mask & UPPER_MASK];
}

/* ---- one chunk of states ---------------------------------------------------------- */

static double keep[KEEPS][LANES];
static double upper_fill[6][6][LANES]; /* the box of face f + 1 taking k dice of it */
static double lower_fill[LOWER_BOXES][LANES]; /* a lower box: the value after it, no points */
static double yahtzee_fifty[LANES]; /* the Yahtzee box taking 50: the value after, flag set */
static double zero_fill[LANES]; /* the best box to write 0 in */

static double larger(double a, double b) { return a > b ? a : b; }

/* The lane loops. */
static void copy_lanes(double *restrict out, const double *restrict in) {
    for (int l = 0; l < LANES; l++) out[l] = in[l];
}

static void max_into(double *restrict out, const double *restrict in) {
    for (int l = 0; l < LANES; l++) out[l] = larger(out[l], in[l]);
}

static void max_plus_into(double *restrict out, const double *restrict in, double gain) {
    for (int l = 0; l < LANES; l++) out[l] = larger(out[l], in[l] + gain);
}

/* in face order, left to right, then times 1/6 (not divided by 6) */
static void average_six(double *restrict out, const double *restrict a,
                        const double *restrict b, const double *restrict c,
                        const double *restrict d, const double *restrict e,
                        const double *restrict f) {
    for (int l = 0; l < LANES; l++)
        out[l] = (a[l] + b[l] + c[l] + d[l] + e[l] + f[l]) * (1.0 / 6.0);
}

static void add_product(double *restrict out, double p, const double *restrict row) {
    for (int l = 0; l < LANES; l++) out[l] = out[l] + p * row[l];
}

/* Step 1: every roll's best fill, into the rolls' rows of `keep`. */
static void fill_rolls(const int *mask, const int *upper, const int *flag) {
    for (int l = 0; l < LANES; l++) {
        int m = mask[l], u = upper[l], y = flag[l];
        for (int f = 0; f < 6; f++)
            for (int k = 0; k <= 5; k++) {
                if (m >> f & 1) {
                    upper_fill[f][k][l] = -INFINITY;
                    continue;
                }
                int raw = u + (f + 1) * k;
                int after = raw < LEVELS - 1 ? raw : LEVELS - 1;
                double bonus = u < THRESHOLD && raw >= THRESHOLD ? UPPER_BONUS : 0.0;
                /* the library's order: the next value, plus the bonus, plus the points */
                upper_fill[f][k][l] = values[flat(m | 1 << f, after, y)] + bonus + (f + 1) * k;
            }
        for (int j = 0; j < LOWER_BOXES; j++) {
            int box = LOWER_FIRST + j;
            lower_fill[j][l] = m >> box & 1 ? -INFINITY : values[flat(m | 1 << box, u, y)];
        }
        yahtzee_fifty[l] = m & YAHTZEE_BIT ? -INFINITY : values[flat(m | YAHTZEE_BIT, u, 1)];
        double zero = -INFINITY;
        for (int f = 0; f < 6; f++) zero = larger(zero, upper_fill[f][0][l]);
        for (int j = 0; j < LOWER_BOXES; j++) zero = larger(zero, lower_fill[j][l]);
        zero_fill[l] = zero;
    }
    /* The plain fills, for every lane: the best of a 0 anywhere and the boxes that score
     * (their points added to the value after them once: one rounding). A 0 in a box the
     * roll scores in is never better than its points; the library takes it among the
     * zeros in the same way. */
    for (int r = 0; r < ROLLS; r++) {
        double *row = keep[FIVE + r];
        copy_lanes(row, zero_fill);
        for (int f = 0; f < 6; f++) {
            int k = keeps[FIVE + r].counts[f];
            if (k > 0) max_into(row, upper_fill[f][k]);
        }
        for (int j = 0; j < LOWER_BOXES; j++) {
            int box = LOWER_FIRST + j;
            if (points[r][box] > 0)
                max_plus_into(row, box == YAHTZEE ? yahtzee_fifty : lower_fill[j], points[r][box]);
        }
    }
    /* Five equal dice with the Yahtzee box filled: the forced Joker. The face's upper box
     * if open; else any open lower box, at its Joker points; else any upper box for 0.
     * The extra-Yahtzee bonus is added to the best, while the Yahtzee box holds 50. */
    for (int l = 0; l < LANES; l++) {
        int m = mask[l];
        if (!(m & YAHTZEE_BIT)) continue;
        int lower_open = (~m >> LOWER_FIRST) & ((1 << LOWER_BOXES) - 1);
        double due = flag[l] ? YAHTZEE_BONUS : 0.0;
        for (int f = 0; f < 6; f++) {
            double best = -INFINITY;
            if (!(m >> f & 1)) {
                best = upper_fill[f][5][l];
            } else if (lower_open) {
                for (int j = 0; j < LOWER_BOXES; j++)
                    if (lower_open >> j & 1)
                        best = larger(best, lower_fill[j][l] + joker_points(LOWER_FIRST + j, f));
            } else {
                for (int g = 0; g < 6; g++) best = larger(best, upper_fill[g][0][l]);
            }
            keep[FIVE + f][l] = best + due;
        }
    }
}

/* Step 2: each keep's value from its six keeps one die larger, four dice down to none. */
static void average_keeps(void) {
    for (int k = FIVE - 1; k >= 0; k--) {
        const int *c = child[k];
        average_six(keep[k], keep[c[0]], keep[c[1]], keep[c[2]], keep[c[3]], keep[c[4]],
                    keep[c[5]]);
    }
}

/* Step 3: each keep's best over its sub-keeps, fewest dice first (the rolls' last). */
static void best_over_subkeeps(void) {
    for (int k = 1; k < KEEPS; k++)
        for (int p = 0; p < parent_count[k]; p++) max_into(keep[k], keep[parents[k][p]]);
}

/* Step 5, for every lane: probability times value, summed roll by roll (NumPy's einsum
 * over a chunk of several states). */
static void expected(double *out) {
    for (int l = 0; l < LANES; l++) out[l] = 0.0;
    for (int r = 0; r < ROLLS; r++) add_product(out, probability[r], keep[FIVE + r]);
}

/* Step 5 for a chunk of one state (lane 0): NumPy's einsum then takes its contiguous dot
 * loop, whose order this copies: two accumulators (even and odd rolls), eight rolls a
 * step with the last pair of the eight first, then the tail pair by pair, then the
 * accumulators added. */
static double expected_lone(void) {
    double even = 0.0, odd = 0.0;
    int r = 0;
    for (; r + 8 <= ROLLS; r += 8)
        for (int i = 6; i >= 0; i -= 2) {
            even = probability[r + i] * keep[FIVE + r + i][0] + even;
            odd = probability[r + i + 1] * keep[FIVE + r + i + 1][0] + odd;
        }
    for (; r < ROLLS; r += 2) {
        even = probability[r] * keep[FIVE + r][0] + even;
        odd = probability[r + 1] * keep[FIVE + r + 1][0] + odd;
    }
    return 0.0 + (even + odd);
}

/* Solves `n` states (1 to LANES): the lanes past them repeat the last. */
static void solve(int n, const int *mask, const int *upper, const int *flag, int lone) {
    int m[LANES], u[LANES], y[LANES];
    double result[LANES];
    for (int l = 0; l < LANES; l++) {
        int from = l < n ? l : n - 1;
        m[l] = mask[from];
        u[l] = upper[from];
        y[l] = flag[from];
    }
    fill_rolls(m, u, y);
    average_keeps();
    best_over_subkeeps();
    average_keeps();
    best_over_subkeeps();
    if (lone)
        result[0] = expected_lone();
    else
        expected(result);
    for (int l = 0; l < n; l++) values[flat(m[l], u[l], y[l])] = result[l];
}

/* ---- the induction ---------------------------------------------------------------- */

static int popcount(int x) {
    int c = 0;
    for (; x; x &= x - 1) c++;
    return c;
}

/* The masks in the library's order: the open Yahtzee box's first, then by value. */
static int mask_order(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    int xy = (x & YAHTZEE_BIT) != 0, yy = (y & YAHTZEE_BIT) != 0;
    return xy != yy ? xy - yy : x - y;
}

typedef struct {
    int *mask, *upper, *flag;
    size_t count;
} StateList;

static void push(StateList *list, int mask, int upper, int flag) {
    list->mask[list->count] = mask;
    list->upper[list->count] = upper;
    list->flag[list->count] = flag;
    list->count++;
}

static long long solved, copied;

static void build(int start) {
    static int order[MASKS];
    for (int m = 0; m < MASKS; m++) order[m] = m;
    qsort(order, MASKS, sizeof order[0], mask_order);
    StateList list;
    list.mask = malloc(STATES * sizeof(int));
    list.upper = malloc(STATES * sizeof(int));
    list.flag = malloc(STATES * sizeof(int));
    if (!list.mask || !list.upper || !list.flag) {
        fprintf(stderr, "reference_build: out of memory\n");
        exit(2);
    }
    /* the complete cards are worth 0 (calloc); each level from the states one box fuller */
    for (int level = BOXES - 1; level >= popcount(start); level--) {
        list.count = 0;
        for (int i = 0; i < MASKS; i++) {
            int m = order[i];
            if (popcount(m) != level || (m & start) != start) continue;
            for (int y = 0; y < (m & YAHTZEE_BIT ? 2 : 1); y++)
                for (int u = 0; u < LEVELS; u++)
                    if (reachable[m & UPPER_MASK] >> u & 1 && (u == 0 || !is_dead(m, u)))
                        push(&list, m, u, y);
        }
        /* a lone state in the library's last chunk: solved apart, see expected_lone */
        size_t lone = list.count % CHUNK == 1;
        size_t plain = list.count - lone;
        for (size_t i = 0; i < plain; i += LANES) {
            int n = plain - i < LANES ? (int)(plain - i) : LANES;
            solve(n, list.mask + i, list.upper + i, list.flag + i, 0);
        }
        if (lone) solve(1, list.mask + plain, list.upper + plain, list.flag + plain, 1);
        solved += (long long)list.count;
        /* the dead subtotals copy subtotal 0 */
        for (int i = 0; i < MASKS; i++) {
            int m = order[i];
            if (popcount(m) != level || (m & start) != start) continue;
            for (int y = 0; y < (m & YAHTZEE_BIT ? 2 : 1); y++)
                for (int u = 1; u < LEVELS; u++)
                    if (reachable[m & UPPER_MASK] >> u & 1 && is_dead(m, u)) {
                        values[flat(m, u, y)] = values[flat(m, 0, y)];
                        copied++;
                    }
        }
    }
    free(list.mask);
    free(list.upper);
    free(list.flag);
}

/* ---- the command line ------------------------------------------------------------- */

static void usage(void) {
    fprintf(stderr, "usage: reference_build [--start MASK,UPPER,FLAG] [--values PATH]\n");
    exit(2);
}

int main(int argc, char **argv) {
    int start = 0, start_upper = 0, start_flag = 0;
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--start") == 0 && i + 1 < argc) {
            char rest;
            if (sscanf(argv[++i], "%d,%d,%d%c", &start, &start_upper, &start_flag, &rest) != 3 ||
                start < 0 || start >= MASKS - 1 || start_upper < 0 || start_upper >= LEVELS ||
                start_flag < 0 || start_flag > 1 || (start_flag && !(start & YAHTZEE_BIT))) {
                fprintf(stderr,
                        "reference_build: --start %s: want MASK,UPPER,FLAG with MASK 0 to %d "
                        "(not every box filled), UPPER 0 to %d, FLAG 0 or 1 (1 only with the "
                        "Yahtzee box, bit %d, filled)\n",
                        argv[i], MASKS - 2, LEVELS - 1, YAHTZEE);
                return 2;
            }
        } else if (strcmp(argv[i], "--values") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else {
            usage();
        }
    }
    values = calloc(STATES, sizeof(double));
    if (!values) {
        fprintf(stderr, "reference_build: out of memory\n");
        return 2;
    }
    clock_t began = clock();
    make_geometry();
    make_subtotals();
    build(start);
    double cpu = (double)(clock() - began) / CLOCKS_PER_SEC;
    if (out) {
        FILE *file = fopen(out, "wb");
        if (!file || fwrite(values, sizeof(double), STATES, file) != STATES || fclose(file)) {
            fprintf(stderr, "reference_build: cannot write %s\n", out);
            return 1;
        }
    }
    printf("{\"value\": %.17g, \"cpu_seconds\": %.6f, \"solved\": %lld, \"copied\": %lld}\n",
           values[flat(start, start_upper, start_flag)], cpu, solved, copied);
    free(values);
    return 0;
}
