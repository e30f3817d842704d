//! Traces (docs/trace.md), read as another tool reads them: whole games of
//! every game shipped are checked from their full trace alone (cards
//! conserved, draws and deals from the top of the recorded order, every
//! move from where the card is, decisions in order, and, for Sea Change,
//! every trick won, every option legal and the cards each seat collected),
//! the size of a Sea Change game, gzip output, and what each level holds.

use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output};

fn deckhand(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .args(args)
        .current_dir(std::env::temp_dir())
        .env("NO_COLOR", "1")
        .output()
        .expect("run deckhand")
}

/// `deckhand sim GAME ARGS --trace PATH`, which must succeed.
fn sim_trace(path: &Path, game: &str, args: &[&str]) {
    let p = path.display().to_string();
    let mut all = vec!["sim", game, "--trace", &p, "--json"];
    all.extend_from_slice(args);
    let o = deckhand(&all);
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn lines(body: &str) -> Vec<Value> {
    body.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The records of each game, from its start record to its end record.
fn games(records: &[Value]) -> Vec<&[Value]> {
    let mut out = Vec::new();
    let mut from = None;
    for (i, r) in records.iter().enumerate() {
        match r["type"].as_str() {
            Some("start") => from = Some(i),
            Some("end") => {
                let f = from.take().expect("an end after a start");
                out.push(&records[f..=i]);
            }
            _ => {}
        }
    }
    assert!(from.is_none(), "a game without its end record");
    out
}

fn ids(v: &Value) -> Vec<u32> {
    v.as_array()
        .expect("a list of numbers")
        .iter()
        .map(|x| x.as_u64().expect("a number") as u32)
        .collect()
}

/// A game rebuilt from its trace: the zones (cards bottom first) and the
/// card definitions.
struct Table {
    zones: Vec<Vec<u32>>,
    /// (name, owner) of each zone, zone 1 first.
    names: Vec<(String, Option<u64>)>,
    props: Vec<String>,
    cards: Vec<Vec<Value>>,
    /// Names of zones whose cards leave from the top only (a stack a
    /// player plays from in order).
    top_only: Vec<String>,
}

impl Table {
    fn new(start: &Value) -> Table {
        let mut t = Table {
            zones: Vec::new(),
            names: Vec::new(),
            props: Vec::new(),
            cards: Vec::new(),
            top_only: Vec::new(),
        };
        t.add_zones(&start["zones"]);
        t.add_cards(&start["card_props"], &start["cards"]);
        t
    }

    fn add_zones(&mut self, zones: &Value) {
        for z in zones.as_array().expect("zones") {
            self.names
                .push((z[0].as_str().expect("name").to_string(), z[1].as_u64()));
            self.zones.push(Vec::new());
        }
    }

    fn add_cards(&mut self, props: &Value, rows: &Value) {
        let props: Vec<String> = props
            .as_array()
            .expect("card_props")
            .iter()
            .map(|p| p.as_str().expect("a property").to_string())
            .collect();
        for row in rows.as_array().expect("cards") {
            let row = row.as_array().expect("a row");
            assert_eq!(row.len(), props.len(), "one value per property");
            // Rows of later definitions may name other properties: keep by name.
            let by_name: HashMap<&str, &Value> =
                props.iter().map(String::as_str).zip(row.iter()).collect();
            for p in &props {
                if !self.props.contains(p) {
                    self.props.push(p.clone());
                    for c in &mut self.cards {
                        c.push(Value::Null);
                    }
                }
            }
            let full = self
                .props
                .iter()
                .map(|p| {
                    by_name
                        .get(p.as_str())
                        .map_or(Value::Null, |v| (*v).clone())
                })
                .collect();
            self.cards.push(full);
        }
    }

    fn prop(&self, card: u32, name: &str) -> &Value {
        let i = self
            .props
            .iter()
            .position(|p| p == name)
            .expect("a property");
        &self.cards[card as usize - 1][i]
    }

    fn zone(&mut self, id: &Value) -> &mut Vec<u32> {
        let i = id.as_u64().expect("a zone number") as usize;
        assert!(i >= 1 && i <= self.zones.len(), "zone {i} is not defined");
        &mut self.zones[i - 1]
    }

    fn find(&self, name: &str, owner: Option<u64>) -> Option<usize> {
        self.names
            .iter()
            .position(|(n, o)| n == name && *o == owner)
    }

    fn cards_of(&self, name: &str, owner: Option<u64>) -> &[u32] {
        self.find(name, owner).map_or(&[], |i| &self.zones[i])
    }

    /// Take `card` out of zone `from`; `top`: it must be the top card.
    fn take(&mut self, from: &Value, card: u32, top: bool, what: &str) {
        let i = from.as_u64().unwrap_or(0) as usize;
        let top = top
            || self
                .names
                .get(i.wrapping_sub(1))
                .is_some_and(|(n, _)| self.top_only.contains(n));
        let z = self.zone(from);
        if top {
            assert_eq!(
                z.last(),
                Some(&card),
                "{what}: card {card} is not the top of zone {from}"
            );
            z.pop();
        } else {
            let at = z
                .iter()
                .rposition(|&c| c == card)
                .unwrap_or_else(|| panic!("{what}: card {card} is not in zone {from}"));
            z.remove(at);
        }
    }

    /// Apply one effect; the (card, from zone) pairs of its moves.
    fn apply(&mut self, e: &Value) -> Vec<(u32, usize, usize)> {
        let what = e[0].as_str().expect("an effect code");
        let mut moved = Vec::new();
        let at = |v: &Value| v.as_u64().expect("zone") as usize;
        match what {
            "place" => {
                for c in ids(&e[2]) {
                    self.zone(&e[1]).push(c);
                }
            }
            "move" | "under" | "draw" => {
                for c in ids(&e[3]) {
                    self.take(&e[1], c, what == "draw", what);
                    let to = self.zone(&e[2]);
                    if what == "under" {
                        to.insert(0, c);
                    } else {
                        to.push(c);
                    }
                    moved.push((c, at(&e[1]), at(&e[2])));
                }
            }
            "deal" => {
                let to = ids(&e[2]);
                assert!(!to.is_empty());
                for (k, c) in ids(&e[3]).into_iter().enumerate() {
                    // Every card of a deal comes off the top, round the zones.
                    self.take(&e[1], c, true, "deal");
                    let z = Value::from(to[k % to.len()]);
                    self.zone(&z).push(c);
                    moved.push((c, at(&e[1]), at(&z)));
                }
            }
            "all" => {
                let cards = std::mem::take(self.zone(&e[1]));
                for &c in &cards {
                    moved.push((c, at(&e[1]), at(&e[2])));
                }
                self.zone(&e[2]).extend(cards);
            }
            "shuffle" => {
                let order = ids(&e[2]);
                let z = self.zone(&e[1]);
                let (mut a, mut b) = (z.clone(), order.clone());
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "a shuffle reorders the zone's own cards");
                *z = order;
            }
            "sort" => self.zone(&e[1]).sort_unstable(),
            "cards" => self.add_cards(&e[1], &e[2]),
            "zones" => self.add_zones(&e[1]),
            "event" => {}
            other => panic!("unknown effect {other}"),
        }
        moved
    }

    /// Every card defined is in exactly one zone.
    fn conserved(&self) {
        let mut seen = vec![0; self.cards.len()];
        for z in &self.zones {
            for &c in z {
                seen[c as usize - 1] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "cards in no zone or several");
    }
}

/// What a checker learns from a trace besides the zones: the events, in
/// order, with the step and seat they happened at.
struct Checked {
    steps: usize,
    events: Vec<(usize, Value)>,
}

/// Check one game from its records alone, with `each_step` called before
/// each decision's effects (the table as the seat decided) and `each_effect`
/// after each effect. Cards leave the zones named in `top_only` from the
/// top only.
fn check_game(
    recs: &[Value],
    top_only: &[&str],
    mut before_decision: impl FnMut(&Table, &Value),
    mut each_effect: impl FnMut(&Table, &Value, &Value, &[(u32, usize, usize)]),
) -> Checked {
    let start = &recs[0];
    let end = recs.last().expect("end");
    assert_eq!(start["format"], 4);
    assert_eq!(start["level"], "full");
    let mut t = Table::new(start);
    t.top_only = top_only.iter().map(|s| s.to_string()).collect();
    let mut events = Vec::new();
    for e in start["e"].as_array().expect("setup effects") {
        let moved = t.apply(e);
        each_effect(&t, start, e, &moved);
        if e[0] == "event" {
            events.push((0, e.clone()));
        }
    }
    t.conserved();
    let mut steps = 0;
    let mut kind = None;
    for r in &recs[1..recs.len() - 1] {
        steps += 1;
        assert_eq!(r["s"].as_u64(), Some(steps as u64), "decisions in order");
        assert!(r["p"].as_u64().is_some_and(|p| p >= 1), "a seat decides");
        if let Some(k) = r["k"].as_str() {
            kind = Some(k.to_string());
        }
        assert!(kind.as_deref().is_some_and(|k| !k.is_empty()), "a kind");
        let n = r
            .get("oc")
            .or_else(|| r.get("o"))
            .and_then(Value::as_array)
            .expect("options")
            .len() as u64;
        assert!((1..=n).contains(&r["c"].as_u64().expect("chosen")));
        for c in r.get("oc").map(ids).unwrap_or_default() {
            assert!((c as usize) <= t.cards.len(), "an option names a card");
        }
        before_decision(&t, r);
        for e in r["e"].as_array().expect("effects") {
            let moved = t.apply(e);
            each_effect(&t, r, e, &moved);
            if e[0] == "event" {
                events.push((steps, e.clone()));
            }
        }
        t.conserved();
    }
    assert_eq!(end["steps"].as_u64(), Some(steps as u64));
    Checked { steps, events }
}

fn event<'a>(events: &'a [(usize, Value)], name: &str) -> Vec<&'a Value> {
    events
        .iter()
        .filter(|(_, e)| e[1] == name)
        .map(|(_, e)| &e[2])
        .collect()
}

/// Sea Change from its trace: every option is a legal play, every trick is
/// won as the rules say by the seat that played the winning card, its points
/// are its cards' points, the solo AI plays the top of its stack, each
/// round's collected cards are the won piles, and the game says why it
/// ended.
fn check_sea_change(recs: &[Value]) -> usize {
    let start = &recs[0];
    let match_into_trump = start["options"]["match_into_trump"] == Value::Bool(true);
    let trick = std::cell::RefCell::new(Vec::<(u32, u64)>::new());
    let trump = std::cell::RefCell::new(None::<String>);
    let tricks = std::cell::Cell::new(0);
    let legal_checked = std::cell::Cell::new(0);
    let suit = |t: &Table, c: u32| t.prop(c, "suit").as_str().expect("suit").to_string();
    let value = |t: &Table, c: u32| t.prop(c, "value").as_i64().expect("value");
    // Solo: the AI plays the top card of its stack.
    let checked = check_game(
        recs,
        &["ai_stack"],
        |t, r| {
            // The options are exactly the cards of the hand the rules allow.
            let seat = r["p"].as_u64();
            let hand = t.cards_of("hand", seat).to_vec();
            let trick = trick.borrow();
            let legal: Vec<u32> = match trick.first() {
                None => hand.clone(),
                Some(&(led, _)) => {
                    let lead = suit(t, led);
                    let last = trick.last().map(|&(c, _)| value(t, c));
                    let trump = trump.borrow();
                    if !hand.iter().any(|&c| suit(t, c) == lead) {
                        hand.clone()
                    } else {
                        hand.iter()
                            .copied()
                            .filter(|&c| {
                                suit(t, c) == lead
                                    || (Some(value(t, c)) == last
                                        && (Some(suit(t, c)) != *trump || match_into_trump))
                            })
                            .collect()
                    }
                }
            };
            let mut offered = ids(&r["oc"]);
            offered.sort_unstable();
            let mut legal = legal;
            legal.sort_unstable();
            assert_eq!(offered, legal, "step {}: the legal plays", r["s"]);
            legal_checked.set(legal_checked.get() + 1);
        },
        |t, r, e, moved| {
            for &(c, from, to) in moved {
                if t.names[to - 1].0 == "trick" {
                    // Solo: the AI (seat 0) plays from its stack, top first.
                    let seat = if t.names[from - 1].0 == "ai_stack" {
                        0
                    } else {
                        r["p"].as_u64().expect("seat")
                    };
                    trick.borrow_mut().push((c, seat));
                }
            }
            if e[0] != "event" {
                return;
            }
            let d = &e[2];
            match e[1].as_str() {
                Some("trump_changed") => {
                    *trump.borrow_mut() = d["suit"].as_str().map(str::to_string);
                }
                Some("round_started") => *trump.borrow_mut() = None,
                Some("trick_won") => {
                    let mut trick = trick.borrow_mut();
                    let cards: Vec<u32> = trick.iter().map(|p| p.0).collect();
                    let players: Vec<u64> = trick.iter().map(|p| p.1).collect();
                    assert_eq!(ids(&d["cards"]), cards, "the trick's cards, in play order");
                    assert_eq!(
                        d["players"]
                            .as_array()
                            .map(|a| a.iter().filter_map(Value::as_u64).collect::<Vec<_>>()),
                        Some(players.clone()),
                        "who played each card"
                    );
                    // The highest trump wins, else the highest of the lead suit.
                    let trump = trump.borrow().clone();
                    let lead = suit(t, cards[0]);
                    let rank = |c: u32| {
                        if Some(suit(t, c)) == trump {
                            Some(100 + value(t, c))
                        } else if suit(t, c) == lead {
                            Some(value(t, c))
                        } else {
                            None
                        }
                    };
                    let best = (0..cards.len()).max_by_key(|&i| (rank(cards[i]), -(i as i64)));
                    let best = best.expect("a card");
                    assert_eq!(
                        d["card"].as_u64(),
                        Some(cards[best] as u64),
                        "the winning card"
                    );
                    assert_eq!(d["winner"].as_u64(), Some(players[best]), "the winner");
                    let points: i64 = cards
                        .iter()
                        .map(|&c| t.prop(c, "points").as_i64().expect("points"))
                        .sum();
                    assert_eq!(d["points"].as_i64(), Some(points), "the trick's points");
                    trick.clear();
                    tricks.set(tricks.get() + 1);
                }
                Some("round_scored") => {
                    for (i, got) in d["collected"]
                        .as_array()
                        .expect("collected")
                        .iter()
                        .enumerate()
                    {
                        let mut got = ids(got);
                        let mut pile = t.cards_of("won", Some(i as u64 + 1)).to_vec();
                        got.sort_unstable();
                        pile.sort_unstable();
                        assert_eq!(got, pile, "seat {}'s collected cards", i + 1);
                    }
                }
                Some("game_over") => {
                    assert_eq!(d["ended_by"], "target_vp");
                    assert!(d["decided_by"].is_string());
                }
                _ => {}
            }
        },
    );
    assert!(tricks.get() > 0 && legal_checked.get() == checked.steps);
    assert_eq!(event(&checked.events, "game_over").len(), 1);
    tricks.get()
}

#[test]
fn whole_sea_change_games_check_out_from_their_traces_alone() {
    let dir = tempfile::tempdir().expect("tmp");
    for (players, variants) in [
        ("4", vec![]),
        ("2", vec![]),
        ("1", vec![]),
        ("6", vec!["-v", "team"]),
    ] {
        let path = dir.path().join(format!("sc{players}.jsonl"));
        let mut args = vec!["-p", players, "-n", "4", "--seed", "3"];
        args.extend(variants);
        sim_trace(&path, "sea_change", &args);
        let body = std::fs::read_to_string(&path).expect("trace");
        let records = lines(&body);
        let all = games(&records);
        assert_eq!(all.len(), 4);
        for g in all {
            check_sea_change(g);
        }
    }
}

#[test]
fn whole_games_of_every_game_check_out_from_their_traces_alone() {
    let dir = tempfile::tempdir().expect("tmp");
    for (game, args) in [
        ("sea_salt_paper", vec!["-p", "3"]),
        ("sea_salt_paper", vec!["-p", "2", "--seat", "greedy"]),
        ("seadogs", vec!["-p", "4"]),
        ("seas_of_strife", vec!["-p", "4", "-v", "passing"]),
    ] {
        let path = dir.path().join(format!("{game}.jsonl"));
        let mut all = args.clone();
        all.extend(["-n", "3", "--seed", "7"]);
        sim_trace(&path, game, &all);
        let body = std::fs::read_to_string(&path).expect("trace");
        let records = lines(&body);
        let mut draws = 0;
        for g in games(&records) {
            let end_zones = std::cell::RefCell::new(None);
            let checked = check_game(
                g,
                &[],
                |_, _| {},
                |t, _, e, _| {
                    if e[0] == "draw" || e[0] == "deal" {
                        draws += 1;
                    }
                    *end_zones.borrow_mut() = Some(t.zones.clone());
                },
            );
            let over = event(&checked.events, "game_over");
            assert_eq!(over.len(), 1, "{game}: one game_over event");
            let over = over[0];
            let winners = &g.last().expect("end")["winners"];
            assert_eq!(&over["winners"], winners, "{game}: the winners");
            // Why the game ended, as the rules record it.
            let why = over["ended_by"].as_str().expect("ended_by");
            match game {
                "sea_salt_paper" => assert!(["target", "mermaids"].contains(&why), "{why}"),
                "seadogs" => assert!(["bank", "treasure_deck"].contains(&why), "{why}"),
                _ => assert_eq!(why, "end_score"),
            }
            if game == "seadogs" && why == "treasure_deck" {
                let t = Table::new(&g[0]);
                let at = t.find("treasures", None).expect("the treasure deck");
                let zones = end_zones.borrow();
                assert!(zones.as_ref().expect("zones")[at].is_empty());
            }
        }
        assert!(draws > 0, "{game}: cards drawn or dealt");
    }
}

#[test]
fn a_four_player_sea_change_game_traces_in_under_30_kb() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("t.jsonl");
    sim_trace(&path, "sea_change", &["-p", "4", "-n", "20", "--seed", "1"]);
    let body = std::fs::read_to_string(&path).expect("trace");
    let per_game = body.len() / 20;
    assert!(per_game < 30_000, "{per_game} bytes a game");
    // And the trace is whole: twenty games, each checked.
    let records = lines(&body);
    let all = games(&records);
    assert_eq!(all.len(), 20);
    for g in all {
        check_sea_change(g);
    }
}

#[test]
fn a_gz_trace_is_the_same_trace_gzipped() {
    use std::io::Read;
    let dir = tempfile::tempdir().expect("tmp");
    let plain = dir.path().join("t.jsonl");
    let gz = dir.path().join("t.jsonl.gz");
    let args = ["-p", "4", "-n", "40", "--seed", "2", "-j", "2"];
    sim_trace(&plain, "sea_change", &args);
    sim_trace(&gz, "sea_change", &args);
    let bytes = std::fs::read(&gz).expect("gz");
    assert_eq!(&bytes[..2], &[0x1f, 0x8b], "gzip magic");
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .expect("gunzip");
    let body = std::fs::read_to_string(&plain).expect("plain");
    // Line by line, so that a difference shows as one line, not two traces.
    assert_eq!(text.lines().count(), body.lines().count());
    for (i, (a, b)) in text.lines().zip(body.lines()).enumerate() {
        assert_eq!(a, b, "line {}", i + 1);
    }
    assert!(
        bytes.len() * 3 < body.len(),
        "{} of {}",
        bytes.len(),
        body.len()
    );
}

#[test]
fn each_level_holds_what_it_says() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut by_level = HashMap::new();
    for level in ["events", "decisions", "full"] {
        let path = dir.path().join(format!("{level}.jsonl"));
        sim_trace(
            &path,
            "sea_change",
            &["-p", "4", "-n", "2", "--seed", "4", "--trace-level", level],
        );
        let body = std::fs::read_to_string(&path).expect("trace");
        by_level.insert(level, lines(&body));
    }
    let steps = |recs: &[Value]| -> Vec<Value> {
        recs.iter()
            .filter(|r| r.get("s").is_some())
            .cloned()
            .collect()
    };
    let effects = |recs: &[Value]| -> Vec<Value> {
        recs.iter()
            .filter_map(|r| r.get("e").and_then(Value::as_array))
            .flatten()
            .cloned()
            .collect()
    };
    let events = |recs: &[Value]| -> Vec<Value> {
        effects(recs)
            .into_iter()
            .filter(|e| e[0] == "event")
            .collect()
    };
    let (ev, de, full) = (
        &by_level["events"],
        &by_level["decisions"],
        &by_level["full"],
    );
    for (name, recs) in [("events", ev), ("decisions", de), ("full", full)] {
        assert!(recs
            .iter()
            .filter(|r| r["type"] == "start")
            .all(|r| r["level"] == name));
        assert_eq!(recs.iter().filter(|r| r["type"] == "end").count(), 2);
    }
    // Every level holds the same events, in the same order.
    assert_eq!(events(ev), events(full));
    assert_eq!(events(de), events(full));
    // Events: no choices, no card moves; a line only for steps with events.
    assert!(effects(ev).iter().all(|e| e[0] == "event"));
    assert!(steps(ev)
        .iter()
        .all(|s| s.get("c").is_none() && s.get("k").is_none()));
    assert!(steps(ev).len() < steps(full).len());
    // Decisions: every decision and the option chosen, no options, no moves.
    assert_eq!(steps(de).len(), steps(full).len());
    assert!(effects(de).iter().all(|e| e[0] == "event"));
    for (d, f) in steps(de).iter().zip(steps(full)) {
        assert_eq!(d["c"], f["c"]);
        assert!(d.get("oc").is_none() && d.get("o").is_none());
        let chosen = f["oc"][f["c"].as_u64().expect("c") as usize - 1].clone();
        assert_eq!(d["a"]["card"], chosen, "the option chosen");
    }
    // Full: the options, every move and the order of every shuffle.
    let kinds: Vec<String> = effects(full)
        .iter()
        .filter_map(|e| e[0].as_str().map(str::to_string))
        .collect();
    for k in ["move", "all", "deal", "shuffle", "sort"] {
        assert!(kinds.iter().any(|x| x == k), "no {k} in a full trace");
    }
}

#[test]
fn an_unknown_level_is_refused_with_the_levels_named() {
    let o = deckhand(&[
        "sim",
        "sea_change",
        "-n",
        "1",
        "--trace-level",
        "everything",
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("'everything': the trace levels are events, decisions, full"),
        "{err}"
    );
}

#[test]
fn a_seats_trace_holds_only_what_that_seat_may_know() {
    let dir = tempfile::tempdir().expect("tmp");
    let full_path = dir.path().join("full.jsonl");
    let seat_path = dir.path().join("seat1.jsonl");
    let args = ["-p", "2", "-n", "2", "--seed", "5"];
    sim_trace(&full_path, "sea_change", &args);
    let mut with_seat = args.to_vec();
    with_seat.extend(["--trace-seat", "1"]);
    sim_trace(&seat_path, "sea_change", &with_seat);
    let full = lines(&std::fs::read_to_string(&full_path).expect("full"));
    let mine = lines(&std::fs::read_to_string(&seat_path).expect("seat"));
    assert_eq!(full.len(), mine.len(), "the same lines");
    let (mut hidden, mut shown) = (0, 0);
    for (f, m) in full.iter().zip(&mine) {
        if m["type"] == "start" {
            assert_eq!(m["seat"], 1);
            assert_eq!(m["cards"], f["cards"], "what the cards are is no secret");
        }
        if m.get("s").is_some() {
            if m["p"] == 1 {
                assert_eq!((&m["c"], &m["oc"]), (&f["c"], &f["oc"]), "its own choices");
            } else {
                assert!(
                    m.get("c").is_none() && m.get("oc").is_none(),
                    "another's: {m}"
                );
            }
        }
        let Some(effects) = f["e"].as_array() else {
            continue;
        };
        // The seat's effects: the same, less the events told to the other
        // seat, with the cards it may not see as 0 and no hidden order.
        let theirs: Vec<&Value> = effects
            .iter()
            .filter(|e| !(e[0] == "event" && e.get(3).is_some_and(|to| to != 1)))
            .collect();
        let ours = m["e"].as_array().expect("effects");
        assert_eq!(theirs.len(), ours.len(), "{m}");
        for (t, o) in theirs.iter().zip(ours) {
            match t[0].as_str() {
                Some("shuffle") => assert!(o.get(2).is_none(), "the deck's order is hidden: {o}"),
                Some("move" | "draw" | "deal" | "place") => {
                    let at = if t[0] == "place" { 2 } else { 3 };
                    for (a, b) in ids(&t[at]).iter().zip(ids(&o[at])) {
                        if b == 0 {
                            hidden += 1;
                        } else {
                            assert_eq!(*a, b);
                            shown += 1;
                        }
                    }
                }
                _ => assert_eq!(*t, o),
            }
        }
    }
    assert!(hidden > 0 && shown > 0, "{hidden} hidden, {shown} shown");
}
