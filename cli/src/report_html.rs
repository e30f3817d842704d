//! `--html FILE`: a lab report as one self-contained HTML page: the same
//! tables as the terminal, and charts drawn as inline SVG (win rates and
//! paired differences as bars with their 95 % interval as whiskers, the
//! distributions as histograms). No script, no font, no image, nothing
//! fetched: the page opens offline and anywhere. The layout fits a
//! phone's width: charts scale to the page, and a wide table scrolls
//! inside its own box, never the page.
//!
//! Every text that comes from the rules (titles, arm and metric names,
//! metric docs, option values) is escaped.

use crate::commands::report::{self, METHODS};
use anyhow::{Context, Result};
use deckhand_lab::tune::{Objective, Search, TuneReport};
use deckhand_lab::Timed;
use deckhand_lab::{Histogram, Key, Row};
use std::fmt::Write as _;
use std::path::Path;

/// Escape text for HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// Write the page to `path`.
pub fn write(path: &Path, page: &str) -> Result<()> {
    std::fs::write(path, page).with_context(|| format!("writing {}", path.display()))
}

const STYLE: &str = "
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #fff; --muted: #5b6570;
  --bar: #2b7bb9; --sig: #c2452d; --grid: #d5dae0; --rule: #e6e9ed; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ed; --bg: #15181c;
  --muted: #9aa4ae; --bar: #5aa7e0; --sig: #f07a5f; --grid: #3a4048; --rule: #2a2f35; } }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
main { max-width: 56rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.4rem; margin: .2rem 0 .6rem; }
h2 { font-size: 1.15rem; margin: 1.6rem 0 .4rem; border-top: 1px solid var(--rule); padding-top: 1rem; }
h3 { font-size: 1rem; margin: 1.2rem 0 .3rem; }
h1, h2, h3, p, dd, dt, figcaption { overflow-wrap: anywhere; }
p { margin: .4rem 0; }
.muted { color: var(--muted); font-size: .9rem; }
figure { margin: .6rem 0 1rem; }
figcaption { font-size: .9rem; color: var(--muted); margin-bottom: .2rem; }
svg.chart { display: block; width: 100%; height: auto; max-width: 40rem; }
svg text { fill: var(--fg); font-size: 13px; font-family: inherit; }
svg .axis, svg .zero { stroke: var(--muted); stroke-width: 1; }
svg .grid { stroke: var(--grid); stroke-width: 1; }
svg .bar { fill: var(--bar); }
svg .bar.sig { fill: var(--sig); }
svg .whisker { stroke: var(--fg); stroke-width: 1.5; }
svg .point { fill: var(--fg); }
svg .target { stroke: var(--sig); stroke-width: 1.5; stroke-dasharray: 4 3; }
svg .tick { fill: var(--muted); font-size: 11px; }
.table { overflow-x: auto; max-width: 100%; margin: .4rem 0 1rem; }
table { border-collapse: collapse; font-size: .9rem; font-variant-numeric: tabular-nums; }
th, td { padding: .25rem .5rem; text-align: right; border-bottom: 1px solid var(--rule); white-space: nowrap; }
th:first-child, td:first-child { text-align: left; white-space: normal; min-width: 8rem; }
thead th { color: var(--muted); font-weight: 600; }
tr.sig td.mean { color: var(--sig); font-weight: 600; }
@media (max-width: 32rem) { main { padding: .6rem; } table { font-size: .8rem; }
  th, td { padding: .2rem .3rem; } th:first-child, td:first-child { min-width: 6rem; } }
dl { margin: .3rem 0; } dt { font-weight: 600; } dd { margin: 0 0 .4rem 1rem; }
";

/// The page around `body`.
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n{body}</main>\n\
         </body>\n</html>\n",
        escape(title)
    )
}

/// A report written as lines (`ladder`, `skill`) as one page: the heading,
/// the header's lines as paragraphs, each part (a chart, a table) under its
/// heading (none when empty), and the notes' lines muted under theirs.
pub fn lines_page(
    heading: &str,
    header: &[String],
    parts: &[(&str, String)],
    notes_heading: &str,
    notes: &[String],
) -> String {
    let mut body = format!("<h1>{}</h1>\n", escape(heading));
    for line in header {
        let _ = writeln!(body, "<p>{}</p>", escape(line));
    }
    for (title, html) in parts {
        if !title.is_empty() {
            let _ = writeln!(body, "<h2>{}</h2>", escape(title));
        }
        body.push_str(html);
    }
    let _ = writeln!(body, "<h2>{}</h2>", escape(notes_heading));
    for line in notes {
        let _ = writeln!(body, "<p class=\"muted\">{}</p>", escape(line));
    }
    page(heading, &body)
}

/// The width of every chart's drawing, in its own units (the chart scales
/// to the page).
const W: f64 = 480.0;
/// Room left and right of a chart's axis, for the tick labels at its ends.
const MARGIN: f64 = 30.0;
/// One row of a bar chart: its label on a line of its own, then the bar.
const ROW_H: f64 = 38.0;
/// The most characters of a row's label: what fits the chart's width at
/// the widest glyphs' average (the whole label stays in the tooltip).
const LABEL_CHARS: usize = 56;

/// Cut a label to `n` characters (the whole label stays in the tooltip).
fn short(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n - 1).collect::<String>())
    }
}

/// A number for SVG coordinates.
fn f(x: f64) -> String {
    format!("{x:.2}")
}

/// A scale for the values `lo..hi` with round ticks: a step of 1, 2 or 5
/// times a power of ten, at most `most` steps, the ends widened to whole
/// steps. Returns the ends and the step.
pub fn nice_scale(lo: f64, hi: f64, most: usize) -> (f64, f64, f64) {
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else {
        (lo - 1.0, lo + 1.0)
    };
    let raw = (hi - lo) / most.max(1) as f64;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * power);
    let lo = (lo / step + 1e-9).floor() * step;
    let hi = (hi / step - 1e-9).ceil() * step;
    (lo, hi, step)
}

/// The ticks of a scale from [`nice_scale`]: every step from `lo` to `hi`.
pub fn ticks(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    let n = ((hi - lo) / step).round() as usize;
    (0..=n)
        .map(|k| {
            let v = lo + k as f64 * step;
            // No "-0", no 0.30000000000000004.
            let v = (v / step).round() * step;
            if v == 0.0 {
                0.0
            } else {
                v
            }
        })
        .collect()
}

/// One row of a chart of points with their intervals as whiskers.
pub struct Whisker {
    pub label: String,
    pub value: f64,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// The point's tooltip.
    pub title: String,
}

/// A chart of points with whiskers, one row each, on a round scale that
/// holds 0 (the lab's ticks), `label` px left for the rows' labels in a
/// chart `width` px wide.
pub fn whisker_chart(caption: &str, rows: &[Whisker], label: f64, width: f64) -> String {
    use std::fmt::Write as _;
    let ends = rows
        .iter()
        .flat_map(|r| [r.value, r.low.unwrap_or(r.value), r.high.unwrap_or(r.value)]);
    let (lo, hi) = ends.fold((0.0f64, 0.0f64), |(l, h), x| (l.min(x), h.max(x)));
    let (lo, hi, step) = nice_scale(lo, hi, 5);
    let row = 24.0;
    let (x0, x1) = (label, width - 20.0);
    let x = |v: f64| x0 + (v - lo) / (hi - lo) * (x1 - x0);
    let h = 8.0 + rows.len() as f64 * row + 26.0;
    let mut s = format!(
        "<figure><figcaption>{}</figcaption>\n<svg class=\"chart\" data-step=\"{step}\" \
         viewBox=\"0 0 {width} {h:.0}\" role=\"img\">\n",
        escape(caption)
    );
    let _ = writeln!(
        s,
        "<line class=\"zero\" x1=\"{0:.2}\" x2=\"{0:.2}\" y1=\"4\" y2=\"{1:.2}\"/>",
        x(0.0),
        h - 22.0
    );
    for (i, r) in rows.iter().enumerate() {
        let y = 8.0 + i as f64 * row + row / 2.0;
        let _ = writeln!(
            s,
            "<text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"end\">{}</text>",
            label - 8.0,
            y + 4.0,
            escape(&r.label)
        );
        if let (Some(l), Some(u)) = (r.low, r.high) {
            let _ = writeln!(
                s,
                "<line class=\"whisker\" x1=\"{:.2}\" x2=\"{:.2}\" y1=\"{y:.2}\" y2=\"{y:.2}\"/>",
                x(l),
                x(u)
            );
        }
        let _ = writeln!(
            s,
            "<circle class=\"point\" cx=\"{:.2}\" cy=\"{y:.2}\" r=\"4\"><title>{}</title>\
             </circle>",
            x(r.value),
            escape(&r.title)
        );
    }
    let axis = h - 22.0;
    let _ = writeln!(
        s,
        "<line class=\"axis\" x1=\"{x0}\" x2=\"{x1}\" y1=\"{axis:.2}\" y2=\"{axis:.2}\"/>"
    );
    for v in ticks(lo, hi, step) {
        let text = if v == 0.0 {
            "0".to_string()
        } else if v.fract() == 0.0 {
            format!("{v:+.0}")
        } else {
            format!("{v:+}")
        };
        let _ = writeln!(
            s,
            "<text class=\"tick\" data-value=\"{v}\" x=\"{:.2}\" y=\"{:.2}\" \
             text-anchor=\"middle\">{text}</text>",
            x(v),
            axis + 16.0,
        );
    }
    s.push_str("</svg></figure>\n");
    s
}

/// A tick's label: `v` (in the unit shown) with the decimals its step
/// needs; signed for differences (0 without a sign), `%` for shares.
fn tick_label(v: f64, step: f64, unit: Unit) -> String {
    let d = (-step.log10().floor()).max(0.0) as usize;
    match unit {
        Unit::Percent => format!("{v:.d$}%"),
        Unit::Points | Unit::Difference if v != 0.0 => format!("{v:+.d$}"),
        _ => format!("{v:.d$}"),
    }
}

/// What the values of a chart are and how its axis reads.
#[derive(Clone, Copy, PartialEq)]
enum Unit {
    /// Shares of an arm, in percent, bars from 0.
    Percent,
    /// Differences of shares, in percentage points, bars from 0.
    Points,
    /// Differences of other statistics, bars from 0.
    Difference,
    /// Means of other statistics: a point and its interval, no bar.
    Number,
}

impl Unit {
    /// What a value is multiplied by to be shown.
    fn factor(self) -> f64 {
        match self {
            Unit::Percent | Unit::Points => 100.0,
            Unit::Difference | Unit::Number => 1.0,
        }
    }
}

/// Horizontal bars with whiskers: one row per statistic, its label above
/// it, the bar from 0 to the row's mean (a point for a mean that is not a
/// share), the whisker its interval, on a scale with round ticks that
/// holds every interval. Differences have a line at 0 and their
/// significant bars marked.
fn interval_chart(name: &str, cls: &str, rows: &[&Row], unit: Unit) -> String {
    let k = unit.factor();
    let diff = matches!(unit, Unit::Points | Unit::Difference);
    let (lo, hi, step) = match unit {
        Unit::Percent => nice_scale(0.0, 100.0, 5),
        _ => {
            let mut lo = f64::INFINITY;
            let mut hi = f64::NEG_INFINITY;
            for r in rows {
                for v in [Some(r.mean), r.low, r.high].into_iter().flatten() {
                    lo = lo.min(v * k);
                    hi = hi.max(v * k);
                }
            }
            if !lo.is_finite() || !hi.is_finite() {
                (lo, hi) = (-1.0, 1.0);
            }
            if diff {
                // Symmetric about 0, so that the line at 0 is in the middle.
                let reach = lo.abs().max(hi.abs()).max(1e-9);
                nice_scale(-reach, reach, 6)
            } else {
                nice_scale(lo, hi, 5)
            }
        }
    };
    let top = 6.0;
    let base = top + rows.len() as f64 * ROW_H;
    let h = base + 24.0;
    let (x0, x1) = (MARGIN, W - MARGIN);
    let x = |v: f64| x0 + ((v * k).clamp(lo, hi) - lo) / (hi - lo).max(1e-12) * (x1 - x0);
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"chart {cls}\" data-chart=\"{}\" data-min=\"{}\" data-max=\"{}\" \
         data-step=\"{}\" viewBox=\"0 0 {W} {}\" role=\"img\" aria-label=\"{}\">",
        escape(name),
        lo / k,
        hi / k,
        step,
        f(h),
        escape(name)
    );
    for v in ticks(lo, hi, step) {
        let xv = x(v / k);
        let _ = write!(
            s,
            "<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>\
             <text class=\"tick\" data-value=\"{3}\" x=\"{0}\" y=\"{4}\" \
             text-anchor=\"middle\">{5}</text>",
            f(xv),
            f(top),
            f(base),
            v,
            f(base + 16.0),
            tick_label(v, step, unit)
        );
    }
    let _ = write!(
        s,
        "<line class=\"axis\" x1=\"{}\" y1=\"{2}\" x2=\"{}\" y2=\"{2}\"/>",
        f(x0),
        f(x1),
        f(base)
    );
    for (i, r) in rows.iter().enumerate() {
        let y = top + i as f64 * ROW_H;
        let ym = y + 26.0;
        let _ = write!(
            s,
            "<g class=\"row\" data-key=\"{}\"><title>{}: {} ({})</title>\
             <text class=\"label\" x=\"{}\" y=\"{}\">{}</text>",
            escape(&r.key.to_string()),
            escape(&r.label),
            escape(&report::value(r, r.mean, diff)),
            escape(&report::interval(r, diff)),
            f(x0),
            f(y + 13.0),
            escape(&short(&r.label, LABEL_CHARS)),
        );
        if unit == Unit::Number {
            let _ = write!(
                s,
                "<circle class=\"point\" data-key=\"{}\" data-value=\"{}\" cx=\"{}\" cy=\"{}\" \
                 r=\"4\"/>",
                escape(&r.key.to_string()),
                r.mean,
                f(x(r.mean)),
                f(ym)
            );
        } else {
            let (a, b) = (x(0f64.min(r.mean)), x(0f64.max(r.mean)));
            let sig = if report::marked(r) { " sig" } else { "" };
            let _ = write!(
                s,
                "<rect class=\"bar{sig}\" data-key=\"{}\" data-value=\"{}\" x=\"{}\" y=\"{}\" \
                 width=\"{}\" height=\"14\"/>",
                escape(&r.key.to_string()),
                r.mean,
                f(a),
                f(ym - 7.0),
                f((b - a).max(0.0)),
            );
        }
        if let (Some(l), Some(hh)) = (r.low, r.high) {
            let (l, hh) = (x(l), x(hh));
            let _ = write!(
                s,
                "<line class=\"whisker\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\
                 <line class=\"whisker\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\
                 <line class=\"whisker\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                f(l),
                f(ym),
                f(hh),
                f(ym),
                f(l),
                f(ym - 5.0),
                f(l),
                f(ym + 5.0),
                f(hh),
                f(ym - 5.0),
                f(hh),
                f(ym + 5.0)
            );
        }
        s.push_str("</g>");
    }
    if diff {
        let z = x(0.0);
        let _ = write!(
            s,
            "<line class=\"zero\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>",
            f(z),
            f(top),
            f(base)
        );
    }
    s.push_str("</svg>");
    s
}

/// A histogram: one bar per value (or range of values), heights by share.
fn histogram_chart(name: &str, key: &Key, h: &Histogram) -> String {
    let bins = h.bins(30);
    let total = h.total().max(1) as f64;
    let most = bins.iter().map(|b| b.2).max().unwrap_or(1).max(1) as f64;
    let (x0, x1, top, base) = (56.0, W - 8.0, 10.0, 140.0);
    let bw = (x1 - x0) / bins.len().max(1) as f64;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"chart histogram\" data-chart=\"{}\" data-key=\"{}\" data-total=\"{}\" \
         viewBox=\"0 0 {W} 165\" role=\"img\" aria-label=\"{}\">",
        escape(name),
        escape(&key.to_string()),
        h.total(),
        escape(name)
    );
    // The tallest bar's share, and half of it.
    for frac in [0.5, 1.0] {
        let y = base - (base - top) * frac;
        let _ = write!(
            s,
            "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\
             <text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{:.1}%</text>",
            f(x0),
            f(y),
            f(x1),
            f(y),
            f(x0 - 4.0),
            f(y + 4.0),
            most * frac * 100.0 / total
        );
    }
    let every = bins.len().div_ceil(8).max(1);
    for (i, &(lo, hi, n)) in bins.iter().enumerate() {
        let bh = (base - top) * n as f64 / most;
        let x = x0 + i as f64 * bw;
        let range = if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}–{hi}")
        };
        let _ = write!(
            s,
            "<rect class=\"bar\" data-count=\"{n}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\">\
             <title>{range}: {n} ({:.1}%)</title></rect>",
            f(x + bw * 0.08),
            f(base - bh),
            f(bw * 0.84),
            f(bh),
            n as f64 * 100.0 / total
        );
        if i % every == 0 || i + 1 == bins.len() {
            let _ = write!(
                s,
                "<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{lo}</text>",
                f(x + bw / 2.0),
                f(base + 16.0)
            );
        }
    }
    let _ = write!(
        s,
        "<line class=\"axis\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/></svg>",
        f(x0),
        f(base),
        f(x1),
        f(base)
    );
    if h.other > 0 {
        let _ = write!(
            s,
            "<p class=\"muted\">{} more values not drawn.</p>",
            h.other
        );
    }
    s
}

/// A table of statistics, as the terminal prints it.
fn table(name: &str, rows: &[Row], diff: bool) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<div class=\"table\"><table data-table=\"{}\"><thead><tr><th>statistic</th>\
         <th>{}</th><th>95% interval</th><th>games</th><th>method</th></tr></thead><tbody>",
        escape(name),
        if diff { "difference" } else { "mean" }
    );
    for r in rows {
        let sig = report::marked(r);
        let _ = write!(
            s,
            "<tr data-key=\"{}\"{}><td>{}</td><td class=\"mean\">{}{}</td>\
             <td class=\"interval\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            escape(&r.key.to_string()),
            if sig { " class=\"sig\"" } else { "" },
            escape(&r.label),
            escape(&report::value(r, r.mean, diff)),
            if sig { " *" } else { "" },
            escape(&report::interval(r, diff)),
            r.n,
            report::method(r)
        );
    }
    s.push_str("</tbody></table></div>");
    s
}

/// A metric of the rules that is not a share (a number per game): drawn
/// in a chart of its own.
fn number_metric(r: &Row) -> bool {
    matches!(r.key, Key::Metric(_)) && !r.is_share()
}

/// Rows drawn as win-rate bars: shares (of games, and the metrics that are
/// shares) except the edge.
fn share_rows(rows: &[Row]) -> Vec<&Row> {
    rows.iter()
        .filter(|r| r.is_share() && r.key != Key::Edge)
        .collect()
}

/// The page of a `sim`, `compare` or merged report.
pub fn lab_page(t: &Timed) -> String {
    let r = &t.report;
    let mut b = String::new();
    let last = r.first_seed.wrapping_add(r.games.saturating_sub(1));
    let stopped = r.stopped_text();
    let _ = write!(b, "<h1>{}</h1>", escape(&t.title));
    let _ = write!(
        b,
        "<p class=\"answer\"><strong>{}</strong></p>",
        escape(&report::answer(r))
    );
    let summary = if r.arms.len() == 1 {
        format!(
            "{} players, {} games (seeds {}..{last}){stopped}.",
            r.arms[0].players, r.games, r.first_seed
        )
    } else {
        format!(
            "{} arms, {} games each on the same seeds ({}..{last}){stopped}.",
            r.arms.len(),
            r.games,
            r.first_seed
        )
    };
    let _ = write!(
        b,
        "<p class=\"summary\" data-games=\"{}\">{}</p>",
        r.games,
        escape(&summary)
    );
    if let Some(note) = r.stopping_note() {
        let _ = write!(b, "<p class=\"stopping\">{}</p>", escape(&note));
    }
    for arm in &r.arms {
        let variants = if arm.variants.is_empty() {
            "no variant".to_string()
        } else {
            arm.variants.join(" + ")
        };
        let _ = write!(
            b,
            "<section class=\"arm\" data-arm=\"{}\"><h2>{}</h2><p class=\"muted\">{}, {} players; \
             seats: {}{}</p>",
            escape(&arm.name),
            escape(&if r.arms.len() == 1 {
                "Statistics".to_string()
            } else {
                format!("Arm {}", arm.name)
            }),
            escape(&variants),
            arm.players,
            escape(&crate::commands::report::seats_text(&arm.seats)),
            if r.rotate {
                " (rotating: every bot sits in every seat in turn)"
            } else {
                ""
            }
        );
        let shares = share_rows(&arm.rows);
        if !shares.is_empty() {
            let name = format!("shares of games, arm {}", arm.name);
            let _ = write!(
                b,
                "<figure><figcaption>Shares with 95% intervals</figcaption>{}</figure>",
                interval_chart(&name, "intervals", &shares, Unit::Percent)
            );
        }
        b.push_str(&table(&format!("arm {}", arm.name), &arm.rows, false));
        for (key, h) in &arm.histograms {
            let name = format!("{}, arm {}", key.label(), arm.name);
            let _ = write!(
                b,
                "<figure><figcaption>{}: distribution</figcaption>{}</figure>",
                escape(&key.label()),
                histogram_chart(&name, key, h)
            );
        }
        b.push_str("</section>");
    }
    // Every metric of the rules that is not a share: each arm's mean.
    let numbers: Vec<&Row> = r
        .arms
        .first()
        .map(|a| a.rows.iter().filter(|r| number_metric(r)).collect())
        .unwrap_or_default();
    if !numbers.is_empty() {
        b.push_str("<section class=\"metrics\"><h2>Metrics of the rules</h2>");
        for first in numbers {
            let rows: Vec<Row> = r
                .arms
                .iter()
                .filter_map(|a| {
                    a.rows.iter().find(|x| x.key == first.key).map(|x| {
                        let mut x = x.clone();
                        if r.arms.len() > 1 {
                            x.label = format!("arm {}", a.name);
                        }
                        x
                    })
                })
                .collect();
            let refs: Vec<&Row> = rows.iter().collect();
            let _ = write!(
                b,
                "<figure><figcaption>{}: {} with its 95% interval</figcaption>{}</figure>",
                escape(&first.label),
                if r.arms.len() > 1 {
                    "each arm's mean"
                } else {
                    "the mean"
                },
                interval_chart(&first.label, "metric", &refs, Unit::Number)
            );
        }
        b.push_str("</section>");
    }
    for d in &r.differences {
        let _ = write!(
            b,
            "<section class=\"difference\" data-arm=\"{}\"><h2>{} − {} (paired by seed)</h2>",
            escape(&d.arm),
            escape(&d.arm),
            escape(&d.base)
        );
        let shares: Vec<&Row> = d.rows.iter().filter(|r| r.is_share()).collect();
        if !shares.is_empty() {
            let name = format!("differences, {} − {}", d.arm, d.base);
            let _ = write!(
                b,
                "<figure><figcaption>Differences in shares (percentage points) with 95% \
                 intervals; red: the interval excludes 0</figcaption>{}</figure>",
                interval_chart(&name, "intervals", &shares, Unit::Points)
            );
        }
        for row in d.rows.iter().filter(|r| number_metric(r)) {
            let name = format!("{}, {} − {}", row.label, d.arm, d.base);
            let _ = write!(
                b,
                "<figure><figcaption>{}: the difference with its 95% interval; red: the \
                 interval excludes 0</figcaption>{}</figure>",
                escape(&row.label),
                interval_chart(&name, "metric", &[row], Unit::Difference)
            );
        }
        b.push_str(&table(&format!("{} − {}", d.arm, d.base), &d.rows, true));
        if let Some(note) = report::many_rows_note(&d.rows) {
            let _ = write!(b, "<p class=\"muted many-rows\">{}</p>", escape(&note));
        }
        b.push_str("</section>");
    }
    if !r.metrics.is_empty() {
        b.push_str("<h2>Metrics</h2><dl>");
        for (name, doc) in &r.metrics {
            let _ = write!(b, "<dt>{}</dt><dd>{}</dd>", escape(name), escape(doc));
        }
        b.push_str("</dl>");
    }
    let _ = write!(
        b,
        "<p class=\"muted methods\">{}</p>",
        escape(&report::methods(r))
    );
    page(&t.title, &b)
}

/// The page of a `tune`.
pub fn tune_page(r: &TuneReport) -> String {
    let mut b = String::new();
    let _ = write!(b, "<h1>{}: tune</h1>", escape(&r.title));
    let goal = match r.objective {
        Objective::Target(t) => format!("{} closest to {t}", r.label),
        Objective::Maximize => format!("the largest {}", r.label),
        Objective::Minimize => format!("the smallest {}", r.label),
    };
    let _ = write!(
        b,
        "<p class=\"summary\">{} candidates for {} ({}, {} round{}, seeds from {}).</p>",
        r.candidates.len(),
        escape(&goal),
        match r.search {
            Search::Halving => "successive halving",
            Search::Grid => "grid",
        },
        r.rounds.len(),
        if r.rounds.len() == 1 { "" } else { "s" },
        r.first_seed
    );
    if let Some(best) = r.candidates.first() {
        let _ = write!(b, "<p><strong>Best: {}</strong>", escape(&best.name));
        if let Some(e) = &best.estimate {
            let _ = write!(
                b,
                ": {} {} (95% interval {}, {} games)",
                escape(&r.label),
                escape(&report::value(e, e.mean, false)),
                escape(&report::interval(e, false)),
                e.n
            );
        }
        b.push_str("</p>");
    }
    let rows: Vec<Row> = r
        .candidates
        .iter()
        .filter_map(|c| {
            c.estimate.clone().map(|mut e| {
                e.label = c.name.clone();
                e
            })
        })
        .collect();
    if !rows.is_empty() {
        let mut lo = rows
            .iter()
            .map(|e| e.low.unwrap_or(e.mean))
            .fold(f64::INFINITY, f64::min);
        let mut hi = rows
            .iter()
            .map(|e| e.high.unwrap_or(e.mean))
            .fold(f64::NEG_INFINITY, f64::max);
        if let Objective::Target(t) = r.objective {
            lo = lo.min(t);
            hi = hi.max(t);
        }
        b.push_str("<figure><figcaption>Each candidate's mean with its 95% interval");
        if matches!(r.objective, Objective::Target(_)) {
            b.push_str("; dashed: the target");
        }
        b.push_str("</figcaption>");
        b.push_str(&points_chart(&rows, lo, hi, r.objective));
        b.push_str("</figure>");
    }
    b.push_str(
        "<div class=\"table\"><table data-table=\"candidates\"><thead><tr><th>candidate</th>\
         <th>games</th><th>mean</th><th>95% interval</th><th>round</th></tr></thead><tbody>",
    );
    for c in &r.candidates {
        let (v, i) = match &c.estimate {
            Some(e) => (report::value(e, e.mean, false), report::interval(e, false)),
            None => ("-".into(), String::new()),
        };
        let _ = write!(
            b,
            "<tr data-key=\"{}\"><td>{}</td><td class=\"n\">{}</td><td class=\"mean\">{}</td>\
             <td class=\"interval\">{}</td><td>{}</td></tr>",
            escape(&c.name),
            escape(&c.name),
            c.games,
            escape(&v),
            escape(&i),
            c.last_round
        );
    }
    b.push_str("</tbody></table></div>");
    if let Some(arm) = r.candidates.first().and_then(|c| c.arm.as_ref()) {
        let _ = write!(
            b,
            "<h2>Every statistic of the best, {}</h2>",
            escape(&arm.name)
        );
        b.push_str(&table("best", &arm.rows, false));
    }
    let _ = write!(
        b,
        "<p class=\"muted methods\">Every candidate plays the same seeds; round: the last \
         round a candidate played. {}</p>",
        escape(METHODS)
    );
    page(&format!("{}: tune", r.title), &b)
}

/// Points with whiskers on a scale with round ticks that holds `lo..hi`
/// (a tune's candidates, each labelled above its point), with the target
/// as a dashed line.
fn points_chart(rows: &[Row], lo: f64, hi: f64, objective: Objective) -> String {
    let (lo, hi, step) = nice_scale(lo, hi, 5);
    let top = 6.0;
    let base = top + rows.len() as f64 * ROW_H;
    let (x0, x1) = (MARGIN, W - MARGIN);
    let x = |v: f64| x0 + (v.clamp(lo, hi) - lo) / (hi - lo).max(1e-12) * (x1 - x0);
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"chart points\" data-chart=\"candidates\" data-min=\"{lo}\" \
         data-max=\"{hi}\" data-step=\"{step}\" viewBox=\"0 0 {W} {}\" role=\"img\" \
         aria-label=\"candidates\">",
        f(base + 24.0)
    );
    for v in ticks(lo, hi, step) {
        let _ = write!(
            s,
            "<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>\
             <text class=\"tick\" data-value=\"{3}\" x=\"{0}\" y=\"{4}\" \
             text-anchor=\"middle\">{5}</text>",
            f(x(v)),
            f(top),
            f(base),
            v,
            f(base + 16.0),
            tick_label(v, step, Unit::Number)
        );
    }
    if let Objective::Target(t) = objective {
        let _ = write!(
            s,
            "<line class=\"target\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>",
            f(x(t)),
            f(top),
            f(base)
        );
    }
    for (i, r) in rows.iter().enumerate() {
        let y = top + i as f64 * ROW_H;
        let ym = y + 26.0;
        let _ = write!(
            s,
            "<g class=\"row\"><text class=\"label\" x=\"{}\" y=\"{}\">{}</text>",
            f(x0),
            f(y + 13.0),
            escape(&short(&r.label, LABEL_CHARS))
        );
        if let (Some(l), Some(h)) = (r.low, r.high) {
            let _ = write!(
                s,
                "<line class=\"whisker\" x1=\"{}\" y1=\"{2}\" x2=\"{}\" y2=\"{2}\"/>",
                f(x(l)),
                f(x(h)),
                f(ym)
            );
        }
        let _ = write!(
            s,
            "<circle class=\"point\" data-value=\"{}\" cx=\"{}\" cy=\"{}\" r=\"4\"/></g>",
            r.mean,
            f(x(r.mean)),
            f(ym)
        );
    }
    let _ = write!(
        s,
        "<line class=\"axis\" x1=\"{}\" y1=\"{2}\" x2=\"{}\" y2=\"{2}\"/></svg>",
        f(x0),
        f(x1),
        f(base)
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_from_scripts_is_escaped() {
        assert_eq!(
            escape("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
        assert_eq!(escape("a\u{0}b"), "a\u{fffd}b");
    }
}
