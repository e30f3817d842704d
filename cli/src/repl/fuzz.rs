//! Fuzzing with proptest: REPL lines (through the pure parser, and through
//! [`Session::handle_line`] on live games of every built-in game), mutated
//! save files fed to `load`, and the option and seat parsers. No input may
//! panic, and a line the REPL refuses (it says only errors) must leave the
//! game exactly as it was.
//!
//! `cargo test` runs a short slice, the same cases every time (a fixed
//! seed). `DECKHAND_FUZZ_CASES=N` runs N REPL lines, N parser inputs and
//! N / 10 mutated saves instead (see docs/security.md, "Fuzzing"):
//!
//! ```text
//! DECKHAND_FUZZ_CASES=1000000 cargo test -p deckhand --bin deckhand fuzz_ -- --nocapture
//! ```
//!
//! Trace files are not fuzzed: nothing in deckhand reads them back (`replay`
//! reads saves).

use super::commands::{self, hint::Hint, load::Load, lua::Lua, save::Save};
use super::parse;
use super::session::Session;
use crate::seats::{self, SeatSpec};
use deckhand_bots::{Bot, BotKind, Budget};
use deckhand_engine::config::parse_option_text;
use deckhand_engine::{Engine, GameConfig, Runner, SaveFile, ScriptLibrary};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::Value;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The environment variable that sets the size of a long run.
const CASES_VAR: &str = "DECKHAND_FUZZ_CASES";

/// REPL lines per generated case (one game each).
const LINES_PER_CASE: usize = 10;

/// How many inputs: `short` in an ordinary test run, the variable's value
/// (divided by `per`) in a long one.
fn inputs(short: u32, per: u32) -> u32 {
    match std::env::var(CASES_VAR)
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
    {
        Some(n) => (n / per).max(1),
        None => short,
    }
}

/// A runner with a fixed seed and no files written.
fn runner(cases: u32) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 2_000,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

/// Print what a run did (seen with `--nocapture`).
fn report(what: &str, count: u64, start: Instant) {
    eprintln!(
        "fuzz {what}: {count} inputs in {:.1} s",
        start.elapsed().as_secs_f64()
    );
}

/// Run `strategy` through `test`, failing the Rust test on a failing case.
fn run<S: Strategy>(
    name: &str,
    cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    if let Err(e) = runner(cases).run(&strategy, test) {
        panic!("fuzz {name}: {e}");
    }
}

/// The built-in scripts only (not a scripts folder of the working
/// directory), so every run sees the same rules.
fn library() -> Arc<ScriptLibrary> {
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(crate::scripts::built_in()));
    Arc::new(lib)
}

// ---------------------------------------------------------------- lines

/// Words a REPL line is made of: commands, numbers of every size, KEY=VALUE
/// pairs, card words, and arbitrary text.
fn word() -> BoxedStrategy<String> {
    let commands: Vec<String> = commands::all_names().map(str::to_string).collect();
    let numbers = select(vec![
        "0",
        "1",
        "2",
        "3",
        "7",
        "12",
        "-1",
        "+3",
        "4000000000",
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999999",
        "1e20",
        "NaN",
        "0x10",
        "100000",
        "100001",
    ])
    .prop_map(str::to_string);
    let keys = select(vec![
        "players",
        "p",
        "seed",
        "variant",
        "v",
        "seats",
        "target_vp",
        "layout",
        "x",
        "",
    ]);
    let values = select(vec![
        "4",
        "2",
        "0",
        "4000000000",
        "-3",
        "team",
        "strife",
        "passing",
        "human",
        "human,random",
        "random,human,greedy",
        "mc:2",
        "mc:4000000000",
        "mc:0",
        "mc:2:greedy",
        "mc:2:nobody",
        "greedy",
        "nobody",
        "/dev/zero",
        "nowhere/x.lua",
        "a,,b",
        "true",
        "off",
        "1.5",
        "=",
        "",
    ]);
    let pair = (keys, values).prop_map(|(k, v)| format!("{k}={v}"));
    let cards = select(vec![
        "blue", "red", "green", "purple", "Blue 7", "7", "crab", "fish", "sail", "pass", "yes",
        "no", "all",
    ])
    .prop_map(str::to_string);
    let text = proptest::collection::vec(any::<char>(), 0..8).prop_map(String::from_iter);
    let ascii = proptest::collection::vec(32u8..127, 0..8)
        .prop_map(|b| String::from_utf8_lossy(&b).into_owned());
    prop_oneof![
        4 => select(commands),
        3 => numbers,
        3 => pair,
        2 => cards,
        1 => text,
        2 => ascii,
    ]
    .boxed()
}

/// Read-only Lua typed after `lua` (code that changes the game is the
/// prompt's purpose, and is not fuzzed).
fn lua_code() -> impl Strategy<Value = String> {
    select(vec![
        "1 + 1",
        "game.vars",
        "#game.seats",
        "nil",
        "error('x')",
        "error(nil)",
        "error({})",
        "(",
        "game.nope.nope",
        "string.rep('x', 10)",
        "print(1, nil, {})",
        "tostring(game)",
        "deckhand",
    ])
    .prop_map(|c| format!("lua {c}"))
}

/// A line: words, or arbitrary characters, or a command changed by a few
/// characters.
fn line() -> impl Strategy<Value = String> {
    let words = proptest::collection::vec(word(), 1..5).prop_map(|w| w.join(" "));
    let chars = proptest::collection::vec(any::<char>(), 0..40).prop_map(String::from_iter);
    let spaced = proptest::collection::vec(
        prop_oneof![
            Just(' '),
            Just('\t'),
            Just('"'),
            Just('\''),
            Just('='),
            Just(',')
        ],
        0..6,
    )
    .prop_map(String::from_iter);
    let edited = (words.clone(), any::<u32>(), any::<char>()).prop_map(|(l, at, c)| {
        let mut chars: Vec<char> = l.chars().collect();
        let i = at as usize % (chars.len() + 1);
        match at % 3 {
            0 => chars.insert(i, c),
            1 if i < chars.len() => {
                chars.remove(i);
            }
            _ if i < chars.len() => chars[i] = c,
            _ => {}
        }
        String::from_iter(chars)
    });
    let commands: Vec<String> = commands::all_names().map(str::to_string).collect();
    let command =
        (select(commands), proptest::collection::vec(word(), 0..3)).prop_map(|(c, args)| {
            let mut l = c;
            for a in args {
                l.push(' ');
                l.push_str(&a);
            }
            l
        });
    let moves = (1usize..16).prop_map(|n| n.to_string());
    prop_oneof![
        6 => command,
        4 => moves,
        3 => words,
        2 => chars,
        1 => spaced,
        3 => edited,
        1 => lua_code(),
    ]
}

/// Lines the session fuzz leaves out: long searches (`hint` with many
/// playouts, search bots with many) and files outside its folder.
fn too_slow_or_outside(line: &str, folder: &str) -> bool {
    if let Ok(input) = parse::parse(line) {
        match input.args::<Hint>() {
            Some(Hint(Budget::Iterations(n))) if *n > 8 => return true,
            Some(Hint(Budget::Time(_))) => return true,
            _ => {}
        }
        let file = (input.args::<Save>().map(|s| &s.0)).or(input.args::<Load>().map(|l| &l.0));
        if file.is_some_and(|p| !p.starts_with(folder)) {
            return true;
        }
    }
    // `mc` (200 playouts) or `mc:N` with N > 5 anywhere in the line.
    let lower = line.to_lowercase();
    lower.match_indices("mc").any(|(i, _)| {
        let rest = &lower[i + 2..];
        let Some(n) = rest.strip_prefix(':') else {
            return true;
        };
        let digits: String = n.chars().take_while(char::is_ascii_digit).collect();
        // A time budget (mc:1s, ismcts:200ms) is never quick.
        if n[digits.len()..].starts_with(['s', 'm', '.']) {
            return true;
        }
        digits
            .parse::<u64>()
            .map_or(true, |n| n > 5 && n <= 100_000)
    })
}

/// Everything that makes up the live game: refused lines must leave it
/// exactly so.
fn snapshot(s: &Session) -> Option<String> {
    let c = s.current.as_ref()?;
    let g = &c.game;
    let view = g
        .view(None)
        .ok()
        .and_then(|v| serde_json::to_string(&v).ok());
    let seats: Vec<String> = c.seats.iter().map(SeatSpec::name).collect();
    Some(format!(
        "{:?}\n{:?}\n{:?}\n{}\n{seats:?}\n{view:?}",
        g.config(),
        g.history(),
        g.pending(),
        g.can_redo()
    ))
}

/// Type `line`; a refused line must change nothing. Returns whether the
/// line ran (was not left out).
fn type_checked(s: &mut Session, line: &str, folder: &str) -> Result<bool, TestCaseError> {
    if too_slow_or_outside(line, folder) {
        return Ok(false);
    }
    let before = snapshot(s);
    s.handle_line(line);
    let refused = s.only_errors();
    let out = s.take_output();
    if std::env::var_os("DECKHAND_FUZZ_SHOW").is_some() {
        eprintln!(
            ">> {line:?} refused={refused}\n{}",
            out.join("\n").chars().take(300).collect::<String>()
        );
    }
    // The Lua prompt may change the game by design, error or not.
    let is_lua = parse::parse(line).is_ok_and(|i| i.args::<Lua>().is_some());
    if refused && !is_lua {
        let after = snapshot(s);
        prop_assert!(
            before == after,
            "the refused line {line:?} changed the game; it said {out:?}"
        );
    }
    Ok(true)
}

/// Every game of the catalog (the built-in scripts) with a player count it
/// takes: its default, else its fewest.
fn catalog_games() -> Vec<(String, u32)> {
    let engine = Engine::new(library()).expect("engine");
    engine
        .catalog()
        .expect("catalog")
        .into_iter()
        .map(|e| {
            let p = e.info.players;
            (e.info.id, p.default.unwrap_or(p.min))
        })
        .collect()
}

/// Games the session fuzz plays, as `new` lines: every game of the catalog
/// with one person and bots, and each of those that takes two or more
/// players once more with two people at this terminal (hot seat).
fn session_games() -> Vec<String> {
    let mut out = Vec::new();
    for (id, players) in catalog_games() {
        out.push(format!("new {id} players={players} seats=human"));
        if players >= 2 {
            out.push(format!("new {id} players={players} seats=human,human"));
        }
    }
    out
}

#[test]
fn fuzz_parser_lines_never_panic() {
    let count = AtomicU64::new(0);
    let start = Instant::now();
    run("parser", inputs(3_000, 1), line(), |l| {
        count.fetch_add(1, Ordering::Relaxed);
        match parse::parse(&l) {
            Ok(_) => {}
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
        Ok(())
    });
    report("parser lines", count.into_inner(), start);
}

#[test]
fn fuzz_repl_lines_on_live_games_never_panic_and_refusals_change_nothing() {
    let dir = tempfile::tempdir().expect("tmp");
    let folder = dir.path().display().to_string();
    let session = RefCell::new(Session::new(library(), false).expect("session"));
    let files = select(vec!["a.json", "b.json", "", "a.json.tmp", "fuzzed.json"]);
    let file_line = (select(vec!["save", "load"]), files).prop_map({
        let folder = folder.clone();
        move |(cmd, f)| format!("{cmd} {folder}/{f}")
    });
    let lines = proptest::collection::vec(
        prop_oneof![9 => line().boxed(), 1 => file_line.boxed()],
        LINES_PER_CASE,
    );
    let games = session_games();
    let strategy = (0..games.len(), 0u64..1_000, lines);
    let count = AtomicU64::new(0);
    let start = Instant::now();
    let cases = inputs(300, LINES_PER_CASE as u32);
    run("session", cases, strategy, |(g, seed, lines)| {
        let mut s = session.borrow_mut();
        s.handle_line(&format!("{} seed={seed}", games[g]));
        let out = s.take_output();
        prop_assert!(s.current.is_some(), "{out:?}");
        for l in &lines {
            if type_checked(&mut s, l, &folder)? {
                count.fetch_add(1, Ordering::Relaxed);
            }
        }
        Ok(())
    });
    report("REPL lines", count.into_inner(), start);
}

// ---------------------------------------------------------------- saves

/// Valid saves of every game, a few moves in and further on.
fn base_saves() -> Vec<String> {
    let engine = Engine::new(library()).expect("engine");
    let mut out = Vec::new();
    for (game, players) in catalog_games() {
        for steps in [0, 5, 60] {
            let cfg = GameConfig::new(&game, players, 11 + steps as u64);
            let mut g = engine.new_game(cfg, true).expect("game");
            // One random bot moves for every seat, `steps` times at most.
            match Runner::shared(players, Bot::new(BotKind::Random, 3, 1))
                .max_steps(steps)
                .play(&mut g)
            {
                Ok(_) => {}
                Err(e) if e.step > steps => {}
                Err(e) => panic!("{e}"),
            }
            let mut seats = vec!["human".to_string()];
            seats.resize(players as usize, "random".into());
            let save = SaveFile::of(&g, seats).expect("save");
            out.push(serde_json::to_string_pretty(&save).expect("json"));
        }
    }
    out
}

/// One change to a save's text.
#[derive(Debug, Clone)]
enum Mutation {
    /// Replace the byte at this position.
    Byte(u32, u8),
    /// Insert bytes at this position.
    Insert(u32, Vec<u8>),
    /// Remove this many bytes from this position.
    Delete(u32, u8),
    /// Cut the file at this position.
    Truncate(u32),
    /// Replace the JSON value at this node (depth first) with a nasty one.
    Set(u32, u8),
    /// Remove, repeat or swap actions.
    Actions(u32, u32, u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        2 => (any::<u32>(), any::<u8>()).prop_map(|(p, b)| Mutation::Byte(p, b)),
        1 => (any::<u32>(), proptest::collection::vec(any::<u8>(), 1..6))
            .prop_map(|(p, b)| Mutation::Insert(p, b)),
        1 => (any::<u32>(), 1u8..40).prop_map(|(p, n)| Mutation::Delete(p, n)),
        1 => any::<u32>().prop_map(Mutation::Truncate),
        5 => (any::<u32>(), any::<u8>()).prop_map(|(p, v)| Mutation::Set(p, v)),
        2 => (any::<u32>(), any::<u32>(), any::<u8>()).prop_map(|(a, b, k)| Mutation::Actions(a, b, k)),
    ]
}

/// Values a hostile or broken save may hold where a valid one has another.
fn nasty(k: u8, folder: &str) -> Value {
    let list: Vec<Value> = vec![
        Value::from(0),
        Value::from(-1),
        Value::from(1),
        Value::from(2),
        Value::from(4_000_000_000u64),
        Value::from(u64::MAX),
        Value::from(i64::MIN),
        Value::from(1e300),
        Value::from(-0.5),
        Value::from(""),
        Value::from("x"),
        Value::from("/dev/zero"),
        Value::from(format!("{folder}/missing.lua")),
        Value::from(folder),
        Value::from("mc:4000000000"),
        Value::from("human"),
        Value::from("random"),
        Value::from("team"),
        Value::from("seadogs"),
        Value::from("sea_change"),
        Value::Bool(true),
        Value::Null,
        Value::Array(vec![]),
        serde_json::json!({}),
        serde_json::json!([1, 2, 3]),
        serde_json::json!({"seat": 1, "index": 1}),
        serde_json::json!({"seat": 4_000_000_000u64, "index": 4_000_000_000u64}),
        Value::from("ü".repeat(1_000)),
    ];
    list[k as usize % list.len()].clone()
}

/// Every node of a JSON value, depth first, as a path of keys and indices.
fn nodes(v: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(path.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                path.push(Value::from(k.clone()));
                nodes(x, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(Value::from(i));
                nodes(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn node_mut<'a>(v: &'a mut Value, path: &[Value]) -> Option<&'a mut Value> {
    let mut at = v;
    for p in path {
        at = match p {
            Value::String(k) => at.get_mut(k.as_str())?,
            Value::Number(i) => at.get_mut(i.as_u64()? as usize)?,
            _ => return None,
        };
    }
    Some(at)
}

fn mutate(text: &str, changes: &[Mutation], folder: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for m in changes {
        let at = |p: u32, len: usize| p as usize % (len + 1);
        match m {
            Mutation::Byte(p, b) => {
                if !bytes.is_empty() {
                    let i = *p as usize % bytes.len();
                    bytes[i] = *b;
                }
            }
            Mutation::Insert(p, b) => {
                let i = at(*p, bytes.len());
                bytes.splice(i..i, b.iter().copied());
            }
            Mutation::Delete(p, n) => {
                let i = at(*p, bytes.len());
                let j = (i + *n as usize).min(bytes.len());
                bytes.drain(i..j);
            }
            Mutation::Truncate(p) => {
                let i = at(*p, bytes.len());
                bytes.truncate(i);
            }
            Mutation::Set(p, k) => {
                let Ok(mut v) = serde_json::from_slice::<Value>(&bytes) else {
                    continue;
                };
                let mut all = Vec::new();
                nodes(&v, &mut Vec::new(), &mut all);
                let path = &all[*p as usize % all.len()];
                if let Some(node) = node_mut(&mut v, path) {
                    *node = nasty(*k, folder);
                }
                bytes = serde_json::to_vec(&v).unwrap_or(bytes);
            }
            Mutation::Actions(a, b, k) => {
                let Ok(mut v) = serde_json::from_slice::<Value>(&bytes) else {
                    continue;
                };
                if let Some(Value::Array(list)) = v.get_mut("actions") {
                    if !list.is_empty() {
                        let (i, j) = (*a as usize % list.len(), *b as usize % list.len());
                        match k % 3 {
                            0 => {
                                list.remove(i);
                            }
                            1 => {
                                let x = list[i].clone();
                                list.insert(j, x);
                            }
                            _ => list.swap(i, j),
                        }
                    }
                }
                bytes = serde_json::to_vec(&v).unwrap_or(bytes);
            }
        }
    }
    bytes
}

#[test]
fn fuzz_mutated_saves_never_panic_and_refused_loads_change_nothing() {
    let dir = tempfile::tempdir().expect("tmp");
    let folder = dir.path().display().to_string();
    let path = dir.path().join("fuzzed.json");
    let saves = base_saves();
    let session = RefCell::new(Session::new(library(), false).expect("session"));
    let games = session_games();
    let strategy = (
        0..saves.len(),
        0..games.len(),
        proptest::collection::vec(mutation(), 1..4),
    );
    let count = AtomicU64::new(0);
    let start = Instant::now();
    run(
        "saves",
        inputs(1_000, 10),
        strategy,
        |(base, g, changes)| {
            let bytes = mutate(&saves[base], &changes, &folder);
            std::fs::write(&path, &bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let mut s = session.borrow_mut();
            s.handle_line(&format!("{} seed=1", games[g]));
            s.take_output();
            count.fetch_add(1, Ordering::Relaxed);
            type_checked(&mut s, &format!("load {}", path.display()), &folder)?;
            // The game loaded (or kept) goes on.
            type_checked(&mut s, "moves", &folder)?;
            Ok(())
        },
    );
    report("mutated saves", count.into_inner(), start);
}

// ------------------------------------------------------ options and seats

#[test]
fn fuzz_option_and_seat_parsers_never_panic() {
    let engine = Engine::new(library()).expect("engine");
    let infos: Vec<_> = catalog_games()
        .iter()
        .map(|(g, _)| engine.rules(g, &[]).expect("rules").info.clone())
        .collect();
    let text = prop_oneof![
        3 => word(),
        1 => proptest::collection::vec(any::<char>(), 0..20).prop_map(String::from_iter),
    ];
    let players = prop_oneof![0u32..12, any::<u32>()];
    let strategy = (
        0..infos.len(),
        proptest::collection::vec(text.clone(), 0..10),
        players,
        proptest::collection::vec(text, 0..4),
    );
    let count = AtomicU64::new(0);
    let start = Instant::now();
    run(
        "options and seats",
        inputs(3_000, 1),
        strategy,
        |(i, seats_given, players, options)| {
            count.fetch_add(1, Ordering::Relaxed);
            let info = &infos[i];
            let specs: Vec<SeatSpec> = seats_given.iter().map(|s| SeatSpec::parse(s)).collect();
            for s in &seats_given {
                let _ = BotKind::parse(s);
                let _ = parse_option_text(s);
            }
            let fill = SeatSpec::Bot(BotKind::Random);
            if let Ok(all) = seats::complete(&specs, players, &fill, info, seats::Table::People) {
                prop_assert_eq!(all.len(), players as usize);
                prop_assert!((info.players.min..=info.players.max).contains(&players));
            }
            let mut cfg = GameConfig::new(&info.id, 2, 1);
            if crate::commands::setup::parse_options_of(&mut cfg, &options, info).is_ok() {
                let _ = info.resolve_options(&cfg.options);
            }
            Ok(())
        },
    );
    report("option and seat inputs", count.into_inner(), start);
}

/// The session fuzz writes files only in its folder and runs no long
/// search.
#[test]
fn the_session_fuzz_leaves_out_outside_files_and_long_searches() {
    assert!(too_slow_or_outside("save /etc/x.json", "/tmp/f"));
    assert!(too_slow_or_outside("load x.json", "/tmp/f"));
    assert!(!too_slow_or_outside("save /tmp/f/a.json", "/tmp/f"));
    assert!(too_slow_or_outside("hint", "/tmp/f"));
    assert!(!too_slow_or_outside("hint 3", "/tmp/f"));
    assert!(too_slow_or_outside("seats 2=mc", "/tmp/f"));
    assert!(too_slow_or_outside("seats 2=MC:400", "/tmp/f"));
    assert!(!too_slow_or_outside("seats 2=mc:2", "/tmp/f"));
    // Refused at once: over the cap.
    assert!(!too_slow_or_outside("seats 2=mc:4000000000", "/tmp/f"));
}
