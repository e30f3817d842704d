//! The measuring bot `seeall`: `mc` whose playouts start from every hand
//! as it is (only the cards no seat knows, a deck's order, are guessed).
//! It finds what a hidden hand holds where `mc` can only guess, it does
//! not foresee the deck, and it repeats itself for a seed.

use crate::ismcts::{games_engine, sea_change_position, toy_engine, toy_game};
use deckhand_bots::search::{self, Guesses, OptionStats, Settings};
use deckhand_bots::{Bot, BotKind};
use deckhand_engine::rng::GameRng;
use deckhand_engine::Game;

/// Seat 2 is dealt one of six cards (values 1 to 6) face down from a
/// hidden deck; seat 1 names a value, of seat 2's card ("Hand v") or of
/// the deck's top card ("Deck v"), and wins when it is right. Only seat 2
/// knows its card; nobody knows the deck's order.
const PEEK: &str = r#"
local R = { id = "peek", title = "Peek", players = { min = 2, max = 2, default = 2 }, options = {} }
function R.setup(game)
  local deck = game:new_zone("deck", { visibility = "hidden" })
  for v = 1, 6 do game:place(game:new_card({ name = "Card " .. v, value = v }), deck) end
  game:shuffle(deck)
  local hand = game:new_zone("hand", { owner = 2, visibility = "owner" })
  game:move(deck[#deck], deck, hand)
end
function R.decision(game)
  if game.vars.winner then return nil end
  local options = {}
  for v = 1, 6 do
    options[#options + 1] = { zone = "hand", value = v, text = "Hand " .. v }
    options[#options + 1] = { zone = "deck", value = v, text = "Deck " .. v }
  end
  return { seat = 1, prompt = "Name a card", options = options }
end
function R.apply(game, seat, o)
  local z = o.zone == "hand" and game:zone("hand", 2) or game:zone("deck")
  game.vars.winner = game.cards[z[#z]].value == o.value and 1 or 2
end
"#;

/// The value of the top card of zone `name` (of seat `owner`) in `g`: the
/// cards were made in the order of their values, so a card's id is its
/// value.
fn top(g: &Game, name: &str, owner: Option<u32>) -> usize {
    g.view(None)
        .expect("view")
        .zones
        .into_iter()
        .find(|z| z.name == name && z.owner == owner)
        .and_then(|z| z.cards)
        .and_then(|c| c.last().copied())
        .expect("a card") as usize
}

/// The option "Hand v" or "Deck v" (1-based) among the twelve.
fn option(zone: &str, v: usize) -> usize {
    2 * v - usize::from(zone == "hand")
}

fn stats(g: &Game, seed: u64, guesses: Guesses) -> Vec<OptionStats> {
    search::analyse_from(
        g,
        &mut GameRng::from_seed(seed),
        480u32,
        None,
        None,
        Settings {
            guesses,
            ..Settings::default()
        },
    )
    .expect("analyse")
}

#[test]
fn seeall_knows_a_hidden_hand_where_mc_guesses() {
    let e = toy_engine("peek", PEEK);
    let mut mc_right = 0;
    for seed in 0..12 {
        let g = toy_game(&e, "peek", seed);
        let (hand, deck) = (top(&g, "hand", Some(2)), top(&g, "deck", None));
        let mean = |s: &[OptionStats], o: usize| s[o - 1].mean;
        // Seeing seat 2's card, every playout of the right name wins.
        let all = stats(&g, seed, Guesses::EveryHand);
        assert_eq!(mean(&all, option("hand", hand)), 1.0, "seed {seed}");
        let seeall = Bot::new(BotKind::parse("seeall:480"), seed, 1)
            .choose(&g)
            .expect("seeall");
        assert_eq!(seeall.index, option("hand", hand), "seed {seed}");
        // It does not foresee the deck: its order is guessed (in its first
        // round every option plays the same ten deals, and the top card of
        // five shuffled cards is the real one about one deal in five).
        assert!(
            mean(&all, option("deck", deck)) < 0.9,
            "seed {seed}: {all:?}"
        );
        // mc guesses seat 2's card among the six it cannot place.
        let own = stats(&g, seed, Guesses::OwnView);
        assert!(
            mean(&own, option("hand", hand)) < 0.9,
            "seed {seed}: {own:?}"
        );
        let mc = Bot::new(BotKind::parse("mc:480"), seed, 1)
            .choose(&g)
            .expect("mc");
        mc_right += usize::from(mc.index == option("hand", hand));
    }
    // Right about one time in twelve by chance; never every time.
    assert!(
        mc_right < 6,
        "mc named seat 2's card {mc_right} times in 12"
    );
}

#[test]
fn seeall_repeats_itself_for_a_seed_and_a_playout_count() {
    let e = games_engine();
    for seed in 1..=3 {
        let g = sea_change_position(&e, seed);
        let (seat, _) = g.pending().expect("a decision");
        let all = |s: u64| {
            search::analyse_from(
                &g,
                &mut GameRng::from_seed(s),
                60u32,
                None,
                None,
                Settings {
                    guesses: Guesses::EveryHand,
                    ..Settings::default()
                },
            )
            .expect("analyse")
        };
        assert_eq!(all(seed), all(seed), "seed {seed}");
        let pick = |g: &Game| {
            Bot::new(BotKind::parse("seeall:60"), seed, seat)
                .choose(g)
                .expect("seeall")
        };
        assert_eq!(pick(&g), pick(&g), "seed {seed}: the same move");
    }
}

#[test]
fn seeall_is_a_search_bot_named_like_mc() {
    for name in ["seeall", "seeall:200", "seeall:1s", "seeall:200:greedy"] {
        let k = BotKind::parse(name);
        assert!(k.sees_every_hand(), "{name}: {k:?}");
        assert_eq!(k.name(), name);
    }
    for name in ["mc:200", "ismcts", "greedy", "random", "seeall:x"] {
        assert!(!BotKind::parse(name).sees_every_hand(), "{name}");
    }
    assert!(deckhand_bots::bot::listed_name("seeall:200")
        .ends_with("(sees every hand: for measurement only)"));
    assert_eq!(deckhand_bots::bot::listed_name("mc:200"), "mc:200");
}

#[test]
fn seeing_every_hand_a_guess_keeps_the_real_hands_of_a_shipped_game() {
    // In 4-player Sea Change a few tricks in, a guess that sees every hand
    // deals every hand as it is (only the deck, which no seat sees, is
    // dealt again); a seat's own guess deals the other hands anew.
    let e = games_engine();
    for seed in 1..=3 {
        let g = sea_change_position(&e, seed);
        let (seat, _) = g.pending().expect("a decision");
        let hands = |g: &Game| {
            g.view(None)
                .expect("view")
                .zones
                .into_iter()
                .filter(|z| z.name == "hand")
                .map(|z| z.cards)
                .collect::<Vec<_>>()
        };
        let real = hands(&g);
        assert_eq!(real.len(), 4);
        let all = g.guessing_every_seat().expect("guessing");
        let own = g.guessing(seat).expect("guessing");
        let (mut a, mut b) = (None, None);
        let mut differs = false;
        for guess in 0..5 {
            let mut rng = GameRng::from_seed(guess);
            let f = g
                .determinized_into(seat, &mut rng, &all, &mut a)
                .expect("guess");
            assert_eq!(hands(f), real, "seed {seed}, guess {guess}");
            let mut rng = GameRng::from_seed(guess);
            let f = g
                .determinized_into(seat, &mut rng, &own, &mut b)
                .expect("guess");
            differs |= hands(f) != real;
        }
        assert!(differs, "seed {seed}: the seat's own guesses differ");
    }
}
