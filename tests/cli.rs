//! The `deckhand` subcommands, run as a user runs them.

use crate::common;

use common::{before_apply, mean, report_row};
use std::path::PathBuf;
use std::process::{Command, Output};

fn deckhand(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .env("COLUMNS", "1000") // no wrapping: tests read whole lines
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
    let v = sim_json(&["sea_change", "-p", "4", "-n", "20", "--seat", "random"]);
    assert_eq!(v["games"], 20);
    let seats = &v["arms"][0]["seats"];
    assert_eq!(seats.as_array().map(Vec::len), Some(4));
    assert_eq!(seats[0], "random");
    // The seats not given get the game's default bot.
    assert_eq!(seats[1], "greedy");
    let shares: f64 = (1..=4)
        .map(|s| mean(&report_row(&v, 0, &format!("win.seat{s}"))))
        .sum();
    assert!(
        (shares - 1.0).abs() < 1e-9,
        "every game has a winner, shared wins counted in shares: {shares}"
    );
    let rounds = report_row(&v, 0, "rounds");
    assert!(mean(&rounds) >= 3.0);
    assert!(rounds["low"].as_f64() < rounds["high"].as_f64(), "{rounds}");
    assert_eq!(rounds["method"], "student-t");
    assert_eq!(report_row(&v, 0, "win.seat1")["method"], "wilson");
    assert!(v["games_per_s"].as_f64().unwrap_or(0.0) > 0.0);
    let o = deckhand(&["sim", "sea_change", "-p", "3", "-n", "5"]);
    let t = text(&o);
    assert!(
        t.contains("rounds per game")
            && t.contains("95% interval")
            && t.contains("Wilson score")
            && t.contains("games/s"),
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
        v["arms"].clone()
    };
    let one = stats(&["-j", "1"]);
    assert_eq!(one, stats(&["-j", "2"]));
    assert_eq!(one, stats(&["-j", "2", "--exact-budget"]));
}

#[test]
fn sim_trace_is_json_lines_of_the_compact_format() {
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
    assert_eq!(count("end"), 3);
    for start in records.iter().filter(|r| r["type"] == "start") {
        assert_eq!(start["format"], 4);
        assert_eq!(start["level"], "full");
        assert_eq!(start["cards"].as_array().map(Vec::len), Some(40));
    }
    // One line per decision, each with its kind, options and choice.
    let steps: Vec<&serde_json::Value> = records.iter().filter(|r| r.get("s").is_some()).collect();
    assert!(steps.len() > 100);
    // Each game's first decision names its kind; later ones only a change.
    assert_eq!(steps[0]["k"], "play");
    for s in &steps {
        assert!(s.get("k").is_none() || s["k"] == "play");
        let n = s["oc"].as_array().expect("options as cards").len() as u64;
        assert!((1..=n).contains(&s["c"].as_u64().expect("chosen")));
    }
    // The rules' events are in the steps' effects, without their words.
    let events: Vec<&serde_json::Value> = steps
        .iter()
        .flat_map(|s| s["e"].as_array().expect("effects"))
        .filter(|e| e[0] == "event")
        .collect();
    for name in [
        "trick_won",
        "trump_changed",
        "round_scored",
        "vp_awarded",
        "game_over",
    ] {
        assert!(events.iter().any(|e| e[1] == name), "no {name} event");
    }
    assert!(events.iter().all(|e| e[2].get("text").is_none()));
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

/// A house rule that adds `body` as the bot `name` of Sea Change, in a
/// file of its own; the bot's `function` is on line 6.
fn bot_rule(dir: &std::path::Path, name: &str, body: &str) -> String {
    let path = dir.join(format!("{name}.lua"));
    std::fs::write(
        &path,
        format!(
            "return {{\n  id = '{name}',\n  game = 'sea_change',\n  modify = function(rules)\n    \
             -- the bot\n    rules.bots.{name} = function(view, decision)\n{body}\n    end\n  end,\n}}\n"
        ),
    )
    .expect("write the rule");
    path.display().to_string()
}

#[test]
fn check_plays_the_rules_bots_and_names_one_that_answers_out_of_range() {
    let dir = tempfile::tempdir().expect("tmp");
    // A bot that plays the last option passes, and is named in the report.
    let good = bot_rule(dir.path(), "last", "      return #decision.options");
    let o = deckhand(&["check", &good, "-n", "1", "-p", "3"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("1 random game at 1 player count(s) and 2 with the rules' bots (greedy, last)"),
        "{t}"
    );
    assert!(t.contains("it adds the bot 'last'"), "{t}");

    // One that answers an option that does not exist fails the check,
    // named with its file and the line of its function.
    let bad = bot_rule(dir.path(), "wild", "      return #decision.options + 5");
    let o = deckhand(&["check", &bad, "-n", "1", "-p", "3"]);
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    assert!(t.contains("FAILED: sea_change"), "{t}");
    assert!(t.contains(&format!("{bad}:6: bot 'wild' returned ")), "{t}");
    assert!(t.contains("not an option index"), "{t}");
    assert!(t.contains("--seat wild"), "{t}");
}

#[test]
fn check_stops_a_bot_that_never_answers_and_names_it() {
    let dir = tempfile::tempdir().expect("tmp");
    let rule = bot_rule(dir.path(), "ponder", "      while true do end");
    let o = deckhand(&["check", &rule, "-n", "1", "-p", "2"]);
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    assert!(t.contains("FAILED: sea_change"), "{t}");
    assert!(t.contains("budget exceeded"), "{t}");
    assert!(t.contains(&format!("{rule}:7: ")), "{t}");
    assert!(
        t.contains(&format!("in bot 'ponder', defined at {rule}:6")),
        "{t}"
    );
}

/// `deckhand sim ARGS --json` without its timings: what the games gave.
fn sim_games_json(args: &[&str]) -> serde_json::Value {
    let mut v = sim_json(args);
    if let Some(o) = v.as_object_mut() {
        o.remove("elapsed_s");
        o.remove("games_per_s");
    }
    v
}

#[test]
fn scripts_lists_and_shows_the_built_in_scripts() {
    let o = deckhand(&["scripts", "list"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let listed: Vec<&str> = t.lines().collect();
    for path in ["sea_change/game.lua", "lib/util.lua", "seadogs/bot.lua"] {
        assert!(listed.contains(&path), "{path} not listed:\n{t}");
    }

    let game_lua = std::fs::read_to_string(repo("scripts/sea_change/game.lua")).expect("read");
    let first = game_lua.lines().next().expect("a first line");
    // By its path, as an error message names it (with `scripts/` and a
    // line), or by the game's id: the whole file.
    for name in [
        "sea_change/game.lua",
        "scripts/sea_change/game.lua:331",
        "sea_change",
    ] {
        let o = deckhand(&["scripts", "show", name]);
        assert!(o.status.success(), "{name}: {}", text(&o));
        let shown = String::from_utf8_lossy(&o.stdout);
        assert_eq!(shown.lines().next(), Some(first), "{name}");
        assert_eq!(shown, game_lua, "{name}");
    }

    let o = deckhand(&["scripts", "show", "team.lua"]);
    assert!(!o.status.success());
    let t = text(&o);
    assert!(t.contains("no built-in script 'team.lua'"), "{t}");
    assert!(
        t.contains("did you mean sea_change/variants/team.lua?"),
        "{t}"
    );
}

#[test]
fn scripts_export_writes_a_folder_that_scripts_dir_plays() {
    let dir = tempfile::tempdir().expect("tmp");
    let out = dir.path().join("my_scripts");
    let out_s = out.display().to_string();
    let o = deckhand(&["scripts", "export", &out_s]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains(&format!("--scripts {out_s}")), "{t}");
    let game_lua = out.join("sea_change").join("game.lua");
    assert_eq!(
        std::fs::read_to_string(&game_lua).expect("exported game.lua"),
        std::fs::read_to_string(repo("scripts/sea_change/game.lua")).expect("read"),
    );
    assert!(out.join("lib").join("trick.lua").is_file());

    // The exported folder plays the same games as the built-in scripts.
    let args = ["sea_change", "-p", "4", "-n", "3", "--seed", "1"];
    let mut with = vec!["--scripts", out_s.as_str()];
    with.extend_from_slice(&args);
    assert_eq!(sim_games_json(&with), sim_games_json(&args));

    // And it is the folder that plays: an edit there is what runs.
    let good = std::fs::read_to_string(&game_lua).expect("read");
    std::fs::write(&game_lua, format!("{good}\nthis is not lua\n")).expect("edit");
    let mut cmd = with.clone();
    cmd.insert(2, "sim");
    let o = deckhand(&cmd);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("my_scripts/sea_change/game.lua"),
        "{}",
        text(&o)
    );

    // Exporting again keeps the edited file unless told to overwrite.
    let o = deckhand(&["scripts", "export", &out_s]);
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    assert!(t.contains("already there: nothing written"), "{t}");
    assert!(t.contains("--force"), "{t}");
    assert_ne!(std::fs::read_to_string(&game_lua).expect("read"), good);
    let o = deckhand(&["scripts", "export", &out_s, "--force"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&game_lua).expect("read"), good);
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
/// from the Face cards in them, read from the card table of the start
/// record), the final scores from the penalties, and every leader choice
/// made by the taker and followed by the chosen seat's lead.
fn check_strife_trace(path: &std::path::Path, games: usize, happy: bool) {
    use serde_json::Value;
    let body = std::fs::read_to_string(path).expect("trace");
    let records: Vec<Value> = body
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    let mut checked = 0;
    let mut choices = 0;
    // The records of each game: from its start to its end.
    let mut by_game: Vec<Vec<&Value>> = Vec::new();
    for r in &records {
        if r["type"] == "start" {
            by_game.push(Vec::new());
        }
        by_game.last_mut().expect("a start first").push(r);
    }
    assert_eq!(by_game.len(), games);
    for (game, recs) in by_game.iter().enumerate() {
        let start = recs.first().expect("start");
        let end = recs.last().expect("end");
        assert_eq!(start["type"], "start");
        assert_eq!(end["type"], "end");
        let seats = start["players"].as_u64().expect("players") as usize;
        // Whether each card (by id, from 1) is a Face card.
        let props = start["card_props"].as_array().expect("card_props");
        let face_col = props
            .iter()
            .position(|p| p == "face")
            .expect("a face property");
        let face: Vec<bool> = std::iter::once(false)
            .chain(
                start["cards"]
                    .as_array()
                    .expect("cards")
                    .iter()
                    .map(|row| row[face_col] == Value::Bool(true)),
            )
            .collect();
        let mut tricks = vec![0i64; seats];
        let mut faces = vec![0i64; seats];
        let mut totals = vec![0i64; seats];
        let mut trick_events = 0;
        let mut chooser: Option<u64> = None;
        let mut next_leader: Option<u64> = None;
        for r in recs.iter().filter(|r| r.get("s").is_some()) {
            if let Some(s) = next_leader.take() {
                assert_eq!(r["p"].as_u64(), Some(s), "the chosen seat leads");
            }
            if let Some(c) = chooser {
                assert_eq!(r["p"].as_u64(), Some(c), "the taker chooses");
                assert_eq!(r["k"], "choose_leader");
                assert!(r["o"]
                    .as_array()
                    .expect("options")
                    .iter()
                    .all(|o| o["seat"].is_u64()));
            }
            for e in r["e"].as_array().expect("effects") {
                if e[0] != "event" {
                    continue;
                }
                let d = &e[2];
                match e[1].as_str() {
                    Some("trick_won") => {
                        trick_events += 1;
                        let w = d["winner"].as_u64().expect("winner") as usize;
                        tricks[w - 1] += 1;
                        for c in d["cards"].as_array().expect("cards") {
                            if face[c.as_u64().expect("id") as usize] {
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
    assert_eq!(v["arms"][0]["seats"].as_array().map(Vec::len), Some(4));
    assert_eq!(v["arms"][0]["seats"][0], "greedy");
    assert!(mean(&report_row(&v, 0, "rounds")) >= 2.0);
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
        .env("COLUMNS", "1000") // no wrapping: tests read whole lines
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
        last["failed"], true,
        "the failing decision is the last record: {last}"
    );
    assert!(last["s"].as_u64().is_some_and(|s| s > 1) && last.get("e").is_none());
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
        t.contains("spin.lua:4") && t.contains("budget exceeded"),
        "{t}"
    );

    // A timeout that is not a positive number is refused.
    let mut args = base.to_vec();
    args.extend(["--step-timeout", "0"]);
    let o = deckhand(&args);
    assert!(!o.status.success());
    assert!(text(&o).contains("--step-timeout"), "{}", text(&o));
}

/// What a run of the binary gave, and whether it had to be killed.
struct Timed {
    status: Option<i32>,
    text: String,
    killed: bool,
}

/// Run `program args` with `stdin` piped in; kill it after `limit` (a run
/// that does not end is a failure the caller reports, not a hang of the
/// test suite).
fn run_timed(
    program: &str,
    args: &[&str],
    stdin: &[u8],
    home: &std::path::Path,
    limit: std::time::Duration,
) -> Timed {
    use std::io::{Read, Write};
    use std::process::Stdio;
    let mut child = Command::new(program)
        .env("COLUMNS", "1000") // no wrapping: tests read whole lines
        .args(args)
        .current_dir(home)
        .env("NO_COLOR", "1")
        .env("HOME", home)
        .env("XDG_DATA_HOME", home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run deckhand");
    let input = stdin.to_vec();
    let mut pipe_in = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = pipe_in.write_all(&input);
    });
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let reader_out = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let reader_err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let start = std::time::Instant::now();
    let mut killed = false;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            killed = true;
            break child.wait().expect("wait");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let _ = writer.join();
    let mut text = String::from_utf8_lossy(&reader_out.join().expect("stdout")).into_owned();
    text.push_str(&String::from_utf8_lossy(
        &reader_err.join().expect("stderr"),
    ));
    Timed {
        status: status.code(),
        text,
        killed,
    }
}

/// `deckhand ARGS`, killed after a minute.
fn deckhand_timed(args: &[&str], stdin: &[u8], home: &std::path::Path) -> Timed {
    run_timed(
        env!("CARGO_BIN_EXE_deckhand"),
        args,
        stdin,
        home,
        std::time::Duration::from_secs(60),
    )
}

/// A `sim` stopped by the watchdog: within the time, exit status 2, and a
/// message naming the runaway; the message is returned.
fn stopped_by_the_watchdog(args: &[&str], home: &std::path::Path) -> String {
    let start = std::time::Instant::now();
    let r = deckhand_timed(args, b"", home);
    assert!(!r.killed, "sim never stopped: {}", r.text);
    assert_eq!(r.status, Some(2), "{}", r.text);
    assert!(
        r.text.contains("never ends") && r.text.contains("--exact-budget"),
        "{}",
        r.text
    );
    assert!(start.elapsed().as_secs() < 30, "stopped in good time");
    r.text
}

/// Write the house rule `ID.lua` with `text` in `dir`; its path.
fn write_rule(dir: &std::path::Path, id: &str, text: &str) -> String {
    let path = dir.join(format!("{id}.lua"));
    std::fs::write(&path, text).expect("write house rule");
    path.display().to_string()
}

/// `sim` of `games` Sea Change games from `seed` on two threads with the
/// house rule `rule`, which the watchdog (0.5 s) must stop.
fn sim_stopped_by_the_watchdog(
    rule: &str,
    games: u32,
    seed: u64,
    home: &std::path::Path,
) -> String {
    let (games, seed) = (games.to_string(), seed.to_string());
    stopped_by_the_watchdog(
        &[
            "sim",
            "sea_change",
            "-n",
            &games,
            "-j",
            "2",
            "--seed",
            &seed,
            "--step-timeout",
            "0.5",
            "--variant",
            rule,
        ],
        home,
    )
}

#[test]
fn a_house_rule_whose_top_level_code_never_ends_stops_the_simulation() {
    let dir = tempfile::tempdir().expect("tmp");
    let rule = write_rule(
        dir.path(),
        "spin_on_load",
        "while true do end\n\
         return { id = \"spin_on_load\", game = \"sea_change\", modify = function(rules) end }\n",
    );
    let t = sim_stopped_by_the_watchdog(&rule, 4, 5, dir.path());
    assert!(t.contains("game 0 (seed 5), loading the rules:"), "{t}");
}

#[test]
fn a_variant_whose_setup_never_ends_stops_the_simulation() {
    let dir = tempfile::tempdir().expect("tmp");
    let rule = write_rule(
        dir.path(),
        "spin_setup",
        "return { id = \"spin_setup\", game = \"sea_change\", modify = function(rules)\n\
         rules.setup = function(game) while true do end end\n\
         end }\n",
    );
    let t = sim_stopped_by_the_watchdog(&rule, 4, 5, dir.path());
    assert!(t.contains("game 0 (seed 5), setup:"), "{t}");
}

#[test]
fn a_runaway_in_the_setup_of_a_later_game_on_a_worker_stops_the_simulation() {
    // Each engine counts the games it sets up: the fourth one never ends,
    // so the check on the main thread passes and a worker thread hangs in
    // the setup of a game numbered 3 or later.
    let dir = tempfile::tempdir().expect("tmp");
    let rule = write_rule(
        dir.path(),
        "spin_later",
        "local games = 0\n\
         return { id = \"spin_later\", game = \"sea_change\", modify = function(rules)\n\
         local setup = rules.setup\n\
         rules.setup = function(game)\n\
         games = games + 1\n\
         if games >= 4 then while true do end end\n\
         return setup(game)\n\
         end\n\
         end }\n",
    );
    let t = stopped_by_the_watchdog(
        &[
            "sim",
            "sea_change",
            "-n",
            "12",
            "-j",
            "2",
            "--seed",
            "10",
            "--step-timeout",
            "0.5",
            "--seat",
            "random",
            "--variant",
            &rule,
        ],
        dir.path(),
    );
    // "game N (seed 10 + N), setup:" with N >= 3.
    let at = t.find("error: game ").expect("a game named") + "error: game ".len();
    let rest = &t[at..];
    let n: u64 = rest
        .split(' ')
        .next()
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("{t}"));
    assert!(n >= 3, "{t}");
    assert!(
        rest.starts_with(&format!("{n} (seed {}), setup:", 10 + n)),
        "{t}"
    );
}

#[test]
fn a_bot_whose_decision_never_ends_stops_the_simulation() {
    let dir = tempfile::tempdir().expect("tmp");
    let rule = write_rule(
        dir.path(),
        "spin_bot",
        "return { id = \"spin_bot\", game = \"sea_change\", modify = function(rules)\n\
         rules.bots.spin = function(view, decision) while true do end end\n\
         end }\n",
    );
    let t = stopped_by_the_watchdog(
        &[
            "sim",
            "sea_change",
            "-p",
            "2",
            "-n",
            "4",
            "-j",
            "2",
            "--seed",
            "5",
            "--step-timeout",
            "0.5",
            "--seat",
            "spin",
            "--seat",
            "spin",
            "--variant",
            &rule,
        ],
        dir.path(),
    );
    assert!(
        t.contains("(seed ") && t.contains(", step 1, bot decision:"),
        "{t}"
    );
}

/// A run that must end at once with a clear message and no panic.
fn refused(args: &[&str], stdin: &[u8], needle: &str) -> String {
    let dir = tempfile::tempdir().expect("tmp");
    let r = deckhand_timed(args, stdin, dir.path());
    assert!(!r.killed, "never ended: {}", r.text);
    assert!(
        r.text.contains(needle) && !r.text.contains("panicked"),
        "{args:?}: {}",
        r.text
    );
    r.text
}

#[test]
fn huge_player_counts_are_refused_before_any_seat_is_made() {
    let msg = "Sea Change is for 1-8 players, not 4000000000";
    for cmd in ["play", "sim"] {
        let r = refused(
            &[cmd, "sea_change", "-p", "4000000000", "--seat", "random"],
            b"",
            msg,
        );
        assert!(r.starts_with("error:"), "{r}");
    }
    // The REPL's `new` keeps the game going.
    let t = refused(
        &[],
        b"new sea_change players=4000000000\nlog\n",
        &format!("cannot start sea_change: {msg}"),
    );
    assert!(t.ends_with("Bye.\n"), "{t}");
    // A save that says so.
    let dir = tempfile::tempdir().expect("tmp");
    let save = dir.path().join("many.json");
    std::fs::write(
        &save,
        r#"{"format": 1, "config": {"game": "sea_change", "players": 4000000000, "seed": 1},
            "seats": ["human"], "actions": []}"#,
    )
    .expect("write");
    let line = format!("load {}\nlog\n", save.display());
    let t = refused(&[], line.as_bytes(), msg);
    assert!(
        t.contains("nothing changed") && t.ends_with("Bye.\n"),
        "{t}"
    );
}

#[test]
fn huge_game_counts_thread_counts_and_timeouts_are_refused() {
    refused(
        &["sim", "sea_change", "-n", "1000000000000"],
        b"",
        "-n 1000000000000: at most 1000000000 games",
    );
    refused(
        &["sim", "sea_change", "-n", "2", "-j", "1000000"],
        b"",
        "-j 1000000: the number of threads must be from 1 to 256",
    );
    for bad in ["1e20", "inf", "NaN", "0", "-1", "0.0001"] {
        let arg = format!("--step-timeout={bad}");
        refused(
            &["sim", "sea_change", "-n", "2", &arg],
            b"",
            "must be a number of seconds from 0.01 to 86400",
        );
    }
}

#[test]
fn search_bots_are_capped_at_100000_playouts() {
    refused(
        &["sim", "sea_change", "-n", "1", "--seat", "mc:4000000000"],
        b"",
        "'mc:4000000000': a search makes 1 to 100000 playouts a decision, not 4000000000",
    );
    // At the REPL the game goes on: the move after the refused `new` is
    // played in it and the bots answer at once.
    let t = refused(
        &[],
        b"new sea_change seed=3 seats=human,random,random,random\n\
          new sea_change seed=3 seats=human,mc:4000000000\n\
          seats 2=mc:4000000000\n\
          1\nlog\n",
        "1 to 100000 playouts a decision, not 4000000000",
    );
    assert_eq!(
        t.matches("1 to 100000 playouts a decision, not 4000000000")
            .count(),
        2,
        "{t}"
    );
    assert!(t.contains("   1. seat ") && t.ends_with("Bye.\n"), "{t}");
}

#[test]
fn a_line_that_is_not_utf8_is_skipped_and_the_game_goes_on() {
    let t = refused(
        &[],
        b"new sea_change seed=3 seats=human,random,random,random\n\
          \xff\xfe not text \xc3\n\
          1\nlog\n",
        "that line was not valid UTF-8 text and was ignored",
    );
    let after = t.split("not valid UTF-8").nth(1).expect("the message");
    assert!(
        after.contains("seat 1 (you): "),
        "the move after it was played: {t}"
    );
    assert!(
        after.contains("   1. seat ") && t.ends_with("Bye.\n"),
        "{t}"
    );
    assert!(!t.contains("cannot read the terminal"), "{t}");
}

#[test]
fn games_wraps_between_words_at_80_columns_when_not_on_a_terminal() {
    let o = Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .arg("games")
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS")
        .output()
        .expect("run deckhand");
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    for l in t.lines().filter(|l| !l.starts_with("scripts: ")) {
        assert!(l.chars().count() <= 80, "{l:?} is wider than 80");
    }
    // Continuation lines of an option line up under its default.
    assert!(t.contains("target_vp"), "{t}");
    let narrow = Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .arg("games")
        .env("NO_COLOR", "1")
        .env("COLUMNS", "50")
        .output()
        .expect("run deckhand");
    for l in text(&narrow)
        .lines()
        .filter(|l| !l.starts_with("scripts: "))
    {
        assert!(l.chars().count() <= 50, "{l:?} is wider than 50");
    }
}

#[test]
fn hot_seat_with_piped_input_does_not_wait_to_pass_the_terminal() {
    let t = refused(
        &[],
        b"new sea_change players=2 seats=human,human seed=3\n1\n1\nquit\n",
        "Bye.",
    );
    assert!(t.contains("seat 2 (human) to play (hot-seat"), "{t}");
    assert!(!t.contains("Pass to seat"), "{t}");
}

/// `sh -c SCRIPT` with the path of the deckhand binary as `$1`.
fn sh(script: &str, stdin: &[u8], home: &std::path::Path) -> Timed {
    run_timed(
        "sh",
        &["-c", script, "sh", env!("CARGO_BIN_EXE_deckhand")],
        stdin,
        home,
        std::time::Duration::from_secs(60),
    )
}

#[test]
fn devices_folders_and_huge_files_are_not_read() {
    let dir = tempfile::tempdir().expect("tmp");
    let big = dir.path().join("big.json");
    // A sparse file just over the 64 MiB cap of a save.
    let f = std::fs::File::create(&big).expect("create");
    f.set_len((64 << 20) + 1).expect("grow");
    drop(f);
    let d = dir.path().display().to_string();
    let input = format!(
        "new sea_change seed=3 seats=human,random,random,random\n\
         load /dev/zero\n\
         load {d}\n\
         load {d}/big.json\n\
         new sea_change variant=/dev/zero\n\
         1\nlog\n"
    );
    // With a cap on the address space, so that a regression cannot eat
    // the machine's memory.
    let r = sh(
        "ulimit -v 4000000; exec \"$1\"",
        input.as_bytes(),
        dir.path(),
    );
    let t = r.text;
    assert!(!r.killed, "{t}");
    assert!(
        t.contains("cannot load /dev/zero: /dev/zero: not a regular file (a save file must be a plain file); nothing changed"),
        "{t}"
    );
    assert!(
        t.contains(&format!("cannot load {d}: {d}: not a regular file")),
        "{t}"
    );
    assert!(
        t.contains("big.json: 67108865 bytes; a save file may be at most 67108864 bytes"),
        "{t}"
    );
    assert!(
        t.contains("cannot start sea_change: '/dev/zero' is not read as a house rule"),
        "{t}"
    );
    assert!(t.contains("   1. seat ") && t.ends_with("Bye.\n"), "{t}");
    for args in [
        vec!["replay", "/dev/zero"],
        vec!["sim", "sea_change", "-n", "1", "--variant", "/dev/zero"],
        vec![
            "play",
            "sea_change",
            "--seat",
            "random",
            "--variant",
            "/dev/zero",
        ],
        vec!["check", "sea_change", "-v", "/dev/zero"],
    ] {
        let script = format!("ulimit -v 4000000; exec \"$1\" {}", args.join(" "));
        let r = sh(&script, b"", dir.path());
        assert!(!r.killed, "{args:?}: {}", r.text);
        assert!(
            (r.text.contains("/dev/zero: not a regular file")
                || r.text.contains("'/dev/zero' is not read as a house rule"))
                && r.status == Some(1),
            "{args:?}: {}",
            r.text
        );
    }
}

#[test]
fn a_failing_save_keeps_the_old_file_and_a_good_one_replaces_it() {
    let dir = tempfile::tempdir().expect("tmp");
    let d = dir.path().display().to_string();
    let file = dir.path().join("game.json");
    let r = deckhand_timed(
        &[],
        format!("new sea_change seed=4 seats=human,random,random,random\nsave {d}/game.json\n")
            .as_bytes(),
        dir.path(),
    );
    assert!(r.text.contains("Saved to"), "{}", r.text);
    let old = std::fs::read(&file).expect("the first save");
    assert!(old.len() > 2048, "a save bigger than the write limit below");
    // Files may not grow past 1 KiB (ulimit -f counts 512-byte blocks;
    // SIGXFSZ ignored, so the write fails with an error instead): the
    // second save cannot be written whole.
    let input = format!(
        "new sea_change seed=9 seats=human,random,random,random\n1\nsave {d}/game.json\nlog\n"
    );
    let r = sh(
        "trap '' XFSZ; ulimit -f 2; exec \"$1\"",
        input.as_bytes(),
        dir.path(),
    );
    assert!(!r.killed, "{}", r.text);
    assert!(
        r.text.contains(&format!("cannot save to {d}/game.json")),
        "{}",
        r.text
    );
    assert_eq!(
        std::fs::read(&file).expect("still there"),
        old,
        "old save intact"
    );
    // A save that can be written replaces the old one, and no temporary
    // file is left behind.
    let r = deckhand_timed(&[], input.as_bytes(), dir.path());
    assert!(
        r.text.contains(&format!("Saved to {d}/game.json (")),
        "{}",
        r.text
    );
    let new = std::fs::read_to_string(&file).expect("the new save");
    let save: serde_json::Value = serde_json::from_str(&new).expect("JSON");
    assert_eq!(save["config"]["seed"], 9);
    assert!(!save["actions"].as_array().expect("actions").is_empty());
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
}

#[test]
fn a_save_that_cannot_be_written_names_the_path_typed_and_no_temporary_file() {
    let dir = tempfile::tempdir().expect("tmp");
    let d = dir.path().display().to_string();
    let input = format!(
        "new sea_change seed=4 seats=human,random,random,random\n\
         save /nonexistent/x.json\nsave {d}/link.json\n"
    );
    let target = dir.path().join("target.txt");
    std::fs::write(&target, "not a save").expect("write");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&target, dir.path().join("link.json")).expect("symlink");
    let r = deckhand_timed(&[], input.as_bytes(), dir.path());
    let line = r
        .text
        .lines()
        .find(|l| l.contains("/nonexistent"))
        .unwrap_or_default();
    assert!(
        line.contains("cannot save to /nonexistent/x.json:")
            && line.contains("folder /nonexistent")
            && !line.contains(".deckhand-save")
            && !line.contains(".tmp"),
        "{}",
        r.text
    );
    // A link at the path is refused, and the file it points to is kept.
    #[cfg(unix)]
    assert!(
        r.text.contains(&format!(
            "cannot save to {d}/link.json: it is a symbolic link"
        )),
        "{}",
        r.text
    );
    assert_eq!(
        std::fs::read_to_string(&target).expect("read"),
        "not a save"
    );
}

/// A game with a text option, a number option and a true-or-false one;
/// its setup fails unless each option has its declared type.
const TYPED_OPTIONS: &str = r#"
local R = { id = "typed", title = "Typed options", players = { min = 2, max = 2 },
  options = {
    label = { default = "plain", doc = "any text" },
    count = { default = 2, min = 1, max = 9, doc = "a number" },
    fast = { default = false, doc = "true or false" },
  } }
function R.setup(game)
  assert(type(game.options.label) == "string", "label is not text")
  assert(type(game.options.count) == "number", "count is not a number")
  assert(type(game.options.fast) == "boolean", "fast is not true or false")
  game.vars.done = false
end
function R.decision(game)
  if game.vars.done then return nil end
  return { seat = 1, prompt = "Go", options = { { text = "go" } } }
end
function R.apply(game) game.vars.done = true end
function R.result(game) return { scores = { 1, 0 }, winners = { 1 }, rounds = 1 } end
return R
"#;

#[test]
fn option_values_are_read_by_their_declared_type() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::create_dir(dir.path().join("typed")).expect("mkdir");
    std::fs::write(dir.path().join("typed/game.lua"), TYPED_OPTIONS).expect("write");
    let scripts = dir.path().display().to_string();
    // A text option keeps the words nan, inf, yes and 007 as they are.
    for word in ["nan", "inf", "-Infinity", "yes", "007"] {
        let label = format!("label={word}");
        let v = sim_json(&[
            "typed",
            "--scripts",
            &scripts,
            "-n",
            "2",
            "-o",
            &label,
            "-o",
            "fast=on",
        ]);
        let options = &v["arms"][0]["options"];
        assert_eq!(options["label"], word, "{v}");
        assert_eq!(options["fast"], true, "{v}");
    }
    // A number option refuses nan and inf, naming the option.
    for word in ["nan", "inf", "-inf", "1e999"] {
        let count = format!("count={word}");
        let o = deckhand(&[
            "--scripts",
            &scripts,
            "sim",
            "typed",
            "-n",
            "2",
            "-o",
            &count,
        ]);
        let t = text(&o);
        assert!(!o.status.success(), "{t}");
        assert!(
            t.contains(&format!("option count: {word} is not a number it can take")),
            "{t}"
        );
    }
    // `check` too (its values are checked against the declared types).
    let o = deckhand(&["--scripts", &scripts, "check", "typed", "-o", "count=inf"]);
    assert!(
        text(&o).contains("option count: inf is not a number it can take"),
        "{}",
        text(&o)
    );
    let o = deckhand(&["--scripts", &scripts, "sim", "typed", "-o", "fast=maybe"]);
    assert!(
        text(&o).contains("option fast: expected true or false"),
        "{}",
        text(&o)
    );
    // The REPL's `new ... KEY=VALUE` reads them the same way.
    let input = "new typed seats=human,random label=nan count=3\nrules\n\
                 new typed count=nan\nnew typed label=inf count=inf\n";
    let r = deckhand_timed(&["--scripts", &scripts], input.as_bytes(), dir.path());
    assert!(
        r.text.contains("label = nan (default plain)") && r.text.contains("count = 3 (default 2)"),
        "{}",
        r.text
    );
    assert!(!r.text.contains("label is not text"), "{}", r.text);
    assert_eq!(
        r.text
            .matches("cannot start typed: option count: nan is not a number it can take")
            .count(),
        1,
        "{}",
        r.text
    );
    assert!(
        r.text
            .contains("cannot start typed: option count: inf is not a number it can take"),
        "{}",
        r.text
    );
}

#[test]
fn check_fails_a_rule_that_carries_state_from_one_game_to_the_next() {
    // A counter outside the rule's functions outlives each game: in the
    // same engine the second game plays differently from the first, so
    // a simulation's figures would depend on how games were shared out
    // between threads. `check` refuses it and says why.
    let dir = tempfile::tempdir().expect("tmp");
    let rule = dir.path().join("carry.lua");
    std::fs::write(
        &rule,
        "local games = 0\n\
         return { id = 'carry', game = 'sea_change', modify = function(rules)\n\
         local setup = rules.setup\n\
         rules.setup = function(game)\n\
         games = games + 1\n\
         setup(game)\n\
         if games % 2 == 0 then game:shuffle(game:zone('hand', 1)) end\n\
         end end }\n",
    )
    .expect("write");
    let o = deckhand(&["check", &rule.display().to_string(), "-n", "2", "-p", "3"]);
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    assert!(
        t.contains("determinism") && t.contains("keep state from one game to the next"),
        "{t}"
    );
}
