//! Printing a lab report ([`deckhand_lab::Report`]) as text tables,
//! JSON or CSV. The numbers are the core's; this module only lays them out.

use deckhand_lab::Timed;
use deckhand_lab::{Histogram, Key, Report, Row};

/// The note under every text report: how the intervals were computed.
pub const METHODS: &str = "95% intervals: Wilson score for shares (every game 0 or 1), \
Student t for other means; differences are paired by seed (game i of every arm is dealt \
from the same seed) with a Student t interval on the per-seed differences; * marks an \
interval that excludes 0.";

/// A value as people read it: shares in percent, other means with two
/// decimals (one from 100 up); `diff`: signed, shares in points.
pub fn value(row: &Row, x: f64, diff: bool) -> String {
    let diff = diff || matches!(row.key, Key::Edge | Key::PlayerLead(_));
    // A value that rounds to zero shows no minus sign ("-0.00" from an
    // interval of all-zero values, where rounding left the low end at
    // -1e-18).
    let shown = if row.is_share() { 1e-3 } else { 1e-2 };
    let x = if x.abs() < shown / 2.0 { 0.0 } else { x };
    if row.is_share() {
        if diff {
            format!("{:+.1} pts", x * 100.0)
        } else {
            format!("{:.1}%", x * 100.0)
        }
    } else {
        let digits = if x.abs() >= 100.0 { 1 } else { 2 };
        if diff {
            format!("{x:+.digits$}")
        } else {
            format!("{x:.digits$}")
        }
    }
}

pub fn interval(row: &Row, diff: bool) -> String {
    match (row.low, row.high) {
        (Some(l), Some(h)) => format!("{} .. {}", value(row, l, diff), value(row, h, diff)),
        _ => "(too few games)".into(),
    }
}

pub fn method(row: &Row) -> &'static str {
    match row.method {
        deckhand_lab::Method::Wilson => "Wilson",
        deckhand_lab::Method::StudentT => "t",
    }
}

/// One table: a statistic per line with its mean, interval, games and
/// method (and the mark of a difference whose interval excludes 0).
fn table(rows: &[Row], diff: bool) {
    let width = rows
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(0)
        .max(9);
    let cells: Vec<(String, String)> = rows
        .iter()
        .map(|r| (value(r, r.mean, diff), interval(r, diff)))
        .collect();
    let vw = cells.iter().map(|c| c.0.len()).max().unwrap_or(0).max(4);
    let iw = cells.iter().map(|c| c.1.len()).max().unwrap_or(0).max(12);
    let head = if diff { "difference" } else { "mean" };
    let vw = vw.max(head.len());
    outln!(
        "{:<width$}  {:>vw$}  {:<iw$}  {:>7}  method",
        "statistic",
        head,
        "95% interval",
        "games"
    );
    for (r, (v, i)) in rows.iter().zip(cells) {
        let mark = if r.significant == Some(true) {
            "  *"
        } else {
            ""
        };
        outln!(
            "{:<width$}  {:>vw$}  {:<iw$}  {:>7}  {}{mark}",
            r.label,
            v,
            i,
            r.n,
            method(r)
        );
    }
}

fn seats_text(seats: &[String]) -> String {
    seats.join(", ")
}

/// The report as text tables (with `histograms`, the distributions after
/// them).
pub fn print_text(t: &Timed, histograms: bool) {
    let r = &t.report;
    let last = r.first_seed.wrapping_add(r.games.saturating_sub(1));
    let stopped = r.stopped_text();
    let single = r.arms.len() == 1;
    if single {
        let arm = &r.arms[0];
        outln!(
            "{}: {} players, {} games (seeds {}..{last}){stopped}",
            t.title,
            arm.players,
            r.games,
            r.first_seed
        );
    } else {
        outln!(
            "{}: {} arms, {} games each on the same seeds ({}..{last}){stopped}",
            t.title,
            r.arms.len(),
            r.games,
            r.first_seed
        );
    }
    if let Some(note) = r.stopping_note() {
        outln!("{note}");
    }
    for arm in &r.arms {
        if !single {
            outln!();
            let variants = if arm.variants.is_empty() {
                "no variant".to_string()
            } else {
                arm.variants.join(" + ")
            };
            outln!("arm {}: {variants}, {} players", arm.name, arm.players);
        }
        let rotating = if r.rotate {
            " (rotating: every bot sits in every seat in turn)"
        } else {
            ""
        };
        outln!("seats: {}{rotating}", seats_text(&arm.seats));
        table(&arm.rows, false);
    }
    for d in &r.differences {
        outln!();
        outln!("{} − {} (paired by seed)", d.arm, d.base);
        table(&d.rows, true);
    }
    if !r.metrics.is_empty() {
        outln!();
        outln!("metrics:");
        for (name, doc) in &r.metrics {
            outln!("  {name}: {doc}");
        }
    }
    if histograms {
        print_histograms(r);
    }
    outln!();
    outln!("{METHODS}");
    outln!(
        "elapsed {:.2} s, {:.0} games/s on {} thread{}",
        t.elapsed_s,
        t.games_per_s,
        t.threads,
        if t.threads == 1 { "" } else { "s" }
    );
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn number(x: Option<f64>) -> String {
    x.map(|x| x.to_string()).unwrap_or_default()
}

/// The report as CSV: one line per statistic of every table (each arm,
/// each difference), with the table and arm in the first columns.
pub fn csv_lines(r: &Report) -> Vec<String> {
    let mut out = vec![
        "table,arm,base,statistic,label,games,mean,sd,low,high,method,significant".to_string(),
    ];
    let mut add = |table: &str, arm: &str, base: &str, row: &Row| {
        out.push(
            [
                table.to_string(),
                csv_field(arm),
                csv_field(base),
                csv_field(&row.key.to_string()),
                csv_field(&row.label),
                row.n.to_string(),
                row.mean.to_string(),
                row.sd.to_string(),
                number(row.low),
                number(row.high),
                row.method.name().to_string(),
                row.significant.map(|s| s.to_string()).unwrap_or_default(),
            ]
            .join(","),
        );
    };
    for arm in &r.arms {
        for row in &arm.rows {
            add("arm", &arm.name, "", row);
        }
    }
    for d in &r.differences {
        for row in &d.rows {
            add("difference", &d.arm, &d.base, row);
        }
    }
    out
}

/// The most bars of a histogram.
const MAX_BARS: usize = 20;

/// A histogram as lines of text `width` columns wide at most: one bar per
/// value (or range of values, when there are more than [`MAX_BARS`]),
/// scaled to the longest, with its share and count; `colour`: the bars in
/// colour.
pub fn histogram_lines(h: &Histogram, width: usize, colour: bool) -> Vec<String> {
    let bins = h.bins(MAX_BARS);
    let total = h.total().max(1);
    let labels: Vec<String> = bins
        .iter()
        .map(|&(lo, hi, _)| {
            if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}–{hi}")
            }
        })
        .collect();
    let lw = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1);
    let most = bins.iter().map(|b| b.2).max().unwrap_or(1).max(1);
    let cw = bins
        .iter()
        .map(|b| b.2.to_string().len())
        .max()
        .unwrap_or(1);
    // label, " │", bar, "  100.0%  ", count
    let room = width.saturating_sub(lw + 2 + 10 + cw + 1).clamp(10, 60);
    let mut out = Vec::new();
    for (&(_, _, n), label) in bins.iter().zip(&labels) {
        let len = ((n as f64 / most as f64) * room as f64).round() as usize;
        let bar = "█".repeat(len);
        let bar = if colour && len > 0 {
            format!("\x1b[36m{bar}\x1b[0m")
        } else {
            bar
        };
        let pad = " ".repeat(room - len);
        out.push(format!(
            "{label:>lw$} │{bar}{pad} {:>6.1}%  {n:>cw$}",
            n as f64 * 100.0 / total as f64
        ));
    }
    if h.other > 0 {
        out.push(format!("{} more values not drawn", h.other));
    }
    out
}

fn print_histograms(r: &Report) {
    let width = crate::render::terminal_width();
    let colour = crate::render::colour_enabled();
    for arm in &r.arms {
        for (key, h) in &arm.histograms {
            outln!();
            let of = if r.arms.len() > 1 {
                format!(", arm {}", arm.name)
            } else {
                String::new()
            };
            outln!("{}{of}: distribution", key.label());
            for line in histogram_lines(h, width, colour) {
                outln!("{line}");
            }
        }
    }
}

/// Print the report as `--json`, `--csv` or text (with `histograms`, the
/// distributions under the tables).
pub fn print(t: &Timed, json: bool, csv: bool, histograms: bool) -> anyhow::Result<()> {
    if json {
        outln!("{}", serde_json::to_string_pretty(t)?);
    } else if csv {
        for line in csv_lines(&t.report) {
            outln!("{line}");
        }
    } else {
        print_text(t, histograms);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use deckhand_lab::Method;

    #[test]
    fn a_value_that_rounds_to_zero_has_no_minus_sign() {
        let row = Row {
            key: Key::Rounds,
            label: "rounds".into(),
            n: 10,
            mean: 0.0,
            sd: 0.0,
            low: Some(-1e-18),
            high: Some(1e-18),
            method: Method::StudentT,
            significant: None,
            share: false,
        };
        assert_eq!(interval(&row, false), "0.00 .. 0.00");
        assert_eq!(value(&row, -0.004, false), "0.00");
        assert_eq!(value(&row, -0.006, false), "-0.01");
        assert_eq!(value(&row, -1e-18, true), "+0.00");
    }
}
