//! `--html`: the report page rendered in a real headless browser
//! (Chromium), at a phone's width. A probe script, added to a copy of the
//! page for the test only (the page itself has no script), measures every
//! chart and reads every table; the test checks that the charts are drawn
//! (as many as the report has tables and distributions, bars of non-zero
//! size in proportion to the numbers), that the numbers shown are those of
//! `--json` from the same run, that the page does not scroll sideways and
//! that markup in a metric's name or doc stays text.
//!
//! The browser: `chromium` (or `chromium-browser`, `google-chrome`) on the
//! PATH, or the program named by DECKHAND_CHROMIUM. Without one the test
//! fails, unless DECKHAND_SKIP_BROWSER_TESTS=1 says to skip it.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/lab")
}

/// The browser to run, or `None` when the test is to be skipped.
fn browser() -> Option<PathBuf> {
    if std::env::var("DECKHAND_SKIP_BROWSER_TESTS").is_ok_and(|v| v == "1") {
        eprintln!("DECKHAND_SKIP_BROWSER_TESTS=1: the HTML report is not rendered");
        return None;
    }
    if let Some(p) = std::env::var_os("DECKHAND_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    panic!(
        "no Chromium found to render the HTML report (chromium, chromium-browser or \
         google-chrome on the PATH, or DECKHAND_CHROMIUM=/path/to/it). Install it (Debian: \
         apt-get install chromium; .ci/run does) or set DECKHAND_SKIP_BROWSER_TESTS=1 to \
         skip this test."
    );
}

/// Measures the page and writes what it found into `<pre id="probe">`.
const PROBE: &str = r#"<script>
(function () {
  // A phone's width (headless windows are at least 500 px wide), or
  // the width the test asks for.
  document.body.style.width = 'WIDTHpx';
  var out = { charts: [], rows: [], title: document.title,
    imgs: document.querySelectorAll('img').length,
    scripts: document.querySelectorAll('script').length,
    scrollWidth: document.body.scrollWidth, innerWidth: document.body.clientWidth };
  document.querySelectorAll('svg.chart').forEach(function (svg) {
    var r = svg.getBoundingClientRect();
    var axis = svg.querySelector('.axis');
    var c = { cls: svg.getAttribute('class'), name: svg.dataset.chart, key: svg.dataset.key || null,
      total: svg.dataset.total ? +svg.dataset.total : null,
      min: svg.dataset.min ? +svg.dataset.min : null, max: svg.dataset.max ? +svg.dataset.max : null,
      width: r.width, height: r.height, right: r.right,
      axis: axis ? axis.getBBox().width : 0, bars: [] };
    svg.querySelectorAll('rect.bar').forEach(function (b) {
      var bb = b.getBBox(), br = b.getBoundingClientRect();
      c.bars.push({ key: b.dataset.key || null,
        value: b.dataset.value !== undefined ? +b.dataset.value : null,
        count: b.dataset.count !== undefined ? +b.dataset.count : null,
        w: bb.width, h: bb.height, pw: br.width, ph: br.height });
    });
    c.step = svg.dataset.step ? +svg.dataset.step : null;
    c.ticks = [];
    svg.querySelectorAll('text.tick').forEach(function (t) {
      c.ticks.push({ value: t.dataset.value !== undefined ? +t.dataset.value : null,
        text: t.textContent });
    });
    // Every text of the chart inside the chart's box: none clipped.
    c.clipped = [];
    svg.querySelectorAll('text').forEach(function (t) {
      var b = t.getBoundingClientRect();
      if (b.left < r.left - 0.5 || b.right > r.right + 0.5 || b.top < r.top - 0.5
          || b.bottom > r.bottom + 0.5) {
        c.clipped.push(t.textContent);
      }
    });
    out.charts.push(c);
  });
  var answer = document.querySelector('p.answer');
  out.answer = answer ? answer.textContent : null;
  document.querySelectorAll('table[data-table] tbody tr').forEach(function (tr) {
    out.rows.push({ table: tr.closest('table').dataset.table, key: tr.dataset.key,
      label: tr.cells[0].textContent, mean: tr.querySelector('.mean').textContent,
      interval: tr.querySelector('.interval').textContent, n: tr.querySelector('.n').textContent });
  });
  var pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = btoa(unescape(encodeURIComponent(JSON.stringify(out))));
  document.body.appendChild(pre);
})();
</script>"#;

/// Decode standard base64 (the probe's output).
fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=' && c > b' ').collect();
    let mut out = Vec::new();
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= (val(c) as u32) << (18 - 6 * i);
        }
        let take = chunk.len().saturating_sub(1);
        for i in 0..take {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// Render `page` (with the probe) in the browser, 360 px wide, and read
/// the probe's findings.
fn render(browser: &Path, page: &Path) -> Value {
    render_at(browser, page, 360)
}

/// Render `page` (with the probe) in the browser with a page `width` px
/// wide, and read the probe's findings.
fn render_at(browser: &Path, page: &Path, width: u32) -> Value {
    let dir = tempfile::tempdir().expect("tmp");
    let html = std::fs::read_to_string(page).expect("the page");
    assert!(!html.contains("<script"), "the report itself has no script");
    let probed = dir.path().join("probed.html");
    let probe = PROBE.replace("WIDTH", &width.to_string());
    std::fs::write(&probed, html.replace("</body>", &format!("{probe}</body>"))).expect("write");
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        .arg(format!("--window-size={},800", width + 15))
        .arg(format!(
            "--user-data-dir={}",
            dir.path().join("profile").display()
        ))
        .arg("--dump-dom")
        .arg(format!("file://{}", probed.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("starting {}: {e}", browser.display()));
    let start = Instant::now();
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).map(|_| s)
    });
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("{} did not finish within 60 s", browser.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let dom = reader.join().expect("reader").expect("the DOM");
    let start = dom
        .find("<pre id=\"probe\">")
        .unwrap_or_else(|| panic!("the probe did not run: {dom}"))
        + "<pre id=\"probe\">".len();
    let end = start + dom[start..].find("</pre>").expect("probe end");
    serde_json::from_slice(&base64(&dom[start..end])).expect("the probe's JSON")
}

/// `deckhand ARGS` over the lab's fixtures, which must succeed: stdout.
fn deckhand(args: &[&str]) -> Vec<u8> {
    let o = Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .arg("--scripts")
        .arg(fixtures())
        .args(args)
        .env("NO_COLOR", "1")
        .current_dir(std::env::temp_dir())
        .output()
        .expect("run deckhand");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

/// Whether `x` printed with `d` decimals reads as 0.
fn reads_as_zero(x: f64, d: usize) -> bool {
    format!("{:.d$}", x.abs()).parse::<f64>() == Ok(0.0)
}

/// The decimals of a row as docs/lab.md says: 1 for a share (in percent)
/// and from 100 up, else 2; more for a half-width's first significant
/// digit, and for the bound nearest 0 of an interval that excludes 0.
fn decimals(row: &Value) -> usize {
    let unit = if row["share"] == true { 100.0 } else { 1.0 };
    let first_digit = |x: f64| (0..=8).find(|&d| !reads_as_zero(x * unit, d)).unwrap_or(0);
    let (low, high) = (row["low"].as_f64(), row["high"].as_f64());
    let mut d = if row["share"] == true || num(&row["mean"]).abs() >= 100.0 {
        1
    } else {
        2
    };
    if let (Some(l), Some(h)) = (low, high) {
        if h > l {
            d = d.max(first_digit((h - l) / 2.0));
        }
        if l > 0.0 {
            d = d.max(first_digit(l));
        } else if h < 0.0 {
            d = d.max(first_digit(h));
        }
    }
    d
}

/// A value as the report shows it (as the terminal does).
fn shown(row: &Value, x: f64, diff: bool) -> String {
    let diff = diff || row["key"] == "edge";
    let d = decimals(row);
    let x = if row["share"] == true { x * 100.0 } else { x };
    let x = if reads_as_zero(x, d) { 0.0 } else { x };
    match (row["share"] == true, diff) {
        (true, true) => format!("{x:+.d$} pts"),
        (true, false) => format!("{x:.d$}%"),
        (false, true) => format!("{x:+.d$}"),
        (false, false) => format!("{x:.d$}"),
    }
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn the_html_report_draws_its_charts_and_shows_the_json_numbers_in_a_browser() {
    let Some(browser) = browser() else { return };
    let dir = tempfile::tempdir().expect("tmp");
    let page = dir.path().join("report.html");
    let rigged = format!(
        "rigged=-v {}",
        fixtures().join("seat_one_wins.lua").display()
    );
    let hostile = fixtures().join("hostile_names.lua").display().to_string();
    let out = deckhand(&[
        "compare",
        "coin_flip",
        "-v",
        &hostile,
        "--arm",
        "fair",
        "--arm",
        &rigged,
        "-n",
        "300",
        "--json",
        "--html",
        &page.display().to_string(),
    ]);
    let json: Value = serde_json::from_slice(&out).expect("JSON report");
    let probe = render(&browser, &page);

    // Markup from the rules stayed text: nothing ran, no image appeared.
    assert_eq!(probe["title"], "Coin Flip");
    assert_eq!(probe["imgs"], 0);
    assert_eq!(probe["scripts"], 1, "only the probe");
    let hostile_key = "metric:<script>document.title='owned'</script>&";
    assert!(probe["rows"].as_array().expect("rows").iter().any(
        |r| r["key"] == hostile_key && r["label"] == "<script>document.title='owned'</script>&"
    ));

    // No sideways scrolling on a 360 px wide screen; charts fit it.
    let inner = num(&probe["innerWidth"]);
    assert_eq!(inner, 360.0, "the page's width");
    assert!(num(&probe["scrollWidth"]) <= inner, "{probe}");

    // Every number of every table is the JSON's.
    let rows = probe["rows"].as_array().expect("rows");
    let mut tables = Vec::new();
    for arm in json["arms"].as_array().expect("arms") {
        tables.push((
            format!("arm {}", arm["name"].as_str().expect("name")),
            &arm["rows"],
            false,
        ));
    }
    for d in json["differences"].as_array().expect("differences") {
        let name = format!(
            "{} − {}",
            d["arm"].as_str().expect("arm"),
            d["base"].as_str().expect("base")
        );
        tables.push((name, &d["rows"], true));
    }
    let mut checked = 0;
    for (table, jrows, diff) in &tables {
        let jrows = jrows.as_array().expect("rows");
        let shown_rows: Vec<&Value> = rows.iter().filter(|r| r["table"] == *table).collect();
        assert_eq!(shown_rows.len(), jrows.len(), "{table}");
        for (j, s) in jrows.iter().zip(&shown_rows) {
            assert_eq!(s["key"], j["key"]);
            let mark = if j["significant"] == true { " *" } else { "" };
            assert_eq!(
                s["mean"].as_str().expect("mean"),
                format!("{}{mark}", shown(j, num(&j["mean"]), *diff)),
                "{table} {}",
                j["key"]
            );
            let interval = format!(
                "{} .. {}",
                shown(j, num(&j["low"]), *diff),
                shown(j, num(&j["high"]), *diff)
            );
            assert_eq!(s["interval"].as_str().expect("interval"), interval);
            assert_eq!(s["n"].as_str().expect("n"), j["n"].to_string());
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked} rows");

    // The charts: a chart of shares per arm and per difference, a
    // histogram per distribution.
    let charts = probe["charts"].as_array().expect("charts");
    let count = |cls: &str| charts.iter().filter(|c| c["cls"] == cls).count();
    assert_eq!(count("chart intervals"), 2 + 1);
    let histograms: usize = json["arms"]
        .as_array()
        .expect("arms")
        .iter()
        .map(|a| a["histograms"].as_object().map(|h| h.len()).unwrap_or(0))
        .sum();
    assert!(histograms >= 6, "{histograms}");
    assert_eq!(count("chart histogram"), histograms);
    for c in charts {
        assert!(num(&c["width"]) > 100.0 && num(&c["height"]) > 50.0, "{c}");
        assert!(num(&c["right"]) <= inner, "{c}");
    }
    // Bars of the shares: as long as the value on the axis, drawn.
    for (a, arm) in json["arms"].as_array().expect("arms").iter().enumerate() {
        let chart = charts
            .iter()
            .find(|c| {
                c["name"] == format!("shares of games, arm {}", arm["name"].as_str().expect("n"))
            })
            .unwrap_or_else(|| panic!("no chart of arm {a}"));
        let axis = num(&chart["axis"]);
        for key in ["win.seat1", "win.seat2"] {
            let want = num(&common_row(&arm["rows"], key)["mean"]);
            let bar = chart["bars"]
                .as_array()
                .expect("bars")
                .iter()
                .find(|b| b["key"] == key)
                .unwrap_or_else(|| panic!("no bar {key}"));
            assert!(
                (num(&bar["w"]) / axis - want).abs() < 0.005,
                "{key}: {bar} on {axis}"
            );
            if want > 0.0 {
                assert!(num(&bar["pw"]) > 0.0 && num(&bar["ph"]) > 0.0, "{bar}");
            }
        }
    }
    // The difference chart: the rigged arm's seat 1 bar is marked and drawn.
    let diff = charts
        .iter()
        .find(|c| c["name"] == "differences, rigged − fair")
        .expect("difference chart");
    let bar = diff["bars"]
        .as_array()
        .expect("bars")
        .iter()
        .find(|b| b["key"] == "win.seat1")
        .expect("seat 1 difference");
    let want = num(&common_row(&json["differences"][0]["rows"], "win.seat1")["mean"]);
    let scale = num(&diff["max"]) - num(&diff["min"]);
    assert!((num(&bar["w"]) / num(&diff["axis"]) - want / scale).abs() < 0.005);
    // Histograms: every game counted, bars in proportion to their counts.
    for c in charts.iter().filter(|c| c["cls"] == "chart histogram") {
        let bars = c["bars"].as_array().expect("bars");
        let total: f64 = bars.iter().map(|b| num(&b["count"])).sum();
        assert_eq!(Some(total), c["total"].as_f64(), "{c}");
        let tallest = bars.iter().map(|b| num(&b["count"])).fold(0.0, f64::max);
        let tallest_h = bars.iter().map(|b| num(&b["h"])).fold(0.0, f64::max);
        for b in bars {
            let n = num(&b["count"]);
            assert!((num(&b["h"]) - tallest_h * n / tallest).abs() < 0.05, "{b}");
            if n > 0.0 {
                assert!(num(&b["pw"]) > 0.0 && num(&b["ph"]) > 0.0, "{b}");
            }
        }
    }
    // Score histogram: 2 seats × 300 games per arm.
    let scores = charts
        .iter()
        .find(|c| c["name"] == "final score (every seat), arm fair")
        .expect("score histogram");
    assert_eq!(scores["total"], 600);
}

fn common_row<'a>(rows: &'a Value, key: &str) -> &'a Value {
    rows.as_array()
        .and_then(|r| r.iter().find(|r| r["key"] == key))
        .unwrap_or_else(|| panic!("no row {key}"))
}

#[test]
fn the_tune_page_draws_every_candidate() {
    let Some(browser) = browser() else { return };
    let dir = tempfile::tempdir().expect("tmp");
    let page = dir.path().join("tune.html");
    let out = deckhand(&[
        "tune",
        "voyage",
        "--try",
        "length=2..9",
        "--stat",
        "rounds",
        "--target",
        "6.5",
        "-n",
        "40",
        "--json",
        "--html",
        &page.display().to_string(),
    ]);
    let json: Value = serde_json::from_slice(&out).expect("JSON");
    let probe = render(&browser, &page);
    let candidates = json["candidates"].as_array().expect("candidates");
    let rows: Vec<&Value> = probe["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["table"] == "candidates")
        .collect();
    assert_eq!(rows.len(), 8);
    for (c, r) in candidates.iter().zip(&rows) {
        assert_eq!(r["key"], c["name"]);
        assert_eq!(r["n"].as_str().expect("n"), c["games"].to_string());
        let e = &c["estimate"];
        assert_eq!(
            r["mean"].as_str().expect("mean"),
            shown(e, num(&e["mean"]), false)
        );
    }
    assert_eq!(json["best"], "length=6");
    let chart = probe["charts"]
        .as_array()
        .expect("charts")
        .iter()
        .find(|c| c["cls"] == "chart points")
        .expect("the candidates' chart");
    assert!(num(&chart["width"]) > 100.0 && num(&chart["height"]) > 100.0);
    assert!(num(&probe["scrollWidth"]) <= num(&probe["innerWidth"]));
}

/// A chart's axis on a round scale: a step of 1, 2 or 5 times a power of
/// ten, at least three ticks, each a whole number of steps, one step apart,
/// each label saying its value.
fn assert_round_ticks(c: &Value) {
    let step = num(&c["step"]);
    assert!(round_step(step), "{}: step {step}", c["name"]);
    let ticks: Vec<f64> = c["ticks"]
        .as_array()
        .expect("ticks")
        .iter()
        .map(|t| num(&t["value"]))
        .collect();
    assert!(ticks.len() >= 3, "{}: {ticks:?}", c["name"]);
    for t in &ticks {
        assert!(
            ((t / step) - (t / step).round()).abs() < 1e-6,
            "{}: {ticks:?}",
            c["name"]
        );
    }
    for pair in ticks.windows(2) {
        assert!(
            (pair[1] - pair[0] - step).abs() < 1e-9 * step.max(1.0),
            "{ticks:?}"
        );
    }
    // The labels say the values: "+5", "0", "-5", "20%", "1.5".
    for t in c["ticks"].as_array().expect("ticks") {
        let text = t["text"].as_str().expect("text");
        let read: f64 = text
            .trim_end_matches('%')
            .trim_start_matches('+')
            .parse()
            .unwrap_or_else(|_| panic!("tick {text:?}"));
        assert!(
            (read - num(&t["value"])).abs() < 1e-9,
            "{text} {}",
            t["value"]
        );
    }
}

/// Whether `step` is 1, 2 or 5 times a power of ten.
fn round_step(step: f64) -> bool {
    let power = 10f64.powf(step.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .any(|m| (step / power - m).abs() < 1e-9)
}

/// The charts' ticks are round numbers (a step of 1, 2 or 5 times a power
/// of ten, every tick a whole number of steps), no text of any chart is
/// clipped at a phone's width or a desktop's, a metric the designer added
/// (a number, not a share, with a long name) is charted per arm and as a
/// difference, and the page starts with its answer in one line.
#[test]
fn charts_have_round_ticks_no_clipped_label_and_every_metric_and_the_page_answers_first() {
    let Some(browser) = browser() else { return };
    let dir = tempfile::tempdir().expect("tmp");
    let page = dir.path().join("report.html");
    let rigged = format!(
        "rigged=-v {}",
        fixtures().join("seat_one_wins.lua").display()
    );
    let long = fixtures().join("long_metric.lua").display().to_string();
    let metric = "the number of the winning seat plus a half, counted at the end of every game";
    deckhand(&[
        "compare",
        "coin_flip",
        "-v",
        &long,
        "--arm",
        "fair",
        "--arm",
        &rigged,
        "-n",
        "300",
        "--html",
        &page.display().to_string(),
    ]);
    for width in [360, 1200] {
        let probe = render_at(&browser, &page, width);
        assert_eq!(num(&probe["innerWidth"]), width as f64);
        assert!(num(&probe["scrollWidth"]) <= width as f64, "{probe}");
        let charts = probe["charts"].as_array().expect("charts");
        for c in charts {
            let clipped = c["clipped"].as_array().expect("clipped");
            assert!(
                clipped.is_empty(),
                "{width} px: clipped in {}: {clipped:?}",
                c["name"]
            );
            if c["cls"] == "chart histogram" {
                continue;
            }
            assert_round_ticks(c);
        }
        // The designer's metric: each arm's mean, and the difference.
        let named = |name: &str| {
            charts
                .iter()
                .any(|c| c["name"] == name && c["cls"] == "chart metric")
        };
        assert!(named(metric), "{width} px: no chart of the metric");
        assert!(
            named(&format!("{metric}, rigged − fair")),
            "{width} px: no chart of its difference"
        );
        let answer = probe["answer"].as_str().expect("the answer");
        assert!(
            answer.starts_with("rigged against fair: seat 1 wins +"),
            "{answer}"
        );
        assert!(
            answer.contains("nothing else is decided (Holm's correction for the"),
            "{answer}"
        );
    }
}

#[test]
fn the_ladder_page_draws_every_bot_and_clips_no_label() {
    let Some(browser) = browser() else { return };
    let dir = tempfile::tempdir().expect("tmp");
    let page = dir.path().join("ladder.html");
    let out = deckhand(&[
        "ladder",
        "nim",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--bot",
        "mc:30:greedy",
        "-n",
        "20",
        "--json",
        "--html",
        &page.display().to_string(),
    ]);
    let json: Value = serde_json::from_slice(&out).expect("JSON");
    let bots = json["ratings"]["bots"].as_array().expect("bots");
    assert_eq!(bots.len(), 3);
    let html = std::fs::read_to_string(&page).expect("the page");
    for b in bots {
        let name = b["name"].as_str().expect("name");
        assert!(html.contains(name), "{name} is not on the page");
    }
    assert_fits_with_round_ticks(&browser, &page);
}

#[test]
fn the_skill_page_draws_every_measure_and_clips_no_label() {
    let Some(browser) = browser() else { return };
    let dir = tempfile::tempdir().expect("tmp");
    let page = dir.path().join("skill.html");
    let out = deckhand(&[
        "skill",
        "push",
        "-p",
        "3",
        "--dial",
        "random",
        "--dial",
        "mc:10",
        "--restrict",
        "never_stop",
        "--arm",
        "a",
        "--arm",
        "b=-p 3",
        "-n",
        "10",
        "--json",
        "--html",
        &page.display().to_string(),
    ]);
    let json: Value = serde_json::from_slice(&out).expect("JSON");
    let html = std::fs::read_to_string(&page).expect("the page");
    for m in json["measures"].as_array().expect("measures") {
        let id = m["id"].as_str().expect("id");
        let seen = match id {
            "skill_gap" => "gap: mc:10 vs random".to_string(),
            "upsets" => "upsets: random side wins".to_string(),
            "deal_share" => "deal&#39;s share".to_string(),
            other if other.starts_with("worth:") => "barred: never_stop".to_string(),
            other if other.starts_with("seat") => format!("seat {}", &other[4..]),
            other if other.starts_with("step") => format!("step {}", &other[4..]),
            other => other.to_string(),
        };
        assert!(html.contains(&seen), "{id} ({seen}) is not on the page");
    }
    assert_fits_with_round_ticks(&browser, &page);
}

/// The page at 360 and 1200 px: no wider than the window, every chart
/// drawn, no chart text clipped, round ticks.
fn assert_fits_with_round_ticks(browser: &Path, page: &Path) {
    for width in [360, 1200] {
        let probe = render_at(browser, page, width);
        assert!(
            num(&probe["scrollWidth"]) <= width as f64,
            "{width} px: {probe}"
        );
        let charts = probe["charts"].as_array().expect("charts");
        assert!(!charts.is_empty(), "{width} px: no chart");
        for c in charts {
            assert!(num(&c["width"]) > 100.0, "{width} px: {c}");
            let clipped = c["clipped"].as_array().expect("clipped");
            assert!(clipped.is_empty(), "{width} px: clipped: {clipped:?}");
            assert_round_ticks(c);
        }
    }
}
