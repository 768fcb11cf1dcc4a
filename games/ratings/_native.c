/* The rebuild's hot loop in C: the plays where everyone plays for themselves, and the
 * cooperative games' plays, rated as rebuild._rate_play rates them in Python (the same rows,
 * the same states, the same pair counts). _rate_play stays the reference, and the fallback when
 * this module is not built (docs/benchmarks.md, issue 32).
 *
 * rate_plays(seats, start, final, states, cooperative, beaten, tied, club_id, all_games,
 *            beta, kappa, tau, limit_sigma, rows) -> int
 *
 * ``seats``: a list of seat tuples (play_id, game, played_at, player, rank, is_winner, score,
 * team), in play order, a play's seats together. From ``start``, rates each play and appends
 * its rows (one 27-value tuple a seat, rebuild.COLUMNS) to ``rows``, until a play it leaves to
 * Python: one with partners (rare; update.rate_teams stays the only team update), or anything
 * it does not expect (a rank or a score that is not an int, a state that is not a list of
 * nine, a player seated twice, more than MAX_SEATS seats); and, unless ``final``, the last play
 * of the list (its seats may go on in the next list). Returns the index of the first seat of
 * that play (len(seats): all rated). Nothing of a play it leaves is changed, but its players'
 * states may have been fetched (States.__missing__).
 *
 * The Plackett–Luce update is update.plackett_luce's closed form, its floating-point
 * operations in its order (built with -ffp-contract=off: no fused multiply-add), so that both
 * give the same bits; tests/stats/test_native.py checks that the rows of both are equal.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

#define MAX_SEATS 64
#define ROW_SIZE 27

typedef struct {
    PyObject *seat;      /* borrowed: the seat tuple */
    PyObject *state;     /* new reference: the game's state list */
    PyObject *total;     /* new reference: all games' state list */
    long long rank, player, score;
    int won;
    double mu, sigma, all_mu, all_sigma;
} Seat;

/* A state list's integer at ``index`` (0 and *ok unchanged if it is an int; *ok = 0 if not). */
static long long state_int(PyObject *state, Py_ssize_t index, int *ok) {
    PyObject *value = PyList_GET_ITEM(state, index);
    if (!PyLong_CheckExact(value)) {
        *ok = 0;
        return 0;
    }
    int overflow = 0;
    long long result = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow) *ok = 0;
    return result;
}

static int state_float(PyObject *state, Py_ssize_t index, double *out) {
    PyObject *value = PyList_GET_ITEM(state, index);
    if (!PyFloat_CheckExact(value)) return 0;
    *out = PyFloat_AS_DOUBLE(value);
    return 1;
}

/* states[(scope, player)], through the dict's __missing__ when it is not there yet. */
static PyObject *get_state(PyObject *states, PyObject *scope, PyObject *player) {
    PyObject *key = PyTuple_Pack(2, scope, player);
    if (key == NULL) return NULL;
    PyObject *state = PyDict_GetItemWithError(states, key);
    if (state != NULL) {
        Py_INCREF(state);
    } else if (!PyErr_Occurred()) {
        state = PyObject_GetItem(states, key);
    }
    Py_DECREF(key);
    return state;
}

/* update.plackett_luce, the same operations in the same order. */
static void plackett_luce(int count, const double *mus, const double *sigmas,
                          const long long *ranks, double beta, double kappa, double tau,
                          int limit_sigma, double *new_mu, double *new_sigma) {
    int order[MAX_SEATS];
    double variance[MAX_SEATS], strength[MAX_SEATS], below[MAX_SEATS];
    double tau_squared = tau * tau, beta_squared = beta * beta;
    /* A stable sort of the seats by rank (insertion sort: a handful of seats). */
    for (int i = 0; i < count; i++) {
        int j = i;
        while (j > 0 && ranks[order[j - 1]] > ranks[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    double total = 0.0;
    for (int i = 0; i < count; i++) {
        int k = order[i];
        variance[i] = sigmas[k] * sigmas[k] + tau_squared;
        total += variance[i] + beta_squared;
    }
    double c = sqrt(total);
    double c_squared = total;
    for (int i = 0; i < count; i++) strength[i] = exp(mus[order[i]] / c);
    double running = 0.0;
    for (int i = count - 1; i >= 0; i--) {
        running += strength[i];
        below[i] = running;
    }
    double a = 0.0, b = 0.0;
    int first = 0;
    while (first < count) {
        long long rank = ranks[order[first]];
        int end = first + 1;
        while (end < count && ranks[order[end]] == rank) end++;
        double s_sum = below[first];
        a += 1.0 / s_sum;
        b += 1.0 / (s_sum * s_sum);
        double alone = 1.0 / (double)(end - first);
        for (int i = first; i < end; i++) {
            int k = order[i];
            double v = variance[i];
            double s = strength[i];
            double widened = sqrt(v);
            new_mu[k] = mus[k] + (alone - s * a) * v / c;
            double delta = s * (a - s * b) * v / c_squared * widened / c;
            double shrunk = 1.0 - delta;
            double updated = widened * sqrt(shrunk < kappa ? kappa : shrunk);
            new_sigma[k] = (limit_sigma && sigmas[k] < updated) ? sigmas[k] : updated;
        }
        first = end;
    }
}

/* counts[(first, second)] += 1 (the players' own int objects as the key) */
static int add_pair(PyObject *counts, PyObject *first, PyObject *second) {
    PyObject *key = PyTuple_Pack(2, first, second);
    if (key == NULL) return -1;
    PyObject *found = PyDict_GetItemWithError(counts, key);
    PyObject *count;
    if (found != NULL) {
        long long value = PyLong_AsLongLong(found);
        count = value == -1 && PyErr_Occurred() ? NULL : PyLong_FromLongLong(value + 1);
    } else if (PyErr_Occurred()) {
        Py_DECREF(key);
        return -1;
    } else {
        count = PyLong_FromLong(1);
    }
    if (count == NULL) {
        Py_DECREF(key);
        return -1;
    }
    int failed = PyDict_SetItem(counts, key, count);
    Py_DECREF(count);
    Py_DECREF(key);
    return failed;
}

static void release(Seat *seats, int count) {
    for (int i = 0; i < count; i++) {
        Py_CLEAR(seats[i].state);
        Py_CLEAR(seats[i].total);
    }
}

/* Sets a list item to a new int (steals nothing; returns -1 on failure). */
static int set_int(PyObject *list, Py_ssize_t index, long long value) {
    PyObject *number = PyLong_FromLongLong(value);
    if (number == NULL) return -1;
    PyList_SetItem(list, index, number); /* steals the new reference, drops the old item */
    return 0;
}

static int set_float(PyObject *list, Py_ssize_t index, double value) {
    PyObject *number = PyFloat_FromDouble(value);
    if (number == NULL) return -1;
    PyList_SetItem(list, index, number);
    return 0;
}

/* Rates one play (seats [first, end) of the list). 1: rated; 0: left to Python; -1: error. */
static int rate_play(PyObject *list, Py_ssize_t first, Py_ssize_t end, PyObject *states,
                     PyObject *beaten, PyObject *tied, PyObject *club_id, PyObject *all_games,
                     double beta, double kappa, double tau, int limit_sigma, PyObject *rows) {
    int count = (int)(end - first);
    if (count > MAX_SEATS) return 0;
    Seat seats[MAX_SEATS];
    PyObject *head = PyList_GET_ITEM(list, first);
    PyObject *play_id = PyTuple_GET_ITEM(head, 0);
    PyObject *game = PyTuple_GET_ITEM(head, 1);
    PyObject *played_at = PyTuple_GET_ITEM(head, 2);
    for (int i = 0; i < count; i++) {
        seats[i].state = seats[i].total = NULL;
    }
    /* Read and check everything first: nothing changes unless the play is rated here. */
    for (int i = 0; i < count; i++) {
        Seat *seat = &seats[i];
        seat->seat = PyList_GET_ITEM(list, first + i);
        PyObject *player = PyTuple_GET_ITEM(seat->seat, 3);
        PyObject *rank = PyTuple_GET_ITEM(seat->seat, 4);
        PyObject *score = PyTuple_GET_ITEM(seat->seat, 6);
        if (!PyLong_CheckExact(player) || !PyLong_CheckExact(rank) || !PyLong_CheckExact(score)) {
            release(seats, count);
            return 0;
        }
        int overflow = 0, any = 0;
        seat->player = PyLong_AsLongLongAndOverflow(player, &overflow);
        any |= overflow;
        seat->rank = PyLong_AsLongLongAndOverflow(rank, &overflow);
        any |= overflow;
        seat->score = PyLong_AsLongLongAndOverflow(score, &overflow);
        any |= overflow;
        if (any || seat->score > (1LL << 40) || seat->score < -(1LL << 40)) {
            release(seats, count);
            return 0;
        }
        for (int j = 0; j < i; j++) {
            if (seats[j].player == seat->player) { /* seated twice: one state, Python's way */
                release(seats, count);
                return 0;
            }
        }
        int won = PyObject_IsTrue(PyTuple_GET_ITEM(seat->seat, 5));
        if (won < 0) {
            release(seats, count);
            return -1;
        }
        seat->won = won;
    }
    for (int i = 0; i < count; i++) {
        seats[i].state = get_state(states, game, PyTuple_GET_ITEM(seats[i].seat, 3));
        if (seats[i].state == NULL) {
            release(seats, count);
            return -1;
        }
    }
    for (int i = 0; i < count; i++) {
        seats[i].total = get_state(states, all_games, PyTuple_GET_ITEM(seats[i].seat, 3));
        if (seats[i].total == NULL) {
            release(seats, count);
            return -1;
        }
    }
    long long plays[MAX_SEATS], wins[MAX_SEATS], points[MAX_SEATS], streak[MAX_SEATS],
        longest[MAX_SEATS], best[MAX_SEATS], worst[MAX_SEATS];
    long long all_plays[MAX_SEATS], all_wins[MAX_SEATS], all_streak[MAX_SEATS],
        all_longest[MAX_SEATS];
    int has_best[MAX_SEATS], has_worst[MAX_SEATS];
    double mus[MAX_SEATS], sigmas[MAX_SEATS], all_mus[MAX_SEATS], all_sigmas[MAX_SEATS];
    long long ranks[MAX_SEATS];
    for (int i = 0; i < count; i++) {
        PyObject *state = seats[i].state, *total = seats[i].total;
        int ok = PyList_CheckExact(state) && PyList_GET_SIZE(state) == 9 &&
                 PyList_CheckExact(total) && PyList_GET_SIZE(total) == 9 && state != total;
        if (ok) {
            ok = state_float(state, 0, &mus[i]) && state_float(state, 1, &sigmas[i]) &&
                 state_float(total, 0, &all_mus[i]) && state_float(total, 1, &all_sigmas[i]);
        }
        if (ok) {
            plays[i] = state_int(state, 2, &ok);
            wins[i] = state_int(state, 3, &ok);
            points[i] = state_int(state, 4, &ok);
            has_best[i] = PyList_GET_ITEM(state, 5) != Py_None;
            best[i] = has_best[i] ? state_int(state, 5, &ok) : 0;
            has_worst[i] = PyList_GET_ITEM(state, 6) != Py_None;
            worst[i] = has_worst[i] ? state_int(state, 6, &ok) : 0;
            streak[i] = state_int(state, 7, &ok);
            longest[i] = state_int(state, 8, &ok);
            all_plays[i] = state_int(total, 2, &ok);
            all_wins[i] = state_int(total, 3, &ok);
            all_streak[i] = state_int(total, 7, &ok);
            all_longest[i] = state_int(total, 8, &ok);
            /* far from any overflow of the sums below */
            ok = ok && points[i] < (1LL << 60) && points[i] > -(1LL << 60);
        }
        if (!ok) {
            release(seats, count);
            return 0;
        }
        ranks[i] = seats[i].rank;
    }
    /* Head-to-head (totals.Pairs.count_alone): the players by (rank, id), each pair once. */
    int ranked[MAX_SEATS];
    for (int i = 0; i < count; i++) {
        int j = i;
        while (j > 0 && (seats[ranked[j - 1]].rank > seats[i].rank ||
                         (seats[ranked[j - 1]].rank == seats[i].rank &&
                          seats[ranked[j - 1]].player > seats[i].player))) {
            ranked[j] = ranked[j - 1];
            j--;
        }
        ranked[j] = i;
    }
    for (int i = 0; i < count; i++) {
        for (int j = i + 1; j < count; j++) {
            Seat *one = &seats[ranked[i]], *other = &seats[ranked[j]];
            if (add_pair(one->rank < other->rank ? beaten : tied, PyTuple_GET_ITEM(one->seat, 3),
                         PyTuple_GET_ITEM(other->seat, 3))) {
                release(seats, count);
                return -1;
            }
        }
    }
    double new_mu[MAX_SEATS], new_sigma[MAX_SEATS], all_new_mu[MAX_SEATS],
        all_new_sigma[MAX_SEATS];
    if (count > 1) {
        plackett_luce(count, mus, sigmas, ranks, beta, kappa, tau, limit_sigma, new_mu, new_sigma);
        plackett_luce(count, all_mus, all_sigmas, ranks, beta, kappa, tau, limit_sigma, all_new_mu,
                      all_new_sigma);
    }
    for (int i = 0; i < count; i++) {
        Seat *seat = &seats[i];
        PyObject *state = seat->state, *total = seat->total;
        PyObject *row = PyTuple_New(ROW_SIZE);
        if (row == NULL) {
            release(seats, count);
            return -1;
        }
        /* The seat, and the ratings before (the states' own objects). */
        PyObject *fixed[12] = {
            club_id, play_id, PyTuple_GET_ITEM(seat->seat, 3), game, played_at,
            PyTuple_GET_ITEM(seat->seat, 5), PyTuple_GET_ITEM(seat->seat, 4), Py_None,
            PyList_GET_ITEM(state, 0), PyList_GET_ITEM(state, 1),
            PyList_GET_ITEM(total, 0), PyList_GET_ITEM(total, 1),
        };
        static const int at[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 19, 20};
        for (int f = 0; f < 12; f++) {
            Py_INCREF(fixed[f]);
            PyTuple_SET_ITEM(row, at[f], fixed[f]);
        }
        if (count > 1) {
            if (set_float(state, 0, new_mu[i]) || set_float(state, 1, new_sigma[i]) ||
                set_float(total, 0, all_new_mu[i]) || set_float(total, 1, all_new_sigma[i])) {
                Py_DECREF(row);
                release(seats, count);
                return -1;
            }
        }
        long long old_game[7] = {plays[i], wins[i], points[i], best[i], worst[i], streak[i],
                                 longest[i]};
        long long old_all[4] = {all_plays[i], all_wins[i], all_streak[i], all_longest[i]};
        int had_best = has_best[i], had_worst = has_worst[i];
        plays[i] += 1;
        all_plays[i] += 1;
        if (seat->won) {
            wins[i] += 1;
            all_wins[i] += 1;
            streak[i] += 1;
            all_streak[i] += 1;
            if (streak[i] > longest[i]) longest[i] = streak[i];
            if (all_streak[i] > all_longest[i]) all_longest[i] = all_streak[i];
        } else {
            streak[i] = 0;
            all_streak[i] = 0;
        }
        points[i] += seat->score;
        if (!has_best[i] || seat->score > best[i]) best[i] = seat->score;
        if (!has_worst[i] || seat->score < worst[i]) worst[i] = seat->score;
        long long game_values[7] = {plays[i], wins[i], points[i], best[i], worst[i], streak[i],
                                    longest[i]};
        long long all_values[4] = {all_plays[i], all_wins[i], all_streak[i], all_longest[i]};
        int failed = 0;
        /* A new int only where the total changed (best and worst: also where they were None). */
        for (int v = 0; v < 7 && !failed; v++) {
            int changed = game_values[v] != old_game[v] || (v == 3 && !had_best) ||
                          (v == 4 && !had_worst);
            if (changed) failed = set_int(state, 2 + v, game_values[v]);
        }
        static const int all_at[4] = {2, 3, 7, 8};
        for (int v = 0; v < 4 && !failed; v++) {
            if (all_values[v] != old_all[v]) failed = set_int(total, all_at[v], all_values[v]);
        }
        if (failed) {
            Py_DECREF(row);
            release(seats, count);
            return -1;
        }
        /* The ratings after, and the totals after (the states' new objects). */
        static const int state_at[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
        for (int v = 0; v < 9; v++) {
            PyObject *value = PyList_GET_ITEM(state, state_at[v]);
            Py_INCREF(value);
            PyTuple_SET_ITEM(row, 10 + v, value);
        }
        static const int total_at[6] = {0, 1, 2, 3, 7, 8};
        for (int v = 0; v < 6; v++) {
            PyObject *value = PyList_GET_ITEM(total, total_at[v]);
            Py_INCREF(value);
            PyTuple_SET_ITEM(row, 21 + v, value);
        }
        failed = PyList_Append(rows, row);
        Py_DECREF(row);
        if (failed) {
            release(seats, count);
            return -1;
        }
    }
    release(seats, count);
    return 1;
}

/* A cooperative game's play (rebuild._rate_play, totals.count): each seat's totals in the
 * game's scope only, no rating. 1: rated; 0: left to Python; -1: error. */
static int rate_cooperative(PyObject *list, Py_ssize_t first, Py_ssize_t end, PyObject *states,
                            PyObject *club_id, PyObject *rows) {
    int count = (int)(end - first);
    if (count > MAX_SEATS) return 0;
    PyObject *head = PyList_GET_ITEM(list, first);
    PyObject *play_id = PyTuple_GET_ITEM(head, 0);
    PyObject *game = PyTuple_GET_ITEM(head, 1);
    PyObject *played_at = PyTuple_GET_ITEM(head, 2);
    PyObject *state_of[MAX_SEATS];
    long long player[MAX_SEATS], score[MAX_SEATS], values[MAX_SEATS][7];
    int won[MAX_SEATS], has_best[MAX_SEATS], has_worst[MAX_SEATS];
    for (int i = 0; i < count; i++) state_of[i] = NULL;
#define GIVE_UP(result)                                        \
    do {                                                       \
        for (int g = 0; g < count; g++) Py_CLEAR(state_of[g]); \
        return (result);                                       \
    } while (0)
    for (int i = 0; i < count; i++) {
        PyObject *seat = PyList_GET_ITEM(list, first + i);
        PyObject *who = PyTuple_GET_ITEM(seat, 3), *points = PyTuple_GET_ITEM(seat, 6);
        if (!PyLong_CheckExact(who) || !PyLong_CheckExact(points)) GIVE_UP(0);
        int overflow = 0, any = 0;
        player[i] = PyLong_AsLongLongAndOverflow(who, &overflow);
        any |= overflow;
        score[i] = PyLong_AsLongLongAndOverflow(points, &overflow);
        any |= overflow;
        if (any || score[i] > (1LL << 40) || score[i] < -(1LL << 40)) GIVE_UP(0);
        for (int j = 0; j < i; j++) {
            if (player[j] == player[i]) GIVE_UP(0);
        }
        won[i] = PyObject_IsTrue(PyTuple_GET_ITEM(seat, 5));
        if (won[i] < 0) GIVE_UP(-1);
    }
    for (int i = 0; i < count; i++) {
        state_of[i] = get_state(states, game, PyTuple_GET_ITEM(PyList_GET_ITEM(list, first + i), 3));
        if (state_of[i] == NULL) GIVE_UP(-1);
        PyObject *state = state_of[i];
        if (!PyList_CheckExact(state) || PyList_GET_SIZE(state) != 9) GIVE_UP(0);
        if (PyList_GET_ITEM(state, 4) == Py_None) GIVE_UP(0);
        int ok = 1;
        for (int v = 0; v < 7; v++) {
            PyObject *value = PyList_GET_ITEM(state, 2 + v);
            if (v == 3 || v == 4) { /* best, worst: None before the first score */
                int *has = v == 3 ? &has_best[i] : &has_worst[i];
                *has = value != Py_None;
                if (!*has) {
                    values[i][v] = 0;
                    continue;
                }
            }
            values[i][v] = state_int(state, 2 + v, &ok);
        }
        if (!ok || values[i][2] >= (1LL << 60) || values[i][2] <= -(1LL << 60)) GIVE_UP(0);
    }
    for (int i = 0; i < count; i++) {
        long long *v = values[i]; /* plays, wins, points, best, worst, streak, longest */
        v[0] += 1;
        if (won[i]) {
            v[1] += 1;
            v[5] += 1;
            if (v[5] > v[6]) v[6] = v[5];
        } else {
            v[5] = 0;
        }
        v[2] += score[i];
        if (!has_best[i] || score[i] > v[3]) v[3] = score[i];
        if (!has_worst[i] || score[i] < v[4]) v[4] = score[i];
        PyObject *state = state_of[i];
        for (int k = 0; k < 7; k++) {
            if (set_int(state, 2 + k, v[k])) GIVE_UP(-1);
        }
        PyObject *seat = PyList_GET_ITEM(list, first + i);
        PyObject *row = PyTuple_New(ROW_SIZE);
        if (row == NULL) GIVE_UP(-1);
        PyObject *fixed[8] = {
            club_id, play_id, PyTuple_GET_ITEM(seat, 3), game, played_at,
            PyTuple_GET_ITEM(seat, 5), PyTuple_GET_ITEM(seat, 4), PyTuple_GET_ITEM(seat, 7),
        };
        for (int f = 0; f < 8; f++) {
            Py_INCREF(fixed[f]);
            PyTuple_SET_ITEM(row, f, fixed[f]);
        }
        for (int f = 8; f < 12; f++) {
            Py_INCREF(Py_None);
            PyTuple_SET_ITEM(row, f, Py_None);
        }
        for (int k = 0; k < 7; k++) {
            PyObject *value = PyList_GET_ITEM(state, 2 + k);
            Py_INCREF(value);
            PyTuple_SET_ITEM(row, 12 + k, value);
        }
        for (int f = 19; f < ROW_SIZE; f++) {
            Py_INCREF(Py_None);
            PyTuple_SET_ITEM(row, f, Py_None);
        }
        int failed = PyList_Append(rows, row);
        Py_DECREF(row);
        if (failed) GIVE_UP(-1);
    }
    GIVE_UP(1);
#undef GIVE_UP
}

static PyObject *rate_plays(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *list, *states, *cooperative, *beaten, *tied, *club_id, *all_games, *rows;
    Py_ssize_t start;
    int final, limit_sigma;
    double beta, kappa, tau;
    if (!PyArg_ParseTuple(args, "O!npO!OO!O!OUdddpO!", &PyList_Type, &list, &start, &final,
                          &PyDict_Type, &states, &cooperative, &PyDict_Type, &beaten,
                          &PyDict_Type, &tied, &club_id, &all_games, &beta, &kappa, &tau,
                          &limit_sigma, &PyList_Type, &rows)) {
        return NULL;
    }
    Py_ssize_t size = PyList_GET_SIZE(list);
    while (start < size) {
        PyObject *head = PyList_GET_ITEM(list, start);
        if (!PyTuple_CheckExact(head) || PyTuple_GET_SIZE(head) != 8) break;
        PyObject *play_id = PyTuple_GET_ITEM(head, 0);
        Py_ssize_t end = start + 1;
        int other_play = 0, plain = 1;
        for (; end < size; end++) {
            PyObject *seat = PyList_GET_ITEM(list, end);
            if (!PyTuple_CheckExact(seat) || PyTuple_GET_SIZE(seat) != 8) {
                plain = 0;
                break;
            }
            int same = PyObject_RichCompareBool(PyTuple_GET_ITEM(seat, 0), play_id, Py_EQ);
            if (same < 0) return NULL;
            if (!same) {
                other_play = 1;
                break;
            }
        }
        if (!plain || (!other_play && !final)) break;
        PyObject *game = PyTuple_GET_ITEM(head, 1);
        if (!PyUnicode_CheckExact(game)) break;
        int found = PySequence_Contains(cooperative, game);
        if (found < 0) return NULL;
        if (found) {
            int rated = rate_cooperative(list, start, end, states, club_id, rows);
            if (rated < 0) return NULL;
            if (!rated) break;
            start = end;
            continue;
        }
        found = PyUnicode_Compare(game, all_games) == 0;
        if (PyErr_Occurred()) return NULL;
        if (found) break;
        for (Py_ssize_t i = start; i < end && !found; i++) {
            found = PyTuple_GET_ITEM(PyList_GET_ITEM(list, i), 7) != Py_None;
        }
        if (found) break; /* partners: rated as teams, in Python */
        int rated = rate_play(list, start, end, states, beaten, tied, club_id, all_games, beta,
                              kappa, tau, limit_sigma, rows);
        if (rated < 0) return NULL;
        if (!rated) break;
        start = end;
    }
    return PyLong_FromSsize_t(start);
}

/* ---- copy_binary: rows in PostgreSQL's binary COPY format ----------------------------------
 *
 * copy_binary(rows, kinds) -> bytes: the rows (tuples) as binary COPY tuples (no signature,
 * no trailer), a column's type given by its letter in ``kinds``: q int8, i int4, h int2,
 * d float8, ? bool, s text, t timestamptz (an aware datetime). What psycopg's write_row sends
 * for those types (tests/stats/test_native.py compares what the server stores of both), without
 * a Python call a row. Raises ValueError on a value it does not take (the caller then writes
 * with psycopg). */

#include <datetime.h>

typedef struct {
    char *data;
    Py_ssize_t size, capacity;
} Buffer;

static int grow(Buffer *buffer, Py_ssize_t more) {
    if (buffer->size + more <= buffer->capacity) return 0;
    Py_ssize_t capacity = buffer->capacity ? buffer->capacity : 1 << 16;
    while (capacity < buffer->size + more) capacity *= 2;
    char *data = PyMem_Realloc(buffer->data, (size_t)capacity);
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    buffer->data = data;
    buffer->capacity = capacity;
    return 0;
}

static void put_be(Buffer *buffer, unsigned long long value, int bytes) {
    for (int i = bytes - 1; i >= 0; i--) {
        buffer->data[buffer->size++] = (char)((value >> (8 * i)) & 0xff);
    }
}

/* Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). */
static long long days_from_civil(long long y, unsigned m, unsigned d) {
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long long)doe - 719468;
}

/* An aware datetime as microseconds since 2000-01-01 00:00 UTC (PostgreSQL's timestamptz). */
static int timestamp_micros(PyObject *value, long long *out) {
    if (!PyDateTime_Check(value)) {
        PyErr_SetString(PyExc_ValueError, "a timestamptz must be a datetime");
        return -1;
    }
    PyObject *offset = PyObject_CallMethod(value, "utcoffset", NULL);
    if (offset == NULL) return -1;
    if (offset == Py_None) {
        Py_DECREF(offset);
        PyErr_SetString(PyExc_ValueError, "a timestamptz must be an aware datetime");
        return -1;
    }
    long long offset_micros =
        ((long long)PyDateTime_DELTA_GET_DAYS(offset) * 86400 +
         PyDateTime_DELTA_GET_SECONDS(offset)) * 1000000LL +
        PyDateTime_DELTA_GET_MICROSECONDS(offset);
    Py_DECREF(offset);
    long long days = days_from_civil(PyDateTime_GET_YEAR(value), PyDateTime_GET_MONTH(value),
                                     PyDateTime_GET_DAY(value)) -
                     10957; /* 1970-01-01 to 2000-01-01 */
    long long seconds = days * 86400 + PyDateTime_DATE_GET_HOUR(value) * 3600 +
                        PyDateTime_DATE_GET_MINUTE(value) * 60 + PyDateTime_DATE_GET_SECOND(value);
    *out = seconds * 1000000LL + PyDateTime_DATE_GET_MICROSECOND(value) - offset_micros;
    return 0;
}

static int put_integer(Buffer *buffer, PyObject *value, int bytes) {
    if (!PyLong_Check(value)) {
        PyErr_SetString(PyExc_ValueError, "an integer column takes an int");
        return -1;
    }
    int overflow = 0;
    long long number = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (number == -1 && PyErr_Occurred()) return -1;
    long long limit = bytes == 8 ? 0 : (1LL << (8 * bytes - 1));
    if (overflow || (bytes < 8 && (number >= limit || number < -limit))) {
        PyErr_SetString(PyExc_ValueError, "an integer out of its column's range");
        return -1;
    }
    put_be(buffer, (unsigned long long)bytes, 4);
    put_be(buffer, (unsigned long long)number, bytes);
    return 0;
}

static PyObject *copy_binary(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *rows;
    const char *kinds;
    Py_ssize_t columns;
    if (!PyArg_ParseTuple(args, "O!s#", &PyList_Type, &rows, &kinds, &columns)) return NULL;
    Buffer buffer = {NULL, 0, 0};
    PyObject *last_time = NULL; /* a play's rows share their time: converted once */
    long long last_micros = 0;
    Py_ssize_t count = PyList_GET_SIZE(rows);
    for (Py_ssize_t r = 0; r < count; r++) {
        PyObject *row = PyList_GET_ITEM(rows, r);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != columns) {
            PyErr_SetString(PyExc_ValueError, "a row of another length");
            goto error;
        }
        if (grow(&buffer, 2)) goto error;
        put_be(&buffer, (unsigned long long)columns, 2);
        for (Py_ssize_t c = 0; c < columns; c++) {
            PyObject *value = PyTuple_GET_ITEM(row, c);
            if (value == Py_None) {
                if (grow(&buffer, 4)) goto error;
                put_be(&buffer, 0xffffffffULL, 4);
                continue;
            }
            if (grow(&buffer, 12)) goto error;
            switch (kinds[c]) {
            case 'q':
                if (put_integer(&buffer, value, 8)) goto error;
                break;
            case 'i':
                if (put_integer(&buffer, value, 4)) goto error;
                break;
            case 'h':
                if (put_integer(&buffer, value, 2)) goto error;
                break;
            case 'd': {
                if (!PyFloat_Check(value)) {
                    PyErr_SetString(PyExc_ValueError, "a float8 column takes a float");
                    goto error;
                }
                double number = PyFloat_AS_DOUBLE(value);
                unsigned long long bits;
                memcpy(&bits, &number, sizeof bits);
                put_be(&buffer, 8, 4);
                put_be(&buffer, bits, 8);
                break;
            }
            case '?': {
                if (!PyBool_Check(value)) {
                    PyErr_SetString(PyExc_ValueError, "a bool column takes a bool");
                    goto error;
                }
                put_be(&buffer, 1, 4);
                put_be(&buffer, value == Py_True, 1);
                break;
            }
            case 's': {
                if (!PyUnicode_Check(value)) {
                    PyErr_SetString(PyExc_ValueError, "a text column takes a str");
                    goto error;
                }
                Py_ssize_t size;
                const char *text = PyUnicode_AsUTF8AndSize(value, &size);
                if (text == NULL) goto error;
                if (size > 0x7fffffff) {
                    PyErr_SetString(PyExc_ValueError, "a text too long");
                    goto error;
                }
                if (grow(&buffer, 4 + size)) goto error;
                put_be(&buffer, (unsigned long long)size, 4);
                memcpy(buffer.data + buffer.size, text, (size_t)size);
                buffer.size += size;
                break;
            }
            case 't': {
                if (value != last_time) {
                    if (timestamp_micros(value, &last_micros)) goto error;
                    last_time = value;
                }
                put_be(&buffer, 8, 4);
                put_be(&buffer, (unsigned long long)last_micros, 8);
                break;
            }
            default:
                PyErr_Format(PyExc_ValueError, "no column type '%c'", kinds[c]);
                goto error;
            }
        }
    }
    PyObject *result = PyBytes_FromStringAndSize(buffer.data ? buffer.data : "", buffer.size);
    PyMem_Free(buffer.data);
    return result;
error:
    PyMem_Free(buffer.data);
    return NULL;
}

/* ---- SQLiteRows: SQLite's rows read from C by a table-valued function -----------------------
 *
 * The sqlite3 module's executemany binds each value of each row through Python-level checks
 * and adaptation: most of a full rebuild's inserts (3.1M rows of 27 values at 1M plays), where
 * SQLite's own insert of the same rows costs a fraction (docs/benchmarks.md). Here a batch of
 * rows is copied into C once (SQLiteRows.extend, holding the GIL), and SQLite reads it through
 * the table-valued function referee_rows(token), in one INSERT … SELECT run on Django's own
 * connection, in its transaction:
 *
 *     INSERT INTO t (a, b, …) SELECT c0, c1, … FROM referee_rows(?)    -- rows.token
 *
 * Only SQLite's public API: the function is registered on every connection opened after this
 * module is imported (sqlite3_auto_extension), which reaches the sqlite3 module's connections
 * when it uses the same SQLite library as this module (the process's one shared library);
 * otherwise the function is not there and bulk.py writes by executemany. Its callbacks run
 * while the sqlite3 module has released the GIL, so they touch no Python object: they read the
 * C copy (a Store), which each reader keeps alive by a count taken under a lock. A token of
 * rows already freed, or never made, reads no row. */
#ifdef REFEREE_SQLITE
#include <pythread.h>
#include <sqlite3.h>

/* referee_rows's columns c0…c31 (a batch's values, NULL past its width), then its token. */
#define ROWS_COLUMNS 32
#define TOKEN_COLUMN ROWS_COLUMNS

typedef struct {
    int type; /* SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT or SQLITE_NULL */
    union {
        sqlite3_int64 integer;
        double real;
        struct {
            size_t offset; /* into the store's text */
            int size;
        } text;
    } as;
} Cell;

typedef struct Store {
    struct Store *next;
    sqlite3_int64 token;
    long holders; /* the SQLiteRows object while it lives, and each cursor reading it */
    int columns;
    size_t rows, capacity; /* in rows */
    Cell *cells;
    char *text; /* the rows' texts, UTF-8, one after the other */
    size_t text_size, text_capacity;
} Store;

static PyThread_type_lock stores_lock = NULL;
static Store *stores = NULL; /* every store still held, by token */
static sqlite3_int64 last_token = 0;

static void store_free(Store *store) {
    free(store->cells);
    free(store->text);
    free(store);
}

/* The store of ``token``, held for the caller (NULL: none). Callable without the GIL. */
static Store *store_hold(sqlite3_int64 token) {
    PyThread_acquire_lock(stores_lock, WAIT_LOCK);
    Store *store = stores;
    while (store != NULL && store->token != token) store = store->next;
    if (store != NULL) store->holders++;
    PyThread_release_lock(stores_lock);
    return store;
}

/* Lets go of a store, freed with its last holder. Callable without the GIL. */
static void store_release(Store *store) {
    PyThread_acquire_lock(stores_lock, WAIT_LOCK);
    int last = --store->holders == 0;
    if (last) {
        Store **link = &stores;
        while (*link != store) link = &(*link)->next;
        *link = store->next;
    }
    PyThread_release_lock(stores_lock);
    if (last) store_free(store);
}

/* -- the table-valued function ------------------------------------------------------------ */

typedef struct {
    sqlite3_vtab base;
} RowsTable;

typedef struct {
    sqlite3_vtab_cursor base;
    Store *store; /* held while the cursor is open; NULL: no rows */
    size_t row;
} RowsCursor;

static int rows_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                        sqlite3_vtab **table, char **error) {
    (void)aux, (void)argc, (void)argv, (void)error;
    char schema[64 + ROWS_COLUMNS * 6] = "CREATE TABLE x(";
    size_t at = strlen(schema);
    for (int c = 0; c < ROWS_COLUMNS; c++) {
        at += (size_t)snprintf(schema + at, sizeof schema - at, "c%d, ", c);
    }
    snprintf(schema + at, sizeof schema - at, "token HIDDEN)");
    int rc = sqlite3_declare_vtab(db, schema);
    if (rc != SQLITE_OK) return rc;
    RowsTable *made = sqlite3_malloc(sizeof *made);
    if (made == NULL) return SQLITE_NOMEM;
    memset(made, 0, sizeof *made);
    *table = &made->base;
    return SQLITE_OK;
}

static int rows_disconnect(sqlite3_vtab *table) {
    sqlite3_free(table);
    return SQLITE_OK;
}

/* Rows only for ``token = ?``: without it (or with it not yet usable), none. */
static int rows_best_index(sqlite3_vtab *table, sqlite3_index_info *info) {
    (void)table;
    int unusable = 0;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *constraint = &info->aConstraint[i];
        if (constraint->iColumn != TOKEN_COLUMN || constraint->op != SQLITE_INDEX_CONSTRAINT_EQ) {
            continue;
        }
        if (!constraint->usable) {
            unusable = 1;
            continue;
        }
        info->aConstraintUsage[i].argvIndex = 1;
        info->aConstraintUsage[i].omit = 1;
        info->idxNum = 1;
        info->estimatedCost = 1.0;
        info->estimatedRows = 1000;
        return SQLITE_OK;
    }
    if (unusable) return SQLITE_CONSTRAINT; /* another join order gives the token */
    info->idxNum = 0;
    info->estimatedCost = 1.0;
    info->estimatedRows = 1;
    return SQLITE_OK;
}

static int rows_open(sqlite3_vtab *table, sqlite3_vtab_cursor **cursor) {
    (void)table;
    RowsCursor *made = sqlite3_malloc(sizeof *made);
    if (made == NULL) return SQLITE_NOMEM;
    memset(made, 0, sizeof *made);
    *cursor = &made->base;
    return SQLITE_OK;
}

static void rows_let_go(RowsCursor *cursor) {
    if (cursor->store != NULL) store_release(cursor->store);
    cursor->store = NULL;
    cursor->row = 0;
}

static int rows_close(sqlite3_vtab_cursor *cursor) {
    rows_let_go((RowsCursor *)cursor);
    sqlite3_free(cursor);
    return SQLITE_OK;
}

static int rows_filter(sqlite3_vtab_cursor *base, int index, const char *unused, int argc,
                       sqlite3_value **argv) {
    (void)unused;
    RowsCursor *cursor = (RowsCursor *)base;
    rows_let_go(cursor);
    if (index == 1 && argc == 1 && sqlite3_value_type(argv[0]) == SQLITE_INTEGER) {
        cursor->store = store_hold(sqlite3_value_int64(argv[0]));
    }
    return SQLITE_OK;
}

static int rows_next(sqlite3_vtab_cursor *cursor) {
    ((RowsCursor *)cursor)->row++;
    return SQLITE_OK;
}

static int rows_eof(sqlite3_vtab_cursor *base) {
    RowsCursor *cursor = (RowsCursor *)base;
    return cursor->store == NULL || cursor->row >= cursor->store->rows;
}

static int rows_column(sqlite3_vtab_cursor *base, sqlite3_context *context, int column) {
    RowsCursor *cursor = (RowsCursor *)base;
    Store *store = cursor->store;
    if (column == TOKEN_COLUMN) {
        sqlite3_result_int64(context, store->token);
        return SQLITE_OK;
    }
    if (column < 0 || column >= store->columns) {
        sqlite3_result_null(context);
        return SQLITE_OK;
    }
    const Cell *cell = &store->cells[cursor->row * (size_t)store->columns + (size_t)column];
    switch (cell->type) {
    case SQLITE_INTEGER:
        sqlite3_result_int64(context, cell->as.integer);
        break;
    case SQLITE_FLOAT:
        sqlite3_result_double(context, cell->as.real);
        break;
    case SQLITE_TEXT: /* static: the cursor holds the store until it closes */
        sqlite3_result_text(context, store->text + cell->as.text.offset, cell->as.text.size,
                            SQLITE_STATIC);
        break;
    default:
        sqlite3_result_null(context);
    }
    return SQLITE_OK;
}

static int rows_rowid(sqlite3_vtab_cursor *cursor, sqlite3_int64 *rowid) {
    *rowid = (sqlite3_int64)((RowsCursor *)cursor)->row;
    return SQLITE_OK;
}

static sqlite3_module rows_module = {
    .iVersion = 0,
    .xCreate = NULL, /* eponymous only: referee_rows(…), never CREATE VIRTUAL TABLE */
    .xConnect = rows_connect,
    .xBestIndex = rows_best_index,
    .xDisconnect = rows_disconnect,
    .xDestroy = NULL,
    .xOpen = rows_open,
    .xClose = rows_close,
    .xFilter = rows_filter,
    .xNext = rows_next,
    .xEof = rows_eof,
    .xColumn = rows_column,
    .xRowid = rows_rowid,
};

/* sqlite3_auto_extension's entry point: every connection opened from now on has referee_rows. */
static int rows_register(sqlite3 *db, const char **error, const void *api) {
    (void)error, (void)api;
    return sqlite3_create_module(db, "referee_rows", &rows_module, NULL);
}

/* -- SQLiteRows: the Python side ---------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Store *store;
    /* Each column's last text (held, so that its address is not another's) and where it went:
     * a play's rows share their game and time, stored once. */
    PyObject *last_text[ROWS_COLUMNS];
    size_t last_offset[ROWS_COLUMNS];
    int last_size[ROWS_COLUMNS];
} RowsObject;

static PyObject *rows_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"columns", NULL};
    int columns;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "i", keywords, &columns)) return NULL;
    if (columns < 1 || columns > ROWS_COLUMNS) {
        PyErr_Format(PyExc_ValueError, "SQLiteRows takes 1 to %d columns", ROWS_COLUMNS);
        return NULL;
    }
    RowsObject *self = (RowsObject *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    Store *store = calloc(1, sizeof *store);
    if (store == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    store->columns = columns;
    store->holders = 1;
    PyThread_acquire_lock(stores_lock, WAIT_LOCK);
    store->token = ++last_token;
    store->next = stores;
    stores = store;
    PyThread_release_lock(stores_lock);
    self->store = store;
    return (PyObject *)self;
}

static void rows_dealloc(RowsObject *self) {
    for (int c = 0; c < ROWS_COLUMNS; c++) Py_CLEAR(self->last_text[c]);
    if (self->store != NULL) store_release(self->store);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int reserve(void **data, size_t *capacity, size_t needed, size_t unit) {
    if (needed <= *capacity) return 0;
    /* at least doubled, or just what is needed (a batch's rows come in one extend) */
    size_t grown = *capacity * 2 > needed ? *capacity * 2 : needed;
    void *moved = realloc(*data, grown * unit);
    if (moved == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *data = moved;
    *capacity = grown;
    return 0;
}

/* A value as SQLite would store it from the sqlite3 module: None, int (bool too), float, str. */
static int store_value(RowsObject *self, int column, PyObject *value, Cell *cell) {
    Store *store = self->store;
    if (value == Py_None) {
        cell->type = SQLITE_NULL;
    } else if (PyLong_Check(value)) {
        int overflow = 0;
        long long number = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (number == -1 && PyErr_Occurred()) return -1;
        if (overflow) {
            PyErr_SetString(PyExc_OverflowError, "Python int too large to convert to SQLite INTEGER");
            return -1;
        }
        cell->type = SQLITE_INTEGER;
        cell->as.integer = number;
    } else if (PyFloat_Check(value)) {
        cell->type = SQLITE_FLOAT;
        cell->as.real = PyFloat_AS_DOUBLE(value);
    } else if (PyUnicode_Check(value)) {
        cell->type = SQLITE_TEXT;
        if (value == self->last_text[column]) {
            cell->as.text.offset = self->last_offset[column];
            cell->as.text.size = self->last_size[column];
            return 0;
        }
        Py_ssize_t size;
        const char *text = PyUnicode_AsUTF8AndSize(value, &size);
        if (text == NULL) return -1;
        if (size > 0x7fffffff - 1) {
            PyErr_SetString(PyExc_ValueError, "a text too long for SQLite");
            return -1;
        }
        if (reserve((void **)&store->text, &store->text_capacity,
                    store->text_size + (size_t)size + 1, 1)) {
            return -1;
        }
        cell->as.text.offset = store->text_size;
        cell->as.text.size = (int)size;
        memcpy(store->text + store->text_size, text, (size_t)size);
        store->text[store->text_size + (size_t)size] = '\0';
        store->text_size += (size_t)size + 1;
        Py_INCREF(value);
        Py_XSETREF(self->last_text[column], value);
        self->last_offset[column] = cell->as.text.offset;
        self->last_size[column] = cell->as.text.size;
    } else {
        PyErr_Format(PyExc_ValueError, "no SQLite value for %R", Py_TYPE(value));
        return -1;
    }
    return 0;
}

static PyObject *rows_extend(RowsObject *self, PyObject *rows) {
    if (!PyList_Check(rows)) {
        PyErr_SetString(PyExc_TypeError, "extend takes a list of tuples");
        return NULL;
    }
    Store *store = self->store;
    PyThread_acquire_lock(stores_lock, WAIT_LOCK);
    long holders = store->holders;
    PyThread_release_lock(stores_lock);
    if (holders != 1) {
        PyErr_SetString(PyExc_RuntimeError, "the rows are being read");
        return NULL;
    }
    size_t columns = (size_t)store->columns, before = store->rows, text_before = store->text_size;
    Py_ssize_t count = PyList_GET_SIZE(rows);
    if (reserve((void **)&store->cells, &store->capacity, (before + (size_t)count), columns * sizeof(Cell))) {
        return NULL;
    }
    for (Py_ssize_t r = 0; r < count; r++) {
        PyObject *row = PyList_GET_ITEM(rows, r);
        if (!PyTuple_Check(row) || (size_t)PyTuple_GET_SIZE(row) != columns) {
            PyErr_SetString(PyExc_ValueError, "a row of another length");
            goto undo;
        }
        Cell *cells = &store->cells[(before + (size_t)r) * columns];
        for (size_t c = 0; c < columns; c++) {
            if (store_value(self, (int)c, PyTuple_GET_ITEM(row, c), &cells[c])) goto undo;
        }
    }
    store->rows = before + (size_t)count;
    Py_RETURN_NONE;
undo: /* nothing of this list stays */
    store->text_size = text_before;
    for (int c = 0; c < ROWS_COLUMNS; c++) Py_CLEAR(self->last_text[c]);
    return NULL;
}

static PyObject *rows_token(RowsObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(self->store->token);
}

static Py_ssize_t rows_length(RowsObject *self) {
    return (Py_ssize_t)self->store->rows;
}

static PyMethodDef rows_methods[] = {
    {"extend", (PyCFunction)rows_extend, METH_O,
     "Copy a list of row tuples (None, int, float, str) in; all or none of them."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef rows_getset[] = {
    {"token", (getter)rows_token, NULL, "The argument of referee_rows(…) that reads these rows.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PySequenceMethods rows_sequence = {.sq_length = (lenfunc)rows_length};

static PyTypeObject RowsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "games.ratings._native.SQLiteRows",
    .tp_basicsize = sizeof(RowsObject),
    .tp_dealloc = (destructor)rows_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Rows that SQLite reads by referee_rows(token) (see the module's source).",
    .tp_methods = rows_methods,
    .tp_getset = rows_getset,
    .tp_as_sequence = &rows_sequence,
    .tp_new = rows_new,
};
#endif

static PyMethodDef methods[] = {
    {"rate_plays", rate_plays, METH_VARARGS,
     "Rate the plays without partners from a list of seats (see the module's source)."},
    {"copy_binary", copy_binary, METH_VARARGS,
     "Rows in PostgreSQL's binary COPY format (see the module's source)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "The rebuild's hot loop in C (games/ratings/_native.c).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    PyDateTime_IMPORT;
    if (PyDateTimeAPI == NULL) return NULL;
    PyObject *made = PyModule_Create(&module);
    if (made == NULL) return NULL;
#ifdef REFEREE_SQLITE
    if (PyType_Ready(&RowsType) < 0) goto error;
    stores_lock = PyThread_allocate_lock();
    if (stores_lock == NULL) {
        PyErr_NoMemory();
        goto error;
    }
    if (PyModule_AddObjectRef(made, "SQLiteRows", (PyObject *)&RowsType) < 0) goto error;
    if (PyModule_AddIntConstant(made, "SQLITE_ROWS_COLUMNS", ROWS_COLUMNS) < 0) goto error;
    /* Without it (it fails only out of memory) referee_rows is not there: executemany. */
    sqlite3_auto_extension((void (*)(void))rows_register);
#endif
    return made;
#ifdef REFEREE_SQLITE
error:
    Py_DECREF(made);
    return NULL;
#endif
}
