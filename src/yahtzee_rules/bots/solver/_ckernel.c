/*
 * The solver's compiled kernel: one turn-start state's per-turn tables (state, keep,
 * box), a whole optimal turn (turn), and the table build's work for many states at
 * once (solve).
 *
 * The same arithmetic as the NumPy path (_turns.py, _kernels.py), operation for
 * operation, so that both give the same floats and the same choices (tests compare
 * them on many states of nine rule sets, and whole tables of seven):
 *
 *   - a fill entry's worth is the next state's value (its index clipped to the
 *     table), plus the upper bonus it completes where there is one, plus its points,
 *     or -inf where the entry may not be written;
 *   - each roll's best fill is the largest worth over the boxes (five equal dice:
 *     the entries the Joker rule allows, then the extra-Yahtzee bonus added);
 *   - a keep's value is the sum of its six one-die-larger keeps, added in face
 *     order from left to right, times 1/6;
 *   - with one more reroll left, a roll is worth its best sub-keep (found along the
 *     keep lattice: a keep's best is its own value or a parent's best).
 *
 * A maximum is exact in any grouping (there are no NaNs, and no -0.0); where a choice
 * is made, the first best wins, in the NumPy path's order. Compiled without
 * -ffast-math and with -ffp-contract=off, so that no addition is reordered or fused.
 * Only the limited C API (3.11) is used: one build serves every later CPython. The
 * index arrays are the library's own; they are still checked against the sizes of the
 * arrays they index (once, or an index outside is read as the last entry, which is
 * always refused), so that no call reads out of bounds.
 */
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define KEEPS 462
#define ROLLS 252
#define FIVE 210   /* the first keep of five dice: the rolls */
#define REST 246   /* the rolls that are not five equal dice */
#define LEVELS 5   /* keep sizes 4 down to 0 */
#define MAX_SUBKEEPS (ROLLS * 32)
#define KERNEL_VERSION 1
#ifndef KERNEL_SOURCE /* the first 16 hex digits of this file's SHA-256, set by the build */
#define KERNEL_SOURCE ""
#endif

static int ready = 0;
static Py_ssize_t level_lo[LEVELS], level_n[LEVELS], level_at[LEVELS];
static int64_t children[6 * FIVE];            /* by level: face-major blocks */
static int64_t subkeeps[MAX_SUBKEEPS];        /* each roll's distinct sub-keeps, in order */
static Py_ssize_t sub_start[ROLLS + 1];
/* the keep lattice, one die at a time: blocks of keeps (by size, smallest first), each
 * keep's parents (the distinct keeps one die smaller) */
#define MAX_BLOCKS 32
#define MAX_PARENTS 2048
static int lattice_blocks = 0;
static Py_ssize_t block_lo[MAX_BLOCKS], block_n[MAX_BLOCKS], block_width[MAX_BLOCKS],
    block_at[MAX_BLOCKS];
static int16_t parents[MAX_PARENTS];
/* rolling: outcome r of the dice a keep does not hold is read as the base-6 digits of r,
 * one per thrown die (digit d is face d + 1), as the library's roll tables read it; the
 * roll is found by its faces' counts (a base-6 code) */
#define CODES 46656 /* 6 ** 6 */
static int rolls_ready = 0;
static int8_t keep_counts[KEEPS][6];
static int thrown[KEEPS];
static int16_t roll_of_code[CODES];

/* ---- buffers ------------------------------------------------------------------- */

/* The format's type character, past any byte-order prefix. */
static char
format_kind(const Py_buffer *view)
{
    const char *format = view->format;
    if (format == NULL) {
        return 'B';
    }
    while (*format == '@' || *format == '=' || *format == '<' || *format == '>' || *format == '!') {
        format++;
    }
    return format[0] != '\0' && format[1] == '\0' ? format[0] : '\0';
}

enum kind { DOUBLES, INT64S, INT16S, BOOLS };

static int
get_buffer(PyObject *object, Py_buffer *view, enum kind kind, int writable, const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, view, flags) < 0) {
        return -1;
    }
    char found = format_kind(view);
    int ok;
    switch (kind) {
    case DOUBLES:
        ok = view->itemsize == 8 && found == 'd';
        break;
    case INT64S:
        ok = view->itemsize == 8 && (found == 'l' || found == 'q');
        break;
    case INT16S:
        ok = view->itemsize == 2 && found == 'h';
        break;
    default:
        ok = view->itemsize == 1 && found == '?';
        break;
    }
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "%s: a contiguous array of the wrong type", name);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static Py_ssize_t
items(const Py_buffer *view)
{
    return view->len / view->itemsize;
}

/* Every index in [0, size): the library's arrays always are (one pass, no branch). */
static int
indices_in(const int64_t *index, Py_ssize_t count, Py_ssize_t size, const char *name)
{
    uint64_t outside = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        outside |= (uint64_t)index[i] >= (uint64_t)size;
    }
    if (outside) {
        PyErr_Format(PyExc_IndexError, "%s: an index outside its array", name);
        return -1;
    }
    return 0;
}

/* An entry index, or the last entry (always -inf: refused) for one outside the array:
 * the library's index arrays are always inside, and no call reads out of bounds. */
#define IN(i, size) ((uint64_t)(int64_t)(i) < (uint64_t)(size) ? (Py_ssize_t)(i) : (size) - 1)

/* ---- the arithmetic ---------------------------------------------------------------- */

/* The lane functions are inlined wherever they are called, so that the table build's
 * calls (BLOCK lanes, a stride of BLOCK) compile to loops of a known length. */
#if defined(__GNUC__) || defined(__clang__)
#define LANES_FUNCTION static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define LANES_FUNCTION static __forceinline
#else
#define LANES_FUNCTION static inline
#endif

/* Row operations over ``width`` lanes, on rows that do not overlap (restrict: plain
 * loops the compiler vectorises). */
LANES_FUNCTION void
average_six(double *restrict out, const double *restrict c0, const double *restrict c1,
            const double *restrict c2, const double *restrict c3, const double *restrict c4,
            const double *restrict c5, Py_ssize_t width)
{
    const double sixth = 1.0 / 6.0;
    for (Py_ssize_t s = 0; s < width; s++) {
        double sum = c0[s];
        sum += c1[s];
        sum += c2[s];
        sum += c3[s];
        sum += c4[s];
        sum += c5[s];
        out[s] = sum * sixth;
    }
}

LANES_FUNCTION void
max_into(double *restrict best, const double *restrict other, Py_ssize_t width)
{
    for (Py_ssize_t s = 0; s < width; s++) {
        best[s] = other[s] > best[s] ? other[s] : best[s];
    }
}

/* In place, for ``width`` states side by side (keep k of state s at keep[k * stride + s]):
 * from each roll's value (the last 252), each keep's expected value. */
LANES_FUNCTION void
keep_values_lanes(double *keep, Py_ssize_t stride, Py_ssize_t width)
{
    for (int level = 0; level < LEVELS; level++) {
        const Py_ssize_t lo = level_lo[level], n = level_n[level];
        const int64_t *child = children + level_at[level];
        for (Py_ssize_t j = 0; j < n; j++) {
            average_six(keep + (lo + j) * stride, keep + child[j] * stride,
                        keep + child[n + j] * stride, keep + child[2 * n + j] * stride,
                        keep + child[3 * n + j] * stride, keep + child[4 * n + j] * stride,
                        keep + child[5 * n + j] * stride, width);
        }
    }
}

/* In place, likewise: each keep's value becomes the best of its sub-keeps (its own, or
 * a parent's best), smallest keeps first; the rolls' are the rolls' best. */
LANES_FUNCTION void
best_lattice_lanes(double *keep, Py_ssize_t stride, Py_ssize_t width)
{
    for (int b = 0; b < lattice_blocks; b++) {
        const Py_ssize_t lo = block_lo[b], n = block_n[b], p = block_width[b];
        const int16_t *rows = parents + block_at[b];
        for (Py_ssize_t j = 0; j < n; j++) {
            for (Py_ssize_t q = 0; q < p; q++) {
                max_into(keep + (lo + j) * stride, keep + rows[j * p + q] * stride, width);
            }
        }
    }
}

LANES_FUNCTION void
copy_into(double *restrict out, const double *restrict in, Py_ssize_t width)
{
    for (Py_ssize_t s = 0; s < width; s++) {
        out[s] = in[s];
    }
}

/* Whether ``plan`` (see fill_plan in _entries.py) is a plan of the rolls' best fills
 * over ``entries`` entries: its shared rows' count, then each row's parent (-1, or an
 * earlier shared row), its count of entries and the entries, one row per shared row
 * and per roll, nothing after. In time linear in its size. */
static int
plan_valid(const int64_t *plan, Py_ssize_t size, Py_ssize_t entries)
{
    if (size < 1 || plan[0] < 0 || plan[0] > REST) {
        return 0;
    }
    const Py_ssize_t shared = (Py_ssize_t)plan[0];
    Py_ssize_t at = 1;
    for (Py_ssize_t row = 0; row < shared + REST; row++) {
        if (size - at < 2) {
            return 0;
        }
        const int64_t parent = plan[at], n = plan[at + 1];
        if (parent < -1 || parent >= (row < shared ? row : shared) || n < (parent < 0)
            || n > size - at - 2) {
            return 0;
        }
        if (indices_in(plan + at + 2, (Py_ssize_t)n, entries, "plan") < 0) {
            PyErr_Clear();
            return 0;
        }
        at += 2 + (Py_ssize_t)n;
    }
    return at == size;
}

LANES_FUNCTION void
copy_plus(double *restrict out, const double *restrict in, double gain, Py_ssize_t width)
{
    for (Py_ssize_t s = 0; s < width; s++) {
        out[s] = in[s] + gain;
    }
}

/* Each roll's best fill but five equal dice's (the rolls from FIVE + 6), for ``width``
 * states side by side, from each entry's worth by a valid plan: the shared rows in
 * ``scratch`` (as many rows as the plan has), each row the best of its parent and its
 * entries. A maximum is exact in any grouping: each roll's best is over its entries in
 * every box. */
LANES_FUNCTION void
best_fills(const double *worth, const int64_t *plan, double *keep, double *scratch,
           Py_ssize_t stride, Py_ssize_t width)
{
    const Py_ssize_t shared = (Py_ssize_t)plan[0];
    const int64_t *at = plan + 1;
    for (Py_ssize_t row = 0; row < shared + REST; row++) {
        const Py_ssize_t parent = (Py_ssize_t)at[0], n = (Py_ssize_t)at[1];
        const int64_t *own = at + 2;
        double *out = row < shared ? scratch + row * stride
                                   : keep + (FIVE + 6 + row - shared) * stride;
        Py_ssize_t i = 0;
        if (parent >= 0) {
            copy_into(out, scratch + parent * stride, width);
        } else {
            copy_into(out, worth + own[i++] * stride, width);
        }
        for (; i < n; i++) {
            max_into(out, worth + own[i] * stride, width);
        }
        at += 2 + n;
    }
}

/* The entry five equal dice write in ``box`` with ``points`` (the Joker rule's, -1 where
 * it refuses the box): the box's row of ``lookup`` (``width`` entries, column 0 the
 * refused entry) at the points plus one, or the refused entry (the last) for points
 * outside the row. */
static inline Py_ssize_t
five_entry(const int16_t *lookup, Py_ssize_t box, Py_ssize_t points, Py_ssize_t width,
           Py_ssize_t entries)
{
    Py_ssize_t at = box * width + points + 1;
    return at >= box * width && at < (box + 1) * width ? IN(lookup[at], entries) : entries - 1;
}

/* The same for one state. */
static void
keep_values(double *keep)
{
    keep_values_lanes(keep, 1, 1);
}

/* From one reroll's keep values, the keep values with one more reroll left. */
static void
reroll_level(const double *keep, double *out)
{
    double best[KEEPS];
    memcpy(best, keep, sizeof best);
    best_lattice_lanes(best, 1, 1);
    memcpy(out + FIVE, best + FIVE, sizeof(double) * ROLLS);
    keep_values(out);
}

static Py_ssize_t
best_subkeep(const double *values, Py_ssize_t position)
{
    Py_ssize_t at = sub_start[position], end = sub_start[position + 1];
    int64_t chosen = subkeeps[at];
    double best = values[chosen];
    for (at++; at < end; at++) {
        double value = values[subkeeps[at]];
        if (value > best) {
            best = value;
            chosen = subkeeps[at];
        }
    }
    return (Py_ssize_t)chosen;
}

/* The first box of the largest worth along one row of entries (int16 or int64, the
 * other NULL), ``due`` added to every box's worth first (0.0 for none: adding it
 * changes no value). */
static Py_ssize_t
first_box(const double *worth, Py_ssize_t entries, const int16_t *short_row,
          const int64_t *long_row, Py_ssize_t boxes, double due)
{
    Py_ssize_t chosen = 0;
    double best = 0.0;
    for (Py_ssize_t b = 0; b < boxes; b++) {
        Py_ssize_t e = short_row ? IN(short_row[b], entries) : IN(long_row[b], entries);
        double value = worth[e] + due;
        if (b == 0 || value > best) {
            best = value;
            chosen = b;
        }
    }
    return chosen;
}

/* ---- the module's functions ------------------------------------------------------------- */

static PyObject *
setup(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "setup(bounds, children, subkeeps, starts)");
        return NULL;
    }
    Py_buffer bounds, child, subs, starts;
    if (get_buffer(args[0], &bounds, INT64S, 0, "bounds") < 0) {
        return NULL;
    }
    if (get_buffer(args[1], &child, INT64S, 0, "children") < 0) {
        PyBuffer_Release(&bounds);
        return NULL;
    }
    if (get_buffer(args[2], &subs, INT64S, 0, "subkeeps") < 0) {
        PyBuffer_Release(&bounds);
        PyBuffer_Release(&child);
        return NULL;
    }
    if (get_buffer(args[3], &starts, INT64S, 0, "starts") < 0) {
        PyBuffer_Release(&bounds);
        PyBuffer_Release(&child);
        PyBuffer_Release(&subs);
        return NULL;
    }
    PyObject *result = NULL;
    const int64_t *b = bounds.buf, *c = child.buf, *s = subs.buf, *st = starts.buf;
    Py_ssize_t at = 0, count = items(&subs);
    if (items(&bounds) != 2 * LEVELS || items(&starts) != ROLLS || count > MAX_SUBKEEPS
        || items(&child) > 6 * FIVE) {
        PyErr_SetString(PyExc_ValueError, "setup: arrays of the wrong sizes");
        goto done;
    }
    for (int level = 0; level < LEVELS; level++) {
        int64_t lo = b[2 * level], hi = b[2 * level + 1];
        if (lo < 0 || hi <= lo || hi > FIVE || at + 6 * (hi - lo) > items(&child)) {
            PyErr_SetString(PyExc_ValueError, "setup: a level out of range");
            goto done;
        }
        level_lo[level] = (Py_ssize_t)lo;
        level_n[level] = (Py_ssize_t)(hi - lo);
        level_at[level] = at;
        at += 6 * (hi - lo);
    }
    if (at != items(&child) || indices_in(c, at, KEEPS, "children") < 0
        || indices_in(s, count, KEEPS, "subkeeps") < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "setup: children of the wrong size");
        }
        goto done;
    }
    for (Py_ssize_t roll = 0; roll < ROLLS; roll++) {
        Py_ssize_t next = roll + 1 < ROLLS ? (Py_ssize_t)st[roll + 1] : count;
        if (st[roll] < 0 || st[roll] >= next || next > count) {
            PyErr_SetString(PyExc_ValueError, "setup: starts out of order");
            goto done;
        }
        sub_start[roll] = (Py_ssize_t)st[roll];
    }
    sub_start[ROLLS] = count;
    memcpy(children, c, (size_t)at * sizeof(int64_t));
    memcpy(subkeeps, s, (size_t)count * sizeof(int64_t));
    ready = 1;
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&bounds);
    PyBuffer_Release(&child);
    PyBuffer_Release(&subs);
    PyBuffer_Release(&starts);
    return result;
}

/* ---- a turn model the kernel holds ------------------------------------------------ */

#define MODEL_NAME "yahtzee_rules.bots.solver._ckernel.model"

/* What a rule set's turns read, checked once: each entry's points and box bit, the fill
 * plan (copied), and the Joker points and entry lookup (held: every value read from
 * them is checked, or clamped to the refused entry, where it is used). */
typedef struct {
    Py_ssize_t entries, boxes, masks, width;
    double *points;
    int64_t *bits, *plan, *codes;
    Py_buffer joker, lookup;
} Model;

static void
free_model(PyObject *capsule)
{
    Model *held = PyCapsule_GetPointer(capsule, MODEL_NAME);
    if (held == NULL) {
        PyErr_Clear();
        return;
    }
    PyBuffer_Release(&held->joker);
    PyBuffer_Release(&held->lookup);
    PyMem_Free(held->points);
    PyMem_Free(held->bits);
    PyMem_Free(held->plan);
    PyMem_Free(held->codes);
    PyMem_Free(held);
}

/*
 * model(points, bits, plan, joker, lookup, codes, boxes): a rule set's turn model for
 * state() and turn().
 *
 * points: each fill entry's points (doubles); bits: each entry's box as a bit (int64, 0
 * for the refused entry, the last); plan: how the rolls that are not five equal dice find
 * their best fill (int64; see best_fills); joker: (6, boxes, masks) points five equal
 * dice may write, -1 where refused (int16); lookup: (boxes, width) each box's entry by
 * points plus one, column 0 the refused entry (int16); codes: (252, boxes) each roll's
 * entry in each box (int64); boxes: how many the card has.
 */
static PyObject *
model(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "model(points, bits, plan, joker, lookup, codes, boxes)");
        return NULL;
    }
    Py_ssize_t boxes = PyLong_AsSsize_t(args[6]);
    if (boxes == -1 && PyErr_Occurred()) {
        return NULL;
    }
    Model *held = PyMem_Calloc(1, sizeof(Model));
    if (held == NULL) {
        return PyErr_NoMemory();
    }
    Py_buffer points, bits, plan, codes;
    int got = 0;
    PyObject *result = NULL;
    if (get_buffer(args[0], &points, DOUBLES, 0, "points") < 0) {
        goto done;
    }
    got = 1;
    if (get_buffer(args[1], &bits, INT64S, 0, "bits") < 0) {
        goto done;
    }
    got = 2;
    if (get_buffer(args[2], &plan, INT64S, 0, "plan") < 0) {
        goto done;
    }
    got = 3;
    if (get_buffer(args[3], &held->joker, INT16S, 0, "joker") < 0) {
        goto done;
    }
    got = 4;
    if (get_buffer(args[4], &held->lookup, INT16S, 0, "lookup") < 0) {
        goto done;
    }
    got = 5;
    if (get_buffer(args[5], &codes, INT64S, 0, "codes") < 0) {
        goto done;
    }
    got = 6;
    Py_ssize_t entries = items(&points);
    Py_ssize_t masks = boxes > 0 ? items(&held->joker) / (6 * boxes) : 0;
    Py_ssize_t width = boxes > 0 ? items(&held->lookup) / boxes : 0;
    if (entries < 1 || items(&bits) != entries || boxes < 1 || masks < 1 || width < 1
        || items(&held->joker) != 6 * boxes * masks || items(&held->lookup) != boxes * width
        || items(&codes) != ROLLS * boxes || !plan_valid(plan.buf, items(&plan), entries)) {
        PyErr_SetString(PyExc_ValueError, "model: arrays of the wrong sizes");
        goto done;
    }
    if (indices_in(codes.buf, ROLLS * boxes, entries, "codes") < 0) {
        goto done;
    }
    held->points = PyMem_Malloc(sizeof(double) * (size_t)entries);
    held->bits = PyMem_Malloc(sizeof(int64_t) * (size_t)entries);
    held->plan = PyMem_Malloc(sizeof(int64_t) * (size_t)items(&plan));
    held->codes = PyMem_Malloc(sizeof(int64_t) * (size_t)(ROLLS * boxes));
    if (!held->points || !held->bits || !held->plan || !held->codes) {
        PyErr_NoMemory();
        goto done;
    }
    memcpy(held->points, points.buf, sizeof(double) * (size_t)entries);
    memcpy(held->bits, bits.buf, sizeof(int64_t) * (size_t)entries);
    memcpy(held->plan, plan.buf, sizeof(int64_t) * (size_t)items(&plan));
    memcpy(held->codes, codes.buf, sizeof(int64_t) * (size_t)(ROLLS * boxes));
    held->entries = entries;
    held->boxes = boxes;
    held->masks = masks;
    held->width = width;
    result = PyCapsule_New(held, MODEL_NAME, free_model);
done:
    if (got >= 1) {
        PyBuffer_Release(&points);
    }
    if (got >= 2) {
        PyBuffer_Release(&bits);
    }
    if (got >= 3) {
        PyBuffer_Release(&plan);
    }
    if (got >= 6) {
        PyBuffer_Release(&codes);
    }
    if (result == NULL) {
        if (got >= 4) {
            PyBuffer_Release(&held->joker);
        }
        if (got >= 5) {
            PyBuffer_Release(&held->lookup);
        }
        PyMem_Free(held->points);
        PyMem_Free(held->bits);
        PyMem_Free(held->plan);
        PyMem_Free(held->codes);
        PyMem_Free(held);
    }
    return result;
}

/*
 * state(values, index, offset, bonus, model, mask, open, due, out)
 *
 * values: the table's values (doubles); index: each fill entry's state index from
 * mask 0 (int64), to which offset is added and which is clipped to the table; bonus:
 * each entry's upper bonus (doubles) or None; model: from model(); mask: the filled
 * boxes; open: the boxes a roll may fill, as bits (an entry whose bit is not among them
 * is worth -inf); due: the extra-Yahtzee bonus of five equal dice by face (doubles) or
 * None. Written to out (doubles, 924 + entries + ceil(6 * boxes / 4)): the 462 keep
 * values with one reroll left, then with two, each entry's worth, then the (6, boxes)
 * entries five equal dice write (int16).
 */
static PyObject *
state(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    enum { COUNT = 5 };
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError,
                        "state(values, index, offset, bonus, model, mask, open, due, out)");
        return NULL;
    }
    if (!ready || !lattice_blocks) {
        PyErr_SetString(PyExc_RuntimeError, "state: setup() and setup_lattice() first");
        return NULL;
    }
    const Model *held = PyCapsule_GetPointer(args[4], MODEL_NAME);
    if (held == NULL) {
        return NULL;
    }
    Py_ssize_t offset = PyLong_AsSsize_t(args[2]);
    Py_ssize_t mask = PyLong_AsSsize_t(args[5]);
    long long open = PyLong_AsLongLong(args[6]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    static const enum kind kinds[COUNT] = {DOUBLES, INT64S, DOUBLES, DOUBLES, DOUBLES};
    static const int args_at[COUNT] = {0, 1, 3, 7, 8};
    static const char *names[COUNT] = {"values", "index", "bonus", "due", "out"};
    Py_buffer views[COUNT];
    int got[COUNT] = {0};
    PyObject *result = NULL;
    for (int i = 0; i < COUNT; i++) {
        PyObject *arg = args[args_at[i]];
        if ((i == 2 || i == 3) && arg == Py_None) {
            continue;
        }
        if (get_buffer(arg, &views[i], kinds[i], i == 4, names[i]) < 0) {
            goto done;
        }
        got[i] = 1;
    }
    const Py_ssize_t entries = held->entries, boxes = held->boxes, width = held->width;
    const Py_ssize_t masks = held->masks;
    const double *values = views[0].buf, *points = held->points;
    const int64_t *index = views[1].buf, *bits = held->bits;
    const double *bonus = got[2] ? views[2].buf : NULL;
    const double *due = got[3] ? views[3].buf : NULL;
    const int16_t *joker = held->joker.buf, *lookup = held->lookup.buf;
    double *one = views[4].buf, *two = one + KEEPS, *worth = two + KEEPS;
    int16_t *fives = (int16_t *)(worth + entries);
    Py_ssize_t size = items(&views[0]);
    if (size < 1 || items(&views[1]) != entries || (bonus && items(&views[2]) != entries)
        || (due && items(&views[3]) != 6)
        || items(&views[4]) != 2 * KEEPS + entries + (6 * boxes + 3) / 4) {
        PyErr_SetString(PyExc_ValueError, "state: arrays of the wrong sizes");
        goto done;
    }
    if (mask < 0 || mask >= masks) {
        PyErr_SetString(PyExc_IndexError, "state: no such set of filled boxes");
        goto done;
    }
    /* each entry's worth */
    for (Py_ssize_t e = 0; e < entries; e++) {
        Py_ssize_t at = (Py_ssize_t)index[e] + offset;
        at = at < 0 ? 0 : (at >= size ? size - 1 : at);
        double value = values[at];
        if (bonus) {
            value += bonus[e];
        }
        value += points[e];
        worth[e] = (open & bits[e]) == 0 ? -INFINITY : value;
    }
    /* the entries five equal dice write (the Joker rule's points, looked up) */
    for (Py_ssize_t cell = 0; cell < 6 * boxes; cell++) {
        Py_ssize_t box = cell % boxes;
        fives[cell] = (int16_t)five_entry(lookup, box, joker[cell * masks + mask], width, entries);
    }
    /* each roll's best fill: holding all five dice */
    double scratch[REST];
    best_fills(worth, held->plan, one, scratch, 1, 1);
    double *best = one + FIVE;
    for (Py_ssize_t face = 0; face < 6; face++) {
        double top = worth[IN(fives[face * boxes], entries)];
        for (Py_ssize_t box = 1; box < boxes; box++) {
            double value = worth[IN(fives[face * boxes + box], entries)];
            top = value > top ? value : top;
        }
        best[face] = due ? top + due[face] : top;
    }
    keep_values(one);
    reroll_level(one, two);
    result = Py_NewRef(Py_None);
done:
    for (int i = 0; i < COUNT; i++) {
        if (got[i]) {
            PyBuffer_Release(&views[i]);
        }
    }
    return result;
}

/*
 * keeps(one, two): from each roll's best fill in one[210:], the keep values with one
 * reroll left (in one) and with two (in two), as state() works them out.
 * reroll(keep, out): from 462 keep values, those with one more reroll left.
 */
static PyObject *
keep_levels(PyObject *const *args, Py_ssize_t nargs, int both)
{
    if (nargs != 2 || !ready || !lattice_blocks) {
        PyErr_SetString(PyExc_TypeError,
                        both ? "keeps(one, two), after setup()" : "reroll(keep, out), after setup()");
        return NULL;
    }
    Py_buffer first, second;
    if (get_buffer(args[0], &first, DOUBLES, both, "keep values") < 0) {
        return NULL;
    }
    if (get_buffer(args[1], &second, DOUBLES, 1, "out") < 0) {
        PyBuffer_Release(&first);
        return NULL;
    }
    PyObject *result = NULL;
    if (items(&first) != KEEPS || items(&second) != KEEPS || first.buf == second.buf) {
        PyErr_SetString(PyExc_ValueError, "two distinct arrays of 462 keep values");
        goto done;
    }
    if (both) {
        keep_values(first.buf);
    }
    reroll_level(first.buf, second.buf);
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&first);
    PyBuffer_Release(&second);
    return result;
}

static PyObject *
keeps(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    return keep_levels(args, nargs, 1);
}

static PyObject *
reroll(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    return keep_levels(args, nargs, 0);
}

/*
 * keep(values, position): the best sub-keep (a keep index) of the roll at internal
 * position by the 462 keep values, the first in sub-keep order on a tie.
 */
static PyObject *
keep(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !ready) {
        PyErr_SetString(PyExc_TypeError, "keep(values, position), after setup()");
        return NULL;
    }
    Py_ssize_t position = PyLong_AsSsize_t(args[1]);
    if (position == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (position < 0 || position >= ROLLS) {
        PyErr_SetString(PyExc_IndexError, "keep: no such roll");
        return NULL;
    }
    Py_buffer view;
    if (get_buffer(args[0], &view, DOUBLES, 0, "values") < 0) {
        return NULL;
    }
    if (items(&view) != KEEPS) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "keep: 462 keep values");
        return NULL;
    }
    Py_ssize_t chosen = best_subkeep(view.buf, position);
    PyBuffer_Release(&view);
    return PyLong_FromSsize_t(chosen);
}

/*
 * box(worth, entries, row, due): the first box of the largest worth along row ``row``
 * of ``entries`` ((rows, boxes) int64 or int16), ``due`` added to every box's worth
 * first (0.0 for none: adding it changes no value).
 */
static PyObject *
box(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "box(worth, entries, boxes, row, due)");
        return NULL;
    }
    Py_ssize_t boxes = PyLong_AsSsize_t(args[2]);
    Py_ssize_t row = PyLong_AsSsize_t(args[3]);
    double due = PyFloat_AsDouble(args[4]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_buffer worth, entries;
    if (get_buffer(args[0], &worth, DOUBLES, 0, "worth") < 0) {
        return NULL;
    }
    if (PyObject_GetBuffer(args[1], &entries, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyBuffer_Release(&worth);
        return NULL;
    }
    PyObject *result = NULL;
    char kind = format_kind(&entries);
    int wide = entries.itemsize == 8 && (kind == 'l' || kind == 'q');
    if (!wide && !(entries.itemsize == 2 && kind == 'h')) {
        PyErr_SetString(PyExc_TypeError, "box: entries of the wrong type");
        goto done;
    }
    if (boxes < 1 || row < 0 || (row + 1) * boxes > items(&entries)) {
        PyErr_SetString(PyExc_IndexError, "box: no such row");
        goto done;
    }
    const char *at = (const char *)entries.buf + row * boxes * entries.itemsize;
    Py_ssize_t chosen = first_box(worth.buf, items(&worth), wide ? NULL : (const int16_t *)at,
                                  wide ? (const int64_t *)at : NULL, boxes, due);
    result = PyLong_FromSsize_t(chosen);
done:
    PyBuffer_Release(&worth);
    PyBuffer_Release(&entries);
    return result;
}

/* setup_rolls(keeps, rolls): the faces' counts of every keep (462 x 6, int64, internal
 * order) and of every roll (252 x 6, int64, internal order). */
static PyObject *
setup_rolls(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "setup_rolls(keeps, rolls)");
        return NULL;
    }
    Py_buffer keeps, rolls;
    if (get_buffer(args[0], &keeps, INT64S, 0, "keeps") < 0) {
        return NULL;
    }
    if (get_buffer(args[1], &rolls, INT64S, 0, "rolls") < 0) {
        PyBuffer_Release(&keeps);
        return NULL;
    }
    PyObject *result = NULL;
    const int64_t *k = keeps.buf, *r = rolls.buf;
    if (items(&keeps) != 6 * KEEPS || items(&rolls) != 6 * ROLLS) {
        PyErr_SetString(PyExc_ValueError, "setup_rolls: arrays of the wrong sizes");
        goto done;
    }
    for (Py_ssize_t i = 0; i < CODES; i++) {
        roll_of_code[i] = -1;
    }
    for (Py_ssize_t p = 0; p < ROLLS; p++) {
        Py_ssize_t code = 0, dice = 0;
        for (int face = 5; face >= 0; face--) {
            int64_t count = r[6 * p + face];
            if (count < 0 || count > 5) {
                PyErr_SetString(PyExc_ValueError, "setup_rolls: a roll's count out of range");
                goto done;
            }
            code = code * 6 + (Py_ssize_t)count;
            dice += (Py_ssize_t)count;
        }
        if (dice != 5 || roll_of_code[code] >= 0) {
            PyErr_SetString(PyExc_ValueError, "setup_rolls: rolls that are not the 252");
            goto done;
        }
        roll_of_code[code] = (int16_t)p;
    }
    for (Py_ssize_t q = 0; q < KEEPS; q++) {
        int held = 0;
        for (int face = 0; face < 6; face++) {
            int64_t count = k[6 * q + face];
            if (count < 0 || count > 5) {
                PyErr_SetString(PyExc_ValueError, "setup_rolls: a keep's count out of range");
                goto done;
            }
            keep_counts[q][face] = (int8_t)count;
            held += (int)count;
        }
        if (held > 5) {
            PyErr_SetString(PyExc_ValueError, "setup_rolls: a keep of more than five dice");
            goto done;
        }
        thrown[q] = 5 - held;
    }
    rolls_ready = 1;
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&keeps);
    PyBuffer_Release(&rolls);
    return result;
}

/* The roll (internal position) outcome ``outcome`` of the dice ``keep`` does not hold
 * gives; outcome in [0, 6 ** thrown). */
static Py_ssize_t
outcome_roll(Py_ssize_t keep, Py_ssize_t outcome)
{
    int counts[6];
    for (int face = 0; face < 6; face++) {
        counts[face] = keep_counts[keep][face];
    }
    for (int die = 0; die < thrown[keep]; die++) {
        counts[outcome % 6]++;
        outcome /= 6;
    }
    Py_ssize_t code = 0;
    for (int face = 5; face >= 0; face--) {
        code = code * 6 + counts[face];
    }
    return roll_of_code[code];
}

static const Py_ssize_t powers[6] = {1, 6, 36, 216, 1296, 7776};

/* One roll of the dice not held by ``keep``: random() draws the outcome, as a game does
 * (the outcome int(random() * 6 ** thrown)). -1 with an error set when random() fails. */
static Py_ssize_t
roll_dice(PyObject *random, Py_ssize_t keep)
{
    PyObject *drawn = PyObject_CallNoArgs(random);
    if (drawn == NULL) {
        return -1;
    }
    double r = PyFloat_AsDouble(drawn);
    Py_DECREF(drawn);
    if (r == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    if (!(r >= 0.0 && r < 1.0)) {
        PyErr_SetString(PyExc_ValueError, "random() gave a number outside [0, 1)");
        return -1;
    }
    return outcome_roll(keep, (Py_ssize_t)(r * (double)powers[thrown[keep]]));
}

/* outcome(keep, outcome): the roll (internal position) an outcome of a keep gives. */
static PyObject *
outcome(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !rolls_ready) {
        PyErr_SetString(PyExc_TypeError, "outcome(keep, outcome), after setup_rolls()");
        return NULL;
    }
    Py_ssize_t keep = PyLong_AsSsize_t(args[0]), index = PyLong_AsSsize_t(args[1]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (keep < 0 || keep >= KEEPS || index < 0 || index >= powers[thrown[keep]]) {
        PyErr_SetString(PyExc_IndexError, "outcome: no such keep or outcome");
        return NULL;
    }
    return PyLong_FromSsize_t(outcome_roll(keep, index));
}

/*
 * turn(state, model, due, random): one whole turn by the per-turn tables of a state (as
 * state() wrote them into ``state``, with ``model``): the first roll, the best keep and
 * a reroll while a keep is better than stopping (twice at most), and the best box. due:
 * the extra-Yahtzee bonus of five equal dice by face (doubles) or None. random() draws
 * each roll's outcome as a game does. Returns (the final roll's internal position, the
 * box).
 */
static PyObject *
turn(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "turn(state, model, due, random)");
        return NULL;
    }
    if (!ready || !rolls_ready) {
        PyErr_SetString(PyExc_RuntimeError, "turn: setup() and setup_rolls() first");
        return NULL;
    }
    const Model *held = PyCapsule_GetPointer(args[1], MODEL_NAME);
    if (held == NULL) {
        return NULL;
    }
    Py_buffer views[2];
    int got[2] = {0};
    PyObject *result = NULL;
    if (get_buffer(args[0], &views[0], DOUBLES, 0, "state") < 0) {
        goto done;
    }
    got[0] = 1;
    if (args[2] != Py_None) {
        if (get_buffer(args[2], &views[1], DOUBLES, 0, "due") < 0) {
            goto done;
        }
        got[1] = 1;
    }
    const Py_ssize_t entries = held->entries, boxes = held->boxes;
    if (items(&views[0]) != 2 * KEEPS + entries + (6 * boxes + 3) / 4
        || (got[1] && items(&views[1]) != 6)) {
        PyErr_SetString(PyExc_ValueError, "turn: arrays of the wrong sizes");
        goto done;
    }
    const double *one = views[0].buf;
    const double *by_rerolls[2] = {one, one + KEEPS};
    const double *worth = one + 2 * KEEPS;
    const int16_t *fives = (const int16_t *)(worth + entries);
    const int64_t *codes = held->codes;
    const double *due = got[1] ? views[1].buf : NULL;
    Py_ssize_t position = roll_dice(args[3], 0);
    if (position < 0) {
        goto done;
    }
    for (int rerolls = 2; rerolls >= 1; rerolls--) {
        Py_ssize_t chosen = best_subkeep(by_rerolls[rerolls - 1], position);
        if (chosen >= FIVE) {
            break;  /* holding all five dice: fill now */
        }
        position = roll_dice(args[3], chosen);
        if (position < 0) {
            goto done;
        }
    }
    Py_ssize_t chosen = position < 6
                            ? first_box(worth, entries, fives + position * boxes, NULL, boxes,
                                        due ? due[position] : 0.0)
                            : first_box(worth, entries, NULL, codes + position * boxes, boxes, 0.0);
    result = Py_BuildValue("(nn)", position, chosen);
done:
    for (int i = 0; i < 2; i++) {
        if (got[i]) {
            PyBuffer_Release(&views[i]);
        }
    }
    return result;
}

/* ---- the table build: many states at once ---------------------------------------- */

#define BLOCK 32 /* states side by side: each step's inner loop runs over them */

/* setup_lattice(bounds, parents): (blocks, 3) lo, hi and parents per keep (int64), and
 * the parents of each block's keeps, keep after keep (int64). */
static PyObject *
setup_lattice(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "setup_lattice(bounds, parents)");
        return NULL;
    }
    Py_buffer bounds, rows;
    if (get_buffer(args[0], &bounds, INT64S, 0, "bounds") < 0) {
        return NULL;
    }
    if (get_buffer(args[1], &rows, INT64S, 0, "parents") < 0) {
        PyBuffer_Release(&bounds);
        return NULL;
    }
    PyObject *result = NULL;
    const int64_t *b = bounds.buf, *r = rows.buf;
    Py_ssize_t blocks = items(&bounds) / 3, at = 0, count = items(&rows);
    if (items(&bounds) != 3 * blocks || blocks > MAX_BLOCKS || count > MAX_PARENTS) {
        PyErr_SetString(PyExc_ValueError, "setup_lattice: arrays of the wrong sizes");
        goto done;
    }
    Py_ssize_t previous = 1;
    for (Py_ssize_t i = 0; i < blocks; i++) {
        int64_t lo = b[3 * i], hi = b[3 * i + 1], p = b[3 * i + 2];
        if (lo != previous || hi <= lo || hi > KEEPS || p < 1 || at + (hi - lo) * p > count) {
            PyErr_SetString(PyExc_ValueError, "setup_lattice: a block out of order");
            goto done;
        }
        for (Py_ssize_t j = at; j < at + (hi - lo) * p; j++) {
            if (r[j] < 0 || r[j] >= lo) { /* a parent is a smaller keep, already best */
                PyErr_SetString(PyExc_ValueError, "setup_lattice: a parent out of order");
                goto done;
            }
        }
        block_lo[i] = (Py_ssize_t)lo;
        block_n[i] = (Py_ssize_t)(hi - lo);
        block_width[i] = (Py_ssize_t)p;
        block_at[i] = at;
        at += (Py_ssize_t)((hi - lo) * p);
        previous = (Py_ssize_t)hi;
    }
    if (at != count || previous != KEEPS) {
        PyErr_SetString(PyExc_ValueError, "setup_lattice: blocks that do not cover the keeps");
        goto done;
    }
    for (Py_ssize_t j = 0; j < count; j++) {
        parents[j] = (int16_t)r[j];
    }
    lattice_blocks = (int)blocks;
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&bounds);
    PyBuffer_Release(&rows);
    return result;
}

/*
 * solve(values, masks, uppers, flags, index, stride, bonus, points, bits, open, bases,
 *       base_of, plan, joker, lookup, due, probability, out)
 *
 * The table build's work for many states (int64 masks, capped upper subtotals and
 * flags): for each, what state() works out (fills from ``values``, keep values with one
 * and two rerolls left), then each roll's best sub-keep with two rerolls left. With
 * ``probability`` None, these are written to ``out`` ((252, states) doubles), and the
 * caller takes the expectation over the first roll; else ``out`` (states doubles) gets
 * each state's expected value, the sum over the rolls of ``probability`` (252 doubles)
 * times the roll's value, added roll by roll (NumPy's einsum adds so, over a batch of
 * several states; over one state, it does not).
 *
 * index: (levels, flags, entries) each entry's state index from mask 0 (int64);
 * stride: a mask's step in the values; bonus: (levels, entries) each entry's upper bonus
 * by subtotal (doubles, 0 where none: adding 0 changes no value); points, bits, plan,
 * joker and lookup as for state(); open: (masks,) the boxes a roll may fill, as bits
 * (int64); due: (flags, 6) the extra-Yahtzee bonus of five equal dice (doubles, 0 where
 * none). bases and base_of (int64): entries whose index, bonus and bit are equal (a lower box's
 * entries, its points apart) share a base, worked out once per state from its first
 * entry (``bases``: each base's) without its points; an entry's worth is its base's
 * (``base_of``) plus its points, the same floats (its bonus is its base's).
 */
static PyObject *
solve(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    enum { COUNT = 17 };
    if (nargs != 18) {
        PyErr_SetString(PyExc_TypeError,
                        "solve(values, masks, uppers, flags, index, stride, bonus, points, bits, "
                        "open, bases, base_of, plan, joker, lookup, due, probability, out)");
        return NULL;
    }
    if (!ready || !lattice_blocks) {
        PyErr_SetString(PyExc_RuntimeError, "solve: setup() and setup_lattice() first");
        return NULL;
    }
    Py_ssize_t stride = PyLong_AsSsize_t(args[5]);
    if (stride == -1 && PyErr_Occurred()) {
        return NULL;
    }
    static const enum kind kinds[COUNT] = {DOUBLES, INT64S, INT64S, INT64S, INT64S, DOUBLES,
                                           DOUBLES, INT64S, INT64S, INT64S, INT64S, INT64S,
                                           INT16S,  INT16S, DOUBLES, DOUBLES, DOUBLES};
    static const int args_at[COUNT] = {0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
    static const char *names[COUNT] = {"values", "masks",   "uppers", "flags",  "index",
                                       "bonus",  "points",  "bits",   "open",   "bases",
                                       "base_of", "plan",   "joker",  "lookup", "due",
                                       "probability", "out"};
    Py_buffer views[COUNT];
    int got[COUNT] = {0};
    PyObject *result = NULL;
    double *work = NULL;
    for (int i = 0; i < COUNT; i++) {
        if (i == COUNT - 2 && args[args_at[i]] == Py_None) {
            continue;
        }
        if (get_buffer(args[args_at[i]], &views[i], kinds[i], i == COUNT - 1, names[i]) < 0) {
            goto done;
        }
        got[i] = 1;
    }
    const double *values = views[0].buf;
    const int64_t *masks = views[1].buf, *uppers = views[2].buf, *flags = views[3].buf;
    const int64_t *index = views[4].buf;
    const double *bonus = views[5].buf, *points = views[6].buf;
    const int64_t *bits = views[7].buf, *open = views[8].buf;
    const int64_t *bases = views[9].buf, *base_of = views[10].buf, *plan = views[11].buf;
    const int16_t *joker = views[12].buf, *lookup = views[13].buf;
    const double *due = views[14].buf;
    const double *probability = got[15] ? views[15].buf : NULL;
    double *out = views[16].buf;
    Py_ssize_t size = items(&views[0]), states = items(&views[1]);
    Py_ssize_t entries = items(&views[6]), nbases = items(&views[9]);
    Py_ssize_t levels = entries ? items(&views[5]) / entries : 0;
    Py_ssize_t nflags = items(&views[14]) / 6;
    Py_ssize_t masks_count = items(&views[8]);
    Py_ssize_t boxes = masks_count ? items(&views[12]) / (6 * masks_count) : 0;
    Py_ssize_t looked = items(&views[13]), width = boxes ? looked / boxes : 0;
    if (size < 1 || entries < 1 || boxes < 1 || levels < 1 || nflags < 1 || nbases < 1
        || nbases > entries || items(&views[2]) != states || items(&views[3]) != states
        || items(&views[4]) != levels * nflags * entries || items(&views[5]) != levels * entries
        || items(&views[7]) != entries || items(&views[10]) != entries
        || indices_in(bases, nbases, entries, "bases") < 0
        || indices_in(base_of, entries, nbases, "base_of") < 0
        || !plan_valid(plan, items(&views[11]), entries)
        || items(&views[12]) != 6 * boxes * masks_count || width < 1 || looked != boxes * width
        || items(&views[14]) != 6 * nflags || (probability && items(&views[15]) != ROLLS)
        || items(&views[16]) != (probability ? 1 : ROLLS) * states) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "solve: arrays of the wrong sizes");
        }
        goto done;
    }
    for (Py_ssize_t s = 0; s < states; s++) {
        if (masks[s] < 0 || masks[s] >= masks_count || uppers[s] < 0 || uppers[s] >= levels
            || flags[s] < 0 || flags[s] >= nflags) {
            PyErr_SetString(PyExc_IndexError, "solve: a state outside the model");
            goto done;
        }
    }
    /* each base's worth (bases x BLOCK), the keep values (462 x BLOCK), the plan's shared
     * rows (at most REST x BLOCK); then the entries five equal dice may write, by face (at
     * most boxes each), and how many */
    work = PyMem_Malloc(sizeof(double) * (size_t)(nbases + entries + KEEPS + REST) * BLOCK
                        + sizeof(Py_ssize_t) * (size_t)(6 * boxes + 6));
    if (work == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    double *base = work, *worth = base + nbases * BLOCK, *keep = worth + entries * BLOCK;
    double *scratch = keep + KEEPS * BLOCK;
    Py_ssize_t *allowed = (Py_ssize_t *)(scratch + REST * BLOCK), *allowed_n = allowed + 6 * boxes;
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t allowed_mask = -1;
    for (Py_ssize_t first = 0; first < states; first += BLOCK) {
        Py_ssize_t count = states - first < BLOCK ? states - first : BLOCK;
        for (Py_ssize_t s = 0; s < BLOCK; s++) { /* lanes past the states repeat the last */
            Py_ssize_t at_state = first + (s < count ? s : count - 1);
            Py_ssize_t mask = (Py_ssize_t)masks[at_state], u = (Py_ssize_t)uppers[at_state];
            Py_ssize_t y = (Py_ssize_t)flags[at_state];
            const int64_t *row = index + (u * nflags + y) * entries;
            const double *adds = bonus + u * entries;
            const int64_t opened = open[mask];
            for (Py_ssize_t j = 0; j < nbases; j++) {
                Py_ssize_t e = (Py_ssize_t)bases[j];
                Py_ssize_t at = (Py_ssize_t)row[e] + mask * stride;
                at = at < 0 ? 0 : (at >= size ? size - 1 : at);
                double value = values[at];
                value += adds[e];
                base[j * BLOCK + s] = (opened & bits[e]) == 0 ? -INFINITY : value;
            }
            /* five equal dice: the best entry the Joker rule allows (-inf for none), then
             * the bonus; the entries looked up once for each mask (the states come mask
             * by mask) */
            if (mask != allowed_mask) {
                allowed_mask = mask;
                for (Py_ssize_t face = 0; face < 6; face++) {
                    allowed_n[face] = 0;
                    for (Py_ssize_t box = 0; box < boxes; box++) {
                        Py_ssize_t scored = joker[(face * boxes + box) * masks_count + mask];
                        if (scored < 0) {
                            continue; /* refused */
                        }
                        allowed[face * boxes + allowed_n[face]++] =
                            five_entry(lookup, box, scored, width, entries);
                    }
                }
            }
            for (Py_ssize_t face = 0; face < 6; face++) {
                const Py_ssize_t *these = allowed + face * boxes;
                double top = -INFINITY;
                for (Py_ssize_t i = 0; i < allowed_n[face]; i++) {
                    Py_ssize_t e = these[i];
                    double value = base[base_of[e] * BLOCK + s] + points[e];
                    top = value > top ? value : top;
                }
                keep[(FIVE + face) * BLOCK + s] = top + due[y * 6 + face];
            }
        }
        /* each entry's worth, then the other rolls' best fill */
        for (Py_ssize_t e = 0; e < entries; e++) {
            copy_plus(worth + e * BLOCK, base + base_of[e] * BLOCK, points[e], BLOCK);
        }
        best_fills(worth, plan, keep, scratch, BLOCK, BLOCK);
        /* in place: the rolls' best with one reroll left, then with two */
        for (int rerolls = 1; rerolls <= 2; rerolls++) {
            keep_values_lanes(keep, BLOCK, BLOCK);
            best_lattice_lanes(keep, BLOCK, BLOCK);
        }
        if (probability) {
            double sum[BLOCK] = {0.0};
            for (Py_ssize_t roll = 0; roll < ROLLS; roll++) {
                const double p = probability[roll], *row = keep + (FIVE + roll) * BLOCK;
                for (Py_ssize_t s = 0; s < BLOCK; s++) {
                    sum[s] = sum[s] + p * row[s];
                }
            }
            memcpy(out + first, sum, sizeof(double) * (size_t)count);
        } else {
            for (Py_ssize_t roll = 0; roll < ROLLS; roll++) {
                memcpy(out + roll * states + first, keep + (FIVE + roll) * BLOCK,
                       sizeof(double) * (size_t)count);
            }
        }
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(work);
    for (int i = 0; i < COUNT; i++) {
        if (got[i]) {
            PyBuffer_Release(&views[i]);
        }
    }
    return result;
}

static PyMethodDef methods[] = {
    {"setup", (PyCFunction)(void (*)(void))setup, METH_FASTCALL,
     "Take the keep lattice and each roll's sub-keeps (once per process)."},
    {"model", (PyCFunction)(void (*)(void))model, METH_FASTCALL,
     "Check and hold a rule set's turn model for state()."},
    {"state", (PyCFunction)(void (*)(void))state, METH_FASTCALL,
     "One state's fill worth and keep values with one and two rerolls left."},
    {"keeps", (PyCFunction)(void (*)(void))keeps, METH_FASTCALL,
     "From each roll's best fill, the keep values with one and with two rerolls left."},
    {"reroll", (PyCFunction)(void (*)(void))reroll, METH_FASTCALL,
     "The keep values with one more reroll left."},
    {"keep", (PyCFunction)(void (*)(void))keep, METH_FASTCALL,
     "The best sub-keep of one roll, the first on a tie."},
    {"box", (PyCFunction)(void (*)(void))box, METH_FASTCALL,
     "The best box of one roll, the first in card order on a tie."},
    {"setup_rolls", (PyCFunction)(void (*)(void))setup_rolls, METH_FASTCALL,
     "Take the faces' counts of every keep and roll (once per process)."},
    {"outcome", (PyCFunction)(void (*)(void))outcome, METH_FASTCALL,
     "The roll an outcome of the dice a keep does not hold gives."},
    {"setup_lattice", (PyCFunction)(void (*)(void))setup_lattice, METH_FASTCALL,
     "Take the keep lattice's parents (once per process)."},
    {"solve", (PyCFunction)(void (*)(void))solve, METH_FASTCALL,
     "The table build's work for many states: each roll's best value, two rerolls left."},
    {"turn", (PyCFunction)(void (*)(void))turn, METH_FASTCALL,
     "One whole turn by a state's per-turn tables: the final roll and the box."},
    {NULL, NULL, 0, NULL},
};

static int
exec_module(PyObject *module)
{
    if (PyModule_AddStringConstant(module, "SOURCE", KERNEL_SOURCE) < 0) {
        return -1;
    }
    return PyModule_AddIntConstant(module, "VERSION", KERNEL_VERSION);
}

static PyModuleDef_Slot slots[] = {
    {Py_mod_exec, exec_module},
    {0, NULL},
};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT, "_ckernel",
    "The solver's compiled per-turn kernel (optional: the NumPy path is the fallback).",
    0, methods, slots, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__ckernel(void)
{
    return PyModuleDef_Init(&definition);
}
