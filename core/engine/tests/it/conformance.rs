//! The conformance suite on the toy game (tests/fixtures/high_card): the
//! game as written passes, and each check fails when a variant breaks what
//! it checks, with the game, variants, players, seed and step.

use deckhand_engine::conformance::{variant_sets, Checks, Suite};
use deckhand_engine::{Engine, GameConfig, MemorySource, ScriptLibrary};
use std::collections::BTreeMap;
use std::sync::Arc;

const HIGH_CARD: &str = include_str!("../../../../tests/fixtures/high_card/game.lua");

/// A variant of high card that replaces `apply` with `body`, run before the
/// game's own apply (`seat`, `action` and `game` in scope).
fn before_apply(id: &str, body: &str) -> String {
    format!(
        "return {{ id = \"{id}\", game = \"high_card\", modify = function(R)\n\
         local apply = R.apply\n\
         R.apply = function(game, seat, action)\n\
         {body}\n\
         return apply(game, seat, action)\n\
         end\n\
         end }}\n"
    )
}

fn engine() -> Engine {
    let mut files = BTreeMap::new();
    files.insert("high_card/game.lua".to_string(), HIGH_CARD.to_string());
    let mut add = |id: &str, text: String| {
        files.insert(format!("high_card/variants/{id}.lua"), text);
    };
    // An event for everyone naming the next seat's first card.
    add(
        "leak_event",
        before_apply(
            "leak_event",
            "game:event(\"peek\", { card = game:zone(\"hand\", game:next_seat(seat))[1] })",
        ),
    );
    // An event private to the next seat naming this seat's first card.
    add(
        "leak_private",
        before_apply(
            "leak_private",
            "local mine = game:zone(\"hand\", seat)\n\
             if #mine > 1 then game:event(\"peek\", { to = game:next_seat(seat), \
             card = mine[#mine] == action.card and mine[1] or mine[#mine] }) end",
        ),
    );
    // The same event, said to be a reveal on purpose: allowed.
    add(
        "shown_on_purpose",
        before_apply(
            "shown_on_purpose",
            "game:event(\"peek\", { card = game:zone(\"hand\", game:next_seat(seat))[1], \
             reveal = true })",
        ),
    );
    // The public variables name a card in a hand.
    add(
        "leak_vars",
        before_apply(
            "leak_vars",
            "game.vars.peek = { card = game:zone(\"hand\", game:next_seat(seat))[1] }",
        ),
    );
    // Options that name a card of another hand.
    add(
        "leak_option",
        r#"return { id = "leak_option", game = "high_card", modify = function(R)
  local decision = R.decision
  R.decision = function(game)
    local d = decision(game)
    if d == nil then return nil end
    local other = game:zone("hand", game:next_seat(d.seat))
    if #other > 0 then d.options[1].card_seen = { card = other[1] } end
    return d
  end
end }"#
            .to_string(),
    );
    // The card played goes face down (into the hidden deck), but the option,
    // shown to everyone once chosen, names it.
    let face_down = |id: &str, secret: &str| {
        format!(
            r#"return {{ id = "{id}", game = "high_card", modify = function(R)
  local decision = R.decision
  R.decision = function(game)
    local d = decision(game)
    if d == nil then return nil end
    for _, o in ipairs(d.options) do o.secret = {secret} end
    return d
  end
  R.apply = function(game, seat, action)
    game.vars.steps = game.vars.steps + 1
    game:move(action.card, game:zone("hand", seat), game:zone("deck"))
    game.vars.turn = game:next_seat(seat)
  end
end }}"#
        )
    };
    add("face_down_shown", face_down("face_down_shown", "nil"));
    add(
        "face_down_named",
        face_down(
            "face_down_named",
            "\"puts \" .. game.cards[o.card].name .. \" face down\"",
        ),
    );
    add(
        "face_down_secret",
        face_down("face_down_secret", "\"puts a card face down\""),
    );
    // A card edited out of a hand behind the core's back.
    add(
        "lose_card",
        before_apply(
            "lose_card",
            "if game.vars.steps == 0 then table.remove(game:zone(\"hand\", game:next_seat(seat))) end",
        ),
    );
    // A card made and never placed.
    add(
        "unplaced_card",
        before_apply(
            "unplaced_card",
            "if game.vars.steps == 0 then game:new_card({ name = \"ghost\" }) end",
        ),
    );
    // Play changes with the number of games this VM has started.
    add(
        "nondeterministic",
        r#"local started = 0
return { id = "nondeterministic", game = "high_card", modify = function(R)
  local setup = R.setup
  R.setup = function(game)
    setup(game)
    started = started + 1
    if started % 2 == 0 then game:shuffle(game:zone("hand", 1)) game.vars.odd = true end
  end
end }"#
            .to_string(),
    );
    // Its own invariants: the steps never reach 3 (false), or a message.
    let invariants = |id: &str, answer: &str| {
        format!(
            "return {{ id = \"{id}\", game = \"high_card\", modify = function(R)\n\
             R.invariants = function(game)\n\
             if game.vars.steps >= 3 then {answer} end\n\
             return true\n\
             end\n\
             end }}\n"
        )
    };
    add(
        "invariant_message",
        invariants("invariant_message", "return \"three steps is too many\""),
    );
    add(
        "invariant_false",
        invariants("invariant_false", "return false"),
    );
    add(
        "invariant_raises",
        invariants("invariant_raises", "error(\"it broke\")"),
    );
    // may_hold rules out what a seat holds: every seat "has shown" it
    // holds no card above 6.
    add(
        "may_hold_lies",
        r#"return { id = "may_hold_lies", game = "high_card", modify = function(R)
  R.may_hold = function(game, seat, card) return game.cards[card].value <= 6 end
end }"#
            .to_string(),
    );
    // may_hold that tells the truth, and pins every card: a seat may hold
    // only the cards it holds or the deck's.
    add(
        "may_hold_true",
        r#"return { id = "may_hold_true", game = "high_card", modify = function(R)
  R.may_hold = function(game, seat, card)
    for s = 1, game.seats do
      if s ~= seat then
        for _, c in ipairs(game:zone("hand", s)) do if c == card then return false end end
      end
    end
    return true
  end
end }"#
            .to_string(),
    );
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(MemorySource::new("test", files)));
    Engine::new(Arc::new(lib)).expect("engine")
}

fn config(variant: &str, players: u32, seed: u64) -> GameConfig {
    let c = GameConfig::new("high_card", players, seed);
    if variant.is_empty() {
        c
    } else {
        c.variant(variant)
    }
}

/// The failure of `variant` (3 players, seed 5), as text.
fn failure(e: &Engine, variant: &str) -> String {
    let suite = Suite::new(e).expect("suite");
    match suite.check(&config(variant, 3, 5)) {
        Ok(r) => panic!("{variant}: passed ({} steps)", r.steps),
        Err(f) => f.to_string(),
    }
}

#[test]
fn the_toy_game_as_written_passes_every_check() {
    let e = engine();
    let suite = Suite::new(&e).expect("suite");
    for players in 2..=4 {
        for seed in 1..=3 {
            let r = suite.check(&config("", players, seed)).expect("conforms");
            assert_eq!(r.steps, 3 * players as usize);
        }
    }
}

#[test]
fn a_failure_names_game_variants_players_seed_and_step() {
    let e = engine();
    let t = failure(&e, "leak_event");
    assert!(
        t.starts_with("high_card [leak_event] with 3 players, seed 5, step 1: secrecy: "),
        "{t}"
    );
    assert!(t.contains("is told of card"), "{t}");
}

#[test]
fn secrecy_catches_leaks_in_events_options_variables_and_chosen_texts() {
    let e = engine();
    for (variant, says) in [
        ("leak_event", "is told of card"),
        ("leak_private", "is told of card"),
        ("leak_option", "offered to seat"),
        ("leak_vars", "the script variables (public) name card"),
        ("face_down_shown", "make the option secret"),
        ("face_down_named", "the secret choice of seat"),
    ] {
        let t = failure(&e, variant);
        assert!(
            t.contains("secrecy: ") && t.contains(says),
            "{variant}: {t}"
        );
    }
    // A card shown on purpose, or a secret choice that names no card, passes.
    let suite = Suite::new(&e).expect("suite");
    for variant in ["shown_on_purpose", "face_down_secret"] {
        suite
            .check(&config(variant, 3, 5))
            .unwrap_or_else(|f| panic!("{variant}: {f}"));
    }
}

#[test]
fn a_lost_or_unplaced_card_is_caught_at_its_step() {
    let e = engine();
    let t = failure(&e, "lose_card");
    assert!(
        t.contains(", step 1: ") && t.contains("changed without the core"),
        "{t}"
    );
    let t = failure(&e, "unplaced_card");
    assert!(t.contains(", step 1: ") && t.contains("ghost"), "{t}");
}

#[test]
fn the_rules_own_invariants_are_asked_after_every_step() {
    let e = engine();
    let t = failure(&e, "invariant_message");
    assert!(
        t.contains(", step 3: rules.invariants: three steps is too many"),
        "{t}"
    );
    let t = failure(&e, "invariant_false");
    assert!(
        t.contains(", step 3: rules.invariants: rules.invariants returned false"),
        "{t}"
    );
    let t = failure(&e, "invariant_raises");
    assert!(
        t.contains(", step 3: ") && t.contains("invariant_raises.lua:3") && t.contains("it broke"),
        "{t}"
    );
}

#[test]
fn a_game_that_plays_differently_in_another_engine_fails_determinism() {
    let e = engine();
    let t = failure(&e, "nondeterministic");
    assert!(t.contains(": determinism: "), "{t}");
    // Without the determinism check, the replay of the log in the same
    // engine (another game started) catches it.
    let suite = Suite::new(&e).expect("suite").with_checks(Checks {
        determinism: false,
        ..Checks::default()
    });
    let t = suite
        .check(&config("nondeterministic", 3, 5))
        .expect_err("fails")
        .to_string();
    assert!(t.contains("replay of the log"), "{t}");
}

#[test]
fn guesses_must_agree_with_what_the_rules_say_a_seat_may_hold() {
    let e = engine();
    let t = failure(&e, "may_hold_lies");
    assert!(
        t.contains("guesses: rules.may_hold says seat") && t.contains("which it holds"),
        "{t}"
    );
    let suite = Suite::new(&e).expect("suite").with_checks(Checks {
        guesses_every: 1,
        ..Checks::default()
    });
    suite
        .check(&config("may_hold_true", 3, 5))
        .unwrap_or_else(|f| panic!("{f}"));
}

#[test]
fn variant_sets_are_every_subset_the_rules_accept() {
    let mut files = BTreeMap::new();
    files.insert("high_card/game.lua".to_string(), HIGH_CARD.to_string());
    files.insert(
        "high_card/variants/a_duel.lua".to_string(),
        "return { id = 'a_duel', game = 'high_card', players = { min = 2, max = 2 }, provides = { 'duel' }, \
         modify = function(R) R.duel = true end }"
            .to_string(),
    );
    files.insert(
        "high_card/variants/b_crowd.lua".to_string(),
        "return { id = 'b_crowd', game = 'high_card', modify = function(R) \
         if R.duel then error('not with a_duel') end end }"
            .to_string(),
    );
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(MemorySource::new("test", files)));
    let e = Engine::new(Arc::new(lib)).expect("engine");
    let sets: Vec<(Vec<String>, (u32, u32))> = variant_sets(&e, "high_card")
        .expect("sets")
        .into_iter()
        .map(|(s, r)| (s, (r.min, r.max)))
        .collect();
    let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        sets,
        vec![
            (v(&[]), (2, 4)),
            (v(&["a_duel"]), (2, 2)),
            (v(&["b_crowd"]), (2, 4)),
        ]
    );
}
