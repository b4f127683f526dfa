#!/usr/bin/env python3
"""The reference optimiser's side of Vocab's FSRS optimiser, with PyPI's `fsrs-rs-python`
(the Rust fsrs-rs that Anki's "Optimize" runs):

  fsrs_optimizer_reference.py cases      writes Tests/VocabCoreTests/Data/fsrs-optimizer-cases.json:
                                         memory states after random review sequences, log loss
                                         and binned RMSE of parameter sets on random logs, and
                                         the first stabilities fitted on a small log
  fsrs_optimizer_reference.py heldout    writes Tests/VocabCoreTests/Data/fsrs-heldout-cases.json:
                                         two synthetic learners' logs (over 5,000 reviews), each
                                         split by word into 80% to fit and 20% held out, with
                                         fsrs-rs' fit on the 80% and fsrs-rs' own `evaluate`
                                         (recency-weighted) of that fit and of the defaults on
                                         the held-out 20%
  fsrs_optimizer_reference.py fit LOG    fits parameters to LOG (JSON: a list of words, each a
                                         list of [rating, days since the previous review]) and
                                         prints {"parameters": [...], "seconds": ...}
  fsrs_optimizer_reference.py evaluate LOG PARAMETERS...
                                         prints {"logLoss": ..., "rmseBins": ...}

    pip install fsrs-rs-python==0.9.3 && python3 scripts/fsrs_optimizer_reference.py cases
"""
import json
import math
import random
import sys
import time
from importlib import metadata
from pathlib import Path

from fsrs_rs_python import DEFAULT_PARAMETERS, FSRS, FSRSItem, FSRSReview

OUT = Path(__file__).resolve().parent.parent / "Tests/VocabCoreTests/Data/fsrs-optimizer-cases.json"
HELD_OUT = OUT.with_name("fsrs-heldout-cases.json")


def items_of(words):
    """Every later-day review of each word, with its history: the items FSRS predicts."""
    items = []
    for word in words:
        for index in range(1, len(word)):
            if word[index][1] >= 1:
                items.append(FSRSItem([FSRSReview(r, d) for r, d in word[: index + 1]]))
    return items


def unweighted_metrics(fsrs, parameters, words):
    """Log loss and binned RMSE as the FSRS benchmark computes them (every review counting
    the same; fsrs-rs' own `evaluate` weighs recent items more), from the reference's memory
    states, with fsrs-rs' bins (`FSRSItem::r_matrix_index`)."""
    decay = -parameters[20]
    factor = 0.9 ** (1 / decay) - 1
    losses, bins = [], {}
    for word in words:
        for index in range(1, len(word)):
            rating, days = word[index]
            if days < 1:
                continue
            state = fsrs.memory_state(FSRSItem([FSRSReview(r, d) for r, d in word[:index]]))
            p = (1 + factor * days / state.stability) ** decay
            y = 1 if rating > 1 else 0
            losses.append(-(y * math.log(p) + (1 - y) * math.log(1 - p)))
            long_term = sum(1 for _, d in word[: index + 1] if d >= 1)
            lapses = sum(1 for r, d in word[:index] if r == 1 and d >= 1)
            key = (round(2.48 * 3.62 ** math.floor(math.log(days, 3.62)) * 100),
                   round(1.99 * 1.89 ** math.floor(math.log(long_term + 1, 1.89))),
                   0 if lapses == 0 else round(1.65 * 1.73 ** math.floor(math.log(lapses, 1.73))))
            total = bins.setdefault(key, [0.0, 0.0, 0])
            total[0] += p
            total[1] += y
            total[2] += 1
    squares = sum((p / n - y / n) ** 2 * n for p, y, n in bins.values())
    return sum(losses) / len(losses), math.sqrt(squares / len(losses))


def random_word(rng, length):
    word = [[rng.choice([1, 2, 3, 3, 3, 4]), 0]]
    for _ in range(length - 1):
        days = 0 if rng.random() < 0.3 else rng.randint(1, 60)
        word.append([rng.choice([1, 2, 3, 3, 3, 4]), days])
    return word


def random_parameters(rng):
    w = list(DEFAULT_PARAMETERS)
    return [max(0.001, v * rng.uniform(0.7, 1.3)) if i not in (4, 16, 20) else v for i, v in enumerate(w)]


def cases():
    rng = random.Random(20261201)
    parameter_sets = [list(DEFAULT_PARAMETERS)] + [random_parameters(rng) for _ in range(3)]
    memory = []
    for parameters in parameter_sets:
        fsrs = FSRS(parameters)
        for _ in range(60):
            word = random_word(rng, rng.randint(1, 12))
            state = fsrs.memory_state(FSRSItem([FSRSReview(r, d) for r, d in word]))
            memory.append({"parameters": parameters, "reviews": word,
                           "stability": state.stability, "difficulty": state.difficulty})
    evaluations = []
    for parameters in parameter_sets:
        words = [random_word(rng, rng.randint(2, 15)) for _ in range(300)]
        log_loss, rmse_bins = unweighted_metrics(FSRS(parameters), parameters, words)
        evaluations.append({"parameters": parameters, "words": words, "logLoss": log_loss, "rmseBins": rmse_bins})
    # A log small enough (8 to 63 items once outliers are left out) that the reference fits
    # only the first stabilities: the rarest intervals of each first rating go as outliers.
    small = []
    for first, days, count in [(3, 2, 12), (3, 3, 16), (3, 5, 18), (1, 1, 14), (1, 2, 15)]:
        for _ in range(count):
            last = rng.choice([1, 1, 3] if first == 1 else [1, 3, 3, 3, 3, 4])
            small.append([[first, 0], [3, 0], [last, days]])
    fitted = FSRS([]).compute_parameters(items_of(small))
    OUT.write_text(json.dumps({
        "generator": f"fsrs-rs-python {metadata.version('fsrs-rs-python')}",
        "memory": memory, "evaluations": evaluations,
        "pretraining": {"words": small, "parameters": fitted},
    }))
    print(f"wrote {OUT}")


def simulated_learner(rng, truth, words, days):
    """A learner whose memory follows FSRS with the parameters `truth`, studying with an app
    that schedules by the default parameters (as Vocab does before a fit): a word's reviews
    come when the default interval is due (a little early or late), each recalled with the
    recall probability of the true memory state; a lapse is seen again the same day. Returns
    each word as {"start": the day it was first seen, "reviews": [[rating, days], ...]}."""
    fsrs, scheduler = FSRS(truth), FSRS(list(DEFAULT_PARAMETERS))
    decay = -truth[20]
    factor = 0.9 ** (1 / decay) - 1
    log = []
    for index in range(words):
        start = index * days // (2 * words)  # new words over the first half of the days
        first = rng.choice([1, 2, 3, 3, 3, 4])
        reviews, day = [[first, 0]], start
        if first == 1:
            reviews.append([3, 0])
        while True:
            history = FSRSItem([FSRSReview(r, d) for r, d in reviews])
            state, planned = fsrs.memory_state(history), scheduler.memory_state(history)
            interval = max(1, round(scheduler.next_interval(planned.stability, 0.9, 3) * rng.uniform(0.7, 1.4)))
            if day + interval >= days:
                break
            day += interval
            recall = (1 + factor * interval / state.stability) ** decay
            if rng.random() < recall:
                reviews.append([rng.choice([2, 3, 3, 3, 3, 4]), interval])
            else:
                reviews.append([1, interval])
                reviews.append([3, 0])
        log.append({"start": start, "reviews": reviews})
    return log


def items_in_time_order(words):
    """The later-day reviews of `words` as fsrs-rs items, ordered by the day they happened
    (ties: the word's place, then the review's), as fsrs-rs' `evaluate` expects."""
    timed = []
    for position, word in enumerate(words):
        day = word["start"]
        for index, (_, days) in enumerate(word["reviews"]):
            day += days
            if index > 0 and days >= 1:
                timed.append(((day, position, index), word["reviews"][: index + 1]))
    timed.sort(key=lambda pair: pair[0])
    return [FSRSItem([FSRSReview(r, d) for r, d in reviews]) for _, reviews in timed]


def held_out():
    rng = random.Random(20261202)
    learners = []
    # Two memories far from the defaults: one forgets fast (small first stabilities, slow
    # growth), one holds on (large first stabilities, a flatter forgetting curve).
    weak, strong = list(DEFAULT_PARAMETERS), list(DEFAULT_PARAMETERS)
    for index in range(4):
        weak[index] *= 0.2
        strong[index] *= 3
    weak[8] *= 0.6
    strong[20] = 0.35
    for truth in (weak, strong):
        words = simulated_learner(rng, truth, 500, 300)
        rng.shuffle(words)
        split = len(words) * 4 // 5
        fitting, kept = words[:split], words[split:]
        fitted = FSRS([]).compute_parameters(items_in_time_order(fitting))
        scores = {}
        for name, parameters in [("fitted", fitted), ("defaults", list(DEFAULT_PARAMETERS))]:
            result = FSRS(parameters).evaluate(items_in_time_order(kept))
            scores[name] = {"logLoss": result.log_loss, "rmseBins": result.rmse_bins}
        learners.append({"truth": truth, "fit": fitting, "heldOut": kept, "parameters": fitted,
                         "evaluations": scores,
                         "reviews": sum(len(word["reviews"]) for word in words)})
    HELD_OUT.write_text(json.dumps({
        "generator": f"fsrs-rs-python {metadata.version('fsrs-rs-python')}", "learners": learners}))
    print(f"wrote {HELD_OUT}: " + ", ".join(f"{learner['reviews']} reviews" for learner in learners))


def fit(path):
    words = json.loads(Path(path).read_text())
    items = items_of(words)
    started = time.perf_counter()
    parameters = FSRS([]).compute_parameters(items)
    print(json.dumps({"parameters": parameters, "seconds": time.perf_counter() - started}))


def evaluate(path, parameters):
    result = FSRS(parameters).evaluate(items_of(json.loads(Path(path).read_text())))
    print(json.dumps({"logLoss": result.log_loss, "rmseBins": result.rmse_bins}))


if __name__ == "__main__":
    if sys.argv[1] == "cases":
        cases()
    elif sys.argv[1] == "heldout":
        held_out()
    elif sys.argv[1] == "fit":
        fit(sys.argv[2])
    else:
        evaluate(sys.argv[2], [float(v) for v in sys.argv[3:]])
