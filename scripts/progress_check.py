#!/usr/bin/env python3
"""Recomputes a progress report's calendar, due-ahead days and true retention with plain SQL
over the same store (SQLite's own `localtime`, moved back by the study day's start hour; the
previous review by a window function), and prints every figure that disagrees.

    progress_check.py STORE REPORT.json

REPORT.json is the report as `vocab stats --json` prints it (its `progress` object, or the
whole answer). Exit 0 when every figure agrees, 1 when one does not, 2 when it cannot run.
Used by the suite (ProgressCrossCheckEndToEndTests) and by `vocab-bench progress`.
"""
import datetime
import json
import sqlite3
import sys

DAY = 86_400_000
PERIODS = {"today": (0, 0), "yesterday": (1, 1), "week": (6, 0), "month": (29, 0), "year": (364, 0)}


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    store, report_path = sys.argv[1:]
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    report = report.get("progress", report)
    start = datetime.datetime.fromisoformat(report["todayStart"].replace("Z", "+00:00")).astimezone()
    hour, today = start.hour, start.date()
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    day = lambda column: f"date({column} / 1000, 'unixepoch', 'localtime', '-{hour} hours')"
    failures = []

    calendar = dict(db.execute(f"SELECT {day('reviewed_at')} AS d, count(*) FROM reviews GROUP BY d"))
    reviews = report["calendar"]["reviews"]
    for index, count in enumerate(reviews):
        date = (today - datetime.timedelta(days=len(reviews) - 1 - index)).isoformat()
        if calendar.get(date, 0) != count:
            failures.append(f"{date}: {count} reviews in the report, {calendar.get(date, 0)} by SQL")

    due = dict(db.execute(f"SELECT {day('due')} AS d, count(*) FROM schedules GROUP BY d"))
    backlog = sum(count for date, count in due.items() if date < today.isoformat())
    if backlog != report["dueAhead"]["backlog"]:
        failures.append(f"backlog {report['dueAhead']['backlog']} in the report, {backlog} by SQL")
    for index, count in enumerate(report["dueAhead"]["days"]):
        date = (today + datetime.timedelta(days=index)).isoformat()
        if due.get(date, 0) != count:
            failures.append(f"{count} due on {date} in the report, {due.get(date, 0)} by SQL")

    rows = db.execute(f"""
        WITH log AS (
            SELECT {day('reviewed_at')} AS d, rating,
                   reviewed_at - lag(reviewed_at) OVER (PARTITION BY word ORDER BY reviewed_at, id) AS gap
            FROM reviews)
        SELECT CAST(julianday(?) - julianday(d) AS INTEGER) AS back,
               sum(gap < 21 * {DAY} AND rating > 1), sum(gap < 21 * {DAY} AND rating = 1),
               sum(gap >= 21 * {DAY} AND rating > 1), sum(gap >= 21 * {DAY} AND rating = 1)
        FROM log WHERE gap >= {DAY} AND d <= ? AND d > date(?, '-365 days') GROUP BY d
        """, (today.isoformat(),) * 3).fetchall()
    spans = report["retention"]["spans"]
    for span in spans:
        first, last = PERIODS[span["period"]]
        young, mature = [0, 0], [0, 0]
        for back, young_passed, young_failed, mature_passed, mature_failed in rows:
            if last <= back <= first:
                young = [young[0] + young_passed, young[1] + young_failed]
                mature = [mature[0] + mature_passed, mature[1] + mature_failed]
        shown = [[span["young"]["passed"], span["young"]["failed"]], [span["mature"]["passed"], span["mature"]["failed"]]]
        if shown != [young, mature]:
            failures.append(f"true retention ({span['period']}): {shown} in the report, {[young, mature]} by SQL")

    for failure in failures:
        print("progress check: " + failure)
    print(f"progress check: {len(reviews)} calendar days, the backlog and {len(report['dueAhead']['days'])} days due ahead, "
          f"true retention over {len(spans)} spans: {'all agree' if not failures else f'{len(failures)} disagree'}")
    sys.exit(1 if failures else 0)


main()
