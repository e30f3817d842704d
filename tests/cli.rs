//! The `deckhand` subcommands, run as a user runs them.

use std::path::PathBuf;
use std::process::{Command, Output};

fn deckhand(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .args(args)
        .current_dir(std::env::temp_dir())
        .env("NO_COLOR", "1")
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

/// `deckhand sim ARGS --json`, which must succeed: its report.
fn sim_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["sim"];
    all.extend_from_slice(args);
    all.push("--json");
    let o = deckhand(&all);
    assert!(o.status.success(), "{}", text(&o));
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

/// A Sea Change house rule `ID.lua` in `dir` that runs the Lua statement
/// `before` (on line 4 of the file) before every step.
fn before_apply(dir: &std::path::Path, id: &str, before: &str) -> PathBuf {
    let path = dir.join(format!("{id}.lua"));
    let text = format!(
        "return {{ id = \"{id}\", game = \"sea_change\", modify = function(rules)\n\
         local apply = rules.apply\n\
         rules.apply = function(game, seat, action)\n\
         {before}\n\
         return apply(game, seat, action)\n\
         end\n\
         end }}\n"
    );
    std::fs::write(&path, text).expect("write house rule");
    path
}

fn repo(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
        .display()
        .to_string()
}

#[test]
fn games_lists_sea_change_with_variants_options_and_bots() {
    let o = deckhand(&["games"]);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    for needle in [
        "sea_change",
        "Sea Change",
        "1-8 players",
        "team",
        "target_vp",
        "greedy",
    ] {
        assert!(t.contains(needle), "missing {needle} in:\n{t}");
    }
    // A variant's own options and player range are listed under it.
    let team = t.find("    team ").expect("team variant listed");
    let options = t.find("\n  options:").expect("game options listed");
    let variant_part = &t[team..options];
    assert!(variant_part.contains("(4-8 players)"), "{variant_part}");
    assert!(variant_part.contains("team_target"), "{variant_part}");
    assert!(variant_part.contains("layout"), "{variant_part}");
}

#[test]
fn sim_prints_statistics_and_json() {
    let v = sim_json(&["sea_change", "-p", "4", "-n", "20", "--seat", "greedy"]);
    assert_eq!(v["games"], 20);
    assert_eq!(v["seats"].as_array().map(Vec::len), Some(4));
    assert_eq!(v["seats"][0]["bot"], "greedy");
    assert_eq!(v["seats"][1]["bot"], "random");
    let wins: u64 = v["seats"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["wins"].as_u64())
        .sum();
    assert!(wins >= 20, "every game has at least one winner: {wins}");
    assert!(v["mean_rounds"].as_f64().unwrap_or(0.0) >= 3.0);
    assert!(v["games_per_s"].as_f64().unwrap_or(0.0) > 0.0);
    let o = deckhand(&["sim", "sea_change", "-p", "3", "-n", "5"]);
    let t = text(&o);
    assert!(
        t.contains("mean rounds per game") && t.contains("games/s"),
        "{t}"
    );
}

#[test]
fn sim_results_do_not_depend_on_threads_or_the_instruction_count() {
    // Games run on engines shared by many games per thread; each game's
    // result depends only on its seed.
    let stats = |extra: &[&str]| {
        let mut args = vec!["sea_change", "-p", "4", "-n", "40", "--seat", "greedy"];
        args.extend_from_slice(extra);
        let v = sim_json(&args);
        (
            v["seats"].clone(),
            v["mean_rounds"].clone(),
            v["mean_steps"].clone(),
        )
    };
    let one = stats(&["-j", "1"]);
    assert_eq!(one, stats(&["-j", "2"]));
    assert_eq!(one, stats(&["-j", "2", "--exact-budget"]));
}

#[test]
fn sim_trace_is_json_lines_that_check_out() {
    let dir = tempfile::tempdir().expect("tmp");
    let trace = dir.path().join("t.jsonl");
    let o = deckhand(&[
        "sim",
        "sea_change",
        "-p",
        "4",
        "-n",
        "3",
        "--trace",
        &trace.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let body = std::fs::read_to_string(&trace).expect("trace");
    let records: Vec<serde_json::Value> = body
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    let count = |t: &str| records.iter().filter(|r| r["type"] == t).count();
    assert_eq!(count("start"), 3);
    assert!(records
        .iter()
        .filter(|r| r["type"] == "start")
        .all(|r| r["format"] == 3));
    assert_eq!(count("end"), 3);
    assert!(count("decision") > 100 && count("move") > 100);
    // Every hand is sorted after each deal: 4 hands a round.
    let rounds = records
        .iter()
        .filter(|r| r["type"] == "event" && r["name"] == "round_started")
        .count();
    assert!(rounds >= 3);
    assert_eq!(count("sort"), 4 * rounds);
    // Each game starts by placing its 40 cards, each once, in step 0.
    let places: Vec<&serde_json::Value> = records.iter().filter(|r| r["type"] == "place").collect();
    assert_eq!(places.len(), 3 * 40);
    for game in 0..3 {
        let mut ids: Vec<u64> = places
            .iter()
            .filter(|p| p["game"] == game && p["step"] == 0)
            .filter_map(|p| p["card"]["id"].as_u64())
            .collect();
        ids.sort_unstable();
        assert_eq!(ids, (1..=40).collect::<Vec<u64>>(), "game {game}");
    }
    // Every decision lists its options with their cards and the chosen one.
    for d in records.iter().filter(|r| r["type"] == "decision") {
        let opts = d["options"].as_array().expect("options");
        let chosen = d["chosen"].as_u64().expect("chosen") as usize;
        assert!(chosen >= 1 && chosen <= opts.len());
        assert!(opts
            .iter()
            .all(|o| o["card"]["suit"].is_string() && o["card"]["value"].is_number()));
    }
    // Moves carry the whole card and named zones with their owners.
    let m = records
        .iter()
        .find(|r| r["type"] == "move")
        .expect("a move");
    assert!(
        m["card"]["name"].is_string()
            && m["from"]["zone"].is_string()
            && m["to"].get("owner").is_some()
    );
    for name in [
        "trick_won",
        "trump_changed",
        "round_scored",
        "vp_awarded",
        "game_over",
    ] {
        assert!(
            records
                .iter()
                .any(|r| r["type"] == "event" && r["name"] == name),
            "no {name} event"
        );
    }
}

#[test]
fn check_accepts_a_house_rule_and_reports_a_broken_one() {
    let o = deckhand(&[
        "check",
        &repo("scripts/house_rules/eights_minus_five.lua"),
        "-n",
        "2",
        "-p",
        "4",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("ok: sea_change"), "{}", text(&o));

    let dir = tempfile::tempdir().expect("tmp");
    let bad = dir.path().join("bad.lua");
    std::fs::write(
        &bad,
        "return { id = 'bad', game = 'sea_change', modify = function(R)\n  local apply = R.apply\n  R.apply = function(g, s, a)\n    if g.vars.trick_no == 3 then error('deliberate') end\n    return apply(g, s, a)\n  end\nend }\n",
    )
    .expect("write");
    let o = deckhand(&["check", &bad.display().to_string(), "-n", "1", "-p", "4"]);
    assert!(!o.status.success());
    let t = text(&o);
    assert!(
        t.contains("FAILED")
            && t.contains("seed 1")
            && t.contains("step")
            && t.contains("bad.lua:4")
            && t.contains("deliberate"),
        "{t}"
    );
}

#[test]
fn bad_input_gets_a_clear_message() {
    let t = text(&deckhand(&["sim", "no_such_game", "-n", "1"]));
    assert!(t.contains("game 'no_such_game'"), "{t}");
    let t = text(&deckhand(&["sim", "sea_change", "-p", "9", "-n", "1"]));
    assert!(t.contains("1-8 players"), "{t}");
    let t = text(&deckhand(&[
        "sim",
        "sea_change",
        "-n",
        "1",
        "-o",
        "target=2",
    ]));
    assert!(t.contains("no option 'target'"), "{t}");
    let t = text(&deckhand(&[
        "sim",
        "sea_change",
        "-n",
        "1",
        "--seat",
        "genius",
    ]));
    assert!(t.contains("no bot named 'genius'"), "{t}");
    let dir = tempfile::tempdir().expect("tmp");
    let save = dir.path().join("corrupt.json");
    std::fs::write(&save, "{\"format\": 1, \"config\": 3}").expect("write");
    let t = text(&deckhand(&["replay", &save.display().to_string()]));
    assert!(t.contains("bad save file"), "{t}");
}

#[test]
fn watching_a_bot_game_prints_events_and_the_result() {
    let o = deckhand(&[
        "play",
        "sea_change",
        "--seat",
        "greedy",
        "--seat",
        "random",
        "--seed",
        "3",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    assert!(
        (t.contains("wins the trick") || t.contains("Trick won by")) && t.contains("game over"),
        "{t}"
    );
}

/// Check Seas of Strife games from a trace alone: tricks per seat from the
/// trick_won events, penalties from those tricks (and, with Happy Faces,
/// from the Face cards in them, read from the cards' properties in the move
/// records), the final scores from the penalties, and every leader choice
/// made by the taker and followed by the chosen seat's lead.
fn check_strife_trace(path: &std::path::Path, games: usize, happy: bool) {
    use serde_json::Value;
    use std::collections::HashMap;
    let body = std::fs::read_to_string(path).expect("trace");
    let records: Vec<Value> = body
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    let mut checked = 0;
    let mut choices = 0;
    for game in 0..games {
        let recs: Vec<&Value> = records.iter().filter(|r| r["game"] == game).collect();
        let start = recs.first().expect("start");
        let end = recs.last().expect("end");
        assert_eq!(start["type"], "start");
        assert_eq!(end["type"], "end");
        let seats = start["players"].as_u64().expect("players") as usize;
        let mut face: HashMap<u64, bool> = HashMap::new();
        let mut tricks = vec![0i64; seats];
        let mut faces = vec![0i64; seats];
        let mut totals = vec![0i64; seats];
        let mut trick_events = 0;
        let mut chooser: Option<u64> = None;
        let mut next_leader: Option<u64> = None;
        for r in &recs {
            match r["type"].as_str() {
                Some("move") => {
                    face.insert(
                        r["card"]["id"].as_u64().expect("id"),
                        r["card"]["face"] == Value::Bool(true),
                    );
                }
                Some("decision") => {
                    if let Some(s) = next_leader.take() {
                        assert_eq!(r["seat"].as_u64(), Some(s), "the chosen seat leads");
                    }
                    if let Some(c) = chooser {
                        assert_eq!(r["seat"].as_u64(), Some(c), "the taker chooses");
                        assert!(r["options"]
                            .as_array()
                            .expect("options")
                            .iter()
                            .all(|o| o["action"]["seat"].is_u64()));
                    }
                }
                Some("event") => {
                    let d = &r["data"];
                    match r["name"].as_str() {
                        Some("trick_won") => {
                            trick_events += 1;
                            let w = d["winner"].as_u64().expect("winner") as usize;
                            tricks[w - 1] += 1;
                            for c in d["cards"].as_array().expect("cards") {
                                if face[&c.as_u64().expect("id")] {
                                    faces[w - 1] += 1;
                                }
                            }
                            if d["chooses"] == Value::Bool(true) {
                                chooser = Some(w as u64);
                            }
                        }
                        Some("leader_chosen") => {
                            assert_eq!(d["chooser"].as_u64(), chooser.take());
                            next_leader = d["seat"].as_u64();
                            choices += 1;
                        }
                        Some("round_scored") => {
                            let p: Vec<i64> =
                                serde_json::from_value(d["penalties"].clone()).expect("penalties");
                            for s in 0..seats {
                                let expect = if happy {
                                    (tricks[s] - faces[s]).max(0)
                                } else {
                                    tricks[s]
                                };
                                assert_eq!(p[s], expect, "game {game} seat {}", s + 1);
                                totals[s] += p[s];
                            }
                            tricks = vec![0; seats];
                            faces = vec![0; seats];
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        assert!(trick_events > 0);
        if !happy {
            assert_eq!(
                totals.iter().sum::<i64>(),
                trick_events,
                "one penalty point per trick"
            );
        }
        let scores: Vec<i64> = end["scores"]
            .as_array()
            .expect("scores")
            .iter()
            .map(|s| s.as_f64().expect("score") as i64)
            .collect();
        assert_eq!(scores, totals, "game {game}: final scores");
        checked += 1;
    }
    assert_eq!(checked, games);
    if !happy {
        assert!(choices > 0, "some trick gave the choice of the next leader");
    }
}

#[test]
fn seas_of_strife_trace_checks_out_from_the_trace_alone() {
    let dir = tempfile::tempdir().expect("tmp");
    let trace = dir.path().join("strife.jsonl");
    let t = trace.display().to_string();
    let o = deckhand(&[
        "sim",
        "seas_of_strife",
        "-p",
        "4",
        "-n",
        "4",
        "--seat",
        "greedy",
        "--trace",
        &t,
    ]);
    assert!(o.status.success(), "{}", text(&o));
    check_strife_trace(&trace, 4, false);
    let o = deckhand(&[
        "sim",
        "seas_of_strife",
        "-p",
        "5",
        "-n",
        "3",
        "-v",
        "strife",
        "-v",
        "passing",
        "-v",
        "happy_faces",
        "--trace",
        &t,
    ]);
    assert!(o.status.success(), "{}", text(&o));
    check_strife_trace(&trace, 3, true);
}

#[test]
fn sim_reports_seas_of_strife_statistics() {
    let v = sim_json(&["seas_of_strife", "-n", "20", "--seat", "greedy"]);
    assert_eq!(v["games"], 20);
    assert_eq!(v["seats"].as_array().map(Vec::len), Some(4));
    assert_eq!(v["seats"][0]["bot"], "greedy");
    assert!(v["mean_rounds"].as_f64().unwrap_or(0.0) >= 2.0);
    let o = deckhand(&["games"]);
    let t = text(&o);
    for needle in [
        "seas_of_strife",
        "Seas of Strife",
        "3-6 players",
        "strife",
        "passing",
        "happy_faces",
        "leader_choice",
    ] {
        assert!(t.contains(needle), "missing {needle} in:\n{t}");
    }
    // Strife changes an option's default: listed under the variant.
    let game = t.find("seas_of_strife —").expect("listed");
    let strife = game + t[game..].find("    strife ").expect("strife listed");
    let options = strife + t[strife..].find("\n  options:").expect("options");
    assert!(
        t[strife..options].contains("leader_choice          default \"never\""),
        "{}",
        &t[strife..options]
    );
}

#[test]
fn a_closed_pipe_on_stdout_ends_quietly() {
    // As in `deckhand games | head -0`: the reader is gone before the first line.
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .args(["games"])
        .current_dir(std::env::temp_dir())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run deckhand");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.status.success(), "{:?}: {err}", out.status);
}

#[test]
fn a_failing_game_keeps_the_trace_up_to_its_failing_step() {
    let dir = tempfile::tempdir().expect("tmp");
    let rule = before_apply(
        dir.path(),
        "boom",
        r#"if game.vars.round == 2 then error("boom in round 2") end"#,
    );
    let trace = dir.path().join("t.jsonl");
    let o = deckhand(&[
        "sim",
        "sea_change",
        "-n",
        "2",
        "-j",
        "1",
        "--variant",
        &rule.display().to_string(),
        "--trace",
        &trace.display().to_string(),
    ]);
    assert!(!o.status.success());
    let t = text(&o);
    assert!(
        t.contains("boom in round 2") && t.contains("t.jsonl"),
        "{t}"
    );
    let body = std::fs::read_to_string(&trace).expect("trace");
    let records: Vec<serde_json::Value> = body
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(records[0]["type"], "start");
    let last = records.last().expect("records");
    assert_eq!(
        last["type"], "decision",
        "the failing decision is the last record"
    );
    assert!(
        records.iter().all(|r| r["type"] != "end"),
        "the game never ended"
    );
}

#[test]
fn a_step_that_never_ends_stops_the_simulation_and_says_where() {
    let dir = tempfile::tempdir().expect("tmp");
    let rule = before_apply(
        dir.path(),
        "spin",
        "if game.vars.trick_no == 3 then while true do end end",
    );
    let rule = rule.display().to_string();
    let base = ["sim", "sea_change", "-n", "3", "-j", "1", "--seed", "5"];

    // Default: no instruction count; the watchdog ends the run.
    let start = std::time::Instant::now();
    let mut args = base.to_vec();
    args.extend(["--variant", &rule, "--step-timeout", "0.5"]);
    let o = deckhand(&args);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(
        t.contains("game 0 (seed 5), step 9")
            && t.contains("never ends")
            && t.contains("--exact-budget"),
        "{t}"
    );
    assert!(start.elapsed().as_secs() < 30, "stopped in good time");

    // --exact-budget: the step fails with the script's line.
    let mut args = base.to_vec();
    args.extend(["--variant", &rule, "--exact-budget"]);
    let o = deckhand(&args);
    let t = text(&o);
    assert!(!o.status.success());
    assert!(
        t.contains("spin.lua:4") && t.contains("instruction budget exceeded"),
        "{t}"
    );

    // A timeout that is not a positive number is refused.
    let mut args = base.to_vec();
    args.extend(["--step-timeout", "0"]);
    let o = deckhand(&args);
    assert!(!o.status.success());
    assert!(text(&o).contains("--step-timeout"), "{}", text(&o));
}
