// Progress: the report the server makes once for every front end (GET /api/progress), drawn as
// SVG charts, each with its title and a text summary (what a screen reader reads and the test
// checks); the last report is kept on the phone and drawn offline with the time it was made.
import { api, element, meta, unreachable } from "./api.js";
import { t } from "./i18n.js";
import { $, whenShown } from "./nav.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 358, BLUE = "#1a5fb4";

function svgElement(tag, attributes) {
  const made = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes || {})) made.setAttribute(name, value);
  return made;
}

/** A chart: its heading, the drawing (an image named by the heading and the summary), the summary. */
function chart(key, title, summary, drawing) {
  const figure = element("figure", undefined, "chart");
  const heading = element("h3", title);
  heading.id = `progress-${key}-title`;
  const text = element("p", summary, "summary");
  text.id = `progress-${key}-summary`;
  figure.append(heading);
  if (drawing) {
    drawing.setAttribute("role", "img");
    drawing.setAttribute("aria-labelledby", `${heading.id} ${text.id}`);
    figure.append(drawing);
  }
  figure.append(text);
  return figure;
}

/** Bars for `values`, as tall as their share of the largest, with the labels under some of them. */
function bars(values, labels = [], color = BLUE, height = 96) {
  const svg = svgElement("svg", { viewBox: `0 0 ${WIDTH} ${height + 18}`, width: "100%" });
  const top = Math.max(1, ...values), step = WIDTH / Math.max(values.length, 1);
  values.forEach((value, index) => {
    const tall = value === 0 ? 0 : Math.max(2, Math.round((value / top) * height));
    svg.append(svgElement("rect", { x: (index * step + step * 0.12).toFixed(1), y: height - tall,
                                    width: Math.max(1, step * 0.76).toFixed(1), height: tall, fill: color, rx: 1 }));
  });
  svg.append(svgElement("line", { x1: 0, x2: WIDTH, y1: height + 0.5, y2: height + 0.5, stroke: "#888" }));
  for (const [index, label] of labels) {
    // The first and last labels stay inside the drawing.
    const anchor = index === 0 ? "start" : index === values.length - 1 ? "end" : "middle";
    const x = index === 0 ? 0 : index === values.length - 1 ? WIDTH : index * step + step / 2;
    const text = svgElement("text", { x: x.toFixed(1), y: height + 14, "font-size": 11, "text-anchor": anchor, fill: "#444" });
    text.textContent = label;
    svg.append(text);
  }
  return svg;
}

/** The days as a grid of `weeks` (a column a week, today last), shaded by the day's reviews. */
function calendar(days, shownWeeks) {
  const shown = days.slice(-shownWeeks * 7), pad = (7 - (shown.length % 7)) % 7;
  const cells = Array(pad).fill(null).concat(shown), weeks = Math.ceil(cells.length / 7);
  const size = Math.min(22, Math.floor(WIDTH / weeks)), top = Math.max(1, ...shown);
  const shades = ["#ebedf0", "#c6dbf5", "#8bb6ec", "#3f82d6", "#1a5fb4"];
  const svg = svgElement("svg", { viewBox: `0 0 ${weeks * size} ${7 * size}`, width: weeks * size, height: 7 * size });
  cells.forEach((count, index) => {
    if (count === null) return;
    const shade = count === 0 ? 0 : Math.min(4, 1 + Math.floor((count / top) * 3.999));
    svg.append(svgElement("rect", { x: Math.floor(index / 7) * size, y: (index % 7) * size, width: size - 1, height: size - 1,
                                    fill: shades[shade], rx: 1 }));
  });
  return svg;
}

/** Where words stand: one bar split by state, with its legend. */
function standing(counts) {
  const parts = [["new", t("New"), "#98c1f5"], ["learning", t("Learning"), "#f5c211"], ["young", t("Young"), "#57e389"],
                 ["mature", t("Mature"), "#26a269"], ["memorized", t("Memorised"), "#813d9c"]];
  const svg = svgElement("svg", { viewBox: `0 0 ${WIDTH} ${24 + 20 * parts.length}`, width: "100%" });
  let x = 0;
  const total = Math.max(1, counts.total);
  parts.forEach(([key, label, color], index) => {
    const wide = (counts[key] / total) * WIDTH;
    if (wide > 0) svg.append(svgElement("rect", { x: x.toFixed(1), y: 0, width: wide.toFixed(1), height: 16, fill: color }));
    x += wide;
    svg.append(svgElement("rect", { x: 0, y: 26 + 20 * index, width: 12, height: 12, fill: color, rx: 2 }));
    const text = svgElement("text", { x: 18, y: 37 + 20 * index, "font-size": 13, fill: "#222" });
    text.textContent = `${label} ${counts[key]}`;
    svg.append(text);
  });
  return svg;
}

const percent = (rate) => rate === null || rate === undefined ? "–" : `${(rate * 100).toFixed(1)}%`;

/** True retention: a table (young, mature, all by span) and the aim. */
function retentionTable(retention) {
  const table = element("table", undefined, "retention");
  const names = { today: t("Today"), yesterday: t("Yesterday"), week: t("Week"), month: t("Month"), year: t("Year") };
  const head = element("tr");
  head.append(element("td"), ...retention.spans.map((span) => { const th = element("th", names[span.period]); th.scope = "col"; return th; }));
  table.append(head);
  for (const [kind, label] of [["young", t("Young")], ["mature", t("Mature")], ["all", t("All")]]) {
    const row = element("tr");
    const th = element("th", label);
    th.scope = "row";
    row.append(th, ...retention.spans.map((span) => element("td", percent(span[kind].rate))));
    table.append(row);
  }
  return table;
}

function draw(report) {
  const due = report.dueAhead, days = report.calendar, words = report.standing;
  const month = report.retention.spans.find((span) => span.period === "month");
  const charts = report.charts;  // the spans and marks the report declares (ProgressCharts)
  const dayLabels = charts.dueDayMarks.map((day) => [day, day === 0 ? t("Today") : `+${day}`]);
  const hourLabels = charts.hourMarks.map((hour) => [hour, `${hour}`]);
  const added = report.added.slice(-charts.recentDays);
  const memory = report.memory;
  const retention = chart("retention", t("True retention"),
    t("This month %@ of reviews passed; the scheduler aims at %@.", percent(month.all.rate), percent(report.retention.desired)));
  retention.insertBefore(retentionTable(report.retention), retention.lastChild);
  const buttons = chart("buttons", t("Answers"),
    report.buttons.map((button) => `${t(button.kind.charAt(0).toUpperCase() + button.kind.slice(1))}: ${button.again} / ${button.hard} / ${button.good} / ${button.easy}`).join(" · "));
  $("progress-charts").replaceChildren(
    chart("due", t("Due ahead"),
          t("%d overdue, %d due today, %d this week; the busiest of the next 30 days has %d.", due.backlog, due.days[0], due.thisWeek, Math.max(...due.days)),
          bars(due.days, dayLabels)),
    chart("calendar", t("Days studied"),
          t("%d reviews on %d of the last %d days; days in a row: %d (longest %d).", days.total, days.studiedDays, report.days, days.currentStreak, days.longestStreak),
          calendar(days.reviews, charts.calendarWeeks)),
    retention,
    chart("standing", t("Where your words stand"),
          t("%d new, %d learning, %d young, %d mature, %d memorised.", words.new, words.learning, words.young, words.mature, words.memorized),
          standing(words)),
    chart("added", t("Words added"), t("%d words added in the last %d days.", added.reduce((a, b) => a + b, 0), added.length), bars(added, [], "#26a269")),
    chart("hours", t("Reviews by hour"), t("%d reviews; most at %d h.", report.hours.reduce((a, h) => a + h.passed + h.failed, 0),
          report.hours.reduce((best, h, index, all) => (h.passed + h.failed > all[best].passed + all[best].failed ? index : best), 0)),
          bars(report.hours.map((h) => h.passed + h.failed), hourLabels)),
    buttons,
    chart("memory", t("Memory"),
          t("Stability %@ days on average; difficulty %@; chance of recall now %@.", memory.meanStability.toFixed(1), percent(memory.meanDifficulty), percent(memory.meanRetrievability)),
          bars(memory.retrievability, charts.recallMarks.map((tenth) => [tenth, `${tenth * 10}%`]), "#813d9c")));
}

const keyOf = () => `vocab.progress:${$("progress-book").value}:${$("progress-days").value}`;

async function loadProgress() {
  const query = new URLSearchParams({ days: $("progress-days").value });
  if ($("progress-book").value) query.set("book", $("progress-book").value);
  $("progress-error").textContent = "";
  try {
    const report = await api("GET", `progress?${query}`);
    localStorage.setItem(keyOf(), JSON.stringify(report));
    $("progress-note").textContent = "";
    draw(report);
  } catch (error) {
    const kept = JSON.parse(localStorage.getItem(keyOf()) || "null");
    if (unreachable(error) && kept) {
      $("progress-note").textContent = t("Kept on this phone, as of %@.", new Date(kept.now).toLocaleString(document.documentElement.lang));
      draw(kept);
    } else {
      $("progress-error").textContent = unreachable(error) ? t("The server cannot be reached: try again when you are online.") : error.message;
    }
  }
}

/** The spans to choose from, as the server declares them (kept for a load with no network). */
async function showSpans() {
  const { progressSpans, progressDays } = await meta();
  const chosen = Number($("progress-days").value) || progressDays;
  if (!Array.isArray(progressSpans)) return;
  $("progress-days").replaceChildren(...progressSpans.map((days) => {
    const option = element("option", t("%d days", days));
    option.value = String(days);
    option.selected = days === chosen;
    return option;
  }));
}

function fillChoices() {
  const chosen = $("progress-book").value;
  const books = JSON.parse(localStorage.getItem("vocab.books") || "[]");
  const all = element("option", t("All books"));
  all.value = "";
  $("progress-book").replaceChildren(all, ...books.map((book) => { const option = element("option", book.name); option.value = book.id; return option; }));
  $("progress-book").value = books.some((book) => book.id === chosen) ? chosen : "";
  for (const option of $("progress-days").options) option.textContent = t("%d days", Number(option.value));
}

export function setUpProgress() {
  $("progress-book").addEventListener("change", loadProgress);
  $("progress-days").addEventListener("change", loadProgress);
}

whenShown("progress", async () => { await showSpans().catch(() => {}); fillChoices(); loadProgress(); });
