/* The player model's log-likelihood of the card plays seen, per world: the C core of
 * agents.mediatore.infer.play_log_likelihood (use that, not this module).
 *
 * numpy's version builds [plays, worlds, 40] arrays of every hand fact and logit; most plays
 * follow suit, where only the led suit's few held cards are legal, so a loop over the legal
 * cards alone does a fraction of the work, and none of the temporaries. Same model, same
 * facts (infer._hand_facts says what each is); the sums differ only in rounding
 * (tests/test_infer.py compares the two). Cards are 10 * suit + power, as in cards.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>

#define NUM_CARDS 40
#define ROLES 4
#define FACTS 4

typedef uint64_t u64;

/* The logit of card c (suit s, power p) for a hand `hand` with `unseen` cards unseen, at play
 * k of K, in role r: coef[fact][k][r][c] times each hand fact (1, master, lowest, length). */
static double logit(const double *coef, Py_ssize_t K, Py_ssize_t k, long r, int c, u64 hand,
                    u64 unseen) {
    int s = c / 10, p = c % 10;
    unsigned held = (unsigned)(hand >> (10 * s)) & 1023u;
    unsigned open = (unsigned)(unseen >> (10 * s)) & 1023u;
    double master = (open >> (p + 1)) == 0;
    double lowest = (held & ((1u << p) - 1)) == 0;
    double length = __builtin_popcount(held) / 9.0;
    Py_ssize_t at = (k * ROLES + r) * NUM_CARDS + c, fact = K * ROLES * NUM_CARDS;
    return coef[at] + coef[fact + at] * master + coef[2 * fact + at] * lowest
           + coef[3 * fact + at] * length;
}

static int get(PyObject *obj, Py_buffer *view, Py_ssize_t items, Py_ssize_t size,
               const char *name, int writable) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    if (view->len != items * size || view->itemsize != size) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd contiguous items of %zd bytes, got %zd bytes",
                     name, items, size, view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(log_likelihood_doc,
"log_likelihood(coef, hands, seen, led, card, role, out) -> None\n\n"
"Adds to out[n] (float64 [N]), for every world n, the sum over the K plays k of\n"
"log softmax(logits over the legal cards)[card[k]]: hands (uint64 [K, N]) the seat's hand at\n"
"play k in world n, seen (uint64 [K]) the cards of finished tricks and of the trick so far,\n"
"led (int64 [K]) the suit led (-1: the play leads), card (int64 [K]) the card played, role\n"
"(int64 [K, N]) 0..3, coef (float64 [4, K, 4, 40]) the logit's coefficients of each hand fact.");

static PyObject *py_log_likelihood(PyObject *self, PyObject *args) {
    PyObject *objs[7];
    if (!PyArg_ParseTuple(args, "OOOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &objs[6]))
        return NULL;
    Py_buffer b[7];
    Py_buffer probe;
    if (PyObject_GetBuffer(objs[2], &probe, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    Py_ssize_t K = probe.len / 8;
    PyBuffer_Release(&probe);
    if (PyObject_GetBuffer(objs[6], &probe, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    Py_ssize_t N = probe.len / 8;
    PyBuffer_Release(&probe);
    const Py_ssize_t items[7] = {FACTS * K * ROLES * NUM_CARDS, K * N, K, K, K, K * N, N};
    const char *names[7] = {"coef", "hands", "seen", "led", "card", "role", "out"};
    int got = 0;
    for (; got < 7; got++)
        if (get(objs[got], &b[got], items[got], 8, names[got], got == 6) < 0) break;
    if (got < 7) {
        while (got--) PyBuffer_Release(&b[got]);
        return NULL;
    }
    const double *coef = b[0].buf;
    const u64 *hands = b[1].buf, *seen = b[2].buf;
    const int64_t *led = b[3].buf, *card = b[4].buf, *role = b[5].buf;
    double *out = b[6].buf;
    for (Py_ssize_t k = 0; k < K; k++) {
        for (Py_ssize_t n = 0; n < N; n++) {
            u64 hand = hands[k * N + n], unseen = ~(hand | seen[k]);
            long r = (long)role[k * N + n];
            u64 legal = hand;
            if (led[k] >= 0) {
                u64 follow = hand & ((u64)1023 << (10 * led[k]));
                if (follow) legal = follow;
            }
            double total = 0.0;
            for (u64 rest = legal; rest; rest &= rest - 1)
                total += exp(logit(coef, K, k, r, __builtin_ctzll(rest), hand, unseen));
            out[n] += logit(coef, K, k, r, (int)card[k], hand, unseen) - log(total);
        }
    }
    for (int i = 0; i < 7; i++) PyBuffer_Release(&b[i]);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"log_likelihood", py_log_likelihood, METH_VARARGS, log_likelihood_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_likelihood",
    "The player model's likelihood core; use agents.mediatore.infer, not this module.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__likelihood(void) { return PyModule_Create(&module); }
