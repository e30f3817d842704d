//! Printing a lab report ([`deckhand_lab::Report`]) as text tables,
//! JSON or CSV. The numbers are the core's; this module only lays them out.

use deckhand_lab::Timed;
use deckhand_lab::{Histogram, Key, Report, Row};

/// The note under every report: how the intervals were computed.
pub const METHODS: &str = "95% intervals: Wilson score for shares (every game 0 or 1), \
Student t for other means.";

/// The note under a report with differences: how they were computed and
/// what a star says.
pub const DIFFERENCES: &str = "Differences are paired by seed (game i of every arm is dealt \
from the same seed) with a Student t interval on the per-seed differences; * marks an \
interval that excludes 0, a test at 5 % of that row on its own.";

/// The notes under a report: [`METHODS`], and [`DIFFERENCES`] when it has
/// differences.
pub fn methods(r: &Report) -> String {
    if r.differences.is_empty() {
        METHODS.to_string()
    } else {
        format!("{METHODS} {DIFFERENCES}")
    }
}

/// A statistic in a sentence: `rounds per game +0.40 (95% interval +0.30
/// .. +0.50)`.
fn said(r: &Row, diff: bool) -> String {
    format!(
        "{} {} (95% interval {})",
        r.label,
        value(r, r.mean, diff),
        interval(r, diff)
    )
}

/// The report's answer in one line, for the top of its page. With arms
/// to compare: for each, the differences that stay decided after Holm's
/// correction for its rows (at most three, smallest p-value first), and
/// that nothing else is; for one arm, how long its games last and the
/// first seat's edge.
pub fn answer(r: &Report) -> String {
    if r.differences.is_empty() {
        let Some(arm) = r.arms.first() else {
            return String::new();
        };
        let parts: Vec<String> = [Key::Rounds, Key::Edge]
            .iter()
            .filter_map(|k| arm.rows.iter().find(|x| x.key == *k))
            .map(|x| said(x, x.key == Key::Edge))
            .collect();
        return format!("In {} games: {}.", r.games, parts.join("; "));
    }
    let lines: Vec<String> = r
        .differences
        .iter()
        .map(|d| {
            let mut kept: Vec<&Row> = d
                .rows
                .iter()
                .filter(|x| x.holm == Some(true) && marked(x))
                .collect();
            kept.sort_by(|a, b| a.p.unwrap_or(1.0).total_cmp(&b.p.unwrap_or(1.0)));
            let m = d.rows.iter().filter(|x| x.p.is_some()).count();
            if kept.is_empty() {
                return format!(
                    "{} against {}: no difference is decided (Holm's correction for the {m} rows)",
                    d.arm, d.base
                );
            }
            let mut shown: Vec<String> = kept.iter().take(3).map(|x| said(x, true)).collect();
            if kept.len() > 3 {
                shown.push(format!("{} more", kept.len() - 3));
            }
            format!(
                "{} against {}: {}; nothing else is decided (Holm's correction for the {m} rows)",
                d.arm,
                d.base,
                shown.join(", ")
            )
        })
        .collect();
    format!("{}.", lines.join(". "))
}

/// Under a table of differences of several rows: that about one star in
/// twenty rows comes by chance alone, and which stars stay when the test
/// is corrected for the number of rows (Holm's method, and the
/// Benjamini-Hochberg method), by name. `None` for a table of one row.
pub fn many_rows_note(rows: &[Row]) -> Option<String> {
    let tested: Vec<&Row> = rows.iter().filter(|r| r.p.is_some()).collect();
    let m = tested.len();
    if m < 2 {
        return None;
    }
    let stars: Vec<&Row> = tested.iter().copied().filter(|r| marked(r)).collect();
    let expected = m as f64 * 0.05;
    let chance = format!(
        "{m} rows, each starred at 5 % on its own: about one star in twenty rows is expected \
         by chance even where the arms play alike ({expected:.1} here)."
    );
    if stars.is_empty() {
        return Some(format!(
            "{chance} No row is starred, so the corrections for the {m} rows, Holm's method \
             (family-wise error 5 %) and the Benjamini-Hochberg method (false discovery rate \
             5 %), have no star to keep."
        ));
    }
    let kept = |f: fn(&Row) -> Option<bool>| -> String {
        let names: Vec<&str> = stars
            .iter()
            .filter(|r| f(r) == Some(true))
            .map(|r| r.label.as_str())
            .collect();
        match (names.len(), stars.len()) {
            (0, 1) => "does not keep the one star".to_string(),
            (1, 1) => format!("keeps the one star ({})", names.join(", ")),
            (0, n) => format!("keeps none of the {n} stars"),
            (k, n) => format!("keeps {k} of the {n} stars ({})", names.join(", ")),
        }
    };
    Some(format!(
        "{chance} Corrected for the {m} rows, Holm's method (family-wise error 5 %) {}; the \
         Benjamini-Hochberg method (false discovery rate 5 %) {}.",
        kept(|r| r.holm),
        kept(|r| r.bh)
    ))
}

/// The most decimals a number of a report is printed with.
const MAX_DECIMALS: usize = 8;

/// `x` in the unit `row` is printed in: percent (or points) for a share.
fn in_unit(row: &Row, x: f64) -> f64 {
    if row.is_share() {
        x * 100.0
    } else {
        x
    }
}

/// Whether `x` printed with `d` decimals reads as 0.
fn reads_as_zero(x: f64, d: usize) -> bool {
    format!("{:.d$}", x.abs()).parse::<f64>() == Ok(0.0)
}

/// The fewest decimals that print `x` (not 0) as a number other than 0,
/// if at most [`MAX_DECIMALS`] do.
fn decimals_to_show(x: f64) -> Option<usize> {
    (0..=MAX_DECIMALS).find(|&d| !reads_as_zero(x, d))
}

/// The bound of `row`'s interval nearest 0 when the interval excludes 0.
fn near_bound(row: &Row) -> Option<f64> {
    match (row.low, row.high) {
        (Some(l), Some(_)) if l > 0.0 => Some(l),
        (Some(_), Some(h)) if h < 0.0 => Some(h),
        _ => None,
    }
}

/// How many decimals every number of `row` is printed with (in its unit:
/// percent for a share): one for a share and for a mean from 100 up, else
/// two; more when its interval is narrower than that shows (its half-width
/// gets one significant digit at least), and when the interval excludes 0
/// and its bound nearest 0 would read as 0.
pub fn decimals(row: &Row) -> usize {
    let mut d = if row.is_share() || row.mean.abs() >= 100.0 {
        1
    } else {
        2
    };
    if let (Some(l), Some(h)) = (row.low, row.high) {
        let half = in_unit(row, (h - l) / 2.0);
        if half > 0.0 {
            d = d.max(decimals_to_show(half).unwrap_or(0));
        }
    }
    if let Some(b) = near_bound(row) {
        d = d.max(decimals_to_show(in_unit(row, b)).unwrap_or(0));
    }
    d
}

/// A value of `row` as people read it: shares in percent, other means
/// with [`decimals`]; `diff`: signed, shares in points. A value that
/// rounds to zero shows no minus sign ("-0.00" from an interval of all-zero
/// values, where rounding left the low end at -1e-18).
pub fn value(row: &Row, x: f64, diff: bool) -> String {
    let diff = diff || matches!(row.key, Key::Edge | Key::PlayerLead(_));
    let d = decimals(row);
    let x = in_unit(row, x);
    let x = if reads_as_zero(x, d) { 0.0 } else { x };
    match (row.is_share(), diff) {
        (true, true) => format!("{x:+.d$} pts"),
        (true, false) => format!("{x:.d$}%"),
        (false, true) => format!("{x:+.d$}"),
        (false, false) => format!("{x:.d$}"),
    }
}

pub fn interval(row: &Row, diff: bool) -> String {
    match (row.low, row.high) {
        (Some(l), Some(h)) => format!("{} .. {}", value(row, l, diff), value(row, h, diff)),
        _ => "(too few games)".into(),
    }
}

/// Whether `row` is marked `*`: a difference whose interval excludes 0,
/// and reads so (its bound nearest 0 does not print as 0).
pub fn marked(row: &Row) -> bool {
    row.significant == Some(true)
        && near_bound(row).is_some_and(|b| !reads_as_zero(in_unit(row, b), decimals(row)))
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
        let mark = if marked(r) { "  *" } else { "" };
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

/// The seats' bots as a report lists them: a measuring bot's name says
/// that it sees every hand.
pub fn seats_text(seats: &[String]) -> String {
    seats
        .iter()
        .map(|s| deckhand_bots::bot::listed_name(s))
        .collect::<Vec<_>>()
        .join(", ")
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
        if let Some(note) = many_rows_note(&d.rows) {
            outln!("{note}");
        }
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
    outln!("{}", methods(r));
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
        "table,arm,base,statistic,label,games,mean,sd,low,high,method,significant,share,p,holm,bh"
            .to_string(),
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
                row.is_share().to_string(),
                number(row.p),
                row.holm.map(|s| s.to_string()).unwrap_or_default(),
                row.bh.map(|s| s.to_string()).unwrap_or_default(),
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
            p: None,
            holm: None,
            bh: None,
            share: false,
        };
        assert_eq!(interval(&row, false), "0.00 .. 0.00");
        assert_eq!(value(&row, -0.004, false), "0.00");
        assert_eq!(value(&row, -0.006, false), "-0.01");
        assert_eq!(value(&row, -1e-18, true), "+0.00");
    }

    /// A difference row of a metric: mean, interval, significant (as the
    /// core computes it: the interval excludes 0).
    fn difference(mean: f64, low: f64, high: f64, share: bool) -> Row {
        Row {
            key: Key::Metric("m".into()),
            label: "m".into(),
            n: 2000,
            mean,
            sd: 0.1,
            low: Some(low),
            high: Some(high),
            method: Method::StudentT,
            significant: Some(low > 0.0 || high < 0.0),
            p: None,
            holm: None,
            bh: None,
            share,
        }
    }

    /// The text of a row as the table prints it: difference, interval,
    /// and the mark.
    fn line(row: &Row) -> String {
        let mark = if marked(row) { " *" } else { "" };
        format!(
            "{} {}{mark}",
            value(row, row.mean, true),
            interval(row, true)
        )
    }

    #[test]
    fn an_interval_that_excludes_0_never_reads_as_touching_it() {
        // Sea changes per round, eights against base: the upper bound
        // -0.000996 read "-0.00" (and "+0.00" before the sign was kept).
        let row = difference(-0.0318, -0.0627, -0.000996, false);
        assert_eq!(line(&row), "-0.032 -0.063 .. -0.001 *");
        // Above 0 too, and a bound nearer still.
        let row = difference(0.0123, 0.00004, 0.0246, false);
        assert_eq!(line(&row), "+0.01230 +0.00004 .. +0.02460 *");
        // A bound that no number of decimals worth printing tells from 0
        // is not marked.
        let row = difference(0.5, 1e-12, 1.0, false);
        assert_eq!(line(&row), "+0.50 +0.00 .. +1.00");
    }

    #[test]
    fn a_narrow_interval_gets_the_digits_it_needs_and_wide_ones_stay_as_they_were() {
        // A per-round share held +0.0033 and read "+0.00 * +0.00 .. +0.01":
        // in points, with a digit for its half-width.
        let row = difference(0.0033, 0.0002, 0.0064, true);
        assert_eq!(line(&row), "+0.33 pts +0.02 pts .. +0.64 pts *");
        // Not a share: the same figures as numbers.
        let row = difference(0.0033, 0.0002, 0.0064, false);
        assert_eq!(line(&row), "+0.0033 +0.0002 .. +0.0064 *");
        // An interval that holds 0 and is narrow: its width shows.
        let row = difference(0.0001, -0.0021, 0.0023, false);
        assert_eq!(line(&row), "+0.000 -0.002 .. +0.002");
        // The walkthrough's rows keep their form.
        let row = difference(0.007, -0.013, 0.027, true);
        assert_eq!(line(&row), "+0.7 pts -1.3 pts .. +2.7 pts");
        let row = difference(-0.74, -3.41, 1.93, false);
        assert_eq!(line(&row), "-0.74 -3.41 .. +1.93");
        let row = difference(23.47, 21.95, 24.99, false);
        assert_eq!(line(&row), "+23.47 +21.95 .. +24.99 *");
        let row = difference(123.47, 121.95, 124.99, false);
        assert_eq!(line(&row), "+123.5 +122.0 .. +125.0 *");
    }

    #[test]
    fn many_rows_say_one_star_in_twenty_comes_by_chance_and_what_the_corrections_keep() {
        // Twenty rows: three starred at 5 %, with p-values 0.0001, 0.004
        // and 0.03. Holm keeps 0.0001 <= 0.05/20 only (0.004 > 0.05/19);
        // Benjamini-Hochberg keeps 0.0001 and 0.004 (<= 2 x 0.05/20).
        let mut rows: Vec<Row> = (0..20)
            .map(|i| {
                let mut r = difference(0.0, -1.0, 1.0, false);
                r.label = format!("row {i}");
                r.p = Some(0.5);
                r
            })
            .collect();
        for (i, p) in [(3, 0.0001), (7, 0.004), (11, 0.03)] {
            rows[i] = difference(0.5, 0.1, 0.9, false);
            rows[i].label = format!("row {i}");
            rows[i].p = Some(p);
        }
        let rows = deckhand_lab::report::corrected(rows);
        assert_eq!(
            many_rows_note(&rows).as_deref(),
            Some(
                "20 rows, each starred at 5 % on its own: about one star in twenty rows is \
                 expected by chance even where the arms play alike (1.0 here). Corrected for \
                 the 20 rows, Holm's method (family-wise error 5 %) keeps 1 of the 3 stars \
                 (row 3); the Benjamini-Hochberg method (false discovery rate 5 %) keeps 2 of \
                 the 3 stars (row 3, row 7)."
            )
        );
        // No star: said so; one row: no note.
        let plain: Vec<Row> = rows.iter().filter(|r| !marked(r)).cloned().collect();
        assert!(many_rows_note(&plain)
            .is_some_and(|n| n
                .contains("No row is starred, so the corrections for the 17 rows, Holm's method")));
        assert_eq!(many_rows_note(&rows[..1]), None);
    }

    #[test]
    fn shares_print_in_percent_in_an_arm_table() {
        let mut row = difference(0.2575, 0.2431, 0.2719, true);
        row.significant = None;
        assert_eq!(value(&row, row.mean, false), "25.8%");
        assert_eq!(interval(&row, false), "24.3% .. 27.2%");
        // A rare event: 0.04 % of games, its interval from 0.01 %.
        let mut row = difference(0.0004, 0.0001, 0.0022, true);
        row.significant = None;
        assert_eq!(value(&row, row.mean, false), "0.04%");
        assert_eq!(interval(&row, false), "0.01% .. 0.22%");
    }

    #[test]
    fn csv_says_which_rows_are_shares() {
        let lines = csv_lines(&Report {
            game: "g".into(),
            games: 2000,
            first_seed: 1,
            stopped: deckhand_lab::Stopped::Games,
            rotate: false,
            confidence: 0.95,
            arms: Vec::new(),
            differences: vec![deckhand_lab::DiffReport {
                arm: "b".into(),
                base: "a".into(),
                rows: vec![
                    difference(0.0033, 0.0002, 0.0064, true),
                    difference(-0.0318, -0.0627, -0.000996, false),
                ],
            }],
            metrics: Default::default(),
            share_metrics: Default::default(),
            stop_rule: None,
        });
        assert!(
            lines[0].ends_with(",significant,share,p,holm,bh"),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].ends_with(",0.0002,0.0064,Student t,true,true,,,"),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].ends_with(",-0.000996,Student t,true,false,,,"),
            "{}",
            lines[2]
        );
    }
}
