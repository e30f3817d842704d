//! The variant lab: the statistics checked against known cases (a fair
//! coin's interval coverage, identical arms, a rigged arm), and `sim` and
//! `compare` as a user runs them (stopping on a precision, threads, seats,
//! teams, metrics, JSON and CSV).

use crate::common;

use common::{difference_row, mean, report_row};
use deckhand_bots::BotKind;
use deckhand_engine::{DirSource, Engine, GameConfig, Runner, ScriptLibrary};
use deckhand_lab::{Arm, Experiment, Key, Outcome, Player, Schedule, StopRule, Tally};
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::Arc;

/// The folder of the lab's toy game (`coin_flip`) and house rules.
fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/lab")
}

fn fixture(name: &str) -> String {
    fixtures().join(name).display().to_string()
}

fn coin_engine() -> Engine {
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(DirSource::new(fixtures())));
    Engine::new(Arc::new(lib)).expect("engine over the lab fixtures")
}

/// Plays the experiment's games through the core's runner.
struct Plays<'a> {
    engine: Engine,
    experiment: &'a Experiment,
}

impl Player for Plays<'_> {
    type Error = String;

    fn play(&mut self, index: u64, arm: usize) -> Result<Outcome, String> {
        let cfg = self.experiment.config(arm, index);
        let mut runner = Runner::with_bots(self.experiment.bots(arm, index));
        let (game, result) = runner
            .run(&self.engine, cfg, false)
            .map_err(|e| e.to_string())?;
        Outcome::of(&game, &result).map_err(|e| e.to_string())
    }
}

fn coin_experiment(first_seed: u64, variants: &[&[&str]]) -> Experiment {
    Experiment {
        arms: variants
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let mut config = GameConfig::new("coin_flip", 2, 0);
                config.variants = v.iter().map(|s| s.to_string()).collect();
                Arm {
                    name: format!("arm{i}"),
                    config,
                    seats: vec![BotKind::Random, BotKind::Random],
                    bot_salt: 0,
                }
            })
            .collect(),
        first_seed,
        rotate: false,
    }
}

fn run_coin(experiment: &Experiment, games: u64, threads: usize) -> Tally {
    let schedule = Schedule {
        stop: StopRule::Games(games),
        threads,
        batch: 7,
        placings: false,
        first_game: 0,
    };
    let ran = deckhand_lab::run(
        &schedule,
        experiment.arms.len(),
        || Plays {
            engine: coin_engine(),
            experiment,
        },
        || {},
    );
    match ran {
        Ok(r) => r.tally,
        Err(deckhand_lab::RunError::Play { index, error }) => panic!("game {index}: {error}"),
        Err(deckhand_lab::RunError::Statistic(m)) => panic!("{m}"),
    }
}

#[test]
fn a_fair_coins_95_percent_intervals_hold_its_rate_about_95_times_in_100() {
    // 400 independent runs of 100 flips (disjoint seeds). The true win rate
    // of seat 1 is 1/2 (a proportion: Wilson), and the mean winning seat is
    // 1.5 (a metric with values 1 and 2: Student t).
    let winner_metric = fixture("winner_metric.lua");
    let runs = 400;
    let (mut wilson_in, mut t_in) = (0, 0);
    for r in 0..runs {
        let e = coin_experiment(1 + r * 100, &[&[winner_metric.as_str()]]);
        let tally = run_coin(&e, 100, 1);
        assert_eq!(tally.games, 100);
        let win = tally.arms[0]
            .get(&Key::SeatWin(1))
            .expect("seat 1")
            .estimate();
        assert_eq!(win.method, deckhand_lab::Method::Wilson);
        let (lo, hi) = (win.low.expect("low"), win.high.expect("high"));
        if lo <= 0.5 && 0.5 <= hi {
            wilson_in += 1;
        }
        let seat = tally.arms[0]
            .get(&Key::Metric("winning seat".into()))
            .expect("metric")
            .estimate();
        assert_eq!(seat.method, deckhand_lab::Method::StudentT);
        let (lo, hi) = (seat.low.expect("low"), seat.high.expect("high"));
        if lo <= 1.5 && 1.5 <= hi {
            t_in += 1;
        }
    }
    // Expected 380 of 400 (binomial sd 4.4): 95 % within 371..389.
    for (name, inside) in [("Wilson", wilson_in), ("Student t", t_in)] {
        eprintln!("{name}: the interval held the true value in {inside} of {runs} runs");
        assert!(
            (360..=396).contains(&inside),
            "{name}: the interval held the true rate in {inside} of {runs} runs"
        );
    }
}

#[test]
fn merged_tallies_of_disjoint_seeds_equal_one_run_and_threads_change_nothing() {
    let e = coin_experiment(11, &[&[], &[]]);
    let one = run_coin(&e, 300, 1);
    assert_eq!(one, run_coin(&e, 300, 3));
    // Seeds 11..210 and 211..310, merged: the 300-game tally exactly.
    let mut first = run_coin(&e, 200, 2);
    let rest = run_coin(&coin_experiment(211, &[&[], &[]]), 100, 1);
    first.merge(&rest);
    assert_eq!(first, one);
}

/// `deckhand ARGS` from a folder without a scripts folder.
fn deckhand(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .env("COLUMNS", "1000")
        .env("NO_COLOR", "1")
        .args(args)
        .current_dir(std::env::temp_dir())
        .output()
        .expect("run deckhand")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `deckhand ARGS --json` over the lab fixtures, which must succeed.
fn json(args: &[&str]) -> Value {
    let dir = fixtures().display().to_string();
    let mut all = vec!["--scripts", &dir];
    all.extend_from_slice(args);
    all.push("--json");
    let o = deckhand(&all);
    assert!(o.status.success(), "{}", text(&o));
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

#[test]
fn identical_arms_differ_by_exactly_zero() {
    let v = json(&[
        "compare",
        "sea_change",
        "--arm",
        "a",
        "--arm",
        "b=--seat greedy",
        "-n",
        "30",
    ]);
    let rows = v["differences"][0]["rows"].as_array().expect("rows");
    assert!(rows.len() >= 12, "{v}");
    for r in rows {
        assert_eq!(r["mean"], 0.0, "{r}");
        assert_eq!(r["low"], 0.0, "{r}");
        assert_eq!(r["high"], 0.0, "{r}");
        assert_eq!(r["significant"], false, "{r}");
        assert_eq!(r["method"], "student-t", "{r}");
    }
}

#[test]
fn a_rule_that_hands_every_win_to_seat_one_is_a_significant_difference() {
    let rigged = format!("rigged=-v {}", fixture("seat_one_wins.lua"));
    let v = json(&[
        "compare",
        "coin_flip",
        "--arm",
        "fair",
        "--arm",
        &rigged,
        "-n",
        "200",
        "--seed",
        "3",
    ]);
    let d = difference_row(&v, 0, "win.seat1");
    assert_eq!(d["significant"], true, "{d}");
    assert!((mean(&d) - 0.5).abs() < 0.1, "{d}");
    assert!(d["low"].as_f64().expect("low") > 0.0);
    assert_eq!(difference_row(&v, 0, "edge")["significant"], true);
    assert_eq!(mean(&report_row(&v, 1, "win.seat1")), 1.0);
    // The paired difference is exact on each seed: rigged (1) minus fair.
    let fair = mean(&report_row(&v, 0, "win.seat1"));
    assert!((mean(&d) - (1.0 - fair)).abs() < 1e-12);
    // And the text marks it.
    let dir = fixtures().display().to_string();
    let o = deckhand(&[
        "--scripts",
        &dir,
        "compare",
        "coin_flip",
        "--arm",
        "fair",
        "--arm",
        &rigged,
        "-n",
        "200",
    ]);
    let t = text(&o);
    let line = t
        .lines()
        .skip_while(|l| !l.starts_with("rigged − fair"))
        .find(|l| l.starts_with("seat 1 wins"))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(line.ends_with('*'), "{line}");
    assert!(
        t.contains("paired by seed") && t.contains("Student t"),
        "{t}"
    );
}

#[test]
fn compare_gives_the_same_report_on_one_thread_and_two() {
    let rigged = format!("rigged=-v {}", fixture("seat_one_wins.lua"));
    let run = |j: &str| {
        let v = json(&[
            "compare",
            "coin_flip",
            "--arm",
            "fair",
            "--arm",
            &rigged,
            "-n",
            "500",
            "-j",
            j,
        ]);
        (v["arms"].clone(), v["differences"].clone())
    };
    assert_eq!(run("1"), run("2"));
    let run = |j: &str| {
        let v = json(&[
            "sim",
            "coin_flip",
            "--precision",
            "0.03",
            "--on",
            "win.seat1",
            "--every",
            "100",
            "-j",
            j,
        ]);
        (v["games"].clone(), v["arms"].clone())
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn precision_stops_at_the_first_look_that_reaches_it() {
    let v = json(&[
        "sim",
        "coin_flip",
        "--precision",
        "0.04",
        "--on",
        "win.seat1",
        "--every",
        "50",
    ]);
    assert_eq!(v["stopped"], "precision");
    let games = v["games"].as_u64().expect("games");
    assert_eq!(games % 50, 0, "stopped at a look: {games}");
    let half = |row: &Value| {
        (row["high"].as_f64().unwrap_or(9.0) - row["low"].as_f64().unwrap_or(0.0)) / 2.0
    };
    assert!(half(&report_row(&v, 0, "win.seat1")) <= 0.04);
    // One look earlier, the interval was still wider.
    let earlier = (games - 50).to_string();
    let w = json(&["sim", "coin_flip", "-n", &earlier]);
    assert!(half(&report_row(&w, 0, "win.seat1")) > 0.04);
    // A target out of reach stops at --max-games.
    let v = json(&[
        "sim",
        "coin_flip",
        "--precision",
        "0.001",
        "--on",
        "win.seat1",
        "--every",
        "40",
        "--max-games",
        "120",
    ]);
    assert_eq!(v["stopped"], "max_games");
    assert_eq!(v["games"], 120);
    // With two arms, the precision is that of the difference.
    let rigged = format!("rigged=-v {}", fixture("seat_one_wins.lua"));
    let v = json(&[
        "compare",
        "coin_flip",
        "--arm",
        "fair",
        "--arm",
        &rigged,
        "--precision",
        "0.05",
        "--on",
        "win.seat1",
        "--every",
        "100",
    ]);
    assert_eq!(v["stopped"], "precision");
    assert!(half(&difference_row(&v, 0, "win.seat1")) <= 0.05);
    // An unknown statistic is named.
    let dir = fixtures().display().to_string();
    let o = deckhand(&[
        "--scripts",
        &dir,
        "sim",
        "coin_flip",
        "--precision",
        "0.1",
        "--on",
        "metric:nope",
        "--every",
        "10",
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("metric:nope") && text(&o).contains("metric:heads"),
        "{}",
        text(&o)
    );
}

#[test]
fn stopping_when_decisive_rarely_stops_on_a_fair_coin_however_often_it_looks() {
    // 300 independent runs of a fair coin, each looking every 20 games for
    // at most 200 (10 looks), stopping once seat 1's share of wins
    // excludes 1/2. Each look's interval is at the level 1 - 0.05/10, so
    // at most about 5 % of the runs may stop; a 95 % interval at every look
    // would stop far more often (that count is asserted too, so the test
    // shows what the correction is for).
    let runs = 300;
    let (mut stopped, mut naive) = (0, 0);
    for r in 0..runs {
        let e = coin_experiment(1 + r * 200, &[&[]]);
        let stop = StopRule::Decisive {
            on: Key::SeatWin(1),
            against: 0.5,
            every: 20,
            max: 200,
        };
        let schedule = Schedule {
            stop,
            threads: 1,
            batch: 20,
            placings: false,
            first_game: 0,
        };
        let ran = deckhand_lab::run(
            &schedule,
            1,
            || Plays {
                engine: coin_engine(),
                experiment: &e,
            },
            || {},
        )
        .unwrap_or_else(|_| panic!("run {r}"));
        match ran.stopped {
            deckhand_lab::Stopped::Decisive => stopped += 1,
            deckhand_lab::Stopped::MaxGames => assert_eq!(ran.tally.games, 200),
            other => panic!("run {r}: {other:?}"),
        }
        // The same games looked at with a 95 % interval at every look.
        let mut naive_stop = false;
        for look in 1..=10u64 {
            let t = run_coin(&e, 20 * look, 1);
            let w = t.arms[0].get(&Key::SeatWin(1)).expect("seat 1").estimate();
            if w.low.is_some_and(|l| l > 0.5) || w.high.is_some_and(|h| h < 0.5) {
                naive_stop = true;
                break;
            }
        }
        naive += naive_stop as u32;
    }
    eprintln!("stopped when decisive: {stopped} of {runs}; a 95% interval at each look: {naive}");
    // Expected at most 15 of 300 (5 %); allow for chance (binomial sd 3.8).
    assert!(
        stopped <= 25,
        "{stopped} of {runs} runs stopped on a fair coin"
    );
    assert!(naive > stopped + 10, "naive {naive}, corrected {stopped}");
}

#[test]
fn decisive_stops_at_the_first_look_for_a_rigged_rule_and_never_for_identical_arms() {
    let rigged = format!("rigged=-v {}", fixture("seat_one_wins.lua"));
    // `compare` of two arms on win.seat1, looking every 50 games.
    let decisive = |first: &str, second: &str, max_games: &str| {
        json(&[
            "compare",
            "coin_flip",
            "--arm",
            first,
            "--arm",
            second,
            "--decisive",
            "win.seat1",
            "--every",
            "50",
            "--max-games",
            max_games,
        ])
    };
    let v = decisive("fair", &rigged, "1000");
    assert_eq!(v["stopped"], "decisive", "{v}");
    assert_eq!(v["games"], 50);
    assert_eq!(v["stop_rule"]["Decisive"]["every"], 50, "{v}");
    let v = decisive("a", "b", "150");
    assert_eq!(v["stopped"], "max_games");
    assert_eq!(v["games"], 150);
    // One arm: against a value; the text says how it looked.
    let dir = fixtures().display().to_string();
    let o = deckhand(&[
        "--scripts",
        &dir,
        "sim",
        "coin_flip",
        "-v",
        &fixture("seat_one_wins.lua"),
        "--decisive",
        "win.seat1",
        "--against",
        "0.5",
        "--max-games",
        "400",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("100 games") && t.contains("stopped: decisive on win.seat1"),
        "{t}"
    );
    assert!(
        t.contains("98.750% level") && t.contains("Bonferroni"),
        "{t}"
    );
    // Mistakes are named.
    let refused = |args: &[&str], says: &str| {
        let mut all = vec!["--scripts", dir.as_str()];
        all.extend_from_slice(args);
        let o = deckhand(&all);
        assert!(
            !o.status.success() && text(&o).contains(says),
            "{args:?}: {}",
            text(&o)
        );
    };
    refused(
        &[
            "sim",
            "coin_flip",
            "--decisive",
            "metric:nope",
            "--against",
            "0.5",
        ],
        "--decisive metric:nope: no game",
    );
    refused(
        &["sim", "coin_flip", "--decisive", "win.seat1"],
        "needs --against",
    );
    refused(
        &[
            "compare",
            "coin_flip",
            "--arm",
            "a",
            "--arm",
            "b",
            "--decisive",
            "win.seat1",
            "--against",
            "0.5",
        ],
        "for one arm",
    );
    refused(
        &["sim", "coin_flip", "--decisive", "win.seat1", "-n", "5"],
        "cannot be used with",
    );
}

#[test]
fn sim_fills_the_seats_given_in_order_and_keeps_the_player_count() {
    let v = json(&["sim", "sea_change", "-n", "4", "--seat", "random"]);
    assert_eq!(v["arms"][0]["players"], 4, "the game's default count");
    assert_eq!(
        v["arms"][0]["seats"],
        serde_json::json!(["random", "greedy", "greedy", "greedy"])
    );
    let v = json(&[
        "sim",
        "sea_change",
        "-p",
        "3",
        "-n",
        "4",
        "--seat",
        "random",
        "--seat",
        "random",
    ]);
    assert_eq!(
        v["arms"][0]["seats"],
        serde_json::json!(["random", "random", "greedy"])
    );
    let dir = fixtures().display().to_string();
    let o = deckhand(&[
        "--scripts",
        &dir,
        "sim",
        "sea_change",
        "-p",
        "2",
        "-n",
        "2",
        "--seat",
        "random",
        "--seat",
        "random",
        "--seat",
        "random",
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("3 seats given for 2 players"),
        "{}",
        text(&o)
    );
}

#[test]
fn team_games_report_teams_and_no_shared_wins() {
    let v = json(&["sim", "sea_change", "-v", "team", "-n", "20"]);
    let t1 = mean(&report_row(&v, 0, "win.team1"));
    let t2 = mean(&report_row(&v, 0, "win.team2"));
    assert!((t1 + t2 - 1.0).abs() < 1e-9, "{t1} + {t2}");
    assert_eq!(mean(&report_row(&v, 0, "shared")), 0.0);
    // Partners win together: seat 1's rate is its team's.
    assert_eq!(mean(&report_row(&v, 0, "win.seat1")), t1);
    let o = deckhand(&["sim", "sea_change", "-v", "team", "-n", "5"]);
    let t = text(&o);
    assert!(
        t.contains("team 1 wins") && t.contains("team 2 wins"),
        "{t}"
    );
}

#[test]
fn metrics_of_games_and_house_rules_are_reported_and_a_broken_one_is_located() {
    let v = json(&[
        "sim",
        "coin_flip",
        "-n",
        "50",
        "-v",
        &fixture("winner_metric.lua"),
    ]);
    let heads = report_row(&v, 0, "metric:heads");
    assert_eq!(heads["method"], "wilson");
    let seat = report_row(&v, 0, "metric:winning seat");
    assert!((mean(&seat) - (2.0 - mean(&heads))).abs() < 1e-12);
    assert_eq!(
        v["metrics"]["winning seat"],
        "The number of the seat that won"
    );
    // Every built-in game defines three metrics or more.
    for game in ["sea_change", "seas_of_strife", "sea_salt_paper", "seadogs"] {
        let v = json(&["sim", game, "-n", "3"]);
        let metrics = v["metrics"].as_object().map(|m| m.len()).unwrap_or(0);
        assert!(metrics >= 3, "{game}: {metrics} metrics");
        for name in v["metrics"].as_object().into_iter().flatten().map(|m| m.0) {
            let _ = report_row(&v, 0, &format!("metric:{name}"));
        }
    }
    let dir = fixtures().display().to_string();
    let o = deckhand(&[
        "--scripts",
        &dir,
        "sim",
        "coin_flip",
        "-n",
        "5",
        "-v",
        &fixture("broken_metric.lua"),
    ]);
    assert!(!o.status.success());
    let t = text(&o);
    assert!(
        t.contains("metric 'oops'") && t.contains("broken_metric.lua:8") && t.contains("string"),
        "{t}"
    );
    // `check` finds it before any simulation.
    let o = deckhand(&[
        "--scripts",
        &dir,
        "check",
        &fixture("broken_metric.lua"),
        "-n",
        "1",
    ]);
    assert!(!o.status.success());
    let t = text(&o);
    assert!(
        t.contains("metric 'oops'") && t.contains("broken_metric.lua:8"),
        "{t}"
    );
}

#[test]
fn csv_has_a_line_per_statistic_of_every_table() {
    let dir = fixtures().display().to_string();
    let rigged = format!("rigged=-v {}", fixture("seat_one_wins.lua"));
    let o = deckhand(&[
        "--scripts",
        &dir,
        "compare",
        "coin_flip",
        "--arm",
        "fair",
        "--arm",
        &rigged,
        "-n",
        "20",
        "--csv",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("table,arm,base,statistic,label,games,mean"));
    let v = json(&[
        "compare",
        "coin_flip",
        "--arm",
        "fair",
        "--arm",
        &rigged,
        "-n",
        "20",
    ]);
    let rows = |p: &str| {
        v.pointer(p)
            .and_then(Value::as_array)
            .map(Vec::len)
            .unwrap_or(0)
    };
    assert_eq!(
        lines.len() - 1,
        rows("/arms/0/rows") + rows("/arms/1/rows") + rows("/differences/0/rows")
    );
    assert!(lines
        .iter()
        .any(|l| l.starts_with("difference,rigged,fair,win.seat1,")));
}

#[test]
fn bot_comparisons_rotate_the_seats_in_every_arm() {
    // The table of every run below: greedy against random, 2 players.
    let table = ["--seat", "greedy", "--seat", "random", "-p", "2"];
    let arms = ["--arm", "plain", "--arm", "five=-o target_vp=2"];
    let v = json(&[&["compare", "sea_change"][..], &arms, &table, &["-n", "20"]].concat());
    assert_eq!(v["rotate"], true);
    // Per-player rows: greedy (player 1) and random (player 2) each sat in
    // both seats, ten games each, in both arms.
    let g = report_row(&v, 0, "win.player1");
    let r = report_row(&v, 0, "win.player2");
    assert_eq!(g["label"], "player 1 (greedy) wins");
    assert!((mean(&g) + mean(&r) - 1.0).abs() < 1e-9 || mean(&report_row(&v, 0, "shared")) > 0.0);
    assert_eq!(difference_row(&v, 0, "win.player1")["n"], 20);
    // The head-to-head row: player 1's wins minus player 2's, game by game.
    let lead = report_row(&v, 0, "lead.player2");
    assert_eq!(
        lead["label"],
        "player 1 (greedy) wins minus player 2 (random) wins"
    );
    assert!((mean(&lead) - (mean(&g) - mean(&r))).abs() < 1e-9);
    // In the text report a lead reads in points, as a difference does.
    let o = deckhand(&[&["sim", "sea_change"][..], &table, &["-n", "4", "--rotate"]].concat());
    let out = text(&o);
    let line = out
        .lines()
        .find(|l| l.starts_with("player 1 (greedy) wins minus player 2 (random) wins"))
        .unwrap_or_else(|| panic!("no lead row in:\n{out}"));
    assert!(line.contains(" pts"), "{line}");
    // Without rotation, no player rows.
    let v = json(
        &[
            &["compare", "sea_change"][..],
            &arms,
            &table,
            &["-n", "4", "--no-rotate"],
        ]
        .concat(),
    );
    assert_eq!(v["rotate"], false);
    assert!(!v.to_string().contains("win.player1"));
    assert!(!v.to_string().contains("lead.player2"));
}

#[test]
fn an_experiment_file_defines_the_arms() {
    let dir = tempfile::tempdir().expect("tmp");
    let file = dir.path().join("exp.json");
    std::fs::copy(fixture("seat_one_wins.lua"), dir.path().join("rig.lua")).expect("copy");
    std::fs::write(
        &file,
        r#"{"game": "coin_flip", "arms": [
             {"name": "fair"},
             {"name": "rigged", "variants": ["rig.lua"]},
             {"name": "three", "players": 3}
           ]}"#,
    )
    .expect("write");
    let v = json(&[
        "compare",
        "--experiment",
        &file.display().to_string(),
        "-n",
        "60",
    ]);
    assert_eq!(v["arms"].as_array().map(Vec::len), Some(3));
    assert_eq!(v["differences"][1]["arm"], "three");
    assert_eq!(mean(&report_row(&v, 1, "win.seat1")), 1.0);
    assert_eq!(v["arms"][2]["players"], 3);
}

#[test]
fn histograms_fit_the_terminal_width_without_colour() {
    let dir = fixtures().display().to_string();
    let o = Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .env("COLUMNS", "50")
        .env("NO_COLOR", "1")
        .args([
            "--scripts",
            &dir,
            "sim",
            "coin_flip",
            "-n",
            "200",
            "--histograms",
        ])
        .current_dir(std::env::temp_dir())
        .output()
        .expect("run deckhand");
    assert!(o.status.success(), "{}", text(&o));
    let t = String::from_utf8_lossy(&o.stdout).to_string();
    let start = t
        .find("final score (every seat): distribution")
        .unwrap_or_else(|| panic!("{t}"));
    let bars: Vec<&str> = t[start..].lines().skip(1).take(2).collect();
    // Scores 0 and 1, each half of the 400 seat scores: two equal bars.
    assert!(
        bars[0].starts_with("0 │█") && bars[1].starts_with("1 │█"),
        "{t}"
    );
    assert!(bars.iter().all(|l| l.ends_with(" 50.0%  200")), "{bars:?}");
    let chart_lines = t.lines().filter(|l| l.contains('│'));
    for l in chart_lines {
        assert!(l.chars().count() <= 50, "wider than 50 columns: {l}");
    }
    assert!(!t.contains('\x1b'), "no colour with NO_COLOR");
}

/// A house rule of coin_flip with two metrics that move by little: `tiny`
/// (a number, `small` more when heads) and `calm rounds` (a share of
/// rounds, declared so, `small` more when heads).
fn small_figures(small: f64) -> String {
    format!(
        "return {{ id = 'small_figures', game = 'coin_flip', modify = function(rules)\n\
         \x20 rules.metrics['tiny'] = {{ doc = 'a small number',\n\
         \x20   value = function(game) return 0.0005 + (game.vars.winner == 1 and {small} or 0) end }}\n\
         \x20 rules.metrics['calm rounds'] = {{ doc = 'a share of rounds', share = true,\n\
         \x20   value = function(game) return 0.25 + (game.vars.winner == 1 and {small} or 0) end }}\n\
         end }}\n"
    )
}

/// Differences of a few thousandths: every number with the digits its
/// interval needs, shares in percent, a `*` only beside an interval that
/// reads as excluding 0, and the same numbers as the JSON's.
#[test]
fn small_differences_print_with_the_digits_their_intervals_need() {
    let dir = tempfile::tempdir().expect("tmp");
    let a = dir.path().join("a.lua");
    let b = dir.path().join("b.lua");
    std::fs::write(&a, small_figures(0.0)).expect("write");
    std::fs::write(&b, small_figures(0.003)).expect("write");
    let scripts = fixtures().display().to_string();
    let arm_a = format!("a=-v {}", a.display());
    let arm_b = format!("b=-v {}", b.display());
    let args = [
        "--scripts",
        &scripts,
        "compare",
        "coin_flip",
        "--arm",
        &arm_a,
        "--arm",
        &arm_b,
        "-n",
        "400",
    ];
    let o = deckhand(&args);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let row = |start: &str| -> Vec<String> {
        let diffs = out
            .split("(paired by seed)")
            .nth(1)
            .expect("a difference table");
        diffs
            .lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no row {start:?} in:\n{out}"))
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    let v = json(&args[2..]);
    let d = |key: &str| difference_row(&v, 0, key);
    // `tiny`: about +0.0015, its interval well above 0.
    let tiny = row("tiny");
    let (low, high) = (
        d("metric:tiny")["low"].as_f64().expect("low"),
        d("metric:tiny")["high"].as_f64().expect("high"),
    );
    assert!(low > 0.0005 && high < 0.003, "{low} .. {high}");
    assert_eq!(tiny.last().map(String::as_str), Some("*"), "{tiny:?}");
    for cell in [&tiny[1], &tiny[2], &tiny[4]] {
        let x: f64 = cell
            .parse()
            .unwrap_or_else(|_| panic!("{cell} in {tiny:?}"));
        assert!(x > 0.0, "{cell} reads as 0: {tiny:?}");
        assert!(cell.starts_with('+'), "{tiny:?}");
    }
    let close = |cell: &str, x: f64| {
        let digits = cell.split('.').nth(1).map_or(0, str::len);
        let shown: f64 = cell.parse().expect("a number");
        assert!(
            (shown - x).abs() <= 0.5 * 10f64.powi(-(digits as i32)) + 1e-12,
            "{cell} is not {x}"
        );
    };
    close(&tiny[2], low);
    close(&tiny[4], high);
    // `calm rounds`: a share, in points, with the sign.
    let calm = row("calm rounds");
    assert_eq!(calm[3], "pts", "{calm:?}");
    assert!(calm[2].starts_with('+') && calm[2] != "+0.0", "{calm:?}");
    let low = d("metric:calm rounds")["low"].as_f64().expect("low");
    close(&calm[4], low * 100.0);
    // The arm tables show it in percent.
    assert!(
        out.lines()
            .any(|l| l.starts_with("calm rounds") && l.contains('%')),
        "{out}"
    );
    // The HTML page shows the same numbers and marks.
    let page = dir.path().join("report.html");
    let mut with_page = args.to_vec();
    with_page.extend(["--html", page.to_str().expect("utf-8 path")]);
    let o = deckhand(&with_page);
    assert!(o.status.success(), "{}", text(&o));
    let html = std::fs::read_to_string(&page).expect("the page");
    for cells in [&tiny, &calm] {
        let (value, interval) = if cells[3] == "pts" {
            (
                format!("{} pts", cells[2]),
                format!("{} pts .. {} pts", cells[4], cells[7]),
            )
        } else {
            (cells[1].clone(), format!("{} .. {}", cells[2], cells[4]))
        };
        assert!(
            html.contains(&format!(
                "<td class=\"mean\">{value} *</td><td class=\"interval\">{interval}</td>"
            )),
            "{value} {interval} not in the page"
        );
    }
    // No row anywhere has a star beside an interval that reads as
    // touching 0.
    for l in out.lines().filter(|l| l.ends_with(" *")) {
        assert!(
            !l.contains(" 0.0 ")
                && !l.contains("+0.00 ")
                && !l.contains("-0.00 ")
                && !l.contains("+0.0 pts")
                && !l.contains("-0.0 pts"),
            "{l}"
        );
    }
}

/// A metric declared a share must be one: a value outside 0..1 stops the
/// run naming it, and `share` is true or false.
#[test]
fn a_metric_declared_a_share_returns_a_number_from_0_to_1() {
    let dir = tempfile::tempdir().expect("tmp");
    let scripts = fixtures().display().to_string();
    for (share, value, says) in [
        ("true", "1.5", "metric 'odd' ("),
        ("'yes'", "0.5", "metric odd: `share` is true"),
    ] {
        let rule = dir.path().join("odd.lua");
        std::fs::write(
            &rule,
            format!(
                "return {{ id = 'odd', game = 'coin_flip', modify = function(rules)\n\
                 \x20 rules.metrics['odd'] = {{ doc = 'odd', share = {share},\n\
                 \x20   value = function(game) return {value} end }}\n\
                 end }}\n"
            ),
        )
        .expect("write");
        let path = rule.display().to_string();
        let o = deckhand(&[
            "--scripts",
            &scripts,
            "sim",
            "coin_flip",
            "-v",
            &path,
            "-n",
            "3",
        ]);
        assert!(!o.status.success(), "{}", text(&o));
        assert!(text(&o).contains(says), "{}", text(&o));
    }
}

/// A `--html` page (or `--trace`) that cannot be written stops the run
/// before it plays: no report, the file named, and quickly.
#[test]
fn an_unwritable_html_or_trace_path_fails_before_anything_is_played() {
    let dir = tempfile::tempdir().expect("tmp");
    let missing = dir.path().join("no such folder/report.html");
    let missing = missing.display().to_string();
    let trace = dir.path().join("no such folder/trace.jsonl");
    let trace = trace.display().to_string();
    let runs: [&[&str]; 5] = [
        &["sim", "sea_change", "-n", "2000", "--html", &missing],
        &["sim", "sea_change", "-n", "2000", "--trace", &trace],
        &[
            "compare",
            "sea_change",
            "--arm",
            "a=",
            "--arm",
            "b=-o target_vp=5",
            "-n",
            "1000",
            "--html",
            &missing,
        ],
        &[
            "tune",
            "sea_change",
            "--try",
            "target_vp=3,5",
            "--stat",
            "rounds",
            "--minimize",
            "-n",
            "400",
            "--html",
            &missing,
        ],
        &["merge", "no-such-shard.json", "--html", &missing],
    ];
    for args in runs {
        let started = std::time::Instant::now();
        let o = deckhand(args);
        let all = text(&o);
        assert!(!o.status.success(), "{args:?}: {all}");
        assert!(o.stdout.is_empty(), "{args:?} printed a report: {all}");
        let file = if args.contains(&"--trace") {
            &trace
        } else {
            &missing
        };
        assert!(all.contains(file.as_str()), "{args:?}: {all}");
        assert!(
            all.contains("cannot write the HTML page (--html)") || args.contains(&"--trace"),
            "{args:?}: {all}"
        );
        assert!(
            started.elapsed().as_secs() < 10,
            "{args:?} took {:?}",
            started.elapsed()
        );
    }
}

/// The built-in scripts' house rule that makes eights worth -5.
fn eights_rule() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../scripts/house_rules/eights_minus_five.lua")
        .display()
        .to_string()
}

/// A table of many differences says that about one star in twenty rows
/// comes by chance, and what Holm's and the Benjamini-Hochberg
/// corrections keep: in the text, the page and the JSON (each row's p and
/// both decisions).
#[test]
fn a_report_of_many_rows_says_one_star_in_twenty_is_chance_and_names_its_corrections() {
    let dir = tempfile::tempdir().expect("tmp");
    let page = dir.path().join("report.html");
    let page_arg = page.display().to_string();
    let arm = format!("eights=-v {}", eights_rule());
    let args = [
        "compare",
        "sea_change",
        "--arm",
        "base",
        "--arm",
        &arm,
        "-n",
        "200",
    ];
    let mut with_html = args.to_vec();
    with_html.extend(["--html", &page_arg]);
    let o = deckhand(&with_html);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let note = out
        .lines()
        .find(|l| l.contains("about one star in twenty rows is expected by chance"))
        .unwrap_or_else(|| panic!("no note of chance: {out}"));
    assert!(
        note.starts_with("17 rows, each starred at 5 % on its own"),
        "{note}"
    );
    assert!(
        note.contains("Holm's method (family-wise error 5 %)"),
        "{note}"
    );
    assert!(
        note.contains("the Benjamini-Hochberg method (false discovery rate 5 %)"),
        "{note}"
    );
    let html = std::fs::read_to_string(&page).expect("the page");
    assert!(
        html.contains("<p class=\"muted many-rows\">17 rows, each starred"),
        "{html}"
    );
    assert!(html.contains("Holm&#39;s method"), "{html}");
    assert!(html.contains("Benjamini-Hochberg"), "{html}");

    let mut with_json = args.to_vec();
    with_json.push("--json");
    let o = deckhand(&with_json);
    assert!(o.status.success(), "{}", text(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let rows = v["differences"][0]["rows"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(rows.len(), 17);
    for row in rows {
        let p = row["p"].as_f64().unwrap_or(f64::NAN);
        assert!((0.0..=1.0).contains(&p), "{row}");
        let starred = row["significant"] == Value::Bool(true);
        // The 5 % test of the row alone and its p-value agree.
        assert_eq!(starred, p < 0.05, "{row}");
        // A correction keeps only stars.
        for c in ["holm", "bh"] {
            assert!(row[c].is_boolean(), "{row}");
            assert!(starred || row[c] == Value::Bool(false), "{row}");
        }
    }
}

/// `sim` and `tune` say what their seeds are (from 1, not the clock), and
/// their footers speak of no differences or stars they do not print.
#[test]
fn sim_and_tune_help_and_footers_say_only_what_is_true() {
    for cmd in ["sim", "tune"] {
        let o = deckhand(&[cmd, "--help"]);
        let help = text(&o);
        let seed = help
            .lines()
            .skip_while(|l| !l.contains("--seed"))
            .take(2)
            .collect::<String>();
        assert!(seed.contains("(default: 1)"), "{cmd}: {seed}");
        assert!(!seed.contains("clock"), "{cmd}: {seed}");
    }
    let o = deckhand(&["play", "--help"]);
    assert!(
        text(&o).contains("(default: from the clock)"),
        "{}",
        text(&o)
    );

    let o = deckhand(&["sim", "sea_change", "-n", "20"]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("95% intervals: Wilson score"), "{out}");
    assert!(!out.contains("paired"), "{out}");
    assert!(!out.contains("* marks"), "{out}");

    let o = deckhand(&[
        "tune",
        "sea_change",
        "--try",
        "target_vp=3,5",
        "--stat",
        "rounds",
        "--minimize",
        "-n",
        "20",
    ]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("(successive halving, 1 round, seeds from 1)"),
        "{out}"
    );
    assert!(!out.contains("paired"), "{out}");
    assert!(!out.contains("* marks"), "{out}");
}
