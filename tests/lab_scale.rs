//! The lab beyond one process: `--shard K/N` and `deckhand merge` give
//! exactly the report of one run, and `deckhand tune` finds the option
//! value a statistic depends on.

use crate::common::lab::{fails, fixtures, merge_json, ok, shard, text, untimed};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[test]
fn three_shards_merged_are_exactly_one_run_of_compare() {
    let dir = tempfile::tempdir().expect("tmp");
    let winner = fixtures().join("winner_metric.lua").display().to_string();
    let rigged = format!(
        "rigged=-v {}",
        fixtures().join("seat_one_wins.lua").display()
    );
    // Two arms, a house rule's metric, histograms, odd numbers of games.
    let args = [
        "compare",
        "coin_flip",
        "-v",
        &winner,
        "--arm",
        "fair",
        "--arm",
        &rigged,
        "--arm",
        "three=-p 3",
        "-n",
        "301",
        "--seed",
        "17",
    ];
    let mut one = args.to_vec();
    one.push("--json");
    let whole = untimed(&ok(&one));
    let files: Vec<String> = (1..=3).map(|k| shard(dir.path(), &args, k, 3)).collect();
    // In any order.
    let merged = untimed(&merge_json(&[
        files[2].clone(),
        files[0].clone(),
        files[1].clone(),
    ]));
    assert_eq!(merged, whole);
    assert_eq!(merged["games"], 301);
    // Shards are contiguous blocks of the seeds: 100, 100 and 101 games.
    let counts: Vec<Value> = files
        .iter()
        .map(|f| {
            let v: Value = serde_json::from_slice(&std::fs::read(f).expect("read")).expect("j");
            assert_eq!(v["format"], 2);
            serde_json::json!([v["start"], v["end"], v["tally"]["games"]])
        })
        .collect();
    assert_eq!(
        counts,
        vec![
            serde_json::json!([0, 100, 100]),
            serde_json::json!([100, 200, 100]),
            serde_json::json!([200, 301, 101])
        ]
    );
    // The same text report as the run's (but its timing line).
    let mut text_args = args.to_vec();
    text_args.push("--histograms");
    let strip = |b: Vec<u8>| {
        String::from_utf8_lossy(&b)
            .lines()
            .filter(|l| !l.starts_with("elapsed"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut merge_args = vec!["merge", "--histograms"];
    merge_args.extend(files.iter().map(String::as_str));
    assert_eq!(strip(ok(&merge_args)), strip(ok(&text_args)));
}

#[test]
fn two_shards_run_as_separate_processes_merge_into_the_one_process_report() {
    let dir = tempfile::tempdir().expect("tmp");
    let args = [
        "sim",
        "sea_change",
        "-n",
        "24",
        "--seed",
        "5",
        "--seat",
        "random",
        "--rotate",
        "-j",
        "1",
    ];
    // Both shards at once, as two processes.
    let children: Vec<(PathBuf, std::process::Child)> = (1..=2)
        .map(|k| {
            let path = dir.path().join(format!("part{k}.json"));
            let out = std::fs::File::create(&path).expect("create");
            let child = Command::new(env!("CARGO_BIN_EXE_deckhand"))
                .args(args)
                .args(["--shard", &format!("{k}/2")])
                .current_dir(std::env::temp_dir())
                .stdout(Stdio::from(out))
                .stderr(Stdio::null())
                .spawn()
                .expect("start a shard");
            (path, child)
        })
        .collect();
    let mut files = Vec::new();
    for (path, mut child) in children {
        assert!(child.wait().expect("wait").success());
        files.push(path.display().to_string());
    }
    let merged = untimed(&merge_json(&files));
    let mut one = args.to_vec();
    one.push("--json");
    assert_eq!(merged, untimed(&ok(&one)));
    assert_eq!(merged["games"], 24);
    assert_eq!(merged["rotate"], true);
}

#[test]
fn merge_refuses_missing_doubled_and_foreign_shards() {
    let dir = tempfile::tempdir().expect("tmp");
    let args = ["sim", "coin_flip", "-n", "50"];
    let a = shard(dir.path(), &args, 1, 3);
    let b = shard(dir.path(), &args, 2, 3);
    let c = shard(dir.path(), &args, 3, 3);
    let t = fails(&["merge", &a, &c]);
    assert!(t.contains("missing shard 2 of 3"), "{t}");
    let t = fails(&["merge", &a, &b, &b]);
    assert!(t.contains("shard 2/3 is given twice"), "{t}");
    // Another number of games, another seed, another option: another run.
    let elsewhere = tempfile::tempdir().expect("tmp");
    let other = shard(elsewhere.path(), &["sim", "coin_flip", "-n", "60"], 2, 3);
    let t = fails(&["merge", &a, &other, &c]);
    assert!(t.contains(&other) && t.contains("games 50 ≠ 60"), "{t}");
    let seeded = dir.path().join("seeded.json");
    std::fs::write(
        &seeded,
        ok(&[
            "sim",
            "coin_flip",
            "-n",
            "50",
            "--seed",
            "9",
            "--shard",
            "2/3",
        ]),
    )
    .expect("write");
    let t = fails(&["merge", &a, &seeded.display().to_string(), &c]);
    assert!(t.contains("seed 1 ≠ 9"), "{t}");
    // Not a shard file; a damaged one.
    let report = dir.path().join("report.json");
    std::fs::write(&report, ok(&["sim", "coin_flip", "-n", "5", "--json"])).expect("write");
    let t = fails(&["merge", &report.display().to_string()]);
    assert!(t.contains("not a shard file"), "{t}");
    let text = std::fs::read_to_string(&b).expect("read");
    let damaged = dir.path().join("damaged.json");
    std::fs::write(
        &damaged,
        text.replace("\"tally\":{\"games\":17", "\"tally\":{\"games\":-3"),
    )
    .expect("write");
    let t = fails(&["merge", &a, &damaged.display().to_string(), &c]);
    assert!(t.contains("damaged.json"), "{t}");
    // A tally that does not fit its shard.
    let lying = dir.path().join("lying.json");
    let mut v: Value = serde_json::from_str(&text).expect("json");
    v["tally"]["games"] = serde_json::json!(5);
    std::fs::write(&lying, v.to_string()).expect("write");
    let t = fails(&["merge", &a, &lying.display().to_string(), &c]);
    assert!(t.contains("5 games counted for 17 played"), "{t}");
    // A precision target cannot be sharded.
    let t = fails(&[
        "sim",
        "coin_flip",
        "--precision",
        "0.05",
        "--on",
        "win.seat1",
        "--shard",
        "1/2",
    ]);
    assert!(t.contains("--shard needs a fixed number of games"), "{t}");
    let t = fails(&["sim", "coin_flip", "--shard", "3/2"]);
    assert!(t.contains("K from 1 to N"), "{t}");
}

/// Write `v` as `name` in `dir`; its path.
fn write_json(dir: &Path, name: &str, v: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, v.to_string()).expect("write");
    path.display().to_string()
}

#[test]
fn merge_refuses_impossible_figures_naming_the_file_and_the_field() {
    let dir = tempfile::tempdir().expect("tmp");
    let args = ["sim", "coin_flip", "-n", "40"];
    let a = shard(dir.path(), &args, 1, 2);
    let b = shard(dir.path(), &args, 2, 2);
    let good: Value = serde_json::from_slice(&std::fs::read(&b).expect("read")).expect("json");
    let edited = |name: &str, edit: &dyn Fn(&mut Value)| {
        let mut v = good.clone();
        edit(&mut v);
        let path = write_json(dir.path(), name, &v);
        (fails(&["merge", &a, &path]), path)
    };
    // A total beyond the largest number printed "NaN%".
    let (t, path) = edited("huge.json", &|v| {
        v["tally"]["arms"][0]["win.seat1"]["sum"]["partials"] = serde_json::json!([1e308, 1e308])
    });
    assert!(
        t.contains(&path)
            && t.contains(r#"tally.arms[0]["win.seat1"].sum: its partial sums add up beyond"#)
            && !t.contains("NaN"),
        "{t}"
    );
    // More wins than games.
    let (t, path) = edited("wins.json", &|v| {
        let w = &mut v["tally"]["arms"][0]["win.seat1"];
        w["sum"]["partials"] = serde_json::json!([30.0]);
        w["sum_sq"]["partials"] = serde_json::json!([30.0]);
    });
    assert!(
        t.contains(&path) && t.contains(r#"["win.seat1"].sum: 30 for 20 values from 0 to 1"#),
        "{t}"
    );
    // A negative count.
    let (t, path) = edited("negative.json", &|v| {
        v["tally"]["arms"][0]["rounds"]["n"] = serde_json::json!(-20)
    });
    assert!(
        t.contains(&format!(
            "{path}: tally.arms[0].rounds.n is -20: a count is a whole number from 0"
        )),
        "{t}"
    );
    // The good shard merges.
    merge_json(&[a.clone(), b.clone()]);
}

#[test]
fn merge_says_which_list_of_a_tally_does_not_fit_the_run() {
    let dir = tempfile::tempdir().expect("tmp");
    let args = [
        "compare",
        "coin_flip",
        "--arm",
        "a",
        "--arm",
        "b",
        "-n",
        "20",
    ];
    let a = shard(dir.path(), &args, 1, 2);
    let b = shard(dir.path(), &args, 2, 2);
    let good: Value = serde_json::from_slice(&std::fs::read(&b).expect("read")).expect("json");
    let mut v = good.clone();
    v["tally"]["diffs"] = serde_json::json!([]);
    let path = write_json(dir.path(), "diffs.json", &v);
    let t = fails(&["merge", &a, &path]);
    assert!(
        t.contains("0 paired differences, expected 1") && !t.contains("2 arms, expected 2"),
        "{t}"
    );
    let mut v = good.clone();
    v["tally"]["histograms"] = serde_json::json!([{}]);
    let path = write_json(dir.path(), "histograms.json", &v);
    let t = fails(&["merge", &a, &path]);
    assert!(t.contains("distributions for 1 arm, expected 2"), "{t}");
    let mut v = good;
    v["tally"]["arms"] = serde_json::json!([]);
    v["tally"]["diffs"] = serde_json::json!([]);
    v["tally"]["histograms"] = serde_json::json!([]);
    let path = write_json(dir.path(), "none.json", &v);
    let t = fails(&["merge", &a, &path]);
    assert!(t.contains("0 arms counted, the run has 2 arms"), "{t}");
}

#[test]
fn shards_of_edited_rules_do_not_merge_and_the_file_that_differs_is_named() {
    let dir = tempfile::tempdir().expect("tmp");
    // A copy of the built-in Sea Change with one points value changed.
    let edited = dir.path().join("edited");
    std::fs::create_dir_all(edited.join("sea_change")).expect("mkdir");
    let builtin = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/sea_change/game.lua");
    let game = std::fs::read_to_string(builtin).expect("read");
    let changed = game.replace("rules.TRUMP_ZERO_POINTS = 5", "rules.TRUMP_ZERO_POINTS = 6");
    assert_ne!(changed, game);
    std::fs::write(edited.join("sea_change/game.lua"), changed).expect("write");
    let edited = edited.display().to_string();
    let args = ["sim", "sea_change", "-n", "6", "-j", "1", "--seed", "3"];
    let a = shard(dir.path(), &args, 1, 2);
    let b = shard(dir.path(), &args, 2, 2);
    let mut other = vec!["--scripts", edited.as_str()];
    other.extend(args);
    other.extend(["--shard", "2/2"]);
    let foreign = dir.path().join("foreign.json");
    std::fs::write(&foreign, ok(&other)).expect("write");
    let foreign = foreign.display().to_string();
    let t = fails(&["merge", &a, &foreign]);
    assert!(
        t.contains(&format!(
            "{foreign} (shard 2/2) ran different rules than {a}: sea_change/game.lua differs"
        )),
        "{t}"
    );
    // The same rules merge; a shard of the older format is refused as such.
    merge_json(&[a.clone(), b.clone()]);
    let mut old: Value = serde_json::from_slice(&std::fs::read(&b).expect("read")).expect("json");
    old["format"] = serde_json::json!(1);
    let old_path = write_json(dir.path(), "old.json", &old);
    let t = fails(&["merge", &a, &old_path]);
    assert!(
        t.contains(&format!(
            "{old_path}: shard format 1, this deckhand reads format 2"
        )),
        "{t}"
    );
    // A grid tune's shards too: a copy of the voyage fixture, edited.
    let voyage = dir.path().join("voyage_copy");
    std::fs::create_dir_all(voyage.join("voyage")).expect("mkdir");
    let original = std::fs::read_to_string(fixtures().join("voyage/game.lua")).expect("read");
    std::fs::write(
        voyage.join("voyage/game.lua"),
        format!("{original}\n-- edited\n"),
    )
    .expect("write");
    let voyage = voyage.display().to_string();
    let grid = [
        "tune",
        "voyage",
        "--try",
        "length=2,3",
        "--stat",
        "rounds",
        "--maximize",
        "-n",
        "6",
        "--search",
        "grid",
    ];
    let first = shard(dir.path(), &grid, 1, 2);
    // The edited copy's folder ahead of the fixtures.
    let o = Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .args(["--scripts", voyage.as_str(), "--scripts"])
        .arg(fixtures())
        .args(grid)
        .args(["--shard", "2/2"])
        .current_dir(std::env::temp_dir())
        .output()
        .expect("run deckhand");
    assert!(o.status.success(), "{}", text(&o));
    let second = dir.path().join("tune-foreign.json");
    std::fs::write(&second, o.stdout).expect("write");
    let second = second.display().to_string();
    let t = fails(&["merge", &first, &second]);
    assert!(
        t.contains("ran different rules") && t.contains("voyage/game.lua differs (arm length=2)"),
        "{t}"
    );
}

fn tune(args: &[&str]) -> Value {
    let mut all = vec!["tune", "voyage"];
    all.extend_from_slice(args);
    all.push("--json");
    serde_json::from_slice(&ok(&all)).expect("JSON")
}

#[test]
fn tune_finds_the_option_value_a_statistic_depends_on() {
    // Rounds per game are exactly length + 0.5 on average.
    let v = tune(&[
        "--try",
        "length=1..16",
        "--stat",
        "rounds",
        "--target",
        "8.5",
        "-n",
        "30",
    ]);
    assert_eq!(v["best"], "length=8", "{v}");
    assert_eq!(v["best_values"]["length"], "8");
    let best = &v["candidates"][0];
    let e = &best["estimate"];
    assert_eq!(e["method"], "student-t");
    assert!(e["low"].as_f64().expect("low") <= 8.5 && 8.5 <= e["high"].as_f64().expect("high"));
    // Successive halving: 16, 8, 4, 2 candidates on 30, 60, 120, 240 games.
    let rounds: Vec<(u64, usize)> = v["rounds"]
        .as_array()
        .expect("rounds")
        .iter()
        .map(|r| {
            (
                r["games"].as_u64().expect("games"),
                r["candidates"].as_array().map(Vec::len).unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(rounds, vec![(30, 16), (60, 8), (120, 4), (240, 2)]);
    assert_eq!(best["games"], 240);
    // Every candidate tried is reported, with the games it got.
    let candidates = v["candidates"].as_array().expect("candidates");
    assert_eq!(candidates.len(), 16);
    let games: u64 = candidates
        .iter()
        .map(|c| c["games"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(games, 8 * 30 + 4 * 60 + 2 * 120 + 2 * 240);
    // Candidates on the same seeds: each mean is the other's plus the
    // difference of their lengths, exactly (the extra flips are paired).
    let mean = |name: &str| {
        candidates
            .iter()
            .find(|c| c["name"] == name)
            .and_then(|c| c["estimate"]["mean"].as_f64())
            .expect("mean")
    };
    assert!((mean("length=1") + 15.0 - mean("length=16")).abs() < 1e-9);
    // Maximise, minimise, and a grid.
    assert_eq!(
        tune(&[
            "--try",
            "length=3..7",
            "--stat",
            "rounds",
            "--maximize",
            "-n",
            "10"
        ])["best"],
        "length=7"
    );
    let grid = tune(&[
        "--try",
        "length=3..7",
        "--stat",
        "rounds",
        "--minimize",
        "-n",
        "10",
        "--search",
        "grid",
    ]);
    assert_eq!(grid["best"], "length=3");
    assert!(grid["candidates"]
        .as_array()
        .expect("c")
        .iter()
        .all(|c| c["games"] == 10));
    // A negative target reads as a number.
    assert_eq!(
        tune(&[
            "--try",
            "length=1..3",
            "--stat",
            "rounds",
            "--target",
            "-3",
            "-n",
            "10"
        ])["best"],
        "length=1"
    );
    // Unknown statistic, no goal.
    let t = fails(&[
        "tune",
        "voyage",
        "--try",
        "length=1,2",
        "--stat",
        "metric:nope",
        "--target",
        "1",
    ]);
    assert!(t.contains("metric:nope") && t.contains("rounds"), "{t}");
    let t = fails(&["tune", "voyage", "--try", "length=1,2", "--stat", "rounds"]);
    assert!(t.contains("--target X, --maximize or --minimize"), "{t}");
    let t = fails(&[
        "tune",
        "voyage",
        "--try",
        "length=0,2",
        "--stat",
        "rounds",
        "--target",
        "1",
    ]);
    assert!(t.contains("candidate length=0"), "{t}");
}

#[test]
fn tune_is_deterministic_and_its_grid_shards_merge_exactly() {
    let args = [
        "--try",
        "length=2..5",
        "--try",
        "bogus=1",
        "--stat",
        "win.seat1",
        "--maximize",
        "-n",
        "40",
    ];
    // An option the game does not have is refused.
    let mut bad = vec!["tune", "voyage"];
    bad.extend_from_slice(&args);
    let t = fails(&bad);
    assert!(t.contains("bogus"), "{t}");
    let args = [
        "--try",
        "length=2..5",
        "--stat",
        "win.seat1",
        "--maximize",
        "-n",
        "40",
    ];
    let strip = |mut v: Value| {
        v.as_object_mut().map(|o| {
            o.remove("elapsed_s");
            o.remove("threads")
        });
        v
    };
    let mut one = args.to_vec();
    one.extend(["-j", "1"]);
    let mut two = args.to_vec();
    two.extend(["-j", "2"]);
    assert_eq!(strip(tune(&one)), strip(tune(&two)));
    // A grid tune split in two shards.
    let dir = tempfile::tempdir().expect("tmp");
    let mut grid = vec!["tune", "voyage"];
    grid.extend_from_slice(&args);
    grid.extend(["--search", "grid"]);
    let files: Vec<String> = (1..=2).map(|k| shard(dir.path(), &grid, k, 2)).collect();
    let merged = strip(serde_json::from_slice(&merge_json(&files)).expect("JSON"));
    let mut whole = grid[2..].to_vec();
    whole.extend(["-j", "1"]);
    assert_eq!(merged, strip(tune(&whole)));
    let mut halving = vec!["tune", "voyage"];
    halving.extend_from_slice(&args);
    halving.extend(["--shard", "1/2"]);
    let t = fails(&halving);
    assert!(t.contains("--shard needs --search grid"), "{t}");
}
