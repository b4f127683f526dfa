#!/usr/bin/env python3
"""Writes Tests/VocabCoreTests/Data/fsrs-cases.json: random review sequences scheduled by the
reference FSRS implementation, PyPI's `fsrs` 6.x, with default parameters and fuzzing off.

    pip install 'fsrs>=6,<7' && python3 scripts/fsrs_reference.py

The Swift test replays each sequence with FSRSScheduler and compares state, step, stability,
difficulty (to 1e-6) and due time (to the second) after every review.
"""
import json
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

from importlib import metadata
from fsrs import Card, Rating, Scheduler

CASES = 300
OUT = Path(__file__).resolve().parent.parent / "Tests/VocabCoreTests/Data/fsrs-cases.json"


def main() -> None:
    rng = random.Random(20261130)
    scheduler = Scheduler(enable_fuzzing=False)
    start = datetime(2026, 1, 1, 9, 0, 0, tzinfo=timezone.utc)
    cases = []
    for _ in range(CASES):
        card = Card()
        now = start + timedelta(seconds=rng.randrange(0, 86400 * 30))
        steps = []
        for _ in range(rng.randint(1, 14)):
            rating = rng.choice([Rating.Again, Rating.Hard, Rating.Good, Rating.Easy, Rating.Good, Rating.Good])
            kind = rng.random()
            if kind < 0.3:
                gap = rng.randrange(30, 3600)                  # within the hour
            elif kind < 0.5:
                gap = int((card.due - now).total_seconds())    # exactly when due
            else:
                gap = rng.randrange(3600, 86400 * 90)          # hours to months later
            now = now + timedelta(seconds=max(gap, 0))
            card, _ = scheduler.review_card(card, rating, now)
            steps.append({
                "rating": int(rating),
                "at": int(now.timestamp()),
                "state": int(card.state),
                "step": card.step,
                "stability": card.stability,
                "difficulty": card.difficulty,
                "due": int(card.due.timestamp()),
            })
        cases.append(steps)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"fsrs_version": metadata.version("fsrs"),
                               "cases": cases}, indent=None) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
