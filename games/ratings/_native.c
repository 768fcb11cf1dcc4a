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
    PyObject *seat;      /* borrowed: the seat tuple (NULL: a seat read from SQLite's rows) */
    PyObject *who;       /* the player's int: the tuple's (borrowed) or made (owned, below) */
    int owns_who;
    PyObject *state;     /* new reference: the game's state list */
    PyObject *total;     /* new reference: all games' state list (none in a cooperative game) */
    PyObject *before[4]; /* new references: the μ, σ, all-games μ, σ objects before the play */
    long long rank, player, score;
    int won;
    double ratings[8];      /* μ, σ before, μ, σ after; the same across all games */
    long long values[7];    /* the game's totals after: plays, wins, points, best, worst, streak,
                             * longest */
    long long all_values[4]; /* all games' after: plays, wins, streak, longest */
} Seat;

/* The seats' indexes in ``ranked`` by (rank, player id): the order head-to-head counts each pair
 * in (totals.Pairs.count_alone); an insertion sort, a play having a few seats. */
static void rank_order(const Seat *seats, int count, int *ranked) {
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
}

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
        for (int b = 0; b < 4; b++) Py_CLEAR(seats[i].before[b]);
        if (seats[i].owns_who) Py_CLEAR(seats[i].who);
        seats[i].owns_who = 0;
    }
}

static void clear_seats(Seat *seats, int count) {
    memset(seats, 0, sizeof *seats * (size_t)count);
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

/* Whether a seat's score is out of what the loop takes, or a player seated twice (one state,
 * Python's way): then the play is left to Python. */
static int seats_odd(const Seat *seats, int count) {
    for (int i = 0; i < count; i++) {
        if (seats[i].score > (1LL << 40) || seats[i].score < -(1LL << 40)) return 1;
        for (int j = 0; j < i; j++) {
            if (seats[j].player == seats[i].player) return 1;
        }
    }
    return 0;
}

/* Rates a play where everyone plays for themselves, its seats' player, who, rank, score and won
 * given: fetches and checks their states, counts the pairs, updates the states, and keeps each
 * seat's values before and after in it (the caller writes the rows, then releases the seats).
 * 1: rated; 0: left to Python, nothing changed; -1: error. */
static int rate_core(Seat *seats, int count, PyObject *game, PyObject *states, PyObject *beaten,
                     PyObject *tied, PyObject *all_games, double beta, double kappa, double tau,
                     int limit_sigma) {
    if (count > MAX_SEATS || seats_odd(seats, count)) return 0;
    for (int i = 0; i < count; i++) {
        seats[i].state = get_state(states, game, seats[i].who);
        if (seats[i].state == NULL) return -1;
    }
    for (int i = 0; i < count; i++) {
        seats[i].total = get_state(states, all_games, seats[i].who);
        if (seats[i].total == NULL) return -1;
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
        if (!ok) return 0;
        ranks[i] = seats[i].rank;
    }
    /* Head-to-head (totals.Pairs.count_alone): the players by (rank, id), each pair once. */
    int ranked[MAX_SEATS];
    rank_order(seats, count, ranked);
    for (int i = 0; i < count; i++) {
        for (int j = i + 1; j < count; j++) {
            Seat *one = &seats[ranked[i]], *other = &seats[ranked[j]];
            if (add_pair(one->rank < other->rank ? beaten : tied, one->who, other->who)) {
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
    } else {
        new_mu[0] = mus[0], new_sigma[0] = sigmas[0];
        all_new_mu[0] = all_mus[0], all_new_sigma[0] = all_sigmas[0];
    }
    for (int i = 0; i < count; i++) {
        Seat *seat = &seats[i];
        PyObject *state = seat->state, *total = seat->total;
        /* The ratings before (the states' own objects, for the rows of tuples). */
        PyObject *before[4] = {PyList_GET_ITEM(state, 0), PyList_GET_ITEM(state, 1),
                               PyList_GET_ITEM(total, 0), PyList_GET_ITEM(total, 1)};
        for (int b = 0; b < 4; b++) {
            Py_INCREF(before[b]);
            seat->before[b] = before[b];
        }
        double ratings[8] = {mus[i],     sigmas[i],     new_mu[i],     new_sigma[i],
                             all_mus[i], all_sigmas[i], all_new_mu[i], all_new_sigma[i]};
        memcpy(seat->ratings, ratings, sizeof ratings);
        if (count > 1) {
            if (set_float(state, 0, new_mu[i]) || set_float(state, 1, new_sigma[i]) ||
                set_float(total, 0, all_new_mu[i]) || set_float(total, 1, all_new_sigma[i])) {
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
        memcpy(seat->values, game_values, sizeof game_values);
        memcpy(seat->all_values, all_values, sizeof all_values);
        /* A new int only where the total changed (best and worst: also where they were None). */
        for (int v = 0; v < 7; v++) {
            int changed = game_values[v] != old_game[v] || (v == 3 && !had_best) ||
                          (v == 4 && !had_worst);
            if (changed && set_int(state, 2 + v, game_values[v])) return -1;
        }
        static const int all_at[4] = {2, 3, 7, 8};
        for (int v = 0; v < 4; v++) {
            if (all_values[v] != old_all[v] && set_int(total, all_at[v], all_values[v])) return -1;
        }
    }
    return 1;
}

/* A cooperative game's play (rebuild._rate_play, totals.count), its seats' player, who, score
 * and won given: each seat's totals in the game's scope only, no rating, kept in the seat.
 * 1: rated; 0: left to Python, nothing changed; -1: error. The caller releases the seats. */
static int rate_cooperative_core(Seat *seats, int count, PyObject *game, PyObject *states) {
    if (count > MAX_SEATS || seats_odd(seats, count)) return 0;
    int has_best[MAX_SEATS], has_worst[MAX_SEATS];
    for (int i = 0; i < count; i++) {
        seats[i].state = get_state(states, game, seats[i].who);
        if (seats[i].state == NULL) return -1;
        PyObject *state = seats[i].state;
        if (!PyList_CheckExact(state) || PyList_GET_SIZE(state) != 9) return 0;
        if (PyList_GET_ITEM(state, 4) == Py_None) return 0;
        int ok = 1;
        for (int v = 0; v < 7; v++) {
            PyObject *value = PyList_GET_ITEM(state, 2 + v);
            if (v == 3 || v == 4) { /* best, worst: None before the first score */
                int *has = v == 3 ? &has_best[i] : &has_worst[i];
                *has = value != Py_None;
                if (!*has) {
                    seats[i].values[v] = 0;
                    continue;
                }
            }
            seats[i].values[v] = state_int(state, 2 + v, &ok);
        }
        if (!ok || seats[i].values[2] >= (1LL << 60) || seats[i].values[2] <= -(1LL << 60)) {
            return 0;
        }
    }
    for (int i = 0; i < count; i++) {
        long long *v = seats[i].values; /* plays, wins, points, best, worst, streak, longest */
        long long score = seats[i].score;
        v[0] += 1;
        if (seats[i].won) {
            v[1] += 1;
            v[5] += 1;
            if (v[5] > v[6]) v[6] = v[5];
        } else {
            v[5] = 0;
        }
        v[2] += score;
        if (!has_best[i] || score > v[3]) v[3] = score;
        if (!has_worst[i] || score < v[4]) v[4] = score;
        for (int k = 0; k < 7; k++) {
            if (set_int(seats[i].state, 2 + k, v[k])) return -1;
        }
    }
    return 1;
}

/* The seats [first, end) of a list of seat tuples, read for the cores. 1: read; 0: a value the
 * loop does not take (left to Python); -1: error. */
static int read_tuples(PyObject *list, Py_ssize_t first, Py_ssize_t end, Seat *seats,
                       int cooperative) {
    int count = (int)(end - first);
    for (int i = 0; i < count; i++) {
        Seat *seat = &seats[i];
        seat->seat = PyList_GET_ITEM(list, first + i);
        seat->who = PyTuple_GET_ITEM(seat->seat, 3);
        PyObject *rank = PyTuple_GET_ITEM(seat->seat, 4);
        PyObject *score = PyTuple_GET_ITEM(seat->seat, 6);
        if (!PyLong_CheckExact(seat->who) || !PyLong_CheckExact(score) ||
            (!cooperative && !PyLong_CheckExact(rank))) {
            return 0;
        }
        int overflow = 0, any = 0;
        seat->player = PyLong_AsLongLongAndOverflow(seat->who, &overflow);
        any |= overflow;
        if (!cooperative) {
            seat->rank = PyLong_AsLongLongAndOverflow(rank, &overflow);
            any |= overflow;
        }
        seat->score = PyLong_AsLongLongAndOverflow(score, &overflow);
        any |= overflow;
        if (any) return 0;
        int won = PyObject_IsTrue(PyTuple_GET_ITEM(seat->seat, 5));
        if (won < 0) return -1;
        seat->won = won;
    }
    return 1;
}

/* Rates one play (seats [first, end) of the list). 1: rated; 0: left to Python; -1: error. */
static int rate_play(PyObject *list, Py_ssize_t first, Py_ssize_t end, PyObject *states,
                     PyObject *beaten, PyObject *tied, PyObject *club_id, PyObject *all_games,
                     double beta, double kappa, double tau, int limit_sigma, PyObject *rows) {
    int count = (int)(end - first);
    if (count > MAX_SEATS) return 0;
    Seat seats[MAX_SEATS];
    clear_seats(seats, count);
    PyObject *head = PyList_GET_ITEM(list, first);
    PyObject *play_id = PyTuple_GET_ITEM(head, 0);
    PyObject *game = PyTuple_GET_ITEM(head, 1);
    PyObject *played_at = PyTuple_GET_ITEM(head, 2);
    int rated = read_tuples(list, first, end, seats, 0);
    if (rated == 1) {
        rated = rate_core(seats, count, game, states, beaten, tied, all_games, beta, kappa, tau,
                          limit_sigma);
    }
    for (int i = 0; i < count && rated == 1; i++) {
        Seat *seat = &seats[i];
        PyObject *row = PyTuple_New(ROW_SIZE);
        if (row == NULL) {
            rated = -1;
            break;
        }
        /* The seat, and the ratings before (the states' own objects). */
        PyObject *fixed[12] = {
            club_id, play_id, seat->who, game, played_at,
            PyTuple_GET_ITEM(seat->seat, 5), PyTuple_GET_ITEM(seat->seat, 4), Py_None,
            seat->before[0], seat->before[1], seat->before[2], seat->before[3],
        };
        static const int at[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 19, 20};
        for (int f = 0; f < 12; f++) {
            Py_INCREF(fixed[f]);
            PyTuple_SET_ITEM(row, at[f], fixed[f]);
        }
        /* The ratings after, and the totals after (the states' new objects). */
        for (int v = 0; v < 9; v++) {
            PyObject *value = PyList_GET_ITEM(seat->state, v);
            Py_INCREF(value);
            PyTuple_SET_ITEM(row, 10 + v, value);
        }
        static const int total_at[6] = {0, 1, 2, 3, 7, 8};
        for (int v = 0; v < 6; v++) {
            PyObject *value = PyList_GET_ITEM(seat->total, total_at[v]);
            Py_INCREF(value);
            PyTuple_SET_ITEM(row, 21 + v, value);
        }
        int failed = PyList_Append(rows, row);
        Py_DECREF(row);
        if (failed) rated = -1;
    }
    release(seats, count);
    return rated;
}

/* A cooperative game's play (rebuild._rate_play, totals.count): each seat's totals in the
 * game's scope only, no rating. 1: rated; 0: left to Python; -1: error. */
static int rate_cooperative(PyObject *list, Py_ssize_t first, Py_ssize_t end, PyObject *states,
                            PyObject *club_id, PyObject *rows) {
    int count = (int)(end - first);
    if (count > MAX_SEATS) return 0;
    Seat seats[MAX_SEATS];
    clear_seats(seats, count);
    PyObject *head = PyList_GET_ITEM(list, first);
    PyObject *play_id = PyTuple_GET_ITEM(head, 0);
    PyObject *game = PyTuple_GET_ITEM(head, 1);
    PyObject *played_at = PyTuple_GET_ITEM(head, 2);
    int rated = read_tuples(list, first, end, seats, 1);
    if (rated == 1) rated = rate_cooperative_core(seats, count, game, states);
    for (int i = 0; i < count && rated == 1; i++) {
        PyObject *seat = seats[i].seat;
        PyObject *row = PyTuple_New(ROW_SIZE);
        if (row == NULL) {
            rated = -1;
            break;
        }
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
            PyObject *value = PyList_GET_ITEM(seats[i].state, 2 + k);
            Py_INCREF(value);
            PyTuple_SET_ITEM(row, 12 + k, value);
        }
        for (int f = 19; f < ROW_SIZE; f++) {
            Py_INCREF(Py_None);
            PyTuple_SET_ITEM(row, f, Py_None);
        }
        int failed = PyList_Append(rows, row);
        Py_DECREF(row);
        if (failed) rated = -1;
    }
    release(seats, count);
    return rated;
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

/* 0 when only its SQLiteRows holds ``store`` (no cursor of referee_rows reads it); otherwise -1
 * with a RuntimeError: rows are not added while SQLite reads them. With the GIL. */
static int rows_unread(Store *store) {
    PyThread_acquire_lock(stores_lock, WAIT_LOCK);
    long holders = store->holders;
    PyThread_release_lock(stores_lock);
    if (holders == 1) return 0;
    PyErr_SetString(PyExc_RuntimeError, "the rows are being read");
    return -1;
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

static void seats_read(sqlite3_context *context, int argc, sqlite3_value **argv);

/* sqlite3_auto_extension's entry point: every connection opened from now on has referee_rows,
 * and referee_seats (SQLiteSeats, below), which only a statement may call, not the schema (a
 * view's or a trigger's SQL). */
static int rows_register(sqlite3 *db, const char **error, const void *api) {
    (void)error, (void)api;
    int rc = sqlite3_create_module(db, "referee_rows", &rows_module, NULL);
    if (rc != SQLITE_OK) return rc;
    return sqlite3_create_function_v2(db, "referee_seats", -1, SQLITE_UTF8 | SQLITE_DIRECTONLY,
                                      NULL, seats_read, NULL, NULL, NULL);
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
    int c_text[ROWS_COLUMNS]; /* the column's last text came from C (SQLiteSeats.rate): its
                               * offset and size are those above, compared by its bytes */
} RowsObject;

static PyObject *rows_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"columns", "capacity", NULL};
    int columns;
    Py_ssize_t capacity = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "i|n", keywords, &columns, &capacity)) {
        return NULL;
    }
    if (columns < 1 || columns > ROWS_COLUMNS) {
        PyErr_Format(PyExc_ValueError, "SQLiteRows takes 1 to %d columns", ROWS_COLUMNS);
        return NULL;
    }
    if (capacity < 0 || capacity > (1 << 24)) {
        PyErr_SetString(PyExc_ValueError, "a capacity of 0 to 2**24 rows");
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
    /* Room for ``capacity`` rows in one allocation, not grown by doubling: a rebuild's batches
     * then each take and give back one block (malloc's own, mmap'd when large), where blocks
     * grown step by step and freed left the process's heap fragmented, its resident memory
     * high through the index builds that follow (docs/benchmarks.md). */
    if (capacity > 0) {
        store->cells = malloc((size_t)capacity * (size_t)columns * sizeof(Cell));
        if (store->cells == NULL) {
            free(store);
            Py_DECREF(self);
            return PyErr_NoMemory();
        }
        store->capacity = (size_t)capacity;
    }
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
        self->c_text[column] = 0;
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
    if (rows_unread(store)) return NULL;
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
    for (int c = 0; c < ROWS_COLUMNS; c++) {
        Py_CLEAR(self->last_text[c]);
        self->c_text[c] = 0;
    }
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

/* ---- SQLiteSeats: a full rebuild's seats read from SQLite in C, and rated there -------------
 *
 * Reading the 3.1M seats of a 1M-play club through the sqlite3 module made 25M Python values
 * (two strings a seat), most of the read's time, for the C loop to read them back
 * (docs/benchmarks.md). Here SQLite's rows never become Python values: the rebuild's read
 * query (its SQL and parameters, as Django compiles it) is run by the SQL function
 * referee_seats on the connection that calls it, in batches:
 *
 *     SELECT referee_seats(?, ?, ?, …)    -- seats.token, how many seats at most, the query's
 *                                         -- SQL ("?" placeholders), then its parameters
 *
 * The first call prepares the query (one read-only statement of the eight columns
 * rate_plays's seats have); each call steps it up to that many rows more, copying their values
 * into C (the seats not yet rated stay; a row's texts equal to the previous row's are kept
 * once), and returns how many it read: fewer than asked once the query is done (its statement
 * then finalized). So the order of the seats is the query's own, one statement stepped from
 * its first row to its last. The statement is SQLite's public API on the connection the
 * function is given (sqlite3_context_db_handle), as SQLite's own eval() extension does; it
 * lives between calls like the sqlite3 module's cursor did, on Django's connection, in its
 * transaction, and is finalized at its end, by close(), or with the object.
 *
 * Then SQLiteSeats.rate(final, states, cooperative, beaten, tied, club_id, all_games, beta,
 * kappa, tau, limit_sigma, rows) rates the seats read, as rate_plays does (the same
 * arithmetic, in rate_cached and rate_cooperative_cached, on the players' states and the pair
 * counts kept in C: see below), writing each rating row straight into ``rows``, an SQLiteRows
 * of the 27 columns (no tuple), until a play it leaves to Python (partners, a value it does not
 * take, …): it returns that play's seats as the tuples the sqlite3 module would have made, and
 * they are rated. None: every seat rated, but the last play's unless ``final``
 * (its seats may go on in the next batch). Games are interned (one str a game), a play's time
 * copied from C to C. As with SQLiteRows, the function's callback runs while the sqlite3 module
 * has released the GIL and touches no Python object; whoever uses a store (the callback, or
 * rate with the GIL) claims it under the lock first. */

#define SEAT_COLUMNS 8

typedef struct SeatStore {
    struct SeatStore *next;
    sqlite3_int64 token;
    long holders; /* the SQLiteSeats object while it lives, and a call of referee_seats */
    int busy;     /* claimed: a call of referee_seats, or rate, is using it */
    sqlite3_stmt *statement;
    int done; /* the query ran to its end (or failed, or was closed) */
    size_t first, count, capacity; /* seats [first, count) not rated yet; in seats */
    Cell *cells;                   /* SEAT_COLUMNS a seat */
    char *text;                    /* the seats' texts and blobs */
    size_t text_size, text_capacity;
} SeatStore;

static SeatStore *seat_stores = NULL;

static void seat_store_free(SeatStore *store) {
    if (store->statement != NULL) sqlite3_finalize(store->statement);
    free(store->cells);
    free(store->text);
    free(store);
}

/* The store of ``token``, held and claimed (NULL: none, or *busy: in use). Without the GIL. */
static SeatStore *seat_store_claim(sqlite3_int64 token, int *busy) {
    *busy = 0;
    PyThread_acquire_lock(stores_lock, WAIT_LOCK);
    SeatStore *store = seat_stores;
    while (store != NULL && store->token != token) store = store->next;
    if (store != NULL && store->busy) {
        *busy = 1;
        store = NULL;
    } else if (store != NULL) {
        store->holders++;
        store->busy = 1;
    }
    PyThread_release_lock(stores_lock);
    return store;
}

/* Lets go of a store (unclaiming it if ``claimed``), freed with its last holder. Without the
 * GIL. */
static void seat_store_let_go(SeatStore *store, int claimed) {
    PyThread_acquire_lock(stores_lock, WAIT_LOCK);
    if (claimed) store->busy = 0;
    int last = --store->holders == 0;
    if (last) {
        SeatStore **link = &seat_stores;
        while (*link != store) link = &(*link)->next;
        *link = store->next;
    }
    PyThread_release_lock(stores_lock);
    if (last) seat_store_free(store);
}

static void seat_store_give(SeatStore *store) {
    seat_store_let_go(store, 1);
}

/* Grows an array to ``needed`` units (at least doubled); no Python error (no GIL). */
static int grow_plain(void **data, size_t *capacity, size_t needed, size_t unit) {
    if (needed <= *capacity) return 0;
    size_t grown = *capacity * 2 > needed ? *capacity * 2 : needed;
    if (grown < 64) grown = 64;
    void *moved = realloc(*data, grown * unit);
    if (moved == NULL) return -1;
    *data = moved;
    *capacity = grown;
    return 0;
}

static Cell *seat_cells(SeatStore *store, size_t seat) {
    return &store->cells[seat * SEAT_COLUMNS];
}

/* The seats not rated yet moved to the front, their texts with them. */
static int seat_store_compact(SeatStore *store) {
    size_t kept = store->count - store->first;
    if (store->first == 0 && kept == store->count && kept == 0) {
        store->text_size = 0;
        return 0;
    }
    if (store->first > 0) {
        memmove(store->cells, seat_cells(store, store->first), kept * SEAT_COLUMNS * sizeof(Cell));
        store->first = 0;
        store->count = kept;
    }
    size_t size = 0;
    for (size_t i = 0; i < kept * SEAT_COLUMNS; i++) {
        Cell *cell = &store->cells[i];
        if (cell->type == SQLITE_TEXT || cell->type == SQLITE_BLOB) {
            size += (size_t)cell->as.text.size + 1;
        }
    }
    char *text = malloc(size ? size : 1);
    if (text == NULL) return -1;
    size_t at = 0;
    for (size_t i = 0; i < kept * SEAT_COLUMNS; i++) {
        Cell *cell = &store->cells[i];
        if (cell->type != SQLITE_TEXT && cell->type != SQLITE_BLOB) continue;
        /* the previous seat's same text: kept once still */
        if (i >= SEAT_COLUMNS) {
            Cell *above = cell - SEAT_COLUMNS;
            if (above->type == cell->type && above->as.text.size == cell->as.text.size &&
                memcmp(store->text + cell->as.text.offset, text + above->as.text.offset,
                       (size_t)cell->as.text.size) == 0) {
                cell->as.text.offset = above->as.text.offset;
                continue;
            }
        }
        memcpy(text + at, store->text + cell->as.text.offset, (size_t)cell->as.text.size);
        text[at + (size_t)cell->as.text.size] = '\0';
        cell->as.text.offset = at;
        at += (size_t)cell->as.text.size + 1;
    }
    free(store->text);
    store->text = text;
    store->text_size = at;
    store->text_capacity = size ? size : 1;
    return 0;
}

/* One row of the statement copied in as a seat. 0, or an error's message. */
static const char *seat_store_add(SeatStore *store, sqlite3_stmt *statement) {
    if (grow_plain((void **)&store->cells, &store->capacity, store->count + 1,
                   SEAT_COLUMNS * sizeof(Cell))) {
        return "out of memory";
    }
    Cell *cells = seat_cells(store, store->count);
    Cell *above = store->count > store->first ? cells - SEAT_COLUMNS : NULL;
    for (int c = 0; c < SEAT_COLUMNS; c++) {
        Cell *cell = &cells[c];
        int type = sqlite3_column_type(statement, c);
        cell->type = type;
        if (type == SQLITE_INTEGER) {
            cell->as.integer = sqlite3_column_int64(statement, c);
        } else if (type == SQLITE_FLOAT) {
            cell->as.real = sqlite3_column_double(statement, c);
        } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
            const void *data = type == SQLITE_TEXT ? (const void *)sqlite3_column_text(statement, c)
                                                   : sqlite3_column_blob(statement, c);
            int size = sqlite3_column_bytes(statement, c);
            if (data == NULL && size > 0) return "out of memory";
            if (above != NULL && above[c].type == type && above[c].as.text.size == size &&
                (size == 0 ||
                 memcmp(store->text + above[c].as.text.offset, data, (size_t)size) == 0)) {
                cell->as.text = above[c].as.text; /* the previous seat's (a play's game, time) */
                continue;
            }
            if (grow_plain((void **)&store->text, &store->text_capacity,
                           store->text_size + (size_t)size + 1, 1)) {
                return "out of memory";
            }
            if (size > 0) memcpy(store->text + store->text_size, data, (size_t)size);
            store->text[store->text_size + (size_t)size] = '\0';
            cell->as.text.offset = store->text_size;
            cell->as.text.size = size;
            store->text_size += (size_t)size + 1;
        } else {
            cell->type = SQLITE_NULL;
        }
    }
    if (cells[0].type != SQLITE_INTEGER) return "referee_seats: a play id that is not an integer";
    store->count++;
    return NULL;
}

/* referee_seats(token, limit, sql, parameters…): see above. */
static void seats_read(sqlite3_context *context, int argc, sqlite3_value **argv) {
    if (argc < 3) {
        sqlite3_result_error(context, "referee_seats(token, limit, sql, parameters…)", -1);
        return;
    }
    if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER) {
        sqlite3_result_null(context); /* no seats: nothing read, nothing run */
        return;
    }
    int busy;
    SeatStore *store = seat_store_claim(sqlite3_value_int64(argv[0]), &busy);
    if (store == NULL) {
        if (busy) {
            sqlite3_result_error(context, "referee_seats: the seats are in use", -1);
        } else {
            sqlite3_result_null(context);
        }
        return;
    }
    char message[512];
    const char *error = NULL;
    sqlite3_int64 limit = sqlite3_value_int64(argv[1]);
    sqlite3_int64 read = 0;
    if (sqlite3_value_type(argv[1]) != SQLITE_INTEGER || limit < 1 || limit > (1 << 24)) {
        error = "referee_seats: a limit of 1 to 2**24 seats";
        goto out;
    }
    if (store->statement == NULL && !store->done) {
        sqlite3 *db = sqlite3_context_db_handle(context);
        const char *sql = (const char *)sqlite3_value_text(argv[2]);
        const char *tail = NULL;
        if (sqlite3_value_type(argv[2]) != SQLITE_TEXT || sql == NULL) {
            error = "referee_seats: the query's SQL is a text";
            goto out;
        }
        store->done = 1; /* one try */
        if (sqlite3_prepare_v2(db, sql, -1, &store->statement, &tail) != SQLITE_OK) {
            snprintf(message, sizeof message, "referee_seats: %s", sqlite3_errmsg(db));
            error = message;
            goto out;
        }
        while (tail != NULL && (*tail == ' ' || *tail == '\n' || *tail == '\t' || *tail == ';')) {
            tail++;
        }
        if (store->statement == NULL || (tail != NULL && *tail != '\0') ||
            !sqlite3_stmt_readonly(store->statement) ||
            sqlite3_column_count(store->statement) != SEAT_COLUMNS ||
            sqlite3_bind_parameter_count(store->statement) != argc - 3) {
            error = "referee_seats: one read-only query of 8 columns, with its parameters";
            goto out;
        }
        for (int i = 3; i < argc; i++) {
            if (sqlite3_bind_value(store->statement, i - 2, argv[i]) != SQLITE_OK) {
                error = "referee_seats: a parameter not bound";
                goto out;
            }
        }
        store->done = 0;
    }
    if (seat_store_compact(store)) {
        error = "out of memory";
        goto out;
    }
    while (!store->done && read < limit) {
        int rc = sqlite3_step(store->statement);
        if (rc == SQLITE_ROW) {
            error = seat_store_add(store, store->statement);
            if (error != NULL) goto out;
            read++;
        } else if (rc == SQLITE_DONE) {
            sqlite3_finalize(store->statement);
            store->statement = NULL;
            store->done = 1;
        } else {
            snprintf(message, sizeof message, "referee_seats: %s",
                     sqlite3_errmsg(sqlite3_context_db_handle(context)));
            error = message;
            goto out;
        }
    }
out:
    if (error != NULL) {
        if (store->statement != NULL) sqlite3_finalize(store->statement);
        store->statement = NULL;
        store->done = 1;
        sqlite3_result_error(context, error, -1);
    } else {
        sqlite3_result_int64(context, read);
    }
    seat_store_give(store);
}

/* -- SQLiteSeats: the Python side --------------------------------------------------------- */

typedef struct {
    char *bytes;
    int size;
    PyObject *text; /* the game's str */
} Game;

/* -- the players' states and the pair counts kept in C while rate() rates ------------------ *
 *
 * The C loop on tuples reads and writes each seat's two state lists in the states dict (a key
 * tuple, a lookup, new float and int objects a value) and counts each pair in the beaten and
 * tied dicts (a key tuple, two lookups, a new int): most of its time. rate() keeps them in C
 * instead: each state read once from its list (its first use, or after Python rated a play of
 * its player) and written back to the same list, with the values Python would have put there,
 * before any play of its player is left to Python and at the end (close()); the pairs counted
 * in C and added to the dicts, in the order they were first met (the order in which the C loop
 * on tuples inserts them), before a play that Python counts in them and at the end. So the
 * dicts end as the C loop on tuples leaves them. */

typedef struct {
    int scope; /* the game's index in the object's games; -1: all games */
    long long player;
    PyObject *list; /* the states dict's list (held) */
    double mu, sigma;
    long long v[7]; /* plays, wins, points, best, worst, streak, longest */
    int has[3];     /* points, best, worst are ints (else None) */
    int dirty;      /* changed since read or written back */
    int stale;      /* to read again from its list (Python may have changed it) */
} CState;

typedef struct {
    long long one, other;
    int tied;
    long long count;
} CPair;

static size_t mix(unsigned long long x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return (size_t)x;
}

typedef struct {
    PyObject_HEAD
    SeatStore *store;
    Game *games; /* the games met, each one str */
    int games_count, games_capacity, last_game;
    PyObject *states, *beaten, *tied; /* rate()'s dicts, bound by its first call */
    CState *cstates;
    size_t cstates_count, cstates_capacity;
    size_t *state_table; /* open addressing: an index + 1 into cstates, 0 free */
    size_t state_slots;  /* a power of two, or 0 */
    CPair *cpairs;
    size_t cpairs_count, cpairs_capacity;
    size_t *pair_table;
    size_t pair_slots;
} SeatsObject;

static PyObject *seats_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "", keywords)) return NULL;
    SeatsObject *self = (SeatsObject *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    SeatStore *store = calloc(1, sizeof *store);
    if (store == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    store->holders = 1;
    PyThread_acquire_lock(stores_lock, WAIT_LOCK);
    store->token = ++last_token;
    store->next = seat_stores;
    seat_stores = store;
    PyThread_release_lock(stores_lock);
    self->store = store;
    return (PyObject *)self;
}

static int cache_clear(SeatsObject *self, int write);

static void seats_dealloc(SeatsObject *self) {
    for (int g = 0; g < self->games_count; g++) {
        free(self->games[g].bytes);
        Py_CLEAR(self->games[g].text);
    }
    free(self->games);
    cache_clear(self, 0);
    free(self->cstates);
    free(self->state_table);
    free(self->cpairs);
    free(self->pair_table);
    /* A call of referee_seats under way, if any, holds the store: freed after it. */
    if (self->store != NULL) seat_store_let_go(self->store, 0);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Claims the store for Python (RuntimeError if referee_seats is using it). */
static int seats_claim(SeatsObject *self) {
    PyThread_acquire_lock(stores_lock, WAIT_LOCK);
    int busy = self->store->busy;
    if (!busy) self->store->busy = 1;
    PyThread_release_lock(stores_lock);
    if (busy) {
        PyErr_SetString(PyExc_RuntimeError, "the seats are being read");
        return -1;
    }
    return 0;
}

static void seats_unclaim(SeatsObject *self) {
    PyThread_acquire_lock(stores_lock, WAIT_LOCK);
    self->store->busy = 0;
    PyThread_release_lock(stores_lock);
}

/* The game's one str (a new reference), made the first time it is met. */
static PyObject *seats_game(SeatsObject *self, const char *bytes, int size) {
    for (int k = 0; k < self->games_count; k++) {
        int g = (self->last_game + k) % self->games_count;
        Game *game = &self->games[g];
        if (game->size == size && memcmp(game->bytes, bytes, (size_t)size) == 0) {
            self->last_game = g;
            Py_INCREF(game->text);
            return game->text;
        }
    }
    PyObject *text = PyUnicode_DecodeUTF8(bytes, size, NULL);
    if (text == NULL) return NULL;
    if (self->games_count == self->games_capacity) {
        int capacity = self->games_capacity ? self->games_capacity * 2 : 16;
        Game *moved = realloc(self->games, (size_t)capacity * sizeof *moved);
        if (moved == NULL) {
            Py_DECREF(text);
            return PyErr_NoMemory();
        }
        self->games = moved;
        self->games_capacity = capacity;
    }
    char *copy = malloc((size_t)size + 1);
    if (copy == NULL) {
        Py_DECREF(text);
        return PyErr_NoMemory();
    }
    memcpy(copy, bytes, (size_t)size);
    self->games[self->games_count] = (Game){copy, size, text};
    self->last_game = self->games_count++;
    Py_INCREF(text);
    return text;
}

/* A seat's value as the sqlite3 module makes it (a new reference; the game column's str is the
 * game's one str). */
static PyObject *seat_value(SeatsObject *self, const Cell *cell, int column) {
    const char *text = self->store->text;
    switch (cell->type) {
    case SQLITE_INTEGER:
        return PyLong_FromLongLong(cell->as.integer);
    case SQLITE_FLOAT:
        return PyFloat_FromDouble(cell->as.real);
    case SQLITE_TEXT:
        if (column == 1) return seats_game(self, text + cell->as.text.offset, cell->as.text.size);
        return PyUnicode_DecodeUTF8(text + cell->as.text.offset, cell->as.text.size, NULL);
    case SQLITE_BLOB:
        return PyBytes_FromStringAndSize(text + cell->as.text.offset, cell->as.text.size);
    default:
        Py_RETURN_NONE;
    }
}

/* The seats [first, end) as tuples, in a list. */
static PyObject *seat_tuples(SeatsObject *self, size_t first, size_t end) {
    PyObject *list = PyList_New((Py_ssize_t)(end - first));
    if (list == NULL) return NULL;
    for (size_t i = first; i < end; i++) {
        PyObject *seat = PyTuple_New(SEAT_COLUMNS);
        if (seat == NULL) goto error;
        PyList_SET_ITEM(list, (Py_ssize_t)(i - first), seat);
        const Cell *cells = seat_cells(self->store, i);
        for (int c = 0; c < SEAT_COLUMNS; c++) {
            PyObject *value = seat_value(self, &cells[c], c);
            if (value == NULL) goto error;
            PyTuple_SET_ITEM(seat, c, value);
        }
    }
    return list;
error:
    Py_DECREF(list);
    return NULL;
}

/* A cell of a rating row copied from a seat's (its texts into the rows' store, once a play). */
static int put_cell(RowsObject *rows, int column, const Cell *from, const char *texts, Cell *to) {
    if (from->type != SQLITE_TEXT) {
        *to = *from;
        return 0;
    }
    Store *store = rows->store;
    const char *text = texts + from->as.text.offset;
    int size = from->as.text.size;
    to->type = SQLITE_TEXT;
    to->as.text.size = size;
    if (rows->c_text[column] && rows->last_size[column] == size &&
        memcmp(store->text + rows->last_offset[column], text, (size_t)size) == 0) {
        to->as.text.offset = rows->last_offset[column];
        return 0;
    }
    if (reserve((void **)&store->text, &store->text_capacity, store->text_size + (size_t)size + 1,
                1)) {
        return -1;
    }
    memcpy(store->text + store->text_size, text, (size_t)size);
    store->text[store->text_size + (size_t)size] = '\0';
    to->as.text.offset = store->text_size;
    store->text_size += (size_t)size + 1;
    Py_CLEAR(rows->last_text[column]);
    rows->c_text[column] = 1;
    rows->last_offset[column] = to->as.text.offset;
    rows->last_size[column] = size;
    return 0;
}

static void put_int(Cell *cell, long long value) {
    cell->type = SQLITE_INTEGER;
    cell->as.integer = value;
}

static void put_real(Cell *cell, double value) {
    cell->type = SQLITE_FLOAT;
    cell->as.real = value;
}

/* Whether the won column's value is true, as Python's truth would say of the sqlite3 module's
 * value: 1, 0, or -1 for a text or a blob (left to Python). */
static int cell_true(const Cell *cell) {
    switch (cell->type) {
    case SQLITE_INTEGER:
        return cell->as.integer != 0;
    case SQLITE_FLOAT:
        return cell->as.real != 0.0;
    case SQLITE_NULL:
        return 0;
    default:
        return -1;
    }
}

/* Reads a state from its list: 1, or 0 for one the loop does not take (it stays stale, and its
 * play is left to Python). */
static int state_read(CState *e) {
    PyObject *list = e->list;
    e->stale = 1;
    if (!PyList_CheckExact(list) || PyList_GET_SIZE(list) != 9) return 0;
    if (!state_float(list, 0, &e->mu) || !state_float(list, 1, &e->sigma)) return 0;
    int ok = 1;
    for (int k = 0; k < 7; k++) {
        if (k >= 2 && k <= 4) { /* points, best, worst: None before (points: never in "all") */
            e->has[k - 2] = PyList_GET_ITEM(list, 2 + k) != Py_None;
            if (!e->has[k - 2]) {
                e->v[k] = 0;
                continue;
            }
        }
        e->v[k] = state_int(list, 2 + k, &ok);
    }
    if (!ok) return 0;
    e->stale = 0;
    return 1;
}

/* Writes a changed state back to its list. */
static int state_write(CState *e) {
    if (!e->dirty) return 0;
    if (set_float(e->list, 0, e->mu) || set_float(e->list, 1, e->sigma)) return -1;
    for (int k = 0; k < 7; k++) {
        if (k >= 2 && k <= 4 && !e->has[k - 2]) continue;
        if (set_int(e->list, 2 + k, e->v[k])) return -1;
    }
    e->dirty = 0;
    return 0;
}

static size_t state_hash(int scope, long long player) {
    return mix((unsigned long long)player * 1000003ULL ^ (unsigned long long)(scope + 2));
}

/* The index of the state of (scope, player) in cstates; -1: none. */
static Py_ssize_t state_find(SeatsObject *self, int scope, long long player) {
    if (self->state_slots == 0) return -1;
    size_t mask = self->state_slots - 1;
    for (size_t h = state_hash(scope, player) & mask; self->state_table[h]; h = (h + 1) & mask) {
        CState *e = &self->cstates[self->state_table[h] - 1];
        if (e->player == player && e->scope == scope) return (Py_ssize_t)(self->state_table[h] - 1);
    }
    return -1;
}

/* The index of the state of (scope, player), read from the states dict the first time (its
 * __missing__ making it if need be), or again when stale. -1: error; -2: a state the loop does
 * not take. Moves cstates: pointers into it are taken after. */
static Py_ssize_t state_of(SeatsObject *self, int scope, PyObject *scope_object,
                           long long player) {
    Py_ssize_t found = state_find(self, scope, player);
    if (found >= 0) {
        CState *e = &self->cstates[found];
        return e->stale && !state_read(e) ? -2 : found;
    }
    if ((self->cstates_count + 1) * 2 > self->state_slots) {
        size_t slots = self->state_slots ? self->state_slots * 2 : 1024;
        size_t *table = calloc(slots, sizeof *table);
        if (table == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        for (size_t i = 0; i < self->cstates_count; i++) {
            size_t h = state_hash(self->cstates[i].scope, self->cstates[i].player) & (slots - 1);
            while (table[h]) h = (h + 1) & (slots - 1);
            table[h] = i + 1;
        }
        free(self->state_table);
        self->state_table = table;
        self->state_slots = slots;
    }
    if (reserve((void **)&self->cstates, &self->cstates_capacity, self->cstates_count + 1,
                sizeof(CState))) {
        return -1;
    }
    PyObject *who = PyLong_FromLongLong(player);
    if (who == NULL) return -1;
    PyObject *list = get_state(self->states, scope_object, who);
    Py_DECREF(who);
    if (list == NULL) return -1;
    size_t index = self->cstates_count++;
    CState *e = &self->cstates[index];
    memset(e, 0, sizeof *e);
    e->scope = scope;
    e->player = player;
    e->list = list;
    size_t mask = self->state_slots - 1;
    size_t h = state_hash(scope, player) & mask;
    while (self->state_table[h]) h = (h + 1) & mask;
    self->state_table[h] = index + 1;
    return state_read(e) ? (Py_ssize_t)index : -2;
}

/* Every changed state written back; ``stale``: each to be read again before its next use. */
static int states_write(SeatsObject *self, int stale) {
    for (size_t i = 0; i < self->cstates_count; i++) {
        if (state_write(&self->cstates[i])) return -1;
        if (stale) self->cstates[i].stale = 1;
    }
    return 0;
}

static size_t pair_hash(long long one, long long other, int tied) {
    return mix((unsigned long long)one * 1000003ULL ^ (unsigned long long)other * 31ULL ^
               (unsigned long long)tied);
}

/* One play more for the pair (beaten: ``one`` ranked above ``other``; else tied). */
static int pair_add(SeatsObject *self, long long one, long long other, int tied) {
    if ((self->cpairs_count + 1) * 2 > self->pair_slots) {
        size_t slots = self->pair_slots ? self->pair_slots * 2 : 1024;
        size_t *table = calloc(slots, sizeof *table);
        if (table == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        for (size_t i = 0; i < self->cpairs_count; i++) {
            CPair *p = &self->cpairs[i];
            size_t h = pair_hash(p->one, p->other, p->tied) & (slots - 1);
            while (table[h]) h = (h + 1) & (slots - 1);
            table[h] = i + 1;
        }
        free(self->pair_table);
        self->pair_table = table;
        self->pair_slots = slots;
    }
    size_t mask = self->pair_slots - 1;
    size_t h = pair_hash(one, other, tied) & mask;
    for (; self->pair_table[h]; h = (h + 1) & mask) {
        CPair *p = &self->cpairs[self->pair_table[h] - 1];
        if (p->one == one && p->other == other && p->tied == tied) {
            p->count++;
            return 0;
        }
    }
    if (reserve((void **)&self->cpairs, &self->cpairs_capacity, self->cpairs_count + 1,
                sizeof(CPair))) {
        return -1;
    }
    self->cpairs[self->cpairs_count] = (CPair){one, other, tied, 1};
    self->pair_table[h] = ++self->cpairs_count;
    return 0;
}

/* The pairs counted added to the dicts, in the order first met, and forgotten. */
static int pairs_write(SeatsObject *self) {
    for (size_t i = 0; i < self->cpairs_count; i++) {
        CPair *p = &self->cpairs[i];
        PyObject *counts = p->tied ? self->tied : self->beaten;
        PyObject *key = Py_BuildValue("(LL)", p->one, p->other);
        if (key == NULL) return -1;
        PyObject *found = PyDict_GetItemWithError(counts, key);
        long long before = 0;
        if (found != NULL) {
            before = PyLong_AsLongLong(found);
            if (before == -1 && PyErr_Occurred()) {
                Py_DECREF(key);
                return -1;
            }
        } else if (PyErr_Occurred()) {
            Py_DECREF(key);
            return -1;
        }
        PyObject *count = PyLong_FromLongLong(before + p->count);
        int failed = count == NULL || PyDict_SetItem(counts, key, count);
        Py_XDECREF(count);
        Py_DECREF(key);
        if (failed) return -1;
    }
    self->cpairs_count = 0;
    if (self->pair_slots) memset(self->pair_table, 0, self->pair_slots * sizeof(size_t));
    return 0;
}

/* Forgets every state (written back first if ``write``) and lets go of the dicts. */
static int cache_clear(SeatsObject *self, int write) {
    int failed = write && self->states != NULL && (states_write(self, 0) || pairs_write(self));
    for (size_t i = 0; i < self->cstates_count; i++) Py_CLEAR(self->cstates[i].list);
    self->cstates_count = 0;
    if (self->state_slots) memset(self->state_table, 0, self->state_slots * sizeof(size_t));
    self->cpairs_count = 0;
    if (self->pair_slots) memset(self->pair_table, 0, self->pair_slots * sizeof(size_t));
    Py_CLEAR(self->states);
    Py_CLEAR(self->beaten);
    Py_CLEAR(self->tied);
    return failed ? -1 : 0;
}

/* Before a play is left to Python: its players' states (in its game, across all games)
 * written back and to be read again after; the pairs too if Python may count the play's
 * (everyone for themselves). A player id that is not an integer: every state. */
static int hand_back(SeatsObject *self, size_t first, size_t end, int game_index) {
    int odd = 0, alone = 1;
    for (size_t i = first; i < end; i++) {
        const Cell *cells = seat_cells(self->store, i);
        odd |= cells[3].type != SQLITE_INTEGER;
        alone &= cells[7].type == SQLITE_NULL;
    }
    if (odd) {
        if (states_write(self, 1)) return -1;
    } else {
        for (size_t i = first; i < end; i++) {
            long long player = seat_cells(self->store, i)[3].as.integer;
            for (int s = 0; s < 2; s++) {
                int scope = s ? -1 : game_index;
                if (scope == -2) continue;
                Py_ssize_t found = state_find(self, scope, player);
                if (found < 0) continue;
                if (state_write(&self->cstates[found])) return -1;
                self->cstates[found].stale = 1;
            }
        }
    }
    return alone ? pairs_write(self) : 0;
}

/* rate_core on the states kept in C (``mine``, ``every``: their indices). 1; 0: left to Python,
 * nothing changed; -1. */
static int rate_cached(SeatsObject *self, Seat *seats, int count, const Py_ssize_t *mine,
                       const Py_ssize_t *every, double beta, double kappa, double tau,
                       int limit_sigma) {
    CState *game_state[MAX_SEATS], *all_state[MAX_SEATS];
    double mus[MAX_SEATS], sigmas[MAX_SEATS], all_mus[MAX_SEATS], all_sigmas[MAX_SEATS];
    long long ranks[MAX_SEATS];
    for (int i = 0; i < count; i++) {
        CState *g = game_state[i] = &self->cstates[mine[i]];
        CState *a = all_state[i] = &self->cstates[every[i]];
        /* far from any overflow of the sums below */
        if (!g->has[0] || g->v[2] >= (1LL << 60) || g->v[2] <= -(1LL << 60)) return 0;
        mus[i] = g->mu, sigmas[i] = g->sigma, all_mus[i] = a->mu, all_sigmas[i] = a->sigma;
        ranks[i] = seats[i].rank;
    }
    /* Head-to-head (totals.Pairs.count_alone): the players by (rank, id), each pair once. */
    int ranked[MAX_SEATS];
    rank_order(seats, count, ranked);
    for (int i = 0; i < count; i++) {
        for (int j = i + 1; j < count; j++) {
            Seat *one = &seats[ranked[i]], *other = &seats[ranked[j]];
            if (pair_add(self, one->player, other->player, !(one->rank < other->rank))) return -1;
        }
    }
    double new_mu[MAX_SEATS], new_sigma[MAX_SEATS], all_new_mu[MAX_SEATS],
        all_new_sigma[MAX_SEATS];
    if (count > 1) {
        plackett_luce(count, mus, sigmas, ranks, beta, kappa, tau, limit_sigma, new_mu, new_sigma);
        plackett_luce(count, all_mus, all_sigmas, ranks, beta, kappa, tau, limit_sigma, all_new_mu,
                      all_new_sigma);
    } else {
        new_mu[0] = mus[0], new_sigma[0] = sigmas[0];
        all_new_mu[0] = all_mus[0], all_new_sigma[0] = all_sigmas[0];
    }
    for (int i = 0; i < count; i++) {
        Seat *seat = &seats[i];
        CState *g = game_state[i], *a = all_state[i];
        double ratings[8] = {mus[i],     sigmas[i],     new_mu[i],     new_sigma[i],
                             all_mus[i], all_sigmas[i], all_new_mu[i], all_new_sigma[i]};
        memcpy(seat->ratings, ratings, sizeof ratings);
        g->mu = new_mu[i], g->sigma = new_sigma[i];
        a->mu = all_new_mu[i], a->sigma = all_new_sigma[i];
        /* plays, wins, points, best, worst, streak, longest */
        g->v[0] += 1;
        a->v[0] += 1;
        if (seat->won) {
            g->v[1] += 1;
            a->v[1] += 1;
            g->v[5] += 1;
            a->v[5] += 1;
            if (g->v[5] > g->v[6]) g->v[6] = g->v[5];
            if (a->v[5] > a->v[6]) a->v[6] = a->v[5];
        } else {
            g->v[5] = 0;
            a->v[5] = 0;
        }
        g->v[2] += seat->score;
        if (!g->has[1] || seat->score > g->v[3]) g->v[3] = seat->score;
        if (!g->has[2] || seat->score < g->v[4]) g->v[4] = seat->score;
        g->has[1] = g->has[2] = 1;
        g->dirty = a->dirty = 1;
        memcpy(seat->values, g->v, sizeof g->v);
        long long all_values[4] = {a->v[0], a->v[1], a->v[5], a->v[6]};
        memcpy(seat->all_values, all_values, sizeof all_values);
    }
    return 1;
}

/* rate_cooperative_core on the states kept in C. 1; 0: left to Python, nothing changed. */
static int rate_cooperative_cached(SeatsObject *self, Seat *seats, int count,
                                   const Py_ssize_t *mine) {
    for (int i = 0; i < count; i++) {
        CState *g = &self->cstates[mine[i]];
        if (!g->has[0] || g->v[2] >= (1LL << 60) || g->v[2] <= -(1LL << 60)) return 0;
    }
    for (int i = 0; i < count; i++) {
        CState *g = &self->cstates[mine[i]];
        long long *v = g->v, score = seats[i].score;
        v[0] += 1;
        if (seats[i].won) {
            v[1] += 1;
            v[5] += 1;
            if (v[5] > v[6]) v[6] = v[5];
        } else {
            v[5] = 0;
        }
        v[2] += score;
        if (!g->has[1] || score > v[3]) v[3] = score;
        if (!g->has[2] || score < v[4]) v[4] = score;
        g->has[1] = g->has[2] = 1;
        g->dirty = 1;
        memcpy(seats[i].values, v, sizeof g->v);
    }
    return 1;
}

/* Rates the play of seats [first, end) into ``rows``, its players' states and pairs kept in C.
 * 1: rated; 0: left to Python (``*game_index``: its game's index, -2 if none); -1: error. */
static int rate_read_play(SeatsObject *self, size_t first, size_t end, PyObject *cooperative,
                          long long club_id, PyObject *all_games, double beta, double kappa,
                          double tau, int limit_sigma, RowsObject *rows, int *game_index) {
    *game_index = -2;
    SeatStore *store = self->store;
    int count = (int)(end - first);
    if (count > MAX_SEATS) return 0;
    const Cell *head = seat_cells(store, first);
    if (head[1].type != SQLITE_TEXT) return 0;
    for (size_t i = first; i < end; i++) { /* the rows' store takes no blob */
        const Cell *cells = seat_cells(store, i);
        for (int c = 0; c < SEAT_COLUMNS; c++) {
            if (cells[c].type == SQLITE_BLOB) return 0;
        }
    }
    PyObject *game = seats_game(self, store->text + head[1].as.text.offset, head[1].as.text.size);
    if (game == NULL) return -1;
    *game_index = self->last_game;
    int rated = PySequence_Contains(cooperative, game);
    int together = rated == 1;
    if (rated == 0) {
        rated = PyUnicode_Compare(game, all_games) != 0;
        if (PyErr_Occurred()) rated = -1;
    }
    for (size_t i = first; i < end && rated == 1 && !together; i++) {
        if (seat_cells(store, i)[7].type != SQLITE_NULL) rated = 0; /* partners: Python's */
    }
    Seat seats[MAX_SEATS];
    clear_seats(seats, count);
    for (int i = 0; i < count && rated == 1; i++) {
        const Cell *cells = seat_cells(store, first + (size_t)i);
        Seat *seat = &seats[i];
        int won = cell_true(&cells[5]);
        if (cells[3].type != SQLITE_INTEGER || cells[6].type != SQLITE_INTEGER ||
            (!together && cells[4].type != SQLITE_INTEGER) || won < 0) {
            rated = 0;
            break;
        }
        seat->player = cells[3].as.integer;
        seat->rank = cells[4].as.integer;
        seat->score = cells[6].as.integer;
        seat->won = won;
    }
    if (rated == 1 && seats_odd(seats, count)) rated = 0;
    Py_ssize_t mine[MAX_SEATS], every[MAX_SEATS];
    for (int i = 0; i < count && rated == 1; i++) {
        mine[i] = state_of(self, *game_index, game, seats[i].player);
        rated = mine[i] >= 0 ? 1 : mine[i] == -1 ? -1 : 0;
    }
    for (int i = 0; i < count && rated == 1 && !together; i++) {
        every[i] = state_of(self, -1, all_games, seats[i].player);
        rated = every[i] >= 0 ? 1 : every[i] == -1 ? -1 : 0;
    }
    if (rated == 1) {
        rated = together ? rate_cooperative_cached(self, seats, count, mine)
                         : rate_cached(self, seats, count, mine, every, beta, kappa, tau,
                                       limit_sigma);
    }
    Store *out = rows->store;
    const char *texts = store->text;
    if (rated == 1 && reserve((void **)&out->cells, &out->capacity, out->rows + (size_t)count,
                              (size_t)out->columns * sizeof(Cell))) {
        rated = -1;
    }
    for (int i = 0; i < count && rated == 1; i++) {
        const Cell *cells = seat_cells(store, first + (size_t)i);
        Seat *seat = &seats[i];
        Cell *row = &out->cells[out->rows * (size_t)out->columns];
        put_int(&row[0], club_id);
        row[1] = cells[0];
        row[2] = cells[3];
        if (put_cell(rows, 3, &cells[1], texts, &row[3]) ||
            put_cell(rows, 4, &cells[2], texts, &row[4])) {
            rated = -1;
            break;
        }
        row[5] = cells[5];
        row[6] = cells[4];
        if (together) {
            row[7] = cells[7];
            for (int f = 8; f < 12; f++) row[f].type = SQLITE_NULL;
            for (int v = 0; v < 7; v++) put_int(&row[12 + v], seat->values[v]);
            for (int f = 19; f < ROW_SIZE; f++) row[f].type = SQLITE_NULL;
        } else {
            row[7].type = SQLITE_NULL;
            for (int r = 0; r < 4; r++) put_real(&row[8 + r], seat->ratings[r]);
            for (int v = 0; v < 7; v++) put_int(&row[12 + v], seat->values[v]);
            for (int r = 0; r < 4; r++) put_real(&row[19 + r], seat->ratings[4 + r]);
            for (int v = 0; v < 4; v++) put_int(&row[23 + v], seat->all_values[v]);
        }
        out->rows++;
    }
    release(seats, count);
    Py_DECREF(game);
    return rated;
}

static PyObject *seats_rate(SeatsObject *self, PyObject *args) {
    PyObject *states, *cooperative, *beaten, *tied, *club_object, *all_games, *rows_object;
    int final, limit_sigma;
    double beta, kappa, tau;
    if (!PyArg_ParseTuple(args, "pO!OO!O!O!UdddpO!", &final, &PyDict_Type, &states,
                          &cooperative, &PyDict_Type, &beaten, &PyDict_Type, &tied,
                          &PyLong_Type, &club_object, &all_games, &beta, &kappa, &tau,
                          &limit_sigma, &RowsType, &rows_object)) {
        return NULL;
    }
    long long club_id = PyLong_AsLongLong(club_object);
    if (club_id == -1 && PyErr_Occurred()) return NULL;
    RowsObject *rows = (RowsObject *)rows_object;
    if (rows->store->columns != ROW_SIZE) {
        PyErr_SetString(PyExc_ValueError, "the rows must have the 27 columns of a rating row");
        return NULL;
    }
    if (rows_unread(rows->store)) return NULL;
    if (seats_claim(self)) return NULL;
    SeatStore *store = self->store;
    PyObject *result = NULL;
    if (self->states != states || self->beaten != beaten || self->tied != tied) {
        if (cache_clear(self, 1)) goto done; /* other dicts: the former ones' states written */
        self->states = Py_NewRef(states);
        self->beaten = Py_NewRef(beaten);
        self->tied = Py_NewRef(tied);
    }
    size_t start = store->first, size = store->count;
    while (start < size) {
        long long play_id = seat_cells(store, start)[0].as.integer;
        size_t end = start + 1;
        while (end < size && seat_cells(store, end)[0].as.integer == play_id) end++;
        if (end == size && !final) break;
        int game_index;
        int rated = rate_read_play(self, start, end, cooperative, club_id, all_games, beta,
                                   kappa, tau, limit_sigma, rows, &game_index);
        if (rated < 0) goto done;
        if (rated == 0) { /* left to Python: its seats, as tuples */
            if (hand_back(self, start, end, game_index)) goto done;
            result = seat_tuples(self, start, end);
            if (result != NULL) store->first = end;
            goto done;
        }
        start = store->first = end;
    }
    result = Py_NewRef(Py_None);
done:
    seats_unclaim(self);
    return result;
}

static PyObject *seats_close(SeatsObject *self, PyObject *Py_UNUSED(ignored)) {
    if (seats_claim(self)) return NULL;
    SeatStore *store = self->store;
    if (cache_clear(self, 1)) { /* the states and pairs kept in C written back */
        seats_unclaim(self);
        return NULL;
    }
    if (store->statement != NULL) sqlite3_finalize(store->statement);
    store->statement = NULL;
    store->done = 1;
    store->first = store->count = 0;
    seats_unclaim(self);
    Py_RETURN_NONE;
}

static PyObject *seats_list(SeatsObject *self, PyObject *Py_UNUSED(ignored)) {
    if (seats_claim(self)) return NULL;
    PyObject *result = seat_tuples(self, self->store->first, self->store->count);
    seats_unclaim(self);
    return result;
}

static PyObject *seats_token(SeatsObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(self->store->token);
}

static Py_ssize_t seats_length(SeatsObject *self) {
    return (Py_ssize_t)(self->store->count - self->store->first);
}

static PyMethodDef seats_methods[] = {
    {"rate", (PyCFunction)seats_rate, METH_VARARGS,
     "Rate the seats read into rows (an SQLiteRows) until a play left to Python: its seats."},
    {"close", (PyCFunction)seats_close, METH_NOARGS,
     "Finalize the query (if it still runs) and drop the seats not rated."},
    {"seats", (PyCFunction)seats_list, METH_NOARGS, "The seats read and not rated, as tuples."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef seats_getset[] = {
    {"token", (getter)seats_token, NULL, "The first argument of referee_seats(…).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PySequenceMethods seats_sequence = {.sq_length = (lenfunc)seats_length};

static PyTypeObject SeatsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "games.ratings._native.SQLiteSeats",
    .tp_basicsize = sizeof(SeatsObject),
    .tp_dealloc = (destructor)seats_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Seats that referee_seats(token, …) reads from SQLite (see the module's source).",
    .tp_methods = seats_methods,
    .tp_getset = seats_getset,
    .tp_as_sequence = &seats_sequence,
    .tp_new = seats_new,
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
    if (PyType_Ready(&SeatsType) < 0) goto error;
    if (PyModule_AddObjectRef(made, "SQLiteSeats", (PyObject *)&SeatsType) < 0) goto error;
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
