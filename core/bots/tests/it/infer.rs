//! Inference (`mc:N:infer`): guesses weighed by how likely the other
//! seats' moves were under a softened greedy bot. A toy game whose only
//! clue is the other seat's move shows it reading that clue, and plain
//! `mc` not reading it.

use crate::ismcts::{toy_engine, toy_game};
use deckhand_bots::{Bot, BotKind};
use deckhand_engine::Game;

/// Seat 2 is dealt one of six cards (values 1 to 6) face down; it says
/// "high" or "low" aloud, then seat 1 names a value and wins when it is
/// seat 2's card. The game's greedy bot tells the truth (high for 4 to 6),
/// so a seat that models seat 2 by it knows which half to name from.
const TELL: &str = r#"
local R = { id = "tell", title = "Tell", players = { min = 2, max = 2, default = 2 }, options = {} }
function R.setup(game)
  local deck = game:new_zone("deck", { visibility = "hidden" })
  for v = 1, 6 do game:place(game:new_card({ name = "Card " .. v, value = v }), deck) end
  game:shuffle(deck)
  local hand = game:new_zone("hand", { owner = 2, visibility = "owner" })
  game:move(deck[#deck], deck, hand)
end
function R.decision(game)
  local v = game.vars
  if v.winner then return nil end
  if not v.said then
    return { seat = 2, prompt = "Say", options = {
      { say = "low", text = "Low" }, { say = "high", text = "High" } } }
  end
  local options = {}
  for n = 1, 6 do options[n] = { value = n, text = "Card " .. n } end
  return { seat = 1, prompt = "Name seat 2's card", options = options }
end
function R.apply(game, seat, o)
  local v = game.vars
  if o.say then
    v.said = o.say
    return
  end
  local hand = game:zone("hand", 2)
  v.winner = game.cards[hand[1]].value == o.value and 1 or 2
end
R.bots = {
  greedy = function(view, d)
    local hand = view:zone("hand", view.seat)
    if hand and hand[1] then
      local high = view.cards[hand[1]].value >= 4
      for i, o in ipairs(d.options) do
        if o.say == (high and "high" or "low") then return i end
      end
    end
    return 1
  end,
}
"#;

/// The game of `seed` after seat 2 told the truth, and the half it told.
fn told(e: &deckhand_engine::Engine, seed: u64) -> (Game, bool) {
    let mut g = toy_game(e, "tell", seed);
    let card = g
        .view(Some(2))
        .expect("view")
        .zones
        .into_iter()
        .find(|z| z.name == "hand")
        .and_then(|z| z.cards)
        .and_then(|c| c.first().copied())
        .expect("seat 2's card");
    let high = card >= 4;
    g.apply(if high { 2 } else { 1 }).expect("say");
    (g, high)
}

/// How many of `seeds` games `bot` names a value in the half seat 2 told.
fn in_the_told_half(bot: &str, seeds: std::ops::Range<u64>) -> usize {
    let e = toy_engine("tell", TELL);
    seeds
        .filter(|&seed| {
            let (g, high) = told(&e, seed);
            let mut b = Bot::new(BotKind::parse(bot), seed, 1);
            let named = b.choose(&g).expect("choose").index;
            (named >= 4) == high
        })
        .count()
}

#[test]
fn inference_reads_what_the_other_seat_told() {
    // A slack of 0.05: the model trusts seat 2's greedy bot 19 times in
    // 20, so almost every guess it plays from is in the told half.
    let inferred = in_the_told_half("mc:60:infer=0.05", 0..40);
    assert!(
        inferred >= 36,
        "infer named in the told half {inferred} of 40"
    );
}

#[test]
fn plain_guesses_do_not_read_it() {
    // Every value is as likely to plain guesses: the half is a coin flip.
    let plain = in_the_told_half("mc:60", 0..40);
    assert!((8..=32).contains(&plain), "plain mc: {plain} of 40");
}

#[test]
fn inference_weighs_by_the_slack() {
    // With a slack of 1 the model plays at random: the move says nothing.
    let blind = in_the_told_half("mc:60:infer=1", 0..40);
    assert!((8..=32).contains(&blind), "infer=1: {blind} of 40");
}

#[test]
fn infer_names_read() {
    let kind = |n: &str| match BotKind::parse(n) {
        BotKind::Search { infer, .. } => infer,
        other => panic!("{n}: {other:?}"),
    };
    assert_eq!(kind("mc:60:infer"), Some(50));
    assert_eq!(kind("mc:60:infer=0.3"), Some(30));
    assert_eq!(kind("mc:60:greedy:infer:cut=4"), Some(50));
    assert_eq!(kind("mc:60"), None);
    let why = |n: &str| match BotKind::parse_search(n) {
        Some(Err(e)) => e,
        other => panic!("{n}: {other:?}"),
    };
    assert!(why("ismcts:60:infer").contains("does not weigh its guesses"));
    assert!(why("mc:60:infer=0").contains("slack is a number from 0.01 to 1"));
    assert!(why("mc:60:infer:infer").contains("infer given twice"));
    assert!(why("mc:60:infer:greedy").contains("too many parts"));
}

#[test]
fn the_weights_follow_the_tell() {
    // After seat 2's tell, a candidate in the told half weighs 39 times as
    // much as one in the other at a slack of 0.05 (0.95 + 0.05 / 2 against
    // 0.05 / 2), so the 24 candidates are worth fewer equal ones; at a
    // slack of 1 the move says nothing and they all weigh the same.
    use deckhand_bots::infer::Weighed;
    use deckhand_engine::rng::GameRng;
    let e = toy_engine("tell", TELL);
    let (g, _) = told(&e, 3);
    let guessing = g.guessing(1).expect("guessing");
    let weigh = |slack: f64| {
        Weighed::new(
            &g,
            1,
            &guessing,
            "greedy",
            slack,
            24,
            &mut GameRng::from_seed(5),
        )
        .expect("weigh")
        .expect("a move to read")
    };
    let blind = weigh(1.0).effective();
    assert!((blind - 24.0).abs() < 1e-9, "{blind}");
    let sharp = weigh(0.05).effective();
    assert!(sharp < 18.0, "{sharp}");
    // Before seat 2 has said anything there is nothing to read.
    let start = toy_game(&e, "tell", 4);
    let guessing = start.guessing(1).expect("guessing");
    let none = Weighed::new(
        &start,
        1,
        &guessing,
        "greedy",
        0.5,
        8,
        &mut GameRng::from_seed(1),
    );
    assert!(none.expect("weigh").is_none());
}

#[test]
fn a_log_that_does_not_replay_leaves_the_guesses_unweighed() {
    // The rules keep a count outside the game (a local of the script) and
    // pose a different first decision in every later game of the VM: the
    // log of seat 2's tell no longer replays, and the guesses weigh the
    // same instead of the bot's move failing.
    use deckhand_bots::infer::Weighed;
    use deckhand_engine::rng::GameRng;
    let counting = TELL.replacen(
        "function R.setup(game)",
        "local starts = 0\nfunction R.setup(game)\n  starts = starts + 1\n  game.vars.first = starts == 1",
        1,
    );
    let counting = counting.replacen(
        "  if not v.said then",
        "  if not v.said and not v.first then\n    return { seat = 2, prompt = \"Wait\", options = { { say = \"low\", text = \"Low\" } } }\n  end\n  if not v.said then",
        1,
    );
    let e = toy_engine("tell", &counting);
    let (g, _) = told(&e, 3);
    let guessing = g.guessing(1).expect("guessing");
    let weighed = Weighed::new(
        &g,
        1,
        &guessing,
        "greedy",
        0.05,
        8,
        &mut GameRng::from_seed(1),
    );
    assert!(weighed.expect("no error").is_none());
    // And the inferring bot still moves.
    let mut b = Bot::new(BotKind::parse("mc:20:infer"), 3, 1);
    assert!(b.choose(&g).is_ok());
}

#[test]
fn a_guess_the_rules_cannot_pose_counts_as_a_move_that_does_not_fit() {
    // Here the rules cannot pose seat 2's tell while it holds the 6 (they
    // raise an error, as a rule may for a hand with no legal move). The
    // real deal never gives seat 2 the 6, but guesses do: such a guess
    // fits the tell as an illegal move would, and the weighing goes on.
    use deckhand_bots::infer::Weighed;
    use deckhand_engine::rng::GameRng;
    use deckhand_engine::GameConfig;
    let strict = TELL.replacen(
        "  if not v.said then",
        "  local held = game.cards[game:zone(\"hand\", 2)[1]].value\n  \
         if held == 6 then error(\"seat 2 cannot hold the 6\") end\n  if not v.said then",
        1,
    );
    let e = toy_engine("tell", &strict);
    let seed = (1..50)
        .find(|&s| e.new_game(GameConfig::new("tell", 2, s), true).is_ok())
        .expect("a deal without the 6 in seat 2's hand");
    let (g, _) = told(&e, seed);
    let guessing = g.guessing(1).expect("guessing");
    let weighed = Weighed::new(
        &g,
        1,
        &guessing,
        "greedy",
        0.05,
        24,
        &mut GameRng::from_seed(1),
    )
    .expect("the weighing goes on")
    .expect("a move to read");
    assert!(weighed.effective() < 24.0, "{}", weighed.effective());
}
