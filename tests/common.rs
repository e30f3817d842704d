//! Helpers shared by the integration tests: an engine over the repository's
//! scripts folder, and rulebook scenarios (set hands and variables, then
//! play cards by name through the public API).

#![allow(dead_code)]

use deckhand_bots::{Bot, BotKind};
use deckhand_engine::{
    Chooser, DirSource, Engine, Event, EventKind, Game, GameConfig, GameResult, Observer, Runner,
    ScriptLibrary, Stop,
};

use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;

/// The repository's scripts folder.
pub fn scripts_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts")
}

/// An engine over the repository's scripts.
pub fn engine() -> Engine {
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(DirSource::new(scripts_dir())));
    Engine::new(Arc::new(lib)).expect("engine over scripts/")
}

/// Lua helpers for arranging a position: `find(name)`, `clear()` (every card
/// back to the deck), `give(seat, {names})`, `to_zone(zone, {names})`.
pub const ARRANGE: &str = r#"
function find(name)
  for id, c in ipairs(game.cards) do if c.name == name then return id end end
  error("no card named " .. name)
end
function where(id)
  for _, z in ipairs(game._zones) do
    for i = 1, #z do if z[i] == id then return z end end
  end
end
function clear()
  local deck = game:zone("deck")
  for _, z in ipairs(game._zones) do
    if z ~= deck then game:move_all(z, deck) end
  end
end
function to_zone(z, names)
  for _, n in ipairs(names) do local id = find(n); game:move(id, where(id), z) end
end
function give(seat, names) to_zone(game:zone("hand", seat), names) end
"#;

/// Start a game and run `lua` (with the ARRANGE helpers) to set a position.
pub fn scenario(cfg: GameConfig, lua: &str) -> Game {
    let e = Box::leak(Box::new(engine()));
    let mut g = e.new_game(cfg, true).expect("start");
    g.take_events();
    // Helpers are defined as locals of the same chunk as the scenario code.
    let code = format!(
        "do {}\n{}\nend",
        ARRANGE.replace("function ", "local function "),
        lua
    );
    g.arrange(&code).expect("arrange");
    g.check_invariants()
        .expect("arranged position is consistent");
    g
}

/// The id of the card with this name.
pub fn card_id(g: &Game, name: &str) -> u32 {
    g.cards()
        .expect("cards")
        .iter()
        .find(|c| c.name == name)
        .map(|c| c.id)
        .unwrap_or_else(|| panic!("no card named {name}"))
}

/// Play the named card for `seat`, which must be the seat to move and may legally play it.
pub fn play(g: &mut Game, seat: u32, name: &str) {
    let id = card_id(g, name);
    let d = g.decision().expect("decision").expect("game not over");
    assert_eq!(
        d.seat, seat,
        "expected seat {seat} to play {name}, but seat {} is to move",
        d.seat
    );
    let o = d
        .options
        .iter()
        .find(|o| o.action.get("card").and_then(Value::as_u64) == Some(id as u64))
        .unwrap_or_else(|| {
            let legal: Vec<&str> = d.options.iter().map(|o| o.text.as_str()).collect();
            panic!("{name} is not a legal play for seat {seat}; legal: {legal:?}")
        });
    g.apply(o.index).expect("apply");
}

/// Whether the named card is among the legal plays of the seat to move.
pub fn is_legal(g: &Game, name: &str) -> bool {
    let id = card_id(g, name) as u64;
    g.decision()
        .expect("decision")
        .map(|d| {
            d.options
                .iter()
                .any(|o| o.action.get("card").and_then(Value::as_u64) == Some(id))
        })
        .unwrap_or(false)
}

/// The script events named `name`, with their data.
pub fn script_events(events: &[Event], name: &str) -> Vec<Value> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Script { name: n, data, .. } if n == name => Some(data.clone()),
            _ => None,
        })
        .collect()
}

/// A string variable of the script.
pub fn var(g: &Game, key: &str) -> Value {
    g.vars()
        .expect("vars")
        .get(key)
        .cloned()
        .unwrap_or(Value::Null)
}

/// The index of the first option of the pending decision whose action has
/// these fields.
pub fn find_option(g: &Game, fields: &Value) -> Option<usize> {
    let d = g.decision().expect("decision")?;
    let want = fields.as_object()?;
    d.options
        .iter()
        .find(|o| want.iter().all(|(k, v)| o.action.get(k) == Some(v)))
        .map(|o| o.index)
}

/// Apply the option with these fields, which `seat` must be choosing.
pub fn choose(g: &mut Game, seat: u32, fields: Value) {
    let d = g.decision().expect("decision").expect("game not over");
    assert_eq!(d.seat, seat, "seat {} is to move, not {seat}", d.seat);
    let i = find_option(g, &fields).unwrap_or_else(|| {
        let texts: Vec<&str> = d.options.iter().map(|o| o.text.as_str()).collect();
        panic!("no option {fields} for seat {seat}; options: {texts:?}")
    });
    g.apply(i).expect("apply");
}

/// Whether the pending decision has an option with these fields.
pub fn has_option(g: &Game, fields: Value) -> bool {
    find_option(g, &fields).is_some()
}

/// Run the `deckhand` binary on the repository's scripts, without colour.
pub fn deckhand(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .env("COLUMNS", "1000") // no wrapping: tests read whole lines
        .arg("--scripts")
        .arg(scripts_dir())
        .args(args)
        .env_remove("DECKHAND_SCRIPTS")
        .env("NO_COLOR", "1")
        .output()
        .expect("run deckhand")
}

/// Run the binary in `dir` with `args`, `stdin` as its whole input (then
/// end of input), without colour.
pub fn run_in(dir: &std::path::Path, args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .env("COLUMNS", "1000") // no wrapping: tests read whole lines
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run deckhand");
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(stdin.as_bytes());
    }
    child.wait_with_output().expect("wait for deckhand")
}

/// A chooser that picks `f(game, number of options)`.
pub fn by<'a>(mut f: impl FnMut(&Game, usize) -> usize + 'a) -> impl Chooser + 'a {
    move |g: &Game| -> deckhand_engine::Result<usize> { Ok(f(g, g.pending().map_or(1, |p| p.1))) }
}

/// Let the runner play `g` for at most `steps` more decisions, stopping
/// early at the end of the game.
pub fn play_steps(runner: Runner<'_>, g: &mut Game, steps: usize) {
    let limit = g.history().len() + steps;
    match runner.max_steps(limit).play(g) {
        Ok(_) => {}
        // The steps asked for are played.
        Err(e) if e.step > limit => {}
        Err(e) => panic!("{e}"),
    }
}

/// Let the runner play `g` to its end (every seat has a chooser).
pub fn play_to_end(runner: &mut Runner<'_>, g: &mut Game) -> GameResult {
    match runner.play(g) {
        Ok(Stop::Over(r)) => r,
        Ok(Stop::Waiting(seat)) => panic!("seat {seat} has no chooser"),
        Err(e) => panic!("{e}"),
    }
}

/// Play up to `steps` steps with one random bot (seeded by `seed`) choosing
/// for every seat, stopping early at the end of the game.
pub fn advance_randomly(g: &mut Game, seed: u64, steps: usize) {
    let players = g.config().players;
    play_steps(
        Runner::shared(players, Bot::new(BotKind::Random, seed, 1)),
        g,
        steps,
    );
}

/// Checks the game's invariants (cards conserved, zone mirrors in step
/// with the core) and the rules' own (`rules.invariants`) when it starts
/// and after every step, as the conformance suite does: for games it does
/// not play (other bots, options changed).
pub struct Invariants;

fn all_invariants(g: &Game) -> deckhand_engine::Result<()> {
    g.check_invariants()?;
    match g.script_invariants()? {
        None => Ok(()),
        Some(why) => Err(deckhand_engine::CoreError::Rule(format!(
            "rules.invariants: {why}"
        ))),
    }
}

impl Observer for Invariants {
    fn game_start(&mut self, g: &Game, _: &[Event]) -> deckhand_engine::Result<()> {
        all_invariants(g)
    }

    fn step(
        &mut self,
        g: &Game,
        _: u32,
        _: &deckhand_engine::Choice,
        _: &[Event],
    ) -> deckhand_engine::Result<()> {
        all_invariants(g)
    }
}

/// Every event of a game, setup included, in order.
#[derive(Default)]
pub struct Collect(pub Vec<Event>);

impl Observer for Collect {
    fn game_start(&mut self, _: &Game, events: &[Event]) -> deckhand_engine::Result<()> {
        self.0.extend_from_slice(events);
        Ok(())
    }

    fn step(
        &mut self,
        _: &Game,
        _: u32,
        _: &deckhand_engine::Choice,
        events: &[Event],
    ) -> deckhand_engine::Result<()> {
        self.0.extend_from_slice(events);
        Ok(())
    }
}

/// One bot per seat of an `n`-seat game, by name (`random`, `greedy`,
/// `mc:N` ...), the names repeated round the table when fewer than `n`.
pub fn bots_for(seats: &[&str], seed: u64, n: u32) -> Vec<Bot> {
    (1..=n)
        .map(|s| {
            Bot::new(
                BotKind::parse(seats[(s - 1) as usize % seats.len()]),
                seed,
                s,
            )
        })
        .collect()
}

/// A Sea Change house rule `ID.lua` in `dir` that runs the Lua statement
/// `before` (on line 4 of the file) before every step.
pub fn before_apply(dir: &std::path::Path, id: &str, before: &str) -> PathBuf {
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

/// The row `key` (`win.seat1`, `rounds`, `metric:NAME` ...) of arm `arm`
/// (0 = the first) of a `sim`/`compare --json` report.
pub fn report_row(report: &Value, arm: usize, key: &str) -> Value {
    report["arms"][arm]["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["key"] == key))
        .cloned()
        .unwrap_or_else(|| panic!("no row {key} in arm {arm}: {report}"))
}

/// The row `key` of the difference of arm `arm + 1` against the first arm
/// of a `compare --json` report.
pub fn difference_row(report: &Value, arm: usize, key: &str) -> Value {
    report["differences"][arm]["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["key"] == key))
        .cloned()
        .unwrap_or_else(|| panic!("no difference row {key}: {report}"))
}

/// The mean of a report row.
pub fn mean(row: &Value) -> f64 {
    row["mean"]
        .as_f64()
        .unwrap_or_else(|| panic!("no mean: {row}"))
}

/// The command line over the lab's fixtures (tests/fixtures/lab: toy games
/// and house rules), shared by the lab's test files.
pub mod lab {
    use std::path::PathBuf;
    use std::process::{Command, Output};

    /// The folder of the lab's toy games and house rules.
    pub fn fixtures() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/lab")
    }

    /// `deckhand --scripts FIXTURES ARGS` from a folder without scripts.
    pub fn deckhand(args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_deckhand"))
            .arg("--scripts")
            .arg(fixtures())
            .args(args)
            .env("NO_COLOR", "1")
            .current_dir(std::env::temp_dir())
            .output()
            .expect("run deckhand")
    }

    /// Standard output and error of a run, together.
    pub fn text(o: &Output) -> String {
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    }

    /// The standard output of a run that must succeed.
    pub fn ok(args: &[&str]) -> Vec<u8> {
        let o = deckhand(args);
        assert!(o.status.success(), "{args:?}: {}", text(&o));
        o.stdout
    }

    /// What a run that must fail says.
    pub fn fails(args: &[&str]) -> String {
        let o = deckhand(args);
        assert!(!o.status.success(), "{args:?} should fail: {}", text(&o));
        text(&o)
    }

    /// A JSON report without its timing fields (how long, how fast, on how
    /// many threads), which differ from run to run.
    pub fn untimed(bytes: &[u8]) -> serde_json::Value {
        let mut v: serde_json::Value = serde_json::from_slice(bytes).expect("JSON");
        if let Some(o) = v.as_object_mut() {
            for k in ["elapsed_s", "games_per_s", "threads"] {
                assert!(o.remove(k).is_some(), "no {k} in {o:?}");
            }
        }
        v
    }

    /// Write shard `k/n` of `args` into `dir` and return its path.
    pub fn shard(dir: &std::path::Path, args: &[&str], k: u64, n: u64) -> String {
        let spec = format!("{k}/{n}");
        let mut all = args.to_vec();
        all.extend(["--shard", &spec]);
        let path = dir.join(format!("shard-{k}-of-{n}.json"));
        std::fs::write(&path, ok(&all)).expect("write shard");
        path.display().to_string()
    }

    /// `deckhand merge --json FILES`, which must succeed.
    pub fn merge_json(files: &[String]) -> Vec<u8> {
        let mut args = vec!["merge", "--json"];
        args.extend(files.iter().map(String::as_str));
        ok(&args)
    }
}
