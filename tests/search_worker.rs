//! The child process that runs the REPL's searches compiled (`deckhand
//! search-worker`, not listed in the help): the same choice and hint as the
//! search run in the interpreter, and a refusal of a position it cannot
//! rebuild.

use crate::common;

use deckhand_bots::{Bot, BotKind, Budget};
use deckhand_engine::{GameConfig, Runner};
use serde_json::{json, Value};

/// Run the worker on `job`: its exit success and its answer.
fn worker(job: &Value) -> (bool, String) {
    let dir = tempfile::tempdir().expect("dir");
    let scripts = common::scripts_dir().display().to_string();
    let o = common::run_in(
        dir.path(),
        &["--scripts", &scripts, "search-worker"],
        &job.to_string(),
    );
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// A 3-player Sea Change game played four random steps in (in the
/// interpreter, as the REPL plays it).
fn position() -> deckhand_engine::Game {
    let e = common::engine();
    let mut g = e
        .new_game(GameConfig::new("sea_change", 3, 17), true)
        .expect("start");
    common::play_steps(
        Runner::shared(3, Bot::new(BotKind::Random, 17, 1)),
        &mut g,
        4,
    );
    g
}

fn job(g: &deckhand_engine::Game, task: Value) -> Value {
    json!({
        "config": g.config(),
        "history": g.history(),
        "view": serde_json::to_string(&g.view(None).expect("view")).expect("json"),
        "task": task,
    })
}

#[test]
fn the_worker_chooses_what_the_bot_chooses_in_the_interpreter() {
    let g = position();
    let seat = g.pending().expect("pending").0;
    let mut bot = Bot::new(BotKind::parse("mc:60"), 17, seat);
    let here = bot.choose(&g).expect("choice");
    let (ok, out) = worker(&job(
        &g,
        json!({ "Choose": { "bot": "mc:60", "seed": 17, "seat": seat } }),
    ));
    assert!(ok, "{out}");
    let answer: Value = serde_json::from_str(out.trim()).expect("answer");
    assert_eq!(answer["Choice"], serde_json::to_value(&here).expect("json"));
}

#[test]
fn the_worker_hints_what_the_hint_finds_in_the_interpreter() {
    let g = position();
    let here = deckhand_bots::hint::hint(&g, Budget::Iterations(120), None).expect("hint");
    let (ok, out) = worker(&job(&g, json!({ "Hint": { "budget": "120" } })));
    assert!(ok, "{out}");
    let answer: Value = serde_json::from_str(out.trim()).expect("answer");
    assert_eq!(answer["Hint"], serde_json::to_value(&here).expect("json"));
}

#[test]
fn the_worker_refuses_a_position_it_cannot_rebuild() {
    let g = position();
    let mut j = job(&g, json!({ "Hint": { "budget": "50" } }));
    j["view"] = json!("{}");
    let (ok, out) = worker(&j);
    assert!(!ok, "accepted a position it could not rebuild: {out}");
    assert!(out.is_empty(), "{out}");
}
